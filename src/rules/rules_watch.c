/*
 * SPDX-License-Identifier: Apache-2.0
 * rules_watch.c - which attributes a rule watches (see rules.h): a rule's
 * watches are PCRE2 patterns over the resource type and the printed
 * attribute path, per notation.  Patterns are held once per rule set and
 * compiled on first use; every match runs under the rule set's limits.
 */
#include "common.h"
#include "rules.h"

#include "rules_internal.h"

pcre2_code *ndp_rules_pattern_compile(const struct pattern *p, int *code,
                                      PCRE2_SIZE *offset)
{
    /* No JIT: paths are short, JIT compilation would dominate start-up,
     * and JIT code cannot be checked by valgrind. */
    return pcre2_compile((PCRE2_SPTR)p->src, PCRE2_ZERO_TERMINATED,
                         p->caseless ? PCRE2_CASELESS : 0, code, offset,
                         NULL);
}

/*
 * The compiled pattern 'index', compiling it on first use.  Image patterns
 * were compiled when the image was built, so failing here is a bug.
 */
static const pcre2_code *pattern_code(struct ndp_ruleset *rs, size_t index)
{
    struct pattern *p = &rs->patterns[index];
    int code;
    PCRE2_SIZE offset;

    if (!p->code)
        p->code = ndp_rules_pattern_compile(p, &code, &offset);
    if (!p->code)
        NDP_BUG("a built-in rule pattern does not compile");
    return p->code;
}

/* Match limits keep a hostile path from making a pattern run for long. */
static bool regex_matches(const struct rule_impl *r, size_t pattern,
                          const char *subject)
{
    return pcre2_match(pattern_code(r->set, pattern), (PCRE2_SPTR)subject,
                       PCRE2_ZERO_TERMINATED, 0, 0, r->set->match_data,
                       r->set->match_ctx) >= 0;
}

uint32_t ndp_rule_type_watches(const struct ndp_rule *rule,
                               enum ndp_notation notation, const char *type)
{
    const struct rule_impl *r = rule_impl_of(rule);
    uint32_t set = 0;
    size_t i;

    for (i = 0; i < r->nr_watches; i++)
        if (r->watches[i].notation == notation &&
            regex_matches(r, r->watches[i].type_pattern, type))
            set |= (uint32_t)1 << i;
    return set;
}

bool ndp_rule_watches_path_in(const struct ndp_rule *rule, uint32_t watches,
                              const char *path)
{
    const struct rule_impl *r = rule_impl_of(rule);
    size_t i;

    for (i = 0; i < r->nr_watches; i++)
        if ((watches & ((uint32_t)1 << i)) &&
            regex_matches(r, r->watches[i].path_pattern, path))
            return true;
    return false;
}

bool ndp_rule_watches_path(const struct ndp_rule *rule,
                           enum ndp_notation notation, const char *type,
                           const char *path)
{
    const struct rule_impl *r = rule_impl_of(rule);
    size_t i;

    for (i = 0; i < r->nr_watches; i++)
        if (r->watches[i].notation == notation &&
            regex_matches(r, r->watches[i].type_pattern, type) &&
            regex_matches(r, r->watches[i].path_pattern, path))
            return true;
    return false;
}

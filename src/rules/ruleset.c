/*
 * SPDX-License-Identifier: Apache-2.0
 * ruleset.c - the rule set itself (see rules.h): creating and freeing it,
 * finding a rule in it, and the names of scopes, classes and pools.  The rule
 * set owns everything in it: rules, patterns and their compiled code, the
 * parsed rule files that rule strings point into, and the PCRE2 match
 * context and data that every match reuses.
 */
#include "common.h"
#include "rules.h"

#include "rules_internal.h"

#include <json-c/json.h>

#define NDP_PCRE2_MATCH_LIMIT 100000
#define NDP_PCRE2_DEPTH_LIMIT 1000

const char *const ndp_rule_scope_names[] = { "cluster", "nodepool", NULL };
const char *const ndp_rule_class_names[] = { "covered", "version-gated",
                                             "upgrade", "meta", "rotate",
                                             "check", NULL };
const char *const ndp_rule_pools_names[] = { "scope", "windows", NULL };

struct ndp_ruleset *ndp_ruleset_new(void)
{
    struct ndp_ruleset *rs = ndp_xcalloc(1, sizeof(*rs));

    rs->match_ctx = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(rs->match_ctx, NDP_PCRE2_MATCH_LIMIT);
    pcre2_set_depth_limit(rs->match_ctx, NDP_PCRE2_DEPTH_LIMIT);
    rs->match_data = pcre2_match_data_create(4, NULL);
    return rs;
}

void ndp_ruleset_free(struct ndp_ruleset *rs)
{
    size_t i;

    if (!rs)
        return;
    for (i = 0; i < rs->nr; i++) {
        json_object_put(rs->rules[i]->logic_root);
        free(rs->rules[i]->watches);
        free(rs->rules[i]);
    }
    free(rs->rules);
    for (i = 0; i < rs->nr_patterns; i++) {
        pcre2_code_free(rs->patterns[i].code);
        ndp_simple_free(rs->patterns[i].simple);
    }
    free(rs->patterns);
    for (i = 0; i < rs->nr_files; i++) {
        json_object_put(rs->files[i]);
        free(rs->file_names[i]);
    }
    free(rs->files);
    free(rs->file_names);
    pcre2_match_data_free(rs->match_data);
    pcre2_match_context_free(rs->match_ctx);
    free(rs);
}

size_t ndp_ruleset_count(const struct ndp_ruleset *rs)
{
    return rs->nr;
}

const struct ndp_rule *ndp_ruleset_get(const struct ndp_ruleset *rs, size_t i)
{
    return i < rs->nr ? &rs->rules[i]->pub : NULL;
}

const struct ndp_rule *ndp_ruleset_find(const struct ndp_ruleset *rs,
                                        const char *id)
{
    size_t i;

    for (i = 0; i < rs->nr; i++)
        if (ndp_strcasecmp(rs->rules[i]->pub.id, id) == 0)
            return &rs->rules[i]->pub;
    return NULL;
}

const struct ndp_rule *ndp_ruleset_meta(const struct ndp_ruleset *rs,
                                        const char *category)
{
    size_t i;

    for (i = 0; i < rs->nr; i++)
        if (rs->rules[i]->pub.class_ == NDP_CLASS_META &&
            strcmp(rs->rules[i]->pub.category, category) == 0)
            return &rs->rules[i]->pub;
    return NULL;
}

const char *ndp_scope_name(enum ndp_scope scope)
{
    return ndp_rule_scope_names[scope];
}

const char *ndp_class_name(enum ndp_rule_class class_)
{
    return ndp_rule_class_names[class_];
}

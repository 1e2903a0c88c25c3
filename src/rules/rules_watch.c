/*
 * SPDX-License-Identifier: Apache-2.0
 * rules_watch.c - which attributes a rule watches (see rules.h): a rule's
 * watches are PCRE2 patterns over the resource type and the printed
 * attribute path, per notation.  Patterns are held once per rule set; a
 * literal prefix rules most subjects out, a simple pattern is matched
 * without PCRE2 (rules_simple.c), and the others are compiled on first
 * use; every PCRE2 match runs under the rule set's limits.
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

/* Letters and digits start PCRE2's escape sequences (\d, \x41, \Q). */
static bool is_ascii_alnum(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z');
}

/* Does a '|' stand outside every group of 're' (alternatives of it all)? */
static bool has_top_level_alternation(const char *re)
{
    int depth = 0;
    const char *q = re;

    while (*q) {
        if (*q == '\\' && q[1]) {
            q += 2;
            continue;
        }
        if (*q == '[') {
            /* A class: ']' first (after an optional '^') is literal. */
            q++;
            if (*q == '^')
                q++;
            if (*q == ']')
                q++;
            while (*q && *q != ']')
                q += *q == '\\' && q[1] ? 2 : 1;
            if (*q)
                q++;
            continue;
        }
        if (*q == '(')
            depth++;
        else if (*q == ')' && depth > 0)
            depth--;
        else if (*q == '|' && depth == 0)
            return true;
        q++;
    }
    return false;
}

size_t ndp_rules_literal_prefix(const char *re, char *out, size_t cap,
                                bool *whole)
{
    const char *q = re + 1;
    size_t n = 0;

    *whole = false;
    if (cap)
        out[0] = '\0';
    if (!cap || re[0] != '^' || has_top_level_alternation(re))
        return 0;
    while (*q && n + 1 < cap) {
        char c;

        if (*q == '\\') {
            /* \d, \w, \Q, \x41 ...: not one plain character. */
            if (!q[1] || is_ascii_alnum(q[1]))
                break;
            c = q[1];
            q += 2;
        } else if (strchr("^$.|?*+()[]{}", *q)) {
            break;
        } else {
            c = *q++;
        }
        if (*q == '?' || *q == '*' || *q == '+' || *q == '{')
            break; /* the character may be absent or repeated */
        out[n++] = c;
    }
    out[n] = '\0';
    *whole = q[0] == '$' && q[1] == '\0';
    return n;
}

/* The prefix as a caseless pattern can use it: ASCII only. */
static void caseless_prefix(struct pattern *p)
{
    size_t i;

    for (i = 0; i < p->prefix_len; i++) {
        if ((unsigned char)p->prefix[i] >= 0x80) {
            p->prefix_len = i;
            p->prefix[i] = '\0';
            p->whole = false;
            return;
        }
    }
}

static char ascii_lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c;
}

/*
 * The first 8 bytes of 's' at most (zeros after its end) as one number,
 * as written and in ASCII lower case: a pattern's head is compared with
 * them before anything else.
 */
static void head_of(const char *s, size_t max, uint64_t *plain,
                    uint64_t *folded)
{
    unsigned char b[8] = { 0 }, f[8] = { 0 };
    size_t i;

    for (i = 0; i < max && i < 8 && s[i]; i++) {
        b[i] = (unsigned char)s[i];
        f[i] = (unsigned char)ascii_lower(s[i]);
    }
    memcpy(plain, b, 8);
    memcpy(folded, f, 8);
}

static void find_prefix(struct pattern *p)
{
    unsigned char mask[8] = { 0 };
    uint64_t plain, folded;
    size_t i;

    p->prefix_len = ndp_rules_literal_prefix(p->src, p->prefix,
                                             sizeof(p->prefix), &p->whole);
    if (p->caseless)
        caseless_prefix(p);
    head_of(p->prefix, p->prefix_len, &plain, &folded);
    p->head = p->caseless ? folded : plain;
    for (i = 0; i < p->prefix_len && i < 8; i++)
        mask[i] = 0xff;
    memcpy(&p->head_mask, mask, 8);
    p->prefix_known = true;
}

/* Does 'subject' begin with the pattern's prefix (ASCII case folded for a
 * caseless pattern, as PCRE2 folds it)? */
static bool has_prefix(const struct pattern *p, const char *subject)
{
    size_t i;

    if (!p->caseless)
        return strncmp(subject, p->prefix, p->prefix_len) == 0;
    for (i = 0; i < p->prefix_len; i++)
        if (!subject[i] || ascii_lower(subject[i]) != ascii_lower(p->prefix[i]))
            return false;
    return true;
}

/*
 * Only line-end bytes after the whole literal: whether '$' matches before
 * them is PCRE2's to say (its newline convention).
 */
static bool only_line_ends(const char *rest)
{
    return rest[0] && strspn(rest, "\r\n") == strlen(rest);
}

bool ndp_rules_pattern_matches(struct ndp_ruleset *rs, size_t index,
                               const char *subject)
{
    struct pattern *p = &rs->patterns[index];
    int code, simple;
    PCRE2_SIZE offset;

    if (!p->prefix_known)
        find_prefix(p);
    if (!has_prefix(p, subject))
        return false;
    /* A subject got past the prefix: the simple form, if there is one. */
    if (!p->simple_known) {
        p->simple = ndp_simple_compile(p->src, p->caseless);
        p->simple_known = true;
    }
    if (p->simple && (simple = ndp_simple_match(p->simple, subject)) >= 0)
        return simple;
    /* '^literal$': the subject is the literal, or PCRE2 decides. */
    if (p->whole && !subject[p->prefix_len])
        return true;
    if (p->whole && !only_line_ends(subject + p->prefix_len))
        return false;
    if (!p->code)
        p->code = ndp_rules_pattern_compile(p, &code, &offset);
    if (!p->code)
        NDP_BUG("a built-in rule pattern does not compile");
    /* Match limits keep a hostile path from making a pattern run long. */
    return pcre2_match(p->code, (PCRE2_SPTR)subject, PCRE2_ZERO_TERMINATED,
                       0, 0, rs->match_data, rs->match_ctx) >= 0;
}

/*
 * A subject without the pattern's literal prefix cannot match, and a
 * pattern that is one literal needs no PCRE2, so most patterns never
 * compile (ndp_rules_pattern_matches()).
 */
static bool regex_matches(const struct rule_impl *r, size_t pattern,
                          const char *subject)
{
    return ndp_rules_pattern_matches(r->set, pattern, subject);
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

void ndp_path_subject(struct ndp_path_subject *s, const char *path)
{
    s->path = path;
    head_of(path, 8, &s->head, &s->folded_head);
}

/*
 * Called for every attribute of a change and every rule of its type: the
 * first bytes of each watched pattern's prefix rule most out at once.
 */
bool ndp_rule_watches_subject(const struct ndp_rule *rule, uint32_t watches,
                              const struct ndp_path_subject *s)
{
    const struct rule_impl *r = rule_impl_of(rule);
    uint32_t left;

    /* Only the watches in the set (a rule has at most 32). */
    for (left = watches; left; left &= left - 1) {
        unsigned i = (unsigned)__builtin_ctz(left);
        struct pattern *p;

        if (i >= r->nr_watches)
            break;
        p = &r->set->patterns[r->watches[i].path_pattern];
        if (!p->prefix_known)
            find_prefix(p);
        if (((p->caseless ? s->folded_head : s->head) & p->head_mask) ==
                p->head &&
            regex_matches(r, r->watches[i].path_pattern, s->path))
            return true;
    }
    return false;
}

bool ndp_rule_watches_path_in(const struct ndp_rule *rule, uint32_t watches,
                              const char *path)
{
    struct ndp_path_subject s;

    ndp_path_subject(&s, path);
    return ndp_rule_watches_subject(rule, watches, &s);
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

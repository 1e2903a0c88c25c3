/*
 * SPDX-License-Identifier: Apache-2.0
 * rules_internal.h - the rule set's insides, shared by the files of
 * src/rules/ and included by nothing else:
 *
 *   ruleset.c         the set itself: new, free, lookups, names
 *   rules_load.c      rule files read, parsed and checked (the grammar)
 *   rules_image.c     the compiled rule image: written by ndplint-rulec,
 *                     read back into a set, a rule's JSON parsed on demand
 *   rules_watch.c     which types and paths a rule watches (PCRE2)
 *   rules_match.c     whether a watched value's change reimages
 *   rules_describe.c  a rule in plain words (--explain)
 *
 * (rulec.c, the build-time rule compiler, needs only rules.h.)
 *
 * Ownership: the rule set owns its rules, their patterns and compiled
 * code, the parsed rule files, and its PCRE2 match context and data.  A
 * rule's strings and JSON parts point into the set's parsed files (or into
 * the image and the JSON parsed from it) and live as long as the set.
 */
#ifndef NDP_RULES_INTERNAL_H
#define NDP_RULES_INTERNAL_H

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "rules.h"

/* A pattern as written, and its compiled code once it has been needed. */
struct pattern {
    const char *src;
    bool caseless;
    pcre2_code *code;
};

struct watch {
    enum ndp_notation notation;
    size_t type_pattern; /* indexes into the rule set's patterns */
    size_t path_pattern;
};

struct rule_impl {
    struct ndp_rule pub; /* first: a struct ndp_rule * is a struct rule_impl * */
    struct watch *watches;
    size_t nr_watches, alloc_watches;
    bool any_change;
    bool ignore_case;
    bool unordered;
    /*
     * The JSON parts of the rule.  A rule from the built-in image carries
     * them as text ('logic_text') and parses them on first use.
     */
    const char *logic_text;
    struct json_object *logic_root;
    struct json_object *transitions;
    struct json_object *default_value;
    struct json_object *unset_values;
    struct json_object *ignore_keys;
    struct ndp_ruleset *set; /* owner: patterns, PCRE2 match context */
};

struct ndp_ruleset {
    struct rule_impl **rules;
    size_t nr, alloc;
    struct pattern *patterns;
    size_t nr_patterns, alloc_patterns;
    struct json_object **files;
    char **file_names;
    size_t nr_files, alloc_files, alloc_names;
    pcre2_match_context *match_ctx;
    pcre2_match_data *match_data;
};

/* Names of enum ndp_scope and enum ndp_rule_class, NULL-terminated. */
extern const char *const ndp_rule_scope_names[];
extern const char *const ndp_rule_class_names[];

/* The implementation behind a rule of the set. */
static inline const struct rule_impl *rule_impl_of(const struct ndp_rule *rule)
{
    return (const struct rule_impl *)rule;
}

/*
 * An empty rule set with its PCRE2 match context (under the match limits)
 * and match data; the caller owns it (ndp_ruleset_free()).
 */
struct ndp_ruleset *ndp_ruleset_new(void);

/*
 * Compiles pattern 'p' (its source and caseless flag) and returns the code,
 * owned by the caller; NULL on failure with the PCRE2 error in '*code' at
 * '*offset'.
 */
pcre2_code *ndp_rules_pattern_compile(const struct pattern *p, int *code,
                                      PCRE2_SIZE *offset);

/*
 * 'rule' with its JSON parts (transitions, default, unset values, ignored
 * keys) at hand: a rule from the built-in image parses them the first time
 * they are needed.  Returns the rule's own implementation.
 */
const struct rule_impl *ndp_rule_logic(const struct ndp_rule *rule);

#endif

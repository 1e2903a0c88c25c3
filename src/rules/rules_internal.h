/*
 * SPDX-License-Identifier: Apache-2.0
 * rules_internal.h - the rules subsystem's insides, shared by the files of
 * src/rules/ (and their tests) and included by nothing else:
 *
 *   ruleset.c         the set itself: new, free, lookups, names
 *   rules_load.c      rule files read, parsed and checked (the grammar)
 *   rules_image.c     the compiled rule image: written by ndplint-rulec,
 *                     read back into a set, a rule's JSON parsed on demand
 *   rules_watch.c     which types and paths a rule watches (PCRE2)
 *   rules_match.c     whether a watched value's change reimages
 *   rules_describe.c  a rule in plain words (--explain)
 *   engine.c          every changed attribute matched to the rules
 *                     (engine.h is its public face)
 *   rulec.c           ndplint-rulec, the build-time rule compiler, which
 *                     writes the image as rules_embedded.c (generated,
 *                     compiled with this header too)
 *
 * The rest of the program sees rules.h and engine.h: the rule set is
 * opaque there, and neither the image nor the matchers are visible.
 *
 * Ownership: the rule set owns its rules, their patterns and compiled
 * code, the parsed rule files, and its PCRE2 match context and data.  A
 * rule's strings and JSON parts point into the set's parsed files (or into
 * the image and the JSON parsed from it) and live as long as the set.
 */
#ifndef NDP_RULES_INTERNAL_H
#define NDP_RULES_INTERNAL_H

#ifndef NDP_INSIDE_RULES
#error "rules_internal.h is internal to src/rules/ and its tests"
#endif

#include <stdint.h>
#include <stdio.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "change.h"
#include "rules.h"

/*
 * The built-in rules as a compiled image: the rule files loaded and checked
 * at build time by ndplint-rulec, which writes them out as these tables
 * (rules_embedded.c).  Patterns are compiled and the JSON parts of a rule
 * parsed the first time they are needed, so start-up costs next to nothing.
 */
struct ndp_rule_image_pattern {
    const char *src;
    bool caseless;
};
struct ndp_rule_image_watch {
    enum ndp_notation notation;
    unsigned type_pattern, path_pattern; /* indexes into the patterns */
};
struct ndp_rule_image {
    struct ndp_rule rule;
    bool any_change, ignore_case, unordered, kubernetes_version;
    const struct ndp_rule_image_watch *watches;
    size_t nr_watches;
    const char *logic; /* {"transitions", "default", ...} as JSON, or NULL */
};
struct ndp_rule_image_set {
    const struct ndp_rule_image *rules;
    size_t nr_rules;
    const struct ndp_rule_image_pattern *patterns;
    size_t nr_patterns;
};

/* The rule set of an image (checked when it was built; it must outlive
 * the set). */
struct ndp_ruleset *ndp_rules_from_image(const struct ndp_rule_image_set *image);
/* Writes 'rs' as C source defining ndp_rules_load_embedded(). */
int ndp_ruleset_write_image(const struct ndp_ruleset *rs, FILE *out);

/*
 * The watches of 'rule' that apply to resources of 'type' in 'notation',
 * as a bit set (a rule has at most NDP_MAX_WATCHES); 0 when none.  The
 * engine computes it once per resource, then tests paths with
 * ndp_rule_watches_path_in().
 */
#define NDP_MAX_WATCHES 32
uint32_t ndp_rule_type_watches(const struct ndp_rule *rule,
                               enum ndp_notation notation, const char *type);
/* Does one of the watches in 'watches' match 'path'? */
bool ndp_rule_watches_path_in(const struct ndp_rule *rule, uint32_t watches,
                              const char *path);

/*
 * A path about to be tested against many rules, with its first 8 bytes
 * at most as numbers (as written, and in ASCII lower case), which rule
 * out most patterns by their prefix at once (ndp_path_subject()).
 */
struct ndp_path_subject {
    const char *path;
    uint64_t head, folded_head;
};
void ndp_path_subject(struct ndp_path_subject *s, const char *path);
/* ndp_rule_watches_path_in() on a subject made by ndp_path_subject(). */
bool ndp_rule_watches_subject(const struct ndp_rule *rule, uint32_t watches,
                              const struct ndp_path_subject *s);

/* Does 'rule' watch 'path' on resources of 'type' in 'notation'? */
bool ndp_rule_watches_path(const struct ndp_rule *rule,
                           enum ndp_notation notation, const char *type,
                           const char *path);

/*
 * Does the change 'before' -> 'after' of a watched value reimage under
 * 'rule'?  'parent_before' and 'parent_after' are the objects holding the
 * value (for transitions that look at siblings).  All borrowed; NULL means
 * absent.
 */
bool ndp_rule_reimages(const struct ndp_rule *rule,
                       const struct json_object *before,
                       const struct json_object *after,
                       const struct json_object *parent_before,
                       const struct json_object *parent_after);
/*
 * The same, where the documents show only what changed (a what-if delta
 * without snapshots): a member a transition looks at that is not there
 * may hold anything, so its matcher holds.
 */
bool ndp_rule_reimages_unseen(const struct ndp_rule *rule,
                              const struct json_object *before,
                              const struct json_object *after,
                              const struct json_object *parent_before,
                              const struct json_object *parent_after);
/*
 * With the new value unknown: could some transition start from 'before'?
 */
bool ndp_rule_may_reimage(const struct ndp_rule *rule,
                          const struct json_object *before);

/*
 * With the old value unknown (the first apply of a setter): could some
 * transition end at 'after'?
 */
bool ndp_rule_may_reach(const struct ndp_rule *rule,
                        const struct json_object *after);

/* Longest literal prefix kept for a pattern (a shorter one still holds). */
#define NDP_PATTERN_PREFIX_MAX 64

/* An anchored pattern PCRE2 need not match (rules_simple.c). */
struct ndp_simple;

/*
 * 'src' ('^' ... '$') as pieces matched without PCRE2 with PCRE2's
 * meaning: literal characters, '\d' and '[^...]' each with an optional
 * '+', groups of literal alternatives; NULL when it has anything else.
 */
struct ndp_simple *ndp_simple_compile(const char *src, bool caseless);

/* 1: the pattern matches 'subject', 0: it does not, -1: PCRE2 must say
 * (the subject has a line end). */
int ndp_simple_match(const struct ndp_simple *s, const char *subject);

void ndp_simple_free(struct ndp_simple *s);

/*
 * A pattern as written; once it has been needed, the literal text every
 * subject it matches begins with (prefix_len 0: none known), which rules
 * out most subjects without PCRE2, its simple form when it has one (made
 * once a subject got past the prefix), and its compiled code once a
 * subject got past those.
 */
struct pattern {
    const char *src;
    bool caseless;
    pcre2_code *code;
    bool prefix_known;      /* prefix_len, prefix, head, whole are set */
    size_t prefix_len;
    char prefix[NDP_PATTERN_PREFIX_MAX];
    uint64_t head, head_mask; /* the prefix's first 8 bytes at most (ASCII
                                 lower case when caseless), and which */
    struct ndp_simple *simple; /* once 'simple_known' (NULL: none) */
    bool simple_known;
    bool whole;             /* the pattern is '^', the prefix, '$' */
};

/*
 * The literal text every subject that 're' matches begins with, written
 * to 'out' (at most 'cap' - 1 bytes, NUL-terminated): what follows a
 * leading '^' up to the first character that is not plain (a class, a
 * group, an escape like \d, a character a quantifier makes optional).
 * 0 when none is certain: no leading '^', or a '|' outside any group.
 * '*whole': the pattern is '^', that text and '$', nothing else.
 */
size_t ndp_rules_literal_prefix(const char *re, char *out, size_t cap,
                                bool *whole);

/*
 * Does pattern 'index' of 'rs' match 'subject'?  As PCRE2 says (under the
 * rule set's limits), which is asked only when the literal prefix does
 * not settle it.
 */
bool ndp_rules_pattern_matches(struct ndp_ruleset *rs, size_t index,
                               const char *subject);

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
    bool kubernetes_version; /* x.y.z -> x.y of that minor is no change */
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

/* Names of enum ndp_scope, enum ndp_rule_class and enum ndp_rule_pools,
 * NULL-terminated. */
extern const char *const ndp_rule_scope_names[];
extern const char *const ndp_rule_class_names[];
extern const char *const ndp_rule_pools_names[];

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

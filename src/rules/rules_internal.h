/*
 * rules_internal.h - the rule set's insides, shared by rules.c (loading
 * and matching) and rules_image.c (writing the compiled rule image that
 * is built into the binary).  Nothing else includes this.
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

#endif

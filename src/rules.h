/*
 * SPDX-License-Identifier: Apache-2.0
 * rules.h - the rule set: the files in rules/ loaded, checked and compiled.
 *
 * A rule file describes one reimage category: which attribute paths it
 * watches in each notation (PCRE2 patterns over the printed path and the
 * resource type) and which before -> after transitions reimage.  The files
 * are embedded into the binary at build time (rules_embedded.c); --rules DIR
 * replaces them.  The rule set is opaque; rules are transparent and
 * borrowed from the set.
 */
#ifndef NDP_RULES_H
#define NDP_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "change.h"

struct json_object;
struct ndp_error;
struct ndp_ruleset;

enum ndp_scope { NDP_SCOPE_CLUSTER, NDP_SCOPE_NODEPOOL };

enum ndp_rule_class {
    NDP_CLASS_COVERED,       /* gated by the node disruption policy */
    NDP_CLASS_VERSION_GATED, /* gated from Kubernetes 1.37, manual before */
    NDP_CLASS_UPGRADE,       /* a version/image upgrade: bypasses the policy */
    NDP_CLASS_META,          /* findings about the policy or window itself */
    NDP_CLASS_ROTATE         /* azurerm replaces the pool's nodes itself */
};

struct ndp_rule {
    const char *id;          /* "NDP101" */
    const char *category;    /* "network-policy" */
    const char *title;       /* the rule's title: its own, else its
                                category's ("Network policy") */
    const char *category_title; /* the category's ("Network policy or
                                   CNI overlay") */
    const char *summary;     /* one line: what this rule watches */
    const char *why;         /* why AKS reimages for it */
    const char *advice;      /* what to do about it */
    const char *target;      /* what is reimaged, when not the scope's default */
    const char *file;        /* rule file name */
    enum ndp_scope scope;
    enum ndp_rule_class class_;
    bool secret;             /* values are secrets by nature: never printed */
    bool userinfo_secret;    /* URLs: hide "user:pass@" */
};

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
    bool any_change, ignore_case, unordered;
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

/* Loads the built-in rules (defined in the generated rules_embedded.c). */
int ndp_rules_load_embedded(struct ndp_ruleset **out, struct ndp_error *err);
/* The rule set of an image (checked when it was built; it must outlive
 * the set). */
struct ndp_ruleset *ndp_rules_from_image(const struct ndp_rule_image_set *image);
/* Writes 'rs' as C source defining ndp_rules_load_embedded(). */
int ndp_ruleset_write_image(const struct ndp_ruleset *rs, FILE *out);
/* Loads one rule file held in memory ('name' is for messages). */
int ndp_rules_load_text(struct ndp_ruleset **out, const char *name,
                        const char *text, size_t len, struct ndp_error *err);
/* Loads every *.json in 'dir' (sorted by name) instead. */
int ndp_rules_load_dir(struct ndp_ruleset **out, const char *dir,
                       struct ndp_error *err);
void ndp_ruleset_free(struct ndp_ruleset *rs);

size_t ndp_ruleset_count(const struct ndp_ruleset *rs);
const struct ndp_rule *ndp_ruleset_get(const struct ndp_ruleset *rs, size_t i);
/* The rule with 'id', or NULL. */
const struct ndp_rule *ndp_ruleset_find(const struct ndp_ruleset *rs,
                                        const char *id);
/* The first meta rule of 'category' ("gate-open", ...), or NULL. */
const struct ndp_rule *ndp_ruleset_meta(const struct ndp_ruleset *rs,
                                        const char *category);

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

/* Appends the rule in plain words: what it watches, which changes count. */
struct ndp_buf;
void ndp_rule_describe(struct ndp_buf *out, const struct ndp_rule *rule);

const char *ndp_scope_name(enum ndp_scope scope);
const char *ndp_class_name(enum ndp_rule_class class_);

#endif

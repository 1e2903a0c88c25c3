/*
 * SPDX-License-Identifier: Apache-2.0
 * rules.h - the rule set: the files in rules/ loaded, checked and compiled.
 *
 * A rule file describes one reimage category: which attribute paths it
 * watches in each notation (PCRE2 patterns over the printed path and the
 * resource type) and which before -> after transitions reimage.  The files
 * are embedded into the binary at build time (rules_embedded.c); --rules DIR
 * replaces them.  The rule set is opaque; rules are transparent and
 * borrowed from the set.  The compiled rule image and the matchers the
 * engine uses are the subsystem's own (src/rules/rules_internal.h).
 */
#ifndef NDP_RULES_H
#define NDP_RULES_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;
struct ndp_error;
struct ndp_ruleset;

enum ndp_scope { NDP_SCOPE_CLUSTER, NDP_SCOPE_NODEPOOL };

/* Which node pools a hit of a rule rebuilds: its category's "pools". */
enum ndp_rule_pools {
    NDP_RULE_POOLS_SCOPE,  /* as its scope says: its own pool for a pool
                              setting, every pool for a cluster setting */
    NDP_RULE_POOLS_WINDOWS /* the cluster's Windows pools (gMSA) */
};

enum ndp_rule_class {
    NDP_CLASS_COVERED,       /* gated by the node disruption policy */
    NDP_CLASS_VERSION_GATED, /* gated from Kubernetes 1.37, manual before */
    NDP_CLASS_UPGRADE,       /* a version/image upgrade: bypasses the policy */
    NDP_CLASS_META,          /* findings about the policy or window itself */
    NDP_CLASS_ROTATE,        /* azurerm replaces the pool's nodes itself */
    NDP_CLASS_CHECK          /* what AKS or azurerm refuses or does when
                                the change is sent, judged by the
                                evaluator from the changes' facts */
};

/*
 * Does a rule of 'class_' watch attribute paths (the engine matches it),
 * or is its finding made by the evaluator (meta, check)?
 */
static inline bool ndp_rule_class_watches(enum ndp_rule_class class_)
{
    return class_ != NDP_CLASS_META && class_ != NDP_CLASS_CHECK;
}

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
    const char *source;      /* the category's source page (an https URL
                                the reports write as is), or NULL */
    const char *target;      /* what is reimaged, when not the scope's default */
    const char *file;        /* rule file name */
    enum ndp_scope scope;
    enum ndp_rule_class class_;
    enum ndp_rule_pools pools; /* the category's "pools" */
    bool secret;             /* values are secrets by nature: never printed */
    bool userinfo_secret;    /* URLs: hide "user:pass@" */
};

/* Loads the built-in rules (defined in the generated rules_embedded.c). */
int ndp_rules_load_embedded(struct ndp_ruleset **out, struct ndp_error *err);
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

/* Appends the rule in plain words: what it watches, which changes count. */
struct ndp_buf;
void ndp_rule_describe(struct ndp_buf *out, const struct ndp_rule *rule);

/* The project's home: the README, and docs/ under it. */
#ifndef NDP_HOMEPAGE
#define NDP_HOMEPAGE "https://github.com/ndplint/ndplint"
#endif

/*
 * Appends the URL of the section of docs/rules.md on the homepage that
 * tells 'category' (a rule's, or a finding's): its anchor in the table of
 * categories, or the table itself for a name that is not one.
 */
void ndp_rules_docs_url(struct ndp_buf *out, const char *category);

const char *ndp_scope_name(enum ndp_scope scope);
const char *ndp_class_name(enum ndp_rule_class class_);

#endif

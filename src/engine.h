/*
 * SPDX-License-Identifier: Apache-2.0
 * engine.h - the rule engine: every changed attribute of every resource
 * change, matched against the rules.
 *
 * For each updated resource the engine walks the union of the 'before' and
 * 'after' documents, prints each node's path in the input's notation
 * (agentPoolProfiles elements are keyed by name, not by position; a pool
 * in one list only is created or deleted, and not compared; elements
 * without a name on either side are matched by position, "[N]") and asks
 * every rule that watches the resource type whether the path is watched
 * and whether the transition reimages.  The result is a list of hits; the
 * evaluator turns hits into verdicts.  The engine is part of the rules
 * subsystem (src/rules/engine.c); this and rules.h are its public headers.
 */
#ifndef NDP_ENGINE_H
#define NDP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;
struct ndp_changeset;
struct ndp_rule;
struct ndp_ruleset;

struct ndp_hit {
    const struct ndp_rule *rule;      /* borrowed from the rule set */
    size_t change;                    /* index into the change set */
    char *path;                       /* printed path */
    char *pool;                       /* node pool the path is in, or NULL */
    const struct json_object *before; /* borrowed from the change; NULL = absent */
    const struct json_object *after;
    bool after_unknown;               /* the new value is known only after apply */
    bool before_unknown;              /* the old value is not in the input */
    bool context_unseen;              /* reimages only if properties a
                                         delta-only what-if leaves out hold
                                         what the rule needs */
    bool before_sensitive, after_sensitive;
};

struct ndp_hits {
    struct ndp_hit *items;
    size_t nr, alloc;
};

#define NDP_HITS_INIT { NULL, 0, 0 }

/* Appends to 'out' the hits of every updated resource in 'set'. */
void ndp_engine_run(struct ndp_hits *out, const struct ndp_ruleset *rs,
                    const struct ndp_changeset *set);
void ndp_hits_release(struct ndp_hits *hits);

#endif

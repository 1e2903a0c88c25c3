/*
 * SPDX-License-Identifier: Apache-2.0
 * test_helpers.h - setup shared by the unit tests that run the real rule
 * files or build changes by hand (test_engine.c, test_evaluate.c,
 * test_pipeline.c, test_facts.c, test_impact.c, test_locate.c,
 * test_run.c): the rule set as a cmocka group fixture, and one updated
 * resource added to a change set.
 */
#ifndef NDP_TEST_HELPERS_H
#define NDP_TEST_HELPERS_H

#include "test_common.h"
#include "change.h"
#include "error.h"
#include "rules.h"

#include <stdio.h>

/*
 * The rule set of the running group: loaded by a group setup below, freed
 * by test_rules_free.  Tests borrow it.
 */
static struct ndp_ruleset *test_ruleset;

/* Group setup: the rule files as --rules DIR reads them (NDP_RULES_DIR). */
static inline int test_rules_load_dir(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    if (ndp_rules_load_dir(&test_ruleset, NDP_RULES_DIR, &err) != 0) {
        fprintf(stderr, "cannot load rules: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Group setup: the same files as built into the binary (the rule image). */
static inline int test_rules_load_builtin(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    if (ndp_rules_load_embedded(&test_ruleset, &err) != 0) {
        fprintf(stderr, "cannot load the built-in rules: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Group teardown for either setup above. */
static inline int test_rules_free(void **state)
{
    (void)state;
    ndp_ruleset_free(test_ruleset);
    test_ruleset = NULL;
    return 0;
}

/*
 * Adds one updated resource to 'set', registering the input "plan.json"
 * first when the set has none, and returns it (owned by the set) for the
 * caller to adjust.  'type' and 'address' are copied; 'before' and
 * 'after' (either may be NULL) are taken over.
 */
static inline struct ndp_change *test_add_update(struct ndp_changeset *set,
                                                 enum ndp_notation notation,
                                                 enum ndp_kind kind,
                                                 const char *type,
                                                 const char *address,
                                                 struct json_object *before,
                                                 struct json_object *after)
{
    struct ndp_change *c;

    if (set->nr_inputs == 0)
        ndp_changeset_add_input(set, "plan.json");
    c = ndp_changeset_add(set, 0);
    c->notation = notation;
    c->kind = kind;
    c->resource_type = ndp_xstrdup(type);
    c->address = ndp_xstrdup(address);
    c->action = NDP_ACTION_UPDATE;
    c->before = before;
    c->after = after;
    return c;
}

#endif

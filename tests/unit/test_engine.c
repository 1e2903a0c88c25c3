/*
 * SPDX-License-Identifier: Apache-2.0
 * test_engine.c - every transition of every category in the spec, the
 * change that reimages and the near-miss that does not, in both notations
 * (azurerm attributes and ARM bodies), run through the real rule files and
 * the real engine.  Each row of tests/transitions.json: before and after
 * documents of one updated resource, and the rule ids the engine must
 * report ([] for none).
 */
#include "test_helpers.h"
#include "input.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "error.h"
#include "rules.h"

#define AZ "azurerm_kubernetes_cluster"
#define AZP "azurerm_kubernetes_cluster_node_pool"
#define TF NDP_NOTATION_AZURERM

/* azurerm network_profile block; ARM bodies for the inline rows below. */
#define NP(x) "{'network_profile':[{" x "}]}"
#define MC "Microsoft.ContainerService/managedClusters"
#define ARM NDP_NOTATION_ARM
#define ANP(x) "{'properties':{'networkProfile':{" x "}}}"
#define APROP(x) "{'properties':{" x "}}"
#define POOL1(x) "{'properties':{'agentPoolProfiles':[{'name':'np1'," x "}]}}"

/*
 * The rows live in tests/transitions.json (NDP_TRANSITIONS_FILE), which
 * tests/shapes/shapes.py reads too, so the engine table and the
 * shape-invariance test cannot drift apart.
 */
struct engine_case {
    const char *name;
    enum ndp_notation notation;
    const char *type;
    struct json_object *before;
    struct json_object *after;
    char *expect;            /* rule ids, ','-joined, "" for none */
    const char *spec;        /* why the row differs from the old table */
};

static struct json_object *table;
static struct engine_case *cases;
static size_t ncases;

static const char *row_string(struct json_object *row, const char *key)
{
    struct json_object *v;

    if (!json_object_object_get_ex(row, key, &v) ||
        !json_object_is_type(v, json_type_string)) {
        fprintf(stderr, "%s: a row without a string '%s'\n",
                NDP_TRANSITIONS_FILE, key);
        exit(1);
    }
    return json_object_get_string(v);
}

static struct json_object *row_member(struct json_object *row, const char *key,
                                      enum json_type type)
{
    struct json_object *v;

    if (!json_object_object_get_ex(row, key, &v) ||
        !json_object_is_type(v, type)) {
        fprintf(stderr, "%s: row '%s': '%s' missing or of the wrong type\n",
                NDP_TRANSITIONS_FILE, row_string(row, "name"), key);
        exit(1);
    }
    return v;
}

/* Reads the table once; a malformed file stops the test program. */
static void load_table(void)
{
    struct json_object *groups;
    size_t g, alloc = 0;

    table = json_object_from_file(NDP_TRANSITIONS_FILE);
    if (!table || !json_object_object_get_ex(table, "groups", &groups) ||
        !json_object_is_type(groups, json_type_array)) {
        fprintf(stderr, "cannot read the transition table %s\n",
                NDP_TRANSITIONS_FILE);
        exit(1);
    }
    for (g = 0; g < json_object_array_length(groups); g++) {
        struct json_object *rows = row_member(
            json_object_array_get_idx(groups, g), "rows", json_type_array);
        size_t r;

        for (r = 0; r < json_object_array_length(rows); r++) {
            struct json_object *row = json_object_array_get_idx(rows, r);
            struct json_object *spec;
            struct json_object *verdicts = NULL;
            struct json_object *expect =
                row_member(row, "expect", json_type_array);
            const char *notation = row_string(row, "notation");
            struct engine_case *c;
            struct ndp_buf ids = NDP_BUF_INIT;
            size_t k;

            NDP_GROW(cases, alloc, ncases + 1);
            c = &cases[ncases++];
            c->name = row_string(row, "name");
            if (strcmp(notation, "azurerm") == 0) {
                c->notation = NDP_NOTATION_AZURERM;
            } else if (strcmp(notation, "arm") == 0) {
                c->notation = NDP_NOTATION_ARM;
            } else {
                fprintf(stderr, "row '%s': unknown notation '%s'\n",
                        c->name, notation);
                exit(1);
            }
            c->type = row_string(row, "type");
            c->spec = json_object_object_get_ex(row, "spec", &spec)
                          ? json_object_get_string(spec) : NULL;
            c->before = row_member(row, "before", json_type_object);
            c->after = row_member(row, "after", json_type_object);
            json_object_object_get_ex(row, "verdicts", &verdicts);
            for (k = 0; k < json_object_array_length(expect); k++) {
                const char *id = json_object_get_string(
                    json_object_array_get_idx(expect, k));
                /* A check's finding (its verdict named in "verdicts") is
                 * the evaluator's, not a hit of the engine. */
                if (verdicts && json_object_object_get_ex(verdicts, id, NULL))
                    continue;
                ndp_buf_addf(&ids, "%s%s", ids.len ? "," : "", id);
            }
            c->expect = ndp_buf_detach(&ids);
        }
    }
}

static void free_table(void)
{
    size_t i;

    for (i = 0; i < ncases; i++)
        free(cases[i].expect);
    free(cases);
    json_object_put(table);
}

/*
 * One updated resource of 'type' in a new change set; 'before' and 'after'
 * are taken over.  Returns the change to adjust.
 */
static struct ndp_change *updated_resource(struct ndp_changeset *set,
                                           enum ndp_notation notation,
                                           const char *type,
                                           struct json_object *before,
                                           struct json_object *after)
{
    enum ndp_kind kind = strstr(type, "pool") || strstr(type, "agentPools")
                             ? NDP_KIND_NODEPOOL : NDP_KIND_CLUSTER;

    return test_add_update(set, notation, kind, type, "r", before, after);
}

/* Runs one case through the engine; returns the hit rule ids, ','-joined. */
static char *run_case(const struct engine_case *c)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_hits hits = NDP_HITS_INIT;
    struct ndp_buf ids = NDP_BUF_INIT;
    size_t i;

    updated_resource(&set, c->notation, c->type, json_object_get(c->before),
                     json_object_get(c->after));
    ndp_facts_fill_all(&set, 0);
    ndp_engine_run(&hits, test_ruleset, &set);
    for (i = 0; i < hits.nr; i++)
        ndp_buf_addf(&ids, "%s%s", i ? "," : "", hits.items[i].rule->id);
    ndp_hits_release(&hits);
    ndp_changeset_release(&set);
    return ndp_buf_detach(&ids);
}

/*
 * A row written in the test itself (for checks that are not transitions of
 * the spec's tables and so are not in transitions.json).
 */
struct text_case {
    const char *name;
    enum ndp_notation notation;
    const char *type;
    const char *before, *after, *expect;
};

/* Runs each row; returns how many gave other hits than expected. */
static size_t run_text_cases(const struct text_case *rows, size_t n)
{
    size_t i, failures = 0;

    for (i = 0; i < n; i++) {
        struct engine_case c = { rows[i].name, rows[i].notation, rows[i].type,
                                 test_json(rows[i].before),
                                 test_json(rows[i].after), NULL, NULL };
        char *got = run_case(&c);
        if (strcmp(got, rows[i].expect) != 0) {
            print_error("case '%s': expected [%s], got [%s]\n",
                        rows[i].name, rows[i].expect, got);
            failures++;
        }
        free(got);
        json_object_put(c.before);
        json_object_put(c.after);
    }
    return failures;
}

static void every_transition__reimages_or_not_as_the_spec_says(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < ncases; i++) {
        char *got = run_case(&cases[i]);
        if (strcmp(got, cases[i].expect) != 0) {
            print_error("case '%s': expected [%s], got [%s]%s%s\n",
                        cases[i].name, cases[i].expect, got,
                        cases[i].spec ? " -- " : "",
                        cases[i].spec ? cases[i].spec : "");
            failures++;
        }
        free(got);
    }
    print_message("%zu transition cases checked\n", ncases);
    assert_int_equal(failures, 0);
}

/* Each category with a rule in the set has at least one positive row. */
static void every_rule__has_a_positive_case(void **state)
{
    size_t i, j, missing = 0;

    (void)state;
    for (i = 0; i < ndp_ruleset_count(test_ruleset); i++) {
        const struct ndp_rule *r = ndp_ruleset_get(test_ruleset, i);
        bool found = false;
        if (!ndp_rule_class_watches(r->class_))
            continue;
        for (j = 0; j < ncases && !found; j++)
            found = strstr(cases[j].expect, r->id) != NULL;
        if (!found) {
            print_error("rule %s has no positive case\n", r->id);
            missing++;
        }
    }
    assert_int_equal(missing, 0);
}

static void unknown_after__may_reimage_only_when_a_transition_can_start(void **state)
{
    static const struct {
        const char *before, *after, *unknown, *expect;
    } rows[] = {
        { NP("'network_policy':''"), NP("'network_policy':null"), NP("'network_policy':true"), "NDP101" },
        { NP("'network_policy':'azure'"), NP("'network_policy':null"), NP("'network_policy':true"), "NDP101" },
        { "{'node_os_upgrade_channel':'None'}", "{'node_os_upgrade_channel':null}", "{'node_os_upgrade_channel':true}", "NDP103" },
        { "{'capacity_reservation_group_id':'/x/crg'}", "{}", "{'capacity_reservation_group_id':true}", "" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct ndp_changeset set = NDP_CHANGESET_INIT;
        struct ndp_hits hits = NDP_HITS_INIT;
        struct ndp_change *ch;

        ch = updated_resource(&set, TF, i == 3 ? AZP : AZ,
                              test_json(rows[i].before),
                              test_json(rows[i].after));
        ch->after_unknown = test_json(rows[i].unknown);
        ndp_facts_fill_all(&set, 0);
        ndp_engine_run(&hits, test_ruleset, &set);
        if (*rows[i].expect) {
            assert_int_equal(hits.nr, 1);
            assert_string_equal(hits.items[0].rule->id, rows[i].expect);
            assert_true(hits.items[0].after_unknown);
        } else {
            assert_int_equal(hits.nr, 0);
        }
        ndp_hits_release(&hits);
        ndp_changeset_release(&set);
    }
}

static void sensitive_mask__marks_the_hit(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_hits hits = NDP_HITS_INIT;
    struct ndp_change *ch;

    (void)state;
    ch = updated_resource(&set, TF, AZ,
                          test_json("{'http_proxy_config':[{'http_proxy':'http://a'}]}"),
                          test_json("{'http_proxy_config':[{'http_proxy':'http://b'}]}"));
    ch->before_sensitive = test_json("{'http_proxy_config':true}");
    ch->after_sensitive = test_json("{'http_proxy_config':[{'http_proxy':true}]}");
    ndp_facts_fill_all(&set, 0);
    ndp_engine_run(&hits, test_ruleset, &set);
    assert_int_equal(hits.nr, 1);
    assert_true(hits.items[0].before_sensitive);
    assert_true(hits.items[0].after_sensitive);
    ndp_hits_release(&hits);
    ndp_changeset_release(&set);
}

/*
 * JSON null, an absent key and "" are all unset: each gives the same hits,
 * and each hit once (a null on one side must not walk the key twice).
 */
static const struct text_case unset_cases[] = {
    { "np null->calico", TF, AZ, NP("'network_policy':null"), NP("'network_policy':'calico'"), "NDP101" },
    { "np absent->calico", TF, AZ, NP("'network_plugin':'azure'"), NP("'network_plugin':'azure','network_policy':'calico'"), "NDP101" },
    { "np empty->calico", TF, AZ, NP("'network_policy':''"), NP("'network_policy':'calico'"), "NDP101" },
    { "np calico->null", TF, AZ, NP("'network_policy':'calico'"), NP("'network_policy':null"), "NDP101" },
    { "np calico->absent", TF, AZ, NP("'network_policy':'calico','network_plugin':'azure'"), NP("'network_plugin':'azure'"), "NDP101" },
    { "np null->null", TF, AZ, NP("'network_policy':null"), NP("'network_policy':null"), "" },
    { "np null->empty", TF, AZ, NP("'network_policy':null"), NP("'network_policy':''"), "" },
    { "arm np null->calico", ARM, MC, ANP("'networkPolicy':null"), ANP("'networkPolicy':'calico'"), "NDP101" },
    { "arm vtpm null->true", ARM, MC, POOL1("'securityProfile':{'enableVTPM':null}"), POOL1("'securityProfile':{'enableVTPM':true}"), "NDP202" },
    { "arm block null->set", ARM, MC, APROP("'httpProxyConfig':null"), APROP("'httpProxyConfig':{'trustedCa':'QQ=='}"), "NDP107" },
};

static void null_absent_and_empty__same_hits_once(void **state)
{
    (void)state;
    assert_int_equal(run_text_cases(unset_cases, NDP_ARRAY_SIZE(unset_cases)), 0);
}

/* A null before and an unknown (null) after: one may-reimage hit. */
static void null_before_unknown_after__one_hit(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_hits hits = NDP_HITS_INIT;
    struct ndp_change *ch;

    (void)state;
    ch = updated_resource(&set, TF, AZ,
                          test_json(NP("'network_policy':null")),
                          test_json(NP("'network_policy':null")));
    ch->after_unknown = test_json(NP("'network_policy':true"));
    ch->before_sensitive = test_json(NP("'network_policy':null"));
    ndp_facts_fill_all(&set, 0);
    ndp_engine_run(&hits, test_ruleset, &set);
    assert_int_equal(hits.nr, 1);
    assert_string_equal(hits.items[0].rule->id, "NDP101");
    assert_true(hits.items[0].after_unknown);
    assert_false(hits.items[0].before_sensitive);
    ndp_hits_release(&hits);
    ndp_changeset_release(&set);
}

/*
 * Spec §11: a pool added to or removed from agentPoolProfiles is created or
 * deleted, not reimaged; only pools on both sides (by name, any case) are
 * compared.  Elements with no name on either side match by position.
 */
#define POOLS(x) "{'properties':{'agentPoolProfiles':[" x "]}}"
static const struct text_case pool_cases[] = {
    { "pool added with vtpm", ARM, MC, POOLS("{'name':'a'}"), POOLS("{'name':'a'},{'name':'conf2','securityProfile':{'enableVTPM':true}}"), "" },
    { "pool removed with vtpm", ARM, MC, POOLS("{'name':'a'},{'name':'conf2','securityProfile':{'enableVTPM':true}}"), POOLS("{'name':'a'}"), "" },
    { "pool added first", ARM, MC, POOLS("{'name':'a'}"), POOLS("{'name':'conf2','securityProfile':{'enableSecureBoot':true}},{'name':'a'}"), "" },
    { "pool added with version", ARM, MC, POOLS("{'name':'a','orchestratorVersion':'1.37.0'}"), POOLS("{'name':'a','orchestratorVersion':'1.37.0'},{'name':'b','orchestratorVersion':'1.37.1'}"), "" },
    { "pool added beside a change", ARM, MC, POOLS("{'name':'a','securityProfile':{'enableVTPM':false}}"), POOLS("{'name':'b','orchestratorVersion':'1.38.0','securityProfile':{'enableVTPM':true}},{'name':'a','securityProfile':{'enableVTPM':true}}"), "NDP202" },
    { "pool renamed", ARM, MC, POOLS("{'name':'a','securityProfile':{'enableVTPM':false}}"), POOLS("{'name':'b','securityProfile':{'enableVTPM':true}}"), "" },
    { "pool name case differs", ARM, MC, POOLS("{'name':'NP1','securityProfile':{'enableVTPM':false}}"), POOLS("{'name':'np1','securityProfile':{'enableVTPM':true}}"), "NDP202" },
    { "unnamed pools by position", ARM, MC, POOLS("null,{'securityProfile':{'enableVTPM':false}}"), POOLS("null,{'securityProfile':{'enableVTPM':true}}"), "NDP202" },
    { "unnamed pool added", ARM, MC, POOLS("null"), POOLS("null,{'securityProfile':{'enableVTPM':true}}"), "" },
    { "unnamed facing named", ARM, MC, POOLS("{'securityProfile':{'enableVTPM':false}}"), POOLS("{'name':'a','securityProfile':{'enableVTPM':true}}"), "" },
};

static void pool_added_or_removed__not_compared(void **state)
{
    (void)state;
    assert_int_equal(run_text_cases(pool_cases, NDP_ARRAY_SIZE(pool_cases)), 0);
}

/* An unnamed pool element is printed by position and names no pool. */
static void unnamed_pool__printed_by_position(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_hits hits = NDP_HITS_INIT;

    (void)state;
    updated_resource(&set, ARM, MC,
                     test_json(POOLS("null,{'securityProfile':{'enableVTPM':false}}")),
                     test_json(POOLS("null,{'securityProfile':{'enableVTPM':true}}")));
    ndp_facts_fill_all(&set, 0);
    ndp_engine_run(&hits, test_ruleset, &set);
    assert_int_equal(hits.nr, 1);
    assert_string_equal(hits.items[0].path,
                        "properties.agentPoolProfiles[1].securityProfile."
                        "enableVTPM");
    assert_null(hits.items[0].pool);
    ndp_hits_release(&hits);
    ndp_changeset_release(&set);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_transition__reimages_or_not_as_the_spec_says),
        cmocka_unit_test(every_rule__has_a_positive_case),
        cmocka_unit_test(unknown_after__may_reimage_only_when_a_transition_can_start),
        cmocka_unit_test(sensitive_mask__marks_the_hit),
        cmocka_unit_test(null_absent_and_empty__same_hits_once),
        cmocka_unit_test(null_before_unknown_after__one_hit),
        cmocka_unit_test(pool_added_or_removed__not_compared),
        cmocka_unit_test(unnamed_pool__printed_by_position),
    };

    int failed;

    load_table();
    failed = cmocka_run_group_tests_name("rule files", tests,
                                         test_rules_load_dir, test_rules_free);
    failed += cmocka_run_group_tests_name("built-in rule image", tests,
                                          test_rules_load_builtin,
                                          test_rules_free);
    free_table();
    return failed;
}

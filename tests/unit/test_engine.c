/*
 * test_engine.c - every transition of every category in the spec, the
 * change that reimages and the near-miss that does not, in both notations
 * (azurerm attributes and ARM bodies), run through the real rule files and
 * the real engine.  Each row of tests/transitions.json: before and after
 * documents of one updated resource, and the rule ids the engine must
 * report ([] for none).
 */
#include "test_common.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "error.h"
#include "rules.h"

#define AZ "azurerm_kubernetes_cluster"
#define AZP "azurerm_kubernetes_cluster_node_pool"
#define TF NDP_NOTATION_AZURERM

/* azurerm network_profile block. */
#define NP(x) "{'network_profile':[{" x "}]}"

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
            for (k = 0; k < json_object_array_length(expect); k++)
                ndp_buf_addf(&ids, "%s%s", k ? "," : "",
                             json_object_get_string(
                                 json_object_array_get_idx(expect, k)));
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

static const struct ndp_ruleset *ruleset;

/* The rule files as --rules DIR reads them. */
static int load_rules(void **state)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    if (ndp_rules_load_dir(&rs, NDP_RULES_DIR, &err) != 0) {
        fprintf(stderr, "cannot load rules: %s\n", err.msg);
        return -1;
    }
    ruleset = rs;
    return 0;
}

/* The same files as built into the binary (the compiled rule image). */
static int load_builtin_rules(void **state)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    if (ndp_rules_load_embedded(&rs, &err) != 0)
        return -1;
    ruleset = rs;
    return 0;
}

static int free_rules(void **state)
{
    (void)state;
    ndp_ruleset_free((struct ndp_ruleset *)(uintptr_t)ruleset);
    return 0;
}

/* Runs one case through the engine; returns the hit rule ids, ','-joined. */
static char *run_case(const struct engine_case *c)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_hits hits = NDP_HITS_INIT;
    struct ndp_buf ids = NDP_BUF_INIT;
    struct ndp_change *ch;
    size_t i;

    ndp_changeset_add_input(&set, "test.json");
    ch = ndp_changeset_add(&set, 0);
    ch->address = ndp_xstrdup("r");
    ch->resource_type = ndp_xstrdup(c->type);
    ch->notation = c->notation;
    ch->kind = strstr(c->type, "pool") || strstr(c->type, "agentPools")
                   ? NDP_KIND_NODEPOOL : NDP_KIND_CLUSTER;
    ch->action = NDP_ACTION_UPDATE;
    ch->before = json_object_get(c->before);
    ch->after = json_object_get(c->after);
    ndp_engine_run(&hits, ruleset, &set);
    for (i = 0; i < hits.nr; i++)
        ndp_buf_addf(&ids, "%s%s", i ? "," : "", hits.items[i].rule->id);
    ndp_hits_release(&hits);
    ndp_changeset_release(&set);
    return ndp_buf_detach(&ids);
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
    for (i = 0; i < ndp_ruleset_count(ruleset); i++) {
        const struct ndp_rule *r = ndp_ruleset_get(ruleset, i);
        bool found = false;
        if (r->class_ == NDP_CLASS_META)
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

        ndp_changeset_add_input(&set, "t.json");
        ch = ndp_changeset_add(&set, 0);
        ch->address = ndp_xstrdup("r");
        ch->resource_type = ndp_xstrdup(i == 3 ? AZP : AZ);
        ch->notation = TF;
        ch->kind = i == 3 ? NDP_KIND_NODEPOOL : NDP_KIND_CLUSTER;
        ch->action = NDP_ACTION_UPDATE;
        ch->before = test_json(rows[i].before);
        ch->after = test_json(rows[i].after);
        ch->after_unknown = test_json(rows[i].unknown);
        ndp_engine_run(&hits, ruleset, &set);
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
    ndp_changeset_add_input(&set, "t.json");
    ch = ndp_changeset_add(&set, 0);
    ch->address = ndp_xstrdup("r");
    ch->resource_type = ndp_xstrdup(AZ);
    ch->notation = TF;
    ch->action = NDP_ACTION_UPDATE;
    ch->before = test_json("{'http_proxy_config':[{'http_proxy':'http://a'}]}");
    ch->after = test_json("{'http_proxy_config':[{'http_proxy':'http://b'}]}");
    ch->before_sensitive = test_json("{'http_proxy_config':true}");
    ch->after_sensitive = test_json("{'http_proxy_config':[{'http_proxy':true}]}");
    ndp_engine_run(&hits, ruleset, &set);
    assert_int_equal(hits.nr, 1);
    assert_true(hits.items[0].before_sensitive);
    assert_true(hits.items[0].after_sensitive);
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
    };

    int failed;

    load_table();
    failed = cmocka_run_group_tests_name("rule files", tests, load_rules,
                                         free_rules);
    failed += cmocka_run_group_tests_name("built-in rule image", tests,
                                          load_builtin_rules, free_rules);
    free_table();
    return failed;
}

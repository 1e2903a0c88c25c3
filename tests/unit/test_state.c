/*
 * SPDX-License-Identifier: Apache-2.0
 * test_state.c - --cluster-state files (state.c): the fixtures of
 * fixtures/state/ ('az aks show' flat and in the ARM shape, maintenance
 * configuration list and show, node pool list) and what each gives,
 * files merged per cluster by ARM id in any case, every field of a pool
 * and of a cluster with its fallbacks and unset values, the window of
 * the node OS configuration and the others by name, lists (empty, of
 * several clusters, thousands of pools), each refusal with its one
 * message, and the lookups by id and by name (absent, ambiguous).
 */
#include "test_common.h"
#include "test_files.h"
#include "error.h"
#include "policy.h"
#include "state.h"

#define STATE(f) NDP_FIXTURES_DIR "/state/" f
#define MAX_BYTES ((size_t)1 << 20)
#define MC "/subscriptions/0/resourcegroups/rg/providers/" \
           "Microsoft.ContainerService/managedClusters/"
#define FIXTURE_ID "/subscriptions/00000000-0000-0000-0000-000000000000/" \
                   "resourcegroups/rg-state/providers/" \
                   "Microsoft.ContainerService/managedClusters/aks-state"

/* Reads 'path' into 'st'; fails the test when it is refused. */
static void read_ok(struct ndp_states *st, const char *path)
{
    struct ndp_error err = NDP_ERROR_INIT;

    if (ndp_state_read(st, path, MAX_BYTES, &err) != 0)
        fail_msg("'%s' refused: %s", path, err.msg);
}

/* Writes 'text' (' for ") to NAME in the group's directory; reads it. */
static char *read_text(struct ndp_states *st, const char *name,
                       const char *text)
{
    char *path = test_write_json(name, text);

    read_ok(st, path);
    return path;
}

/* ---- the fixtures ---- */

struct fixture_row {
    const char *name;
    const char *files[4];       /* read in order */
    int profile;                /* of the one cluster */
    const char *version;
    size_t pools;               /* SIZE_MAX: not checked (each file that
                                   lists pools adds them) */
    int window_hours;           /* durationHours of the window, or -1 */
    bool window_list;
    const char *other_windows;
};

static const struct fixture_row fixture_rows[] = {
    { "az aks show: profile, version and pools",
      { STATE("aks-show-block.json") }, NDP_PROFILE_BLOCK, "1.36.4", 2, -1,
      false, NULL },
    { "az aks show in the ARM shape reads the same",
      { STATE("aks-show-block-arm-shape.json") }, NDP_PROFILE_BLOCK,
      "1.36.4", 2, -1, false, NULL },
    { "az aks show: AllowDuringMaintenanceWindow",
      { STATE("aks-show-window.json") }, NDP_PROFILE_WINDOW, "1.36.4", 2, -1,
      false, NULL },
    { "az aks show: the current Kubernetes version",
      { STATE("aks-show-block-137.json") }, NDP_PROFILE_BLOCK, "1.37.1", 2,
      -1, false, NULL },
    { "maintenance configuration list: the node OS window, the other named",
      { STATE("mc-list-nodeos.json") }, -1, NULL, 0, 4, true,
      "aksManagedAutoUpgradeSchedule" },
    { "maintenance configuration list without the node OS window",
      { STATE("mc-list-auto-only.json") }, -1, NULL, 0, -1, true,
      "aksManagedAutoUpgradeSchedule" },
    { "maintenance configuration show: one object",
      { STATE("mc-show-nodeos.json") }, -1, NULL, 0, 4, true, NULL },
    { "node pool list: pools only",
      { STATE("nodepool-list.json") }, -1, NULL, 2, -1, false, NULL },
    { "show, configurations and pools merge into one cluster",
      { STATE("aks-show-window.json"), STATE("mc-list-nodeos.json"),
        STATE("mc-list-auto-only.json") },
      NDP_PROFILE_WINDOW, "1.36.4", 2, 4, true,
      "aksManagedAutoUpgradeSchedule" },
    { "a later show replaces the version, keeps what it does not say",
      { STATE("aks-show-block.json"), STATE("mc-show-nodeos.json"),
        STATE("aks-show-block-137.json") },
      NDP_PROFILE_BLOCK, "1.37.1", SIZE_MAX, 4, true, NULL },
};

static void fixture_test(void **state)
{
    const struct fixture_row *row = *state;
    struct ndp_states st = NDP_STATES_INIT;
    const struct ndp_state_cluster *c;
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(row->files) && row->files[i]; i++)
        read_ok(&st, row->files[i]);
    assert_int_equal(st.nr, 1);
    c = &st.items[0];
    assert_string_equal(c->name, "aks-state");
    assert_ptr_equal(ndp_states_find_id(&st, FIXTURE_ID), c);
    assert_int_equal(c->profile, row->profile);
    if (row->version)
        assert_string_equal(c->version, row->version);
    else
        assert_null(c->version);
    if (row->pools != SIZE_MAX)
        assert_int_equal(c->nr_pools, row->pools);
    assert_int_equal(c->has_pools, c->nr_pools > 0);
    if (row->window_hours < 0) {
        assert_null(c->window);
    } else {
        assert_non_null(c->window);
        assert_int_equal(json_object_get_int(json_object_object_get(
                             c->window, "durationHours")),
                         row->window_hours);
    }
    assert_int_equal(c->has_window_list, row->window_list);
    if (row->other_windows)
        assert_string_equal(c->other_windows, row->other_windows);
    else
        assert_null(c->other_windows);
    /* Every file read is named once, in order. */
    for (i = 0; i < NDP_ARRAY_SIZE(row->files) && row->files[i]; i++)
        assert_non_null(strstr(c->sources, row->files[i]));
    assert_int_equal(st.nr_unmatched, 0);
    assert_false(c->matched);
    ndp_states_release(&st);
}

/* The pools of 'az aks show' and of 'az aks nodepool list', field by field. */
static void pools__fields_from_show_and_from_nodepool_list(void **state)
{
    static const char *const files[] = {
        STATE("aks-show-block.json"), STATE("aks-show-block-arm-shape.json"),
        STATE("nodepool-list.json"),
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(files); i++) {
        struct ndp_states st = NDP_STATES_INIT;
        const struct ndp_state_pool *p;

        read_ok(&st, files[i]);
        assert_int_equal(st.items[0].nr_pools, 2);
        p = &st.items[0].pools[0];
        assert_string_equal(p->name, "system");
        assert_string_equal(p->os_type, "Linux");
        assert_string_equal(p->version, "1.36.4");
        assert_int_equal(p->count, 3);
        assert_int_equal(p->min_count, -1);
        assert_int_equal(p->max_count, -1);
        assert_false(p->autoscale);
        assert_string_equal(p->max_surge, "33%");
        assert_int_equal(p->drain_minutes, -1);
        assert_int_equal(p->soak_minutes, -1);
        p = &st.items[0].pools[1];
        assert_string_equal(p->name, "win");
        assert_string_equal(p->os_type, "Windows");
        assert_int_equal(p->count, 2);
        assert_string_equal(p->max_surge, "1");
        ndp_states_release(&st);
    }
}

/* Fields with their fallbacks, unset values and values of a wrong type. */
static void fields__fallbacks_and_unset_values(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;
    const struct ndp_state_cluster *c;
    const struct ndp_state_pool *p;
    char *path;

    (void)state;
    path = read_text(&st, "fields.json",
        "{'id': '" MC "aks', 'kubernetesVersion': '1.30.1',"
        " 'nodeDisruptionProfile': {'nodeDisruptionPolicy': 'block'},"
        " 'agentPoolProfiles': ["
        "  {'name': 'auto', 'osType': '', 'orchestratorVersion': '1.30.0',"
        "   'currentOrchestratorVersion': '', 'count': '3',"
        "   'enableAutoScaling': true, 'minCount': 1, 'maxCount': 9,"
        "   'upgradeSettings': {'maxSurge': '', 'drainTimeoutInMinutes': 30,"
        "    'nodeSoakDurationInMinutes': 5}},"
        "  {'osType': 'Linux', 'count': 4},"
        "  {'name': 'numbers', 'count': 2.5, 'enableAutoScaling': 'true',"
        "   'upgradeSettings': {'maxSurge': 1}},"
        "  {'name': 'bare'},"
        "  {'name': 'upgrading', 'orchestratorVersion': '1.31.0',"
        "   'currentOrchestratorVersion': '1.30.9'}]}");
    c = &st.items[0];
    assert_string_equal(c->id, MC "aks");
    assert_string_equal(c->name, "aks");
    assert_string_equal(c->sources, path);
    assert_int_equal(c->profile, NDP_PROFILE_BLOCK); /* any case */
    assert_string_equal(c->version, "1.30.1");       /* kubernetesVersion */
    assert_int_equal(c->nr_pools, 4);                /* the nameless left out */
    p = &c->pools[0];
    assert_string_equal(p->name, "auto");
    assert_null(p->os_type);                         /* "" is unset */
    assert_string_equal(p->version, "1.30.0");       /* the fallback */
    assert_int_equal(p->count, -1);                  /* a string */
    assert_true(p->autoscale);
    assert_int_equal(p->min_count, 1);
    assert_int_equal(p->max_count, 9);
    assert_null(p->max_surge);                       /* "" is unset */
    assert_int_equal(p->drain_minutes, 30);
    assert_int_equal(p->soak_minutes, 5);
    p = &c->pools[1];
    assert_string_equal(p->name, "numbers");
    assert_int_equal(p->count, -1);                  /* not an integer */
    assert_false(p->autoscale);                      /* not a boolean */
    assert_null(p->max_surge);                       /* not a string */
    assert_null(p->version);
    p = &c->pools[2];
    assert_string_equal(p->name, "bare");
    assert_int_equal(p->count, -1);
    assert_int_equal(p->drain_minutes, -1);
    p = &c->pools[3];
    assert_string_equal(p->version, "1.30.9");       /* what runs now */
    free(path);

    /* The version that runs now, before the one asked for. */
    path = read_text(&st, "current.json",
        "{'id': '" MC "upgrading', 'kubernetesVersion': '1.31.0',"
        " 'currentKubernetesVersion': '1.30.9', 'agentPoolProfiles': []}");
    assert_string_equal(st.items[1].version, "1.30.9");
    free(path);

    /* An empty policy states nothing; an empty pool list states pools. */
    path = read_text(&st, "empty.json",
        "{'id': '" MC "other', 'properties': {'agentPoolProfiles': [],"
        " 'nodeDisruptionProfile': {'nodeDisruptionPolicy': ''},"
        " 'currentKubernetesVersion': '', 'kubernetesVersion': ''}}");
    c = &st.items[2];
    assert_int_equal(c->profile, -1);
    assert_null(c->version);
    assert_false(c->has_pools);
    assert_int_equal(c->nr_pools, 0);
    free(path);
    ndp_states_release(&st);
}

/*
 * A pool's mode, and whether the state holds the cluster's whole pool
 * list: 'az aks show' and 'az aks nodepool list' do, 'az aks nodepool
 * show' (one pool) does not.
 */
static void pools__mode_and_whole_list(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;
    char *path;

    (void)state;
    path = read_text(&st, "one.json",
        "{'id': '" MC "a/agentPools/sys', 'name': 'sys', 'mode': 'System',"
        " 'count': 3}");
    assert_string_equal(st.items[0].pools[0].mode, "System");
    assert_true(st.items[0].has_pools);
    assert_false(st.items[0].pool_list);
    free(path);
    path = read_text(&st, "list.json",
        "[{'id': '" MC "b/agentPools/u', 'name': 'u', 'mode': 'User'},"
        " {'id': '" MC "b/agentPools/v', 'name': 'v', 'mode': ''}]");
    assert_string_equal(st.items[1].pools[0].mode, "User");
    assert_null(st.items[1].pools[1].mode);          /* "" is unset */
    assert_true(st.items[1].pool_list);
    free(path);
    path = read_text(&st, "show.json",
        "{'id': '" MC "c', 'agentPoolProfiles': [{'name': 'x',"
        " 'mode': 'System'}]}");
    assert_true(st.items[2].pool_list);
    free(path);
    ndp_states_release(&st);
}

/* Which shapes are a cluster, a configuration or a pool. */
static void shapes__recognised_by_what_they_hold(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;
    const struct ndp_state_cluster *c;
    char *path;

    (void)state;
    /* kubernetesVersion alone makes a cluster when the id says so. */
    path = read_text(&st, "version-only.json",
                     "{'id': '" MC "v', 'kubernetesVersion': '1.31.2'}");
    free(path);
    /* The legacy 'default' configuration: timeInWeek, no window. */
    path = read_text(&st, "default.json",
                     "{'id': '" MC "v/maintenanceConfigurations/default',"
                     " 'name': 'default', 'timeInWeek': [{'day': 'Monday'}]}");
    free(path);
    /* The node OS configuration by name in any case; null window: other. */
    path = read_text(&st, "nodeos.json",
                     "[{'id': '" MC "v/maintenanceConfigurations/x',"
                     " 'name': 'aksmanagednodeosupgradeschedule',"
                     " 'maintenanceWindow': {'durationHours': 6}},"
                     " {'id': '" MC "w/maintenanceConfigurations/y',"
                     " 'name': 'aksManagedNodeOSUpgradeSchedule',"
                     " 'maintenanceWindow': null}]");
    free(path);
    assert_int_equal(st.nr, 2);
    c = &st.items[0];
    assert_string_equal(c->version, "1.31.2");
    assert_true(c->has_window_list);
    assert_string_equal(c->other_windows, "default");
    assert_non_null(c->window);
    c = &st.items[1];
    assert_null(c->window);
    assert_string_equal(c->other_windows, "aksManagedNodeOSUpgradeSchedule");
    ndp_states_release(&st);
}

/* A later node OS window replaces an earlier one of the same cluster. */
static void windows__a_later_file_replaces_the_window(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;

    (void)state;
    read_ok(&st, STATE("mc-show-nodeos.json"));
    free(read_text(&st, "later.json",
                   "{'id': '" FIXTURE_ID "/maintenanceConfigurations/"
                   "aksManagedNodeOSUpgradeSchedule', 'name': "
                   "'aksManagedNodeOSUpgradeSchedule', 'maintenanceWindow': "
                   "{'durationHours': 12}}"));
    assert_int_equal(st.nr, 1);
    assert_int_equal(json_object_get_int(json_object_object_get(
                         st.items[0].window, "durationHours")), 12);
    ndp_states_release(&st);
}

/*
 * Ids in another case are one cluster, whose sources name each file once,
 * compared whole: "show.json" is named after "show.json.old".
 */
static void merge__ids_in_any_case_each_file_once_compared_whole(
    void **state)
{
    struct ndp_states st = NDP_STATES_INIT;
    struct ndp_buf want = NDP_BUF_INIT;
    char *a, *b;

    (void)state;
    a = read_text(&st, "show.json.old", "{'id': '" MC "AKS', "
                  "'kubernetesVersion': '1.30.0', 'nodeDisruptionProfile': "
                  "{'nodeDisruptionPolicy': 'Allow'}}");
    b = read_text(&st, "show.json",
                  "[{'id': '/SUBSCRIPTIONS/0/RESOURCEGROUPS/RG/PROVIDERS/"
                  "MICROSOFT.CONTAINERSERVICE/MANAGEDCLUSTERS/AKS/agentPools/"
                  "p1', 'name': 'p1'},"
                  " {'id': '" MC "aks/AGENTPOOLS/p2', 'name': 'p2'}]");
    read_ok(&st, a); /* read again: named once */
    assert_int_equal(st.nr, 1);
    assert_string_equal(st.items[0].id, MC "AKS"); /* as first written */
    assert_string_equal(st.items[0].name, "AKS");
    assert_int_equal(st.items[0].profile, NDP_PROFILE_ALLOW);
    assert_int_equal(st.items[0].nr_pools, 2);
    ndp_buf_addf(&want, "%s, %s", a, b);
    assert_string_equal(st.items[0].sources, want.buf);
    ndp_buf_release(&want);
    free(a);
    free(b);
    ndp_states_release(&st);
}

/* Configurations that do not count, each named once, compared whole. */
static void other_windows__each_name_once_compared_whole(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;

    (void)state;
    free(read_text(&st, "others.json",
                   "[{'id': '" MC "o/maintenanceConfigurations/a', 'name': "
                   "'defaultOld', 'timeInWeek': []},"
                   " {'id': '" MC "o/maintenanceConfigurations/b', 'name': "
                   "'default', 'timeInWeek': []},"
                   " {'id': '" MC "o/maintenanceConfigurations/c', 'name': "
                   "'default', 'timeInWeek': []},"
                   " {'id': '" MC "o/maintenanceConfigurations/d', 'name': "
                   "'aksManagedAutoUpgradeSchedule', 'maintenanceWindow': "
                   "{'durationHours': 4}}]"));
    assert_string_equal(st.items[0].other_windows, "defaultOld, default, "
                        "aksManagedAutoUpgradeSchedule");
    assert_null(st.items[0].window);
    ndp_states_release(&st);
}

/* ---- refusals: one line naming the file, "FILE" for its path ---- */

struct refusal {
    const char *name;
    const char *text;       /* the file, ' for " */
    int code;
    const char *message;
};

#define NOT_AZ "is not 'az aks show', 'az aks maintenanceconfiguration " \
               "list|show', 'az aks nodepool list|show' or 'kubectl get " \
               "pdb,deploy,statefulset -A -o json' output"
#define EXPECTED "expected 'az aks show -o json', 'az aks " \
                 "maintenanceconfiguration list -o json', 'az aks " \
                 "nodepool list -o json' or 'kubectl get " \
                 "pdb,deploy,statefulset -A -o json' output"

static const struct refusal refusals[] = {
    { "another resource", "{'id': '/subscriptions/0/resourceGroups/rg/"
      "providers/Microsoft.Network/virtualNetworks/v', 'name': 'v'}",
      NDP_ESCHEMA, "'FILE' " NOT_AZ },
    { "an empty object", "{}", NDP_ESCHEMA, "'FILE' " NOT_AZ },
    { "a number", "42", NDP_ESCHEMA, "'FILE' " NOT_AZ },
    { "a list holding another resource after a cluster",
      "[{'id': '" MC "a', 'kubernetesVersion': '1.30.0'}, {'name': 'x'}]",
      NDP_ESCHEMA, "'FILE' (an element) " NOT_AZ },
    { "a list holding a string", "['aks']", NDP_ESCHEMA,
      "'FILE' (an element) " NOT_AZ },
    { "kubernetesVersion with an id that names no cluster",
      "{'id': '/subscriptions/0/x', 'kubernetesVersion': '1.30.0'}",
      NDP_ESCHEMA, "'FILE' " NOT_AZ },
    { "a cluster without an id", "{'agentPoolProfiles': []}", NDP_ESCHEMA,
      "'FILE' looks like 'az aks show' output but has no 'id'" },
    { "a cluster whose id is not a string",
      "{'id': 7, 'nodeDisruptionProfile': {}}", NDP_ESCHEMA,
      "'FILE' looks like 'az aks show' output but has no 'id'" },
    { "an unknown disruption policy", "{'id': '" MC "a', "
      "'nodeDisruptionProfile': {'nodeDisruptionPolicy': 'Sometimes'}}",
      NDP_ESCHEMA, "'FILE': unknown nodeDisruptionPolicy 'Sometimes'" },
    { "a configuration without a name", "{'id': '" MC "a/"
      "maintenanceConfigurations/x', 'maintenanceWindow': {}}", NDP_ESCHEMA,
      "'FILE': a maintenance configuration without the 'id' of its "
      "cluster or a 'name'" },
    { "a configuration without an id", "{'name': 'default', "
      "'timeInWeek': []}", NDP_ESCHEMA,
      "'FILE': a maintenance configuration without the 'id' of its "
      "cluster or a 'name'" },
    { "a configuration whose id names no configuration",
      "{'id': '" MC "a', 'name': 'default', 'maintenanceWindow': {}}",
      NDP_ESCHEMA, "'FILE': a maintenance configuration without the 'id' "
      "of its cluster or a 'name'" },
    { "a pool without a name", "[{'id': '" MC "a/agentPools/p'}]",
      NDP_ESCHEMA, "'FILE': a node pool without the 'id' of its cluster "
      "or a 'name'" },
    { "a kubectl List without items", "{'apiVersion': 'v1', 'kind': "
      "'List', 'metadata': {}}", NDP_ESCHEMA,
      "'FILE': a kubectl List without an 'items' array" },
    { "a kubectl List holding a string", "{'apiVersion': 'v1', 'kind': "
      "'List', 'items': ['pdb']}", NDP_ESCHEMA,
      "'FILE': item 0 of the kubectl List is not a Kubernetes object (no "
      "apiVersion, kind and metadata)" },
    { "a kubectl object of another kind alone", "{'apiVersion': 'v1', "
      "'kind': 'Service', 'metadata': {'name': 's'}}", NDP_ESCHEMA,
      "'FILE' " NOT_AZ },
    { "empty", "", NDP_ESCHEMA, "'FILE' is empty; " EXPECTED },
    { "an error message instead of JSON",
      "ERROR: (AuthorizationFailed) The client does not have authorization",
      NDP_EPARSE, "'FILE' is not JSON (it begins with a word, as text "
      "output, an error message or a configuration file does); " EXPECTED
      ", not text output or an error message" },
    { "cut short", "[{'id': '" MC "a'", NDP_EPARSE,
      "'FILE' ends in the middle of the JSON document (truncated at line 1, "
      "byte 99)" },
};

static void refusal_test(void **state)
{
    const struct refusal *row = *state;
    struct ndp_states st = NDP_STATES_INIT;
    struct ndp_error err = NDP_ERROR_INIT;
    char *path = test_write_json("refused.json", row->text);
    char *want = test_with_path(row->message, path);

    assert_int_equal(ndp_state_read(&st, path, MAX_BYTES, &err), row->code);
    assert_string_equal(err.msg, want);
    assert_null(strchr(err.msg, '\n'));
    ndp_states_release(&st);
    free(want);
    free(path);
}

/* The fixtures that are no state, a missing file, a file past the limit. */
static void refusals__fixtures_missing_and_too_large(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;
    struct ndp_error err = NDP_ERROR_INIT;
    char *missing = test_path("missing.json");

    (void)state;
    assert_int_equal(ndp_state_read(&st, STATE("az-error.json"), MAX_BYTES,
                                    &err), NDP_EPARSE);
    assert_string_equal(err.msg, "'" STATE("az-error.json") "' is not JSON "
                        "(it begins with a word, as text output, an error "
                        "message or a configuration file does); " EXPECTED ", not text output "
                        "or an error message");
    ndp_error_clear(&err);
    assert_int_equal(ndp_state_read(&st, STATE("not-aks.json"), MAX_BYTES,
                                    &err), NDP_ESCHEMA);
    assert_string_equal(err.msg, "'" STATE("not-aks.json") "' " NOT_AZ);
    ndp_error_clear(&err);
    assert_int_equal(ndp_state_read(&st, missing, MAX_BYTES, &err), NDP_EIO);
    assert_non_null(strstr(err.msg, missing));
    assert_non_null(strstr(err.msg, "No such file or directory"));
    ndp_error_clear(&err);
    assert_int_equal(ndp_state_read(&st, STATE("aks-show-block.json"), 100,
                                    &err), NDP_ELIMIT);
    assert_string_equal(err.msg, "'" STATE("aks-show-block.json") "' is "
                        "larger than the input limit of 100 bytes (see "
                        "--max-input-bytes)");
    assert_int_equal(st.nr, 0);
    ndp_states_release(&st);
    free(missing);
}

/*
 * Hostile text in an id or a policy is kept as written in the message
 * (error.h: escaped where it is printed), and printed on one line.
 */
static void refusals__hostile_text_printed_on_one_line(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;
    struct ndp_error err = NDP_ERROR_INIT;
    char *path = test_write_json("hostile.json",
        "{'id': '" MC "a', 'nodeDisruptionProfile': {'nodeDisruptionPolicy':"
        " 'Block\\n::error file=main.tf,line=1::FORGED\\u001b[31m'}}");
    char *printed = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&printed, &len);

    (void)state;
    assert_int_equal(ndp_state_read(&st, path, MAX_BYTES, &err),
                     NDP_ESCHEMA);
    assert_non_null(strstr(err.msg, "'Block\n::error file=main.tf,line=1::"
                                    "FORGED\x1b[31m'"));
    assert_non_null(f);
    ndp_error_print(f, &err);
    fclose(f);
    assert_non_null(strstr(printed, path));
    assert_ptr_equal(strchr(printed, '\n'), printed + len - 1);
    assert_null(strchr(printed, '\x1b'));
    free(printed);
    ndp_states_release(&st);
    free(path);
}

/* ---- lists and lookups ---- */

/* An empty list says nothing of a cluster: its file is kept as unmatched. */
static void lists__empty_list_names_its_file(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;
    char *a = read_text(&st, "none.json", "[]");
    char *b = read_text(&st, "none-either.json", " [ ] ");

    (void)state;
    assert_int_equal(st.nr, 0);
    assert_int_equal(st.nr_unmatched, 2);
    assert_string_equal(st.unmatched_files[0], a);
    assert_string_equal(st.unmatched_files[1], b);
    assert_null(ndp_states_find_id(&st, MC "a"));
    free(a);
    free(b);
    ndp_states_release(&st);
    assert_int_equal(st.nr_unmatched, 0);
    assert_null(st.unmatched_files);
}

/* kubectl's List: budgets and workloads kept, other kinds passed over,
 * no cluster made of them; one object alone read too. */
static void kubectl__budgets_and_workloads(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;
    char *a = read_text(&st, "pdbs.json", "{'apiVersion': 'v1', 'kind': "
        "'List', 'metadata': {'resourceVersion': ''}, 'items': ["
        "{'apiVersion': 'policy/v1', 'kind': 'PodDisruptionBudget', "
        "'metadata': {'name': 'web', 'namespace': 'shop', 'managedFields': "
        "[{'manager': 'helm'}]}, 'spec': {'minAvailable': 2, 'selector': "
        "{'matchLabels': {'app': 'web'}}}, 'status': {}}, "
        "{'apiVersion': 'v1', 'kind': 'Service', 'metadata': {'name': 's'}}, "
        "{'apiVersion': 'apps/v1', 'kind': 'Deployment', 'metadata': "
        "{'name': 'web', 'namespace': 'shop'}, 'spec': {'replicas': 2, "
        "'template': {'metadata': {'labels': {'app': 'web'}}}}}]}");
    char *b = read_text(&st, "one.json", "{'apiVersion': 'policy/v1', "
        "'kind': 'PodDisruptionBudget', 'metadata': {'name': 'db'}, "
        "'spec': {'maxUnavailable': 0}}");

    (void)state;
    assert_int_equal(st.nr, 0);
    assert_int_equal(st.nr_unmatched, 0);
    assert_int_equal(st.kube.nr_budgets, 2);
    assert_int_equal(st.kube.nr_workloads, 1);
    assert_string_equal(st.kube.budgets[0].name, "web");
    assert_string_equal(st.kube.budgets[0].origin.input, a);
    assert_null(st.kube.budgets[0].origin.address);
    assert_string_equal(st.kube.budgets[1].ns, "default");
    assert_true(ndp_kube_budget_unsatisfiable(&st.kube.budgets[1]));
    assert_int_equal(st.kube.workloads[0].replicas, 2);
    free(a);
    free(b);
    ndp_states_release(&st);
    assert_int_equal(st.kube.nr_budgets, 0);
}

/* By id in any case; by name, unique or ambiguous; absent and NULL. */
static void lookups__by_id_and_by_name(void **state)
{
    struct ndp_states st = NDP_STATES_INIT;
    bool ambiguous = true;

    (void)state;
    free(read_text(&st, "three.json",
                   "[{'id': '" MC "aks', 'kubernetesVersion': '1.30.0'},"
                   " {'id': '/subscriptions/0/resourcegroups/other/providers/"
                   "Microsoft.ContainerService/managedClusters/AKS', "
                   "'kubernetesVersion': '1.30.0'},"
                   " {'id': '" MC "solo', 'kubernetesVersion': '1.30.0'}]"));
    assert_int_equal(st.nr, 3);
    assert_ptr_equal(ndp_states_find_id(&st, MC "AKS"), &st.items[0]);
    assert_ptr_equal(ndp_states_find_id(&st, "/SUBSCRIPTIONS/0/RESOURCEGROUPS/"
                                        "OTHER/PROVIDERS/MICROSOFT."
                                        "CONTAINERSERVICE/MANAGEDCLUSTERS/aks"),
                     &st.items[1]);
    assert_null(ndp_states_find_id(&st, MC "aks2"));
    assert_null(ndp_states_find_id(&st, MC));
    assert_null(ndp_states_find_id(&st, NULL));

    assert_null(ndp_states_find_name(&st, "aks", &ambiguous));
    assert_true(ambiguous);
    assert_ptr_equal(ndp_states_find_name(&st, "SOLO", &ambiguous),
                     &st.items[2]);
    assert_false(ambiguous);
    ambiguous = true;
    assert_null(ndp_states_find_name(&st, "absent", &ambiguous));
    assert_false(ambiguous);
    ambiguous = true;
    assert_null(ndp_states_find_name(&st, NULL, &ambiguous));
    assert_false(ambiguous);
    ndp_states_release(&st);

    /* Nothing read: nothing found, no index to look in. */
    ambiguous = true;
    assert_null(ndp_states_find_id(&st, MC "aks"));
    assert_null(ndp_states_find_name(&st, "aks", &ambiguous));
    assert_false(ambiguous);
}

/* A list of 2,000 clusters and a node pool list of 5,000 pools. */
static void lists__thousands_of_clusters_and_pools(void **state)
{
    enum { CLUSTERS = 2000, POOLS = 5000 };
    struct ndp_states st = NDP_STATES_INIT;
    struct ndp_buf text = NDP_BUF_INIT, id = NDP_BUF_INIT;
    bool ambiguous;
    char *path;
    size_t i;

    (void)state;
    ndp_buf_addch(&text, '[');
    for (i = 0; i < CLUSTERS; i++)
        ndp_buf_addf(&text, "%s{\"id\": \"" MC "c%zu\", \"kubernetesVersion\":"
                     " \"1.30.%zu\"}", i ? "," : "", i, i);
    ndp_buf_addch(&text, ']');
    path = test_write_bytes("clusters.json", text.buf, text.len);
    read_ok(&st, path);
    free(path);
    ndp_buf_reset(&text);
    ndp_buf_addch(&text, '[');
    for (i = 0; i < POOLS; i++)
        ndp_buf_addf(&text, "%s{\"id\": \"" MC "c7/agentPools/p%zu\", "
                     "\"name\": \"p%zu\", \"count\": %zu}", i ? "," : "", i,
                     i, i);
    ndp_buf_addch(&text, ']');
    path = test_write_bytes("pools.json", text.buf, text.len);
    read_ok(&st, path);
    free(path);

    assert_int_equal(st.nr, CLUSTERS);
    for (i = 0; i < CLUSTERS; i++) {
        const struct ndp_state_cluster *c;
        char name[16];
        ndp_buf_reset(&id);
        ndp_buf_addf(&id, MC "C%zu", i);
        c = ndp_states_find_id(&st, id.buf);
        if (c != &st.items[i])
            fail_msg("'%s' not found as cluster %zu", id.buf, i);
        snprintf(name, sizeof(name), "c%zu", i);
        assert_ptr_equal(ndp_states_find_name(&st, name, &ambiguous), c);
    }
    assert_int_equal(st.items[7].nr_pools, POOLS);
    assert_int_equal(st.items[7].pools[POOLS - 1].count, POOLS - 1);
    assert_string_equal(st.items[7].pools[POOLS - 1].name, "p4999");
    ndp_buf_release(&text);
    ndp_buf_release(&id);
    ndp_states_release(&st);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, fixture_rows, fixture_test);
    ADD_TEST(&list, pools__fields_from_show_and_from_nodepool_list);
    ADD_TEST(&list, fields__fallbacks_and_unset_values);
    ADD_TEST(&list, pools__mode_and_whole_list);
    ADD_TEST(&list, shapes__recognised_by_what_they_hold);
    ADD_TEST(&list, windows__a_later_file_replaces_the_window);
    ADD_TEST(&list, merge__ids_in_any_case_each_file_once_compared_whole);
    ADD_TEST(&list, other_windows__each_name_once_compared_whole);
    ADD_ROWS(&list, refusals, refusal_test);
    ADD_TEST(&list, refusals__fixtures_missing_and_too_large);
    ADD_TEST(&list, refusals__hostile_text_printed_on_one_line);
    ADD_TEST(&list, lists__empty_list_names_its_file);
    ADD_TEST(&list, kubectl__budgets_and_workloads);
    ADD_TEST(&list, lookups__by_id_and_by_name);
    ADD_TEST(&list, lists__thousands_of_clusters_and_pools);
    return cmocka_run_group_tests_name("state", list.items, test_dir_make,
                                       test_dir_remove);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * test_linker.c - the clusters of a change set and which cluster each
 * change belongs to (linker.c): node pools, setters and maintenance
 * configurations linked by the ARM id they name (kubernetes_cluster_id,
 * azapi parent_id or resource_id, the prefix of a what-if id) in any
 * case, else by the Terraform address their configuration refers to
 * (exactly, or less its count/for_each key when one instance is left),
 * else to an entry of their own; inputs kept apart; the names each
 * cluster entry carries; the 'before' a setter's first apply gets; the
 * fixtures as the readers read them; and 10,000 pools over 200 clusters.
 */
#include "test_common.h"
#include "buf.h"
#include "change.h"
#include "error.h"
#include "input.h"
#include "linker.h"

#define SUB "/subscriptions/s/resourceGroups/rg/providers/" \
            "Microsoft.ContainerService/managedClusters/"
#define ID_A SUB "aks-a"
#define ID_A_UP "/SUBSCRIPTIONS/S/RESOURCEGROUPS/RG/PROVIDERS/" \
                "MICROSOFT.CONTAINERSERVICE/MANAGEDCLUSTERS/AKS-A"
#define ID_B SUB "aks-b"
#define TF_A "azurerm_kubernetes_cluster.a"
#define TF_B "azurerm_kubernetes_cluster.b"
#define TF_C "module.m.azurerm_kubernetes_cluster.c"
#define POOL "azurerm_kubernetes_cluster_node_pool."
#define NONE SIZE_MAX
#define MAXN 6

/* A change built by hand: its kind ('C', 'P', 'M', 'S') and links. */
struct ch {
    char kind;                  /* 0 ends the list */
    size_t input;               /* 0: "a.json", 1: "b.json" */
    const char *address, *self_id, *parent_id, *parent_ref;
    size_t want;                /* the cluster it must land in */
};

struct row {
    const char *name;
    struct ch changes[MAXN];
    const char *clusters[MAXN]; /* the ids of the entries, in order */
};

static const struct row rows[] = {
    { "kubernetes_cluster_id: a pool to the cluster with that id",
      { { 'C', 0, TF_A, ID_A, NULL, NULL, 0 },
        { 'P', 0, POOL "p", NULL, ID_A, NULL, 0 } },
      { TF_A } },
    { "ARM ids compare in any case",
      { { 'C', 0, TF_A, ID_A_UP, NULL, NULL, 0 },
        { 'P', 0, POOL "p", NULL, ID_A, NULL, 0 },
        { 'S', 0, "azapi_update_resource.s", NULL, ID_A_UP, NULL, 0 } },
      { TF_A } },
    { "what-if: pool and configuration by the prefix of their ids",
      { { 'C', 0, ID_A, ID_A, NULL, NULL, 0 },
        { 'P', 0, ID_A "/agentPools/p", ID_A "/agentPools/p", ID_A, NULL, 0 },
        { 'M', 0, ID_A "/maintenanceConfigurations/default", NULL, ID_A, NULL,
          0 },
        { 'C', 0, ID_B, ID_B, NULL, NULL, 1 },
        { 'P', 0, ID_B "/agentPools/p", NULL, ID_B, NULL, 1 } },
      { ID_A, ID_B } },
    { "the ARM id before the reference",
      { { 'C', 0, TF_A, ID_A, NULL, NULL, 0 },
        { 'C', 0, TF_B, ID_B, NULL, NULL, 1 },
        { 'P', 0, POOL "p", NULL, ID_A, TF_B, 0 } },
      { TF_A, TF_B } },
    { "the reference when the cluster's id is known only after apply",
      { { 'C', 0, TF_A, NULL, NULL, NULL, 0 },
        { 'P', 0, POOL "p", NULL, ID_A, TF_A, 0 },
        { 'M', 0, "azurerm_maintenance.m", NULL, NULL, TF_A, 0 } },
      { TF_A } },
    { "the reference exactly, among for_each instances",
      { { 'C', 0, TF_C "[\"x\"]", NULL, NULL, NULL, 0 },
        { 'C', 0, TF_C "[\"y\"]", NULL, NULL, NULL, 1 },
        { 'P', 0, POOL "p", NULL, NULL, TF_C "[\"y\"]", 1 } },
      { TF_C "[\"x\"]", TF_C "[\"y\"]" } },
    { "the reference less its count key, when one instance is left",
      { { 'C', 0, TF_C "[0]", NULL, NULL, NULL, 0 },
        { 'P', 0, POOL "p[0]", NULL, NULL, TF_C, 0 } },
      { TF_C "[0]" } },
    { "the reference less its key with two instances: an entry of its own",
      { { 'C', 0, TF_C "[0]", NULL, NULL, NULL, 0 },
        { 'C', 0, TF_C "[1]", NULL, NULL, NULL, 1 },
        { 'P', 0, POOL "p[0]", NULL, NULL, TF_C, 2 },
        { 'P', 0, POOL "p[1]", NULL, NULL, TF_C, 2 } },
      { TF_C "[0]", TF_C "[1]", TF_C } },
    { "a cluster not in the input: one entry by its id, in any case",
      { { 'P', 0, POOL "p", NULL, ID_A, NULL, 0 },
        { 'P', 0, POOL "q", NULL, ID_A_UP, NULL, 0 },
        { 'M', 0, "m", NULL, ID_B, NULL, 1 },
        { 'S', 0, "s", NULL, ID_B, NULL, 1 } },
      { ID_A, ID_B } },
    { "a reference to a cluster not in the input: one entry by it",
      { { 'P', 0, POOL "p", NULL, NULL, TF_A, 0 },
        { 'P', 0, POOL "q", NULL, NULL, TF_A, 0 } },
      { TF_A } },
    { "nothing to link by: an entry named by its own address",
      { { 'P', 0, POOL "x", NULL, NULL, NULL, 0 },
        { 'P', 0, POOL "y", NULL, NULL, NULL, 1 } },
      { POOL "x", POOL "y" } },
    { "inputs are not linked across",
      { { 'C', 0, TF_A, ID_A, NULL, NULL, 0 },
        { 'P', 1, POOL "p", NULL, ID_A, TF_A, 2 },
        { 'P', 1, POOL "q", NULL, ID_A, NULL, 2 },
        { 'C', 1, TF_B, ID_B, NULL, NULL, 1 },
        { 'P', 0, POOL "r", NULL, ID_B, NULL, 3 } },
      { TF_A, TF_B, ID_A, ID_B } },
    { "a change before its cluster in the input",
      { { 'P', 0, POOL "p", NULL, ID_A, NULL, 0 },
        { 'S', 0, "s", NULL, NULL, TF_A, 0 },
        { 'C', 0, TF_A, ID_A, NULL, NULL, 0 } },
      { TF_A } },
    { "two clusters with one ARM id: the first of them",
      { { 'C', 0, TF_A, ID_A, NULL, NULL, 0 },
        { 'C', 0, TF_B, ID_A, NULL, NULL, 1 },
        { 'P', 0, POOL "p", NULL, ID_A_UP, NULL, 0 } },
      { TF_A, TF_B } },
    { "a cluster's own change is its entry, whatever it names",
      { { 'C', 0, TF_A, ID_A, ID_B, TF_B, 0 },
        { 'C', 0, TF_B, ID_B, NULL, NULL, 1 } },
      { TF_A, TF_B } },
};

static const enum ndp_kind kinds[] = {
    ['C'] = NDP_KIND_CLUSTER, ['P'] = NDP_KIND_NODEPOOL,
    ['M'] = NDP_KIND_MAINTENANCE, ['S'] = NDP_KIND_SETTER,
};

static char *dup_or_null(const char *s)
{
    return s ? ndp_xstrdup(s) : NULL;
}

/* A change of 'kind' at 'address', added to 'set' (which owns it). */
static struct ndp_change *add_change(struct ndp_changeset *set, size_t input,
                                     enum ndp_kind kind, const char *address)
{
    struct ndp_change *c = ndp_changeset_add(set, input);

    c->kind = kind;
    c->address = ndp_xstrdup(address);
    return c;
}

/* The set a row describes: inputs "a.json" and "b.json", then its changes. */
static void build(struct ndp_changeset *set, const struct ch *changes)
{
    size_t i;

    ndp_changeset_add_input(set, "a.json");
    ndp_changeset_add_input(set, "b.json");
    for (i = 0; i < MAXN && changes[i].kind; i++) {
        struct ndp_change *c = add_change(
            set, changes[i].input, kinds[(unsigned char)changes[i].kind],
            changes[i].address);
        c->action = NDP_ACTION_UPDATE;
        c->self_id = dup_or_null(changes[i].self_id);
        c->parent_id = dup_or_null(changes[i].parent_id);
        c->parent_ref = dup_or_null(changes[i].parent_ref);
        c->cluster = NONE;
    }
}

static void row_test(void **state)
{
    const struct row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_clusters cl = NDP_CLUSTERS_INIT;
    size_t i, n = 0;

    build(&set, row->changes);
    ndp_link(&cl, &set);
    while (n < MAXN && row->clusters[n])
        n++;
    if (cl.nr != n)
        fail_msg("%zu clusters, want %zu", cl.nr, n);
    for (i = 0; i < n; i++)
        if (strcmp(cl.items[i].id, row->clusters[i]) != 0)
            fail_msg("cluster %zu is '%s', want '%s'", i, cl.items[i].id,
                     row->clusters[i]);
    for (i = 0; i < set.nr; i++) {
        const struct ndp_change *c = set.items[i];
        if (c->cluster != row->changes[i].want)
            fail_msg("'%s' in cluster %zu, want %zu", c->address, c->cluster,
                     row->changes[i].want);
        /* Linked within its own input. */
        assert_ptr_equal(cl.items[c->cluster].input, c->input);
    }
    ndp_clusters_release(&cl);
    ndp_changeset_release(&set);
}

/* A change set of one input, "plan.json", and its clusters once linked. */
struct linked {
    struct ndp_changeset set;
    struct ndp_clusters cl;
};

static void linked_begin(struct linked *l)
{
    memset(l, 0, sizeof(*l));
    ndp_changeset_add_input(&l->set, "plan.json");
}

static void linked_end(struct linked *l)
{
    ndp_clusters_release(&l->cl);
    ndp_changeset_release(&l->set);
}

/* ---- what each entry carries ---- */

/* The entries' ids, ARM ids, changes, names and resource groups. */
static void entries__ids_changes_and_names(void **state)
{
    struct linked l;
    struct ndp_change *c;
    const struct ndp_cluster *e;

    (void)state;
    linked_begin(&l);
    /* 0: azurerm, its names as the plan shows them. */
    c = add_change(&l.set, 0, NDP_KIND_CLUSTER, TF_A);
    c->self_id = ndp_xstrdup(ID_A);
    c->shown_name = ndp_xstrdup("aks-shown");
    c->shown_group = ndp_xstrdup("rg-shown");
    /* 1: azurerm with sensitive names: none, not the id's. */
    c = add_change(&l.set, 0, NDP_KIND_CLUSTER, TF_B);
    c->self_id = ndp_xstrdup(ID_B);
    /* 2: what-if, named by its id; 3: only a group is shown. */
    add_change(&l.set, 0, NDP_KIND_CLUSTER, SUB "aks-w");
    c = add_change(&l.set, 0, NDP_KIND_CLUSTER, SUB "aks-g");
    c->shown_group = ndp_xstrdup("rg-only");
    /* Entries of their own: an id, a template expression, a reference. */
    c = add_change(&l.set, 0, NDP_KIND_NODEPOOL, POOL "p");
    c->parent_id = ndp_xstrdup(SUB "aks-x");
    c = add_change(&l.set, 0, NDP_KIND_NODEPOOL, POOL "q");
    c->parent_id = ndp_xstrdup("/subscriptions/s/resourceGroups/"
                               "[parameters('rg')]/providers/Microsoft."
                               "ContainerService/managedClusters/"
                               "[parameters('name')]");
    c = add_change(&l.set, 0, NDP_KIND_NODEPOOL, POOL "r");
    c->parent_ref = ndp_xstrdup("azurerm_kubernetes_cluster.gone");
    ndp_link(&l.cl, &l.set);
    assert_int_equal(l.cl.nr, 7);

    e = &l.cl.items[0];
    assert_string_equal(e->id, TF_A);
    assert_string_equal(e->arm_id, ID_A);
    assert_string_equal(e->input, "plan.json");
    assert_ptr_equal(e->input, l.set.inputs[0].path);
    assert_int_equal(e->change, 0);
    assert_string_equal(e->name, "aks-shown");
    assert_string_equal(e->resource_group, "rg-shown");
    e = &l.cl.items[1];
    assert_int_equal(e->change, 1);
    assert_null(e->name);
    assert_null(e->resource_group);
    e = &l.cl.items[2];
    assert_null(e->arm_id); /* what-if: self_id not set here */
    assert_string_equal(e->name, "aks-w");
    assert_string_equal(e->resource_group, "rg");
    e = &l.cl.items[3];
    assert_null(e->name);
    assert_string_equal(e->resource_group, "rg-only");
    e = &l.cl.items[4];
    assert_string_equal(e->id, SUB "aks-x");
    assert_string_equal(e->arm_id, SUB "aks-x");
    assert_int_equal(e->change, SIZE_MAX);
    assert_string_equal(e->name, "aks-x");
    assert_string_equal(e->resource_group, "rg");
    e = &l.cl.items[5];
    assert_null(e->name);
    assert_null(e->resource_group);
    e = &l.cl.items[6];
    assert_string_equal(e->id, "azurerm_kubernetes_cluster.gone");
    assert_null(e->arm_id);
    assert_int_equal(e->change, SIZE_MAX);
    assert_null(e->name);
    ndp_clusters_release(&l.cl);
    assert_int_equal(l.cl.nr, 0);
    assert_null(l.cl.items);
    ndp_clusters_release(&l.cl); /* twice: nothing left */
    ndp_changeset_release(&l.set);
}

/* An empty set has no clusters. */
static void empty__no_clusters(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_clusters cl = NDP_CLUSTERS_INIT;

    (void)state;
    ndp_link(&cl, &set);
    assert_int_equal(cl.nr, 0);
    ndp_clusters_release(&cl);
}

/* ---- a setter's first apply: the 'before' it is compared with ---- */

struct first_apply_row {
    const char *name;
    char cluster;               /* 'A' ARM with a before, 'N' ARM being
                                   created, 'R' azurerm, 'r' azurerm being
                                   created, 0 none in input */
    const char *cluster_before; /* ' for " */
    enum ndp_action action;
    const char *setter_before, *setter_after;
    const char *want_before;    /* NULL: left NULL */
    bool want_unknown;
    const char *cluster_after;  /* ' for " */
    /* The cluster's version facts: declared after, reported before (AKS
     * running it), declared before; under a mask. */
    const char *version_after, *version_reported, *version_declared;
    bool version_sensitive;
};

#define NO_FACTS NULL, NULL, NULL, NULL, false
#define KV_BODY(v) "{'properties': {'kubernetesVersion': '" v "'}}"
#define KV_AND_PROFILE(v) "{'properties': {'kubernetesVersion': '" v "', " \
    "'nodeDisruptionProfile': {'nodeDisruptionPolicy': 'Block'}}}"

#define BODY "{'properties': {'networkProfile': {'networkPolicy': 'calico'}}}"

static const struct first_apply_row first_apply_rows[] = {
    { "first apply: the cluster's values at the places the setter sets",
      'A', "{'properties': {'networkProfile': {'networkPolicy': 'azure', "
      "'podCidr': 'x'}, 'kubernetesVersion': '1.30'}}", NDP_ACTION_CREATE,
      NULL, BODY, "{'properties': {'networkProfile': {'networkPolicy': "
      "'azure'}}}", false, NO_FACTS },
    { "first apply: a whole array or value below the first non-object",
      'A', "{'properties': {'agentPoolProfiles': [{'name': 'a'}], "
      "'networkProfile': 'odd'}}", NDP_ACTION_CREATE, NULL,
      "{'properties': {'agentPoolProfiles': [{'name': 'b'}], "
      "'networkProfile': {'networkPolicy': 'calico'}}}",
      "{'properties': {'agentPoolProfiles': [{'name': 'a'}], "
      "'networkProfile': 'odd'}}", false, NO_FACTS },
    { "first apply: the cluster holds none of it, so it is unset",
      'A', "{'properties': {'kubernetesVersion': '1.30', 'networkProfile': "
      "{'networkPolicy': null}}}", NDP_ACTION_CREATE, NULL, BODY,
      "{'properties': {'networkProfile': {}}}", false, NO_FACTS },
    { "first apply: a cluster being created tells nothing",
      'N', NULL, NDP_ACTION_CREATE, NULL, BODY, "{}", true, NO_FACTS },
    { "first apply: an azurerm cluster is in other terms",
      'R', "{'network_profile': [{'network_policy': 'azure'}]}",
      NDP_ACTION_CREATE, NULL, BODY, "{}", true, NO_FACTS },
    { "first apply: the cluster is not in the input",
      0, NULL, NDP_ACTION_CREATE, NULL, BODY, "{}", true, NO_FACTS },
    { "first apply: a cluster being created holds what its body declares",
      'N', NULL, NDP_ACTION_CREATE, NULL, KV_AND_PROFILE("1.29"),
      KV_BODY("1.29"), true, "{'properties': {'kubernetesVersion': "
      "'1.29', 'networkProfile': {'networkPolicy': 'azure'}}}", NULL, NULL,
      NULL, false },
    { "first apply: an azurerm cluster being created tells its version",
      'r', NULL, NDP_ACTION_CREATE, NULL, KV_AND_PROFILE("1.29"),
      KV_BODY("1.29"), true, NULL, "1.29", NULL, NULL, false },
    { "first apply: an azurerm cluster's version as AKS reports it",
      'R', "{'kubernetes_version': '1.30'}", NDP_ACTION_CREATE, NULL,
      KV_BODY("1.31"), KV_BODY("1.30.7"), true, NULL, "1.30", "1.30.7",
      "1.30", false },
    { "first apply: an azurerm cluster's version after its own upgrade",
      'R', "{'kubernetes_version': '1.30.7'}", NDP_ACTION_CREATE, NULL,
      KV_BODY("1.31"), KV_BODY("1.31"), true, NULL, "1.31", "1.30.7",
      "1.30.7", false },
    { "first apply: else as the azurerm cluster declares it",
      'R', "{'kubernetes_version': '1.30'}", NDP_ACTION_CREATE, NULL,
      KV_BODY("1.31"), KV_BODY("1.30"), true, NULL, "1.30", NULL, "1.30",
      false },
    { "first apply: a version under a mask is not told",
      'r', NULL, NDP_ACTION_CREATE, NULL, KV_BODY("1.29"), "{}", true, NULL,
      "1.29", NULL, NULL, true },
    { "first apply: a version the setter does not set is not told",
      'r', NULL, NDP_ACTION_CREATE, NULL, BODY, "{'properties': {}}", true,
      NULL, "1.29",
      NULL, NULL, false },
    { "an update has its own before", 'A', "{'properties': {}}",
      NDP_ACTION_UPDATE, NULL, BODY, NULL, false, NO_FACTS },
    { "a create with a before keeps it", 'A', "{'properties': {}}",
      NDP_ACTION_CREATE, "{'properties': {'x': 1}}", BODY,
      "{'properties': {'x': 1}}", false, NO_FACTS },
};

static void first_apply_test(void **state)
{
    const struct first_apply_row *row = *state;
    struct linked l;
    struct ndp_change *c, *setter;

    linked_begin(&l);
    if (row->cluster) {
        bool azurerm = row->cluster == 'R' || row->cluster == 'r';
        c = add_change(&l.set, 0, NDP_KIND_CLUSTER, azurerm ? TF_A : ID_A);
        c->self_id = ndp_xstrdup(ID_A);
        c->notation = azurerm ? NDP_NOTATION_AZURERM : NDP_NOTATION_ARM;
        c->action = row->cluster == 'N' || row->cluster == 'r'
                        ? NDP_ACTION_CREATE : NDP_ACTION_UPDATE;
        c->before = test_json(row->cluster_before);
        c->after = test_json(row->cluster_after);
        c->facts.declared_version_after = row->version_after;
        c->facts.reported_version_before = row->version_reported;
        c->facts.declared_version_before = row->version_declared;
        c->facts.versions_sensitive = row->version_sensitive;
    }
    setter = add_change(&l.set, 0, NDP_KIND_SETTER, "azapi_update_resource.s");
    setter->notation = NDP_NOTATION_ARM;
    setter->parent_id = ndp_xstrdup(ID_A_UP);
    setter->action = row->action;
    setter->before = test_json(row->setter_before);
    setter->after = test_json(row->setter_after);
    ndp_link(&l.cl, &l.set);
    assert_int_equal(l.cl.nr, 1);
    assert_int_equal(setter->cluster, 0);
    if (!row->want_before) {
        assert_null(setter->before);
    } else {
        struct json_object *want = test_json(row->want_before);
        if (!json_object_equal(setter->before, want))
            fail_msg("before is %s, want %s",
                     json_object_to_json_string(setter->before),
                     row->want_before);
        json_object_put(want);
    }
    assert_int_equal(setter->before_unknown, row->want_unknown);
    linked_end(&l);
}

/* A pool's first apply is left alone: only setters are projected. */
static void first_apply__only_setters(void **state)
{
    struct linked l;
    struct ndp_change *c;

    (void)state;
    linked_begin(&l);
    c = add_change(&l.set, 0, NDP_KIND_CLUSTER, ID_A);
    c->notation = NDP_NOTATION_ARM;
    c->self_id = ndp_xstrdup(ID_A);
    c->before = test_json("{'properties': {}}");
    c = add_change(&l.set, 0, NDP_KIND_NODEPOOL, ID_A "/agentPools/p");
    c->notation = NDP_NOTATION_ARM;
    c->action = NDP_ACTION_CREATE;
    c->parent_id = ndp_xstrdup(ID_A);
    c->after = test_json("{'properties': {'count': 3}}");
    ndp_link(&l.cl, &l.set);
    assert_int_equal(c->cluster, 0);
    assert_null(c->before);
    assert_false(c->before_unknown);
    linked_end(&l);
}

/* ---- the fixtures, as the readers read them ---- */

struct fixture_row {
    const char *name;
    const char *file;               /* under fixtures/ */
    const char *links[8][2];        /* address -> cluster id */
};

#define ZERO "/subscriptions/00000000-0000-0000-0000-000000000000/"
#define MCS "/providers/Microsoft.ContainerService/managedClusters/"

static const struct fixture_row fixture_rows[] = {
    { "azurerm pool and azapi setter by kubernetes_cluster_id and id",
      "example-plan.json",
      { { "azapi_update_resource.node_disruption",
          "azurerm_kubernetes_cluster.main" },
        { "azurerm_kubernetes_cluster.main",
          "azurerm_kubernetes_cluster.main" },
        { "azurerm_kubernetes_cluster_node_pool.user",
          "azurerm_kubernetes_cluster.main" } } },
    { "azapi pools by parent_id, their cluster not in the plan",
      "azapi-agentpools.json",
      { { "azapi_resource.pool[\"apps\"]", ZERO "resourceGroups/rg-prod" MCS
          "aks-prod" },
        { "azapi_update_resource.node_disruption", ZERO
          "resourceGroups/rg-prod" MCS "aks-prod" } } },
    { "pools in modules by reference, the unknown id by its instance",
      "modules-count-foreach.json",
      { { "module.aks[\"northeurope\"].azurerm_kubernetes_cluster_node_pool."
          "user[0]", "module.aks[\"northeurope\"].azurerm_kubernetes_cluster."
          "main" },
        { "module.aks[\"westeurope\"].azurerm_kubernetes_cluster_node_pool."
          "user[1]", "module.aks[\"westeurope\"].azurerm_kubernetes_cluster."
          "main" },
        { "module.platform.module.aks.azurerm_kubernetes_cluster_node_pool."
          "batch[0]", "module.platform.module.aks.azurerm_kubernetes_cluster."
          "main" } } },
    { "what-if: pool and node OS configuration by the prefix of their ids",
      "whatif-rest-pools-window.json",
      { { ZERO "resourceGroups/rg-shop" MCS "aks-shop/agentPools/batch",
          ZERO "resourceGroups/rg-shop" MCS "aks-shop" },
        { ZERO "resourceGroups/rg-shop" MCS "aks-shop/maintenanceConfigurations"
          "/aksManagedNodeOSUpgradeSchedule",
          ZERO "resourceGroups/rg-shop" MCS "aks-shop" } } },
    { "what-if: a pool listed before its cluster",
      "whatif-cli-unsupported-reorder.json",
      { { ZERO "resourceGroups/rg-shop" MCS "aks-shop/agentPools/gpu",
          ZERO "resourceGroups/rg-shop" MCS "aks-shop" } } },
    { "setters by resource_id, each to its own cluster",
      "setter-first-apply.json",
      { { "azapi_update_resource.calico", "azapi_resource.cluster" },
        { "azapi_update_resource.core_calico",
          "azurerm_kubernetes_cluster.core" } } },
    { "ARM template: a configuration to the single cluster",
      "template-window-rules.json",
      { { "Microsoft.ContainerService/managedClusters/"
          "maintenanceConfigurations 'aks-tpl/aksManagedNodeOSUpgradeSchedule'",
          "Microsoft.ContainerService/managedClusters 'aks-tpl'" } } },
};

static void fixture_test(void **state)
{
    const struct fixture_row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_clusters cl = NDP_CLUSTERS_INIT;
    struct ndp_input_options in = { .max_bytes =
                                        NDP_DEFAULT_MAX_INPUT_BYTES };
    struct ndp_error err = NDP_ERROR_INIT;
    size_t i, j;
    struct ndp_buf path = NDP_BUF_INIT;

    ndp_buf_addf(&path, "%s/%s", NDP_FIXTURES_DIR, row->file);
    if (ndp_input_read(&set, path.buf, &in, &err) != 0)
        fail_msg("%s", err.msg);
    ndp_buf_release(&path);
    ndp_link(&cl, &set);
    for (i = 0; i < NDP_ARRAY_SIZE(row->links) && row->links[i][0]; i++) {
        const struct ndp_change *c = NULL;
        for (j = 0; j < set.nr && !c; j++)
            if (strcmp(set.items[j]->address, row->links[i][0]) == 0)
                c = set.items[j];
        if (!c)
            fail_msg("no change '%s'", row->links[i][0]);
        if (strcmp(cl.items[c->cluster].id, row->links[i][1]) != 0)
            fail_msg("'%s' in '%s', want '%s'", c->address,
                     cl.items[c->cluster].id, row->links[i][1]);
    }
    /* Every change has a cluster of the list. */
    for (j = 0; j < set.nr; j++)
        assert_true(set.items[j]->cluster < cl.nr);
    ndp_clusters_release(&cl);
    ndp_changeset_release(&set);
}

/* ---- order (input_order.c) ---- */

/* Whether order node 'from' waits for 'to', through any chain. */
static bool waits_for(const struct ndp_changeset *set, size_t from, size_t to)
{
    bool *seen = ndp_xcalloc(set->nr_order, sizeof(*seen));
    size_t *queue = ndp_xcalloc(set->nr_order, sizeof(*queue));
    size_t head = 0, tail = 0, i;
    bool found = false;

    queue[tail++] = from;
    while (head < tail && !found) {
        const struct ndp_order_node *n = &set->order[queue[head++]];
        for (i = 0; i < n->nr; i++) {
            if (n->deps[i] == to)
                found = true;
            if (!seen[n->deps[i]]) {
                seen[n->deps[i]] = true;
                queue[tail++] = n->deps[i];
            }
        }
    }
    free(seen);
    free(queue);
    return found;
}

static size_t order_of(const struct ndp_changeset *set, const char *address)
{
    size_t j;

    for (j = 0; j < set->nr; j++)
        if (strcmp(set->items[j]->address, address) == 0) {
            assert_true(set->items[j]->order_node > 0);
            return set->items[j]->order_node - 1;
        }
    fail_msg("no change '%s'", address);
    return 0;
}

/*
 * concurrent-puts.json: a literal resource_id orders nothing; a reference,
 * a depends_on and a module input that references the cluster do.
 */
static void order__references_depends_on_and_module_inputs(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_input_options in = { .max_bytes =
                                        NDP_DEFAULT_MAX_INPUT_BYTES };
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_buf path = NDP_BUF_INIT;
    size_t a, a_set, a_pool, b, b_set, c, c_set;

    (void)state;
    ndp_buf_addf(&path, "%s/concurrent-puts.json", NDP_FIXTURES_DIR);
    if (ndp_input_read(&set, path.buf, &in, &err) != 0)
        fail_msg("%s", err.msg);
    ndp_buf_release(&path);
    a = order_of(&set, "azurerm_kubernetes_cluster.a");
    a_set = order_of(&set, "azapi_update_resource.a_os_channel");
    a_pool = order_of(&set, "azurerm_kubernetes_cluster_node_pool.a_user");
    b = order_of(&set, "azurerm_kubernetes_cluster.b");
    b_set = order_of(&set, "azapi_update_resource.b_os_channel");
    c = order_of(&set, "azurerm_kubernetes_cluster.c");
    c_set = order_of(&set, "module.ops.azapi_update_resource.os_channel");
    assert_false(waits_for(&set, a_set, a));
    assert_false(waits_for(&set, a, a_set));
    assert_true(waits_for(&set, a_pool, a));
    assert_false(waits_for(&set, a_pool, a_set));
    assert_true(waits_for(&set, b_set, b));
    assert_true(waits_for(&set, c_set, c));
    assert_false(waits_for(&set, c, c_set));
    ndp_changeset_release(&set);
}

/* ---- many ---- */

/*
 * 200 clusters with 50 pools each, listed pools first: even pools name
 * their cluster's ARM id (every other one in upper case), odd pools only
 * refer to its address.
 */
static void many__ten_thousand_pools_over_two_hundred_clusters(void **state)
{
    enum { CLUSTERS = 200, POOLS = 50 };
    struct linked l;
    struct ndp_buf b = NDP_BUF_INIT;
    size_t i, k;

    (void)state;
    linked_begin(&l);
    for (i = 0; i < CLUSTERS; i++)
        for (k = 0; k < POOLS; k++) {
            struct ndp_change *c;
            ndp_buf_reset(&b);
            ndp_buf_addf(&b, POOL "p[\"%zu-%zu\"]", i, k);
            c = add_change(&l.set, 0, NDP_KIND_NODEPOOL, b.buf);
            ndp_buf_reset(&b);
            if (k % 2) {
                ndp_buf_addf(&b, "azurerm_kubernetes_cluster.c[\"%zu\"]", i);
                c->parent_ref = ndp_xstrdup(b.buf);
            } else {
                ndp_buf_addf(&b, "%s%zu", k % 4 ? SUB "AKS-" : SUB "aks-", i);
                c->parent_id = ndp_xstrdup(b.buf);
            }
        }
    for (i = 0; i < CLUSTERS; i++) {
        struct ndp_change *c;
        ndp_buf_reset(&b);
        ndp_buf_addf(&b, "azurerm_kubernetes_cluster.c[\"%zu\"]", i);
        c = add_change(&l.set, 0, NDP_KIND_CLUSTER, b.buf);
        ndp_buf_reset(&b);
        ndp_buf_addf(&b, SUB "aks-%zu", i);
        c->self_id = ndp_xstrdup(b.buf);
    }
    ndp_link(&l.cl, &l.set);
    assert_int_equal(l.cl.nr, CLUSTERS);
    for (i = 0; i < CLUSTERS; i++)
        for (k = 0; k < POOLS; k++) {
            const struct ndp_change *c = l.set.items[i * POOLS + k];
            if (c->cluster != i)
                fail_msg("'%s' in cluster %zu, want %zu", c->address,
                         c->cluster, i);
        }
    ndp_buf_release(&b);
    linked_end(&l);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, rows, row_test);
    ADD_TEST(&list, entries__ids_changes_and_names);
    ADD_TEST(&list, empty__no_clusters);
    ADD_ROWS(&list, first_apply_rows, first_apply_test);
    ADD_TEST(&list, first_apply__only_setters);
    ADD_ROWS(&list, fixture_rows, fixture_test);
    ADD_TEST(&list, order__references_depends_on_and_module_inputs);
    ADD_TEST(&list, many__ten_thousand_pools_over_two_hundred_clusters);
    return cmocka_run_group_tests_name("linker", list.items, NULL, NULL);
}

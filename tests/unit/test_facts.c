/*
 * SPDX-License-Identifier: Apache-2.0
 * test_facts.c - what a change declares (src/input/input_facts.c,
 * ndp_facts_fill_all): its node pools in both notations (an azurerm
 * cluster's default_node_pool, azurerm_kubernetes_cluster_node_pool, an
 * ARM cluster body's agentPoolProfiles, an ARM agentPools resource) with
 * every setting the rollout is sized from, where each is kept, which are
 * created or deleted and whether a mask covers them; the Kubernetes
 * version before and after; the versions as declared and as reported,
 * with the auto-upgrade channel and the support plan, for the version
 * checks; the node disruption policy; the maintenance
 * windows; whether the whole body is sent; the keys the rule engine walks.
 * Changes are built by hand, with unset values written as null, "" or
 * left out, and unknown values left out and marked.
 */
#include "test_helpers.h"
#include "buf.h"
#include "change.h"
#include "input.h"
#include "jsonutil.h"

/* The resource a change is, as a reader would set it. */
struct kind_spec {
    enum ndp_notation notation;
    enum ndp_kind kind;
    const char *type, *address;
    bool delta_only; /* rebuilt from a what-if delta */
};

static const struct kind_spec az_cluster = {
    NDP_NOTATION_AZURERM, NDP_KIND_CLUSTER, "azurerm_kubernetes_cluster",
    "azurerm_kubernetes_cluster.main", false
};
static const struct kind_spec az_pool = {
    NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL,
    "azurerm_kubernetes_cluster_node_pool",
    "azurerm_kubernetes_cluster_node_pool.user", false
};
static const struct kind_spec arm_cluster = {
    NDP_NOTATION_ARM, NDP_KIND_CLUSTER,
    "Microsoft.ContainerService/managedClusters", "azapi_resource.aks", false
};
static const struct kind_spec arm_cluster_delta = {
    NDP_NOTATION_ARM, NDP_KIND_CLUSTER,
    "Microsoft.ContainerService/managedClusters", "/subscriptions/s/aks", true
};
static const struct kind_spec arm_pool = {
    NDP_NOTATION_ARM, NDP_KIND_NODEPOOL,
    "Microsoft.ContainerService/managedClusters/agentPools",
    "azapi_resource.np", false
};
static const struct kind_spec arm_maintenance = {
    NDP_NOTATION_ARM, NDP_KIND_MAINTENANCE,
    "Microsoft.ContainerService/managedClusters/maintenanceConfigurations",
    "azapi_resource.mc", false
};
static const struct kind_spec arm_setter = {
    NDP_NOTATION_ARM, NDP_KIND_SETTER,
    "Microsoft.ContainerService/managedClusters",
    "azapi_update_resource.ndp", false
};

/* One change: its documents and masks as JSON text with ' for ". */
struct doc {
    const struct kind_spec *kind;
    enum ndp_action action; /* left out (NOOP): an update */
    const char *name;       /* the change's name, or NULL */
    const char *before, *after;
    const char *after_unknown, *before_sensitive, *after_sensitive;
};

static struct ndp_change *add_doc(struct ndp_changeset *set,
                                  const struct doc *d)
{
    struct ndp_change *c =
        test_add_update(set, d->kind->notation, d->kind->kind, d->kind->type,
                        d->kind->address, test_json(d->before),
                        test_json(d->after));

    if (d->action != NDP_ACTION_NOOP)
        c->action = d->action;
    c->name = d->name ? ndp_xstrdup(d->name) : NULL;
    c->after_unknown = test_json(d->after_unknown);
    c->before_sensitive = test_json(d->before_sensitive);
    c->after_sensitive = test_json(d->after_sensitive);
    c->delta_only = d->kind->delta_only;
    return c;
}

/* The facts of the one change 'd' describes, in 'set' (released after). */
static const struct ndp_facts *facts_of(struct ndp_changeset *set,
                                        const struct doc *d)
{
    struct ndp_change *c = add_doc(set, d);

    ndp_facts_fill_all(set, 0);
    return &c->facts;
}

static void add_text(struct ndp_buf *b, const char *key, const char *s)
{
    if (s)
        ndp_buf_addf(b, " %s=%s", key, s);
}

static void add_number(struct ndp_buf *b, const char *key, long n)
{
    if (n != -1)
        ndp_buf_addf(b, " %s=%ld", key, n);
}

/*
 * Pools as "NAME@PATH" and what each declares, "; " between pools: only
 * the values declared (not NULL, not -1, true).
 */
static void describe_pools(struct ndp_buf *b, const struct ndp_facts *f)
{
    size_t i;

    for (i = 0; i < f->nr_pools; i++) {
        const struct ndp_pool_facts *p = &f->pools[i];
        ndp_buf_addf(b, "%s%s@%s", i ? "; " : "", p->name ? p->name : "?",
                     p->path);
        add_number(b, "n", p->count);
        add_number(b, "min", p->min_count);
        add_number(b, "max", p->max_count);
        if (p->autoscale)
            ndp_buf_adds(b, " auto");
        add_text(b, "os", p->os_type);
        add_text(b, "mode", p->mode);
        add_text(b, "prio", p->priority);
        add_text(b, "surge", p->max_surge);
        add_text(b, "unavail", p->max_unavailable);
        add_number(b, "drain", p->drain_minutes);
        add_number(b, "soak", p->soak_minutes);
        if (p->has_drain != (p->drain_minutes != -1) ||
            p->has_soak != (p->soak_minutes != -1))
            ndp_buf_addf(b, " declared=%d,%d", p->has_drain, p->has_soak);
        add_text(b, "undrain", p->undrainable);
        if (p->surge_sent != p->max_surge)
            add_text(b, "sends-surge", p->surge_sent);
        if (p->unavailable_sent != p->max_unavailable)
            add_text(b, "sends-unavail", p->unavailable_sent);
        add_text(b, "was-surge", p->surge_before);
        add_text(b, "was-unavail", p->unavailable_before);
        add_number(b, "was-drain", p->drain_minutes_before);
        add_number(b, "was-soak", p->soak_minutes_before);
        add_text(b, "was-undrain", p->undrainable_before);
        add_text(b, "rot", p->rotation_name);
        add_text(b, "subnet", p->subnet_id);
        add_text(b, "podsubnet", p->pod_subnet_id);
        add_number(b, "maxpods", p->max_pods);
        if (p->rotation_name_unknown)
            ndp_buf_adds(b, " rot=?");
        if (ndp_pool_version_before(p) || ndp_pool_version_after(p))
            ndp_buf_addf(b, " v=%s>%s",
                         ndp_pool_version_before(p)
                             ? ndp_pool_version_before(p) : "-",
                         ndp_pool_version_after(p)
                             ? ndp_pool_version_after(p) : "-");
        if (p->created)
            ndp_buf_adds(b, " created");
        if (p->deleted)
            ndp_buf_adds(b, " deleted");
        else if (!p->sent)
            ndp_buf_adds(b, " unsent");
    }
}

/* ---- pools --------------------------------------------------------------- */

struct pool_row {
    const char *name;
    struct doc change;
    const char *want; /* describe_pools() */
};

#define DNP(members) "{'default_node_pool':[{" members "}]}"
#define APP(list) "{'properties':{'agentPoolProfiles':[" list "]}}"
#define PROPS(members) "{'properties':{" members "}}"
#define P_A "a@properties.agentPoolProfiles[name=a]"
#define P_B "b@properties.agentPoolProfiles[name=b]"

static const struct pool_row pool_rows[] = {
    /* azurerm: a cluster's default_node_pool block */
    { "azurerm default pool: every setting, version before and after",
      { &az_cluster, 0, NULL,
        DNP("'name':'sys','orchestrator_version':'1.29.2'"),
        DNP("'name':'sys','node_count':3,'min_count':1,'max_count':5,"
            "'auto_scaling_enabled':true,'mode':'System',"
            "'priority':'Regular','upgrade_settings':[{'max_surge':'33%',"
            "'max_unavailable':'1','drain_timeout_in_minutes':45,"
            "'node_soak_duration_in_minutes':5,"
            "'undrainable_node_behavior':'Cordon'}],"
            "'temporary_name_for_rotation':'systmp',"
            "'orchestrator_version':'1.30.1'"), NULL, NULL, NULL },
      "sys@default_node_pool[0] n=3 min=1 max=5 auto os=Linux mode=System "
      "prio=Regular surge=33% unavail=1 drain=45 soak=5 undrain=Cordon "
      "rot=systmp v=1.29.2>1.30.1" },
    { "azurerm default pool: autoscale under the older name",
      { &az_cluster, 0, NULL, NULL,
        DNP("'name':'sys','enable_auto_scaling':true,"
            "'auto_scaling_enabled':false"), NULL, NULL, NULL },
      "sys@default_node_pool[0] auto os=Linux mode=System" },
    { "azurerm default pool: autoscale false under both names",
      { &az_cluster, 0, NULL, NULL,
        DNP("'name':'sys','enable_auto_scaling':false,"
            "'auto_scaling_enabled':false"), NULL, NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System" },
    { "azurerm default pool: Linux whatever it says",
      { &az_cluster, 0, NULL, NULL, DNP("'name':'sys','os_type':'Windows'"),
        NULL, NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System" },
    { "azurerm default pool: null and \"\" are not declared",
      { &az_cluster, 0, NULL, NULL,
        DNP("'name':'sys','node_count':null,'min_count':null,"
            "'max_count':null,'mode':'','priority':'',"
            "'upgrade_settings':[{'max_surge':'','max_unavailable':'',"
            "'drain_timeout_in_minutes':null,"
            "'node_soak_duration_in_minutes':null,"
            "'undrainable_node_behavior':''}],"
            "'temporary_name_for_rotation':'','orchestrator_version':''"),
        NULL, NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System" },
    { "azurerm default pool: a value of another type is not declared",
      { &az_cluster, 0, NULL, NULL,
        DNP("'name':'sys','node_count':'3','auto_scaling_enabled':'true',"
            "'upgrade_settings':[{'max_surge':2,"
            "'drain_timeout_in_minutes':'30'}]"), NULL, NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System" },
    { "azurerm default pool: no upgrade settings block",
      { &az_cluster, 0, NULL, NULL,
        DNP("'name':'sys','node_count':2,'upgrade_settings':[]"), NULL,
        NULL, NULL },
      "sys@default_node_pool[0] n=2 os=Linux mode=System" },
    { "azurerm default pool: unknown count left out of after",
      { &az_cluster, 0, NULL, DNP("'name':'sys','node_count':2"),
        DNP("'name':'sys'"), DNP("'node_count':true"), NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System" },
    { "azurerm default pool: current version when none is declared",
      { &az_cluster, 0, NULL,
        DNP("'name':'sys','orchestrator_version':'latest',"
            "'current_orchestrator_version':'1.29.7'"),
        DNP("'name':'sys','orchestrator_version':'',"
            "'current_orchestrator_version':'1.30.0'"), NULL, NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System v=1.29.7>1.30.0" },
    { "azurerm default pool: no version at all",
      { &az_cluster, 0, NULL, NULL,
        DNP("'name':'sys','orchestrator_version':'stable',"
            "'current_orchestrator_version':''"), NULL, NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System" },
    { "azurerm default pool: no name, no pool",
      { &az_cluster, 0, NULL, NULL, DNP("'name':'','node_count':3"), NULL,
        NULL, NULL }, "" },
    { "azurerm default pool: null name, no pool",
      { &az_cluster, 0, NULL, NULL, DNP("'name':null,'node_count':3"), NULL,
        NULL, NULL }, "" },
    { "azurerm cluster without a default pool block",
      { &az_cluster, 0, NULL, "{'default_node_pool':[]}",
        "{'kubernetes_version':'1.30'}", NULL, NULL, NULL }, "" },
    { "azurerm cluster deleted: its default pool read from before",
      { &az_cluster, NDP_ACTION_DELETE, NULL,
        DNP("'name':'sys','node_count':4,'orchestrator_version':'1.29.0'"),
        NULL, NULL, NULL, NULL },
      "sys@default_node_pool[0] n=4 os=Linux mode=System v=1.29.0>- "
      "unsent" },

    { "azurerm default pool: an update that leaves the block is unsent",
      { &az_cluster, 0, NULL, DNP("'name':'sys','node_count':3"),
        DNP("'name':'sys','node_count':3"), NULL, NULL, NULL },
      "sys@default_node_pool[0] n=3 os=Linux mode=System unsent" },
    { "azurerm default pool: drain and undrainable read from before too",
      { &az_cluster, 0, NULL,
        DNP("'name':'sys','upgrade_settings':[{'max_surge':'1',"
            "'drain_timeout_in_minutes':30,"
            "'undrainable_node_behavior':'Cordon'}]"),
        DNP("'name':'sys','upgrade_settings':[{'max_surge':'0',"
            "'drain_timeout_in_minutes':0}]"), NULL, NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System surge=0 drain=0 "
      "was-surge=1 was-drain=30 was-undrain=Cordon" },
    { "azurerm default pool: the rotation name known only after apply",
      { &az_cluster, 0, NULL, NULL, DNP("'name':'sys'"),
        DNP("'temporary_name_for_rotation':true"), NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System rot=?" },

    { "azurerm default pool: its subnets and pods",
      { &az_cluster, 0, NULL, NULL,
        DNP("'name':'sys','vnet_subnet_id':'/s/nodes',"
            "'pod_subnet_id':'/s/pods','max_pods':50"), NULL, NULL, NULL },
      "sys@default_node_pool[0] os=Linux mode=System subnet=/s/nodes "
      "podsubnet=/s/pods maxpods=50" },

    /* azurerm: azurerm_kubernetes_cluster_node_pool */
    { "azurerm pool resource: max_unavailable alone sends maxSurge 0",
      { &az_pool, 0, "user", NULL,
        "{'upgrade_settings':[{'max_unavailable':'2'}]}", NULL, NULL,
        NULL },
      "user@ unavail=2 sends-surge=0" },
    { "azurerm pool resource: a drain of -1 is declared",
      { &az_pool, 0, "user", NULL,
        "{'upgrade_settings':[{'drain_timeout_in_minutes':-1}]}", NULL,
        NULL, NULL },
      "user@ declared=1,0" },
    { "azurerm pool resource: a read sends nothing",
      { &az_pool, NDP_ACTION_READ, "user", "{'node_count':1}",
        "{'node_count':1,'temporary_name_for_rotation':'t'}",
        "{'temporary_name_for_rotation':true}", NULL, NULL },
      "user@ n=1 rot=t rot=? unsent" },
    { "azurerm pool resource: created, named by the change",
      { &az_pool, NDP_ACTION_CREATE, "user", NULL,
        "{'name':'other','node_count':0,'min_count':0,'max_count':9,"
        "'auto_scaling_enabled':true,'os_type':'Windows','mode':'User',"
        "'priority':'Spot','upgrade_settings':[{'max_surge':'10%',"
        "'drain_timeout_in_minutes':0,'node_soak_duration_in_minutes':0}],"
        "'orchestrator_version':'1.31.2'}", NULL, NULL, NULL },
      "user@ n=0 min=0 max=9 auto os=Windows mode=User prio=Spot "
      "surge=10% drain=0 soak=0 sends-unavail=0 v=->1.31.2 created" },
    { "azurerm pool resource: deleted, read from before",
      { &az_pool, NDP_ACTION_DELETE, "user",
        "{'node_count':2,'os_type':'Linux','orchestrator_version':'1.29'}",
        NULL, NULL, NULL, NULL },
      "user@ n=2 os=Linux v=1.29>- deleted" },
    { "azurerm pool resource: updated, version before and after",
      { &az_pool, NDP_ACTION_UPDATE, "user",
        "{'node_count':2,'orchestrator_version':'1.29.0'}",
        "{'node_count':3,'orchestrator_version':'1.30.0',"
        "'enable_auto_scaling':true,'temporary_name_for_rotation':'tmp'}",
        NULL, NULL, NULL },
      "user@ n=3 auto rot=tmp v=1.29.0>1.30.0" },
    { "azurerm pool resource: replaced, neither created nor deleted",
      { &az_pool, NDP_ACTION_REPLACE, "user", "{'node_count':2}",
        "{'node_count':2}", NULL, NULL, NULL },
      "user@ n=2" },
    { "azurerm pool resource: no name, no pool",
      { &az_pool, 0, NULL, "{'node_count':2}", "{'node_count':2}", NULL,
        NULL, NULL }, "" },

    /* ARM: a cluster body's properties.agentPoolProfiles */
    { "ARM body: every setting, kept pools in after's order",
      { &arm_cluster, 0, NULL,
        APP("{'name':'a','orchestratorVersion':'1.29.0'},{'name':'b'}"),
        APP("{'name':'b','count':2},{'name':'a','count':3,"
            "'orchestratorVersion':'1.30.0','enableAutoScaling':true,"
            "'minCount':1,'maxCount':4,'osType':'Windows','mode':'User',"
            "'scaleSetPriority':'Spot','upgradeSettings':{'maxSurge':'50%',"
            "'maxUnavailable':'0','drainTimeoutInMinutes':10,"
            "'nodeSoakDurationInMinutes':2,"
            "'undrainableNodeBehavior':'Schedule'}}"), NULL, NULL, NULL },
      P_B " n=2; " P_A " n=3 min=1 max=4 auto os=Windows mode=User "
      "prio=Spot surge=50% unavail=0 drain=10 soak=2 undrain=Schedule "
      "v=1.29.0>1.30.0" },
    { "ARM body: created, kept, then deleted",
      { &arm_cluster, 0, NULL,
        APP("{'name':'old','count':1,'orchestratorVersion':'1.29.0'},"
            "{'name':'keep'}"),
        APP("{'name':'new','count':2},{'name':'keep'}"), NULL, NULL, NULL },
      "new@properties.agentPoolProfiles[name=new] n=2 created; "
      "keep@properties.agentPoolProfiles[name=keep]; "
      "old@properties.agentPoolProfiles[name=old] n=1 v=1.29.0>- "
      "deleted" },
    { "ARM body: names matched whatever their case",
      { &arm_cluster, 0, NULL, APP("{'name':'Pool1','count':1}"),
        APP("{'name':'pool1','count':2}"), NULL, NULL, NULL },
      "pool1@properties.agentPoolProfiles[name=pool1] n=2" },
    { "ARM body created: no before list, every pool kept",
      { &arm_cluster, NDP_ACTION_CREATE, NULL, NULL,
        APP("{'name':'a','count':1},{'name':'b','count':1}"), NULL, NULL,
        NULL },
      P_A " n=1; " P_B " n=1" },
    { "ARM body: a before without a list, every pool kept",
      { &arm_cluster, 0, NULL, "{'properties':{}}",
        APP("{'name':'a','count':1}"), NULL, NULL, NULL },
      P_A " n=1" },
    { "ARM body deleted: pools read from before, none marked",
      { &arm_cluster, NDP_ACTION_DELETE, NULL,
        APP("{'name':'a','count':1}"), NULL, NULL, NULL, NULL },
      P_A " n=1 unsent" },
    { "ARM body: an empty after list deletes every pool",
      { &arm_cluster, 0, NULL, APP("{'name':'a','count':1}"), APP(""), NULL,
        NULL, NULL },
      P_A " n=1 deleted" },
    { "ARM body: an after without a list declares no pools",
      { &arm_cluster, 0, NULL, APP("{'name':'a','count':1}"),
        "{'properties':{'kubernetesVersion':'1.30'}}", NULL, NULL, NULL },
      "" },
    { "ARM body: elements without a name passed over",
      { &arm_cluster, 0, NULL, NULL,
        APP("{'count':3},{'name':''},{'name':null},7,{'name':'a'}"), NULL,
        NULL, NULL },
      P_A },
    { "ARM body: agentPoolProfiles not a list",
      { &arm_cluster, 0, NULL, NULL,
        "{'properties':{'agentPoolProfiles':{'name':'a'}}}", NULL, NULL,
        NULL }, "" },
    { "ARM body: null and \"\" are not declared, current version read",
      { &arm_cluster, 0, NULL, NULL,
        APP("{'name':'a','count':null,'minCount':null,'osType':'',"
            "'mode':'','upgradeSettings':{},'orchestratorVersion':'',"
            "'currentOrchestratorVersion':'1.30.2'}"), NULL, NULL, NULL },
      P_A " v=->1.30.2" },
    { "ARM body: upgrade settings nulls and a string count",
      { &arm_cluster, 0, NULL, NULL,
        APP("{'name':'a','count':'3','upgradeSettings':{'maxSurge':null,"
            "'drainTimeoutInMinutes':null,'maxUnavailable':''}}"), NULL,
        NULL, NULL },
      P_A },

    { "ARM delta: an element without a name kept by its index",
      { &arm_cluster_delta, 0, NULL,
        APP("{},{'upgradeSettings':{'maxSurge':'1'}}"),
        APP("{},{'upgradeSettings':{'maxSurge':'0',"
            "'undrainableNodeBehavior':'Drain'}}"), NULL, NULL, NULL },
      "?@properties.agentPoolProfiles[0]; "
      "?@properties.agentPoolProfiles[1] surge=0 undrain=Drain was-surge=1" },
    { "ARM body: subnets and pods",
      { &arm_cluster, 0, NULL, NULL,
        APP("{'name':'a','vnetSubnetID':'/s/n','podSubnetID':'',"
            "'maxPods':30}"), NULL, NULL, NULL },
      P_A " subnet=/s/n maxpods=30" },
    { "ARM delta: a named element as in a body",
      { &arm_cluster_delta, 0, NULL, NULL,
        APP("{'name':'a','mode':'System','upgradeSettings':{"
            "'maxUnavailable':'1'}}"), NULL, NULL, NULL },
      P_A " mode=System unavail=1" },

    /* ARM: an agentPools resource */
    { "ARM pool resource: created, properties read",
      { &arm_pool, NDP_ACTION_CREATE, "np", NULL,
        PROPS("'count':2,'minCount':1,'maxCount':3,'enableAutoScaling':true,"
              "'osType':'Linux','mode':'System','scaleSetPriority':'Regular',"
              "'upgradeSettings':{'maxSurge':'1','drainTimeoutInMinutes':5,"
              "'nodeSoakDurationInMinutes':1},'orchestratorVersion':'1.31'"),
        NULL, NULL, NULL },
      "np@properties n=2 min=1 max=3 auto os=Linux mode=System prio=Regular "
      "surge=1 drain=5 soak=1 v=->1.31 created" },
    { "ARM pool resource: deleted, read from before",
      { &arm_pool, NDP_ACTION_DELETE, "np",
        PROPS("'count':5,'orchestratorVersion':'1.30.1'"), NULL, NULL, NULL,
        NULL },
      "np@properties n=5 v=1.30.1>- deleted" },
    { "ARM pool resource: updated, current version before",
      { &arm_pool, 0, "np", PROPS("'currentOrchestratorVersion':'1.29.9'"),
        PROPS("'orchestratorVersion':'1.30.0','count':1"), NULL, NULL,
        NULL },
      "np@properties n=1 v=1.29.9>1.30.0" },
    { "ARM pool resource: upgrade settings before the change",
      { &arm_pool, 0, "np",
        PROPS("'upgradeSettings':{'maxUnavailable':'1',"
              "'nodeSoakDurationInMinutes':3}"),
        PROPS("'upgradeSettings':{'maxSurge':'1'}"), NULL, NULL, NULL },
      "np@properties surge=1 was-unavail=1 was-soak=3" },
    { "ARM pool resource: no name, no pool",
      { &arm_pool, 0, NULL, NULL, PROPS("'count':1"), NULL, NULL, NULL },
      "" },
    { "ARM pool resource: no properties, no pool",
      { &arm_pool, 0, "np", NULL, "{'name':'np'}", NULL, NULL, NULL }, "" },

    /* Neither a cluster nor a pool */
    { "ARM maintenance configuration: no pools",
      { &arm_maintenance, 0, "default", NULL, APP("{'name':'a'}"), NULL,
        NULL, NULL }, "" },
    { "azapi setter: the pools of its body, as a cluster body's",
      { &arm_setter, 0, NULL, APP("{'name':'a','count':1}"),
        APP("{'name':'a','count':2},{'name':'b','count':1}"), NULL, NULL,
        NULL },
      P_A " n=2; b@properties.agentPoolProfiles[name=b] n=1 created" },
    { "azapi setter: no pool list, no pools",
      { &arm_setter, 0, NULL, NULL,
        "{'properties':{'networkProfile':{'networkPolicy':'azure'}}}", NULL,
        NULL, NULL }, "" },
};

static void pool_test(void **state)
{
    const struct pool_row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_buf got = NDP_BUF_INIT;
    const struct ndp_facts *f = facts_of(&set, &row->change);
    const char *count_path = row->change.kind->notation ==
                                     NDP_NOTATION_AZURERM ? "node_count"
                                                          : "count";
    size_t i;

    describe_pools(&got, f);
    if (strcmp(got.buf, row->want) != 0)
        fail_msg("pools\n  got  '%s'\n  want '%s'", got.buf, row->want);
    for (i = 0; i < f->nr_pools; i++)
        assert_string_equal(f->pools[i].fields[NDP_POOL_COUNT], count_path);
    assert_false(f->pools_sensitive);
    ndp_buf_release(&got);
    ndp_changeset_release(&set);
}

/*
 * A tiny path reader for the pool tables: "a.b[0].c" and "a[name=x]";
 * "" is the document itself.
 */
static const struct json_object *at_path(const struct json_object *o,
                                         const char *path)
{
    char seg[128];

    while (o && *path) {
        size_t n = strcspn(path, ".[");
        const char *close;

        snprintf(seg, sizeof(seg), "%.*s", (int)n, path);
        o = ndp_json_get(o, seg);
        path += n;
        if (*path == '[') {
            close = strchr(path, ']');
            if (strncmp(path, "[name=", 6) == 0) {
                size_t i, len = o ? json_object_array_length(o) : 0;
                const struct json_object *hit = NULL;
                for (i = 0; i < len; i++) {
                    const char *name = ndp_json_get_string(
                        json_object_array_get_idx(o, i), "name");
                    if (name && strlen(name) == (size_t)(close - path - 6) &&
                        strncmp(name, path + 6, strlen(name)) == 0)
                        hit = json_object_array_get_idx(o, i);
                }
                o = hit;
            } else {
                o = ndp_json_index(o, (size_t)atoi(path + 1));
            }
            path = close + 1;
        }
        if (*path == '.')
            path++;
    }
    return o;
}

/* The value 'p' read for field 'i', as text ("" when not declared). */
static void fact_text(struct ndp_buf *b, const struct ndp_pool_facts *p,
                      enum ndp_pool_field i)
{
    long n = -1;
    const char *s = NULL;

    switch (i) {
    case NDP_POOL_COUNT: n = p->count; break;
    case NDP_POOL_MIN_COUNT: n = p->min_count; break;
    case NDP_POOL_MAX_COUNT: n = p->max_count; break;
    case NDP_POOL_DRAIN_TIMEOUT: n = p->drain_minutes; break;
    case NDP_POOL_SOAK_DURATION: n = p->soak_minutes; break;
    case NDP_POOL_MAX_SURGE: s = p->max_surge; break;
    case NDP_POOL_MAX_UNAVAILABLE: s = p->max_unavailable; break;
    case NDP_POOL_UNDRAINABLE: s = p->undrainable; break;
    case NDP_POOL_ROTATION_NAME: s = p->rotation_name; break;
    case NDP_POOL_VERSION: s = ndp_pool_version_after(p); break;
    case NDP_POOL_SUBNET: s = p->subnet_id; break;
    case NDP_POOL_MODE: s = p->mode; break;
    case NDP_POOL_MAX_BLOCKED: s = p->max_blocked; break;
    case NDP_POOL_FIELDS: break;
    }
    if (n != -1)
        ndp_buf_addf(b, "%ld", n);
    else if (s)
        ndp_buf_adds(b, s);
}

/*
 * Each field of a pool's table, looked up below the pool's path in the
 * document, holds the value read for it: the paths the reports print are
 * where the values came from, in both notations and both kinds of pool.
 */
static void fields__paths_lead_to_the_values_read(void **state)
{
    static const struct doc docs[] = {
        { &az_cluster, 0, NULL, NULL,
          DNP("'name':'sys','node_count':3,'min_count':1,'max_count':5,"
              "'upgrade_settings':[{'max_surge':'33%',"
              "'max_unavailable':'1','drain_timeout_in_minutes':45,"
              "'node_soak_duration_in_minutes':5,"
              "'undrainable_node_behavior':'Cordon'}],"
              "'temporary_name_for_rotation':'tmp',"
              "'vnet_subnet_id':'/s/snet-a',"
              "'orchestrator_version':'1.30.1'"), NULL, NULL, NULL },
        { &az_pool, 0, "user", NULL,
          "{'node_count':3,'min_count':1,'max_count':5,'mode':'User',"
          "'upgrade_settings':[{'max_surge':'2','max_unavailable':'1',"
          "'drain_timeout_in_minutes':45,'node_soak_duration_in_minutes':5,"
          "'undrainable_node_behavior':'Schedule'}],"
          "'temporary_name_for_rotation':'tmp','vnet_subnet_id':'/s/b',"
          "'orchestrator_version':'1.30.1'}", NULL, NULL, NULL },
        { &arm_cluster, 0, NULL, NULL,
          APP("{'name':'b'},{'name':'a','count':3,'minCount':1,"
              "'maxCount':5,'mode':'System','upgradeSettings':"
              "{'maxSurge':'33%','maxBlockedNodes':'2',"
              "'maxUnavailable':'1','drainTimeoutInMinutes':45,"
              "'nodeSoakDurationInMinutes':5,"
              "'undrainableNodeBehavior':'Cordon'},'vnetSubnetID':'/s/c',"
              "'orchestratorVersion':'1.30.1'}"), NULL, NULL, NULL },
        { &arm_pool, 0, "np", NULL,
          PROPS("'count':3,'minCount':1,'maxCount':5,'mode':'User',"
                "'upgradeSettings':{'maxSurge':'33%','maxBlockedNodes':'1',"
                "'maxUnavailable':'1',"
                "'drainTimeoutInMinutes':45,'nodeSoakDurationInMinutes':5,"
                "'undrainableNodeBehavior':'Cordon'},"
                "'orchestratorVersion':'1.30.1'"), NULL, NULL, NULL },
    };
    struct ndp_buf want = NDP_BUF_INIT, got = NDP_BUF_INIT;
    size_t d, i, k;

    (void)state;
    for (d = 0; d < NDP_ARRAY_SIZE(docs); d++) {
        struct ndp_changeset set = NDP_CHANGESET_INIT;
        const struct ndp_facts *f = facts_of(&set, &docs[d]);
        const struct json_object *after = set.items[0]->after;
        bool arm = docs[d].kind->notation == NDP_NOTATION_ARM;

        assert_true(f->nr_pools > 0);
        for (k = 0; k < f->nr_pools; k++) {
            const struct ndp_pool_facts *p = &f->pools[k];
            const struct json_object *pool = at_path(after, p->path);
            assert_int_equal(p->fields[NDP_POOL_ROTATION_NAME] == NULL, arm);
            for (i = 0; i < NDP_POOL_FIELDS; i++) {
                const struct json_object *v;
                ndp_buf_reset(&want);
                ndp_buf_reset(&got);
                if (!p->fields[i])
                    continue;
                v = at_path(pool, p->fields[i]);
                if (v)
                    ndp_buf_adds(&want, json_object_get_string(
                                            ndp_json_unconst(v)));
                fact_text(&got, p, (enum ndp_pool_field)i);
                if (strcmp(want.buf, got.buf) != 0)
                    fail_msg("%s pool %s: %s.%s holds '%s', read '%s'",
                             docs[d].kind->address, p->name, p->path,
                             p->fields[i], want.buf, got.buf);
            }
        }
        ndp_changeset_release(&set);
    }
    ndp_buf_release(&want);
    ndp_buf_release(&got);
}

/* ---- masks over the pools ------------------------------------------------ */

struct mask_row {
    const char *name;
    struct doc change;
    bool sensitive;
};

static const struct mask_row mask_rows[] = {
    { "azurerm cluster: a masked count in the default pool",
      { &az_cluster, 0, NULL, NULL, DNP("'name':'sys','node_count':3"), NULL,
        NULL, DNP("'node_count':true") }, true },
    { "azurerm cluster: the whole default pool masked before",
      { &az_cluster, 0, NULL, DNP("'name':'sys'"), DNP("'name':'sys'"), NULL,
        "{'default_node_pool':true}", NULL }, true },
    { "azurerm cluster: a mask elsewhere",
      { &az_cluster, 0, NULL, NULL, DNP("'name':'sys'"), NULL, NULL,
        "{'kubernetes_version':true,'default_node_pool':[{'name':false}]}" },
      false },
    { "azurerm cluster: an unknown count is not sensitive",
      { &az_cluster, 0, NULL, NULL, DNP("'name':'sys'"),
        DNP("'node_count':true"), NULL, NULL }, false },
    { "ARM cluster: a masked pool count",
      { &arm_cluster, 0, NULL, NULL, APP("{'name':'a','count':1}"), NULL,
        NULL, APP("{'count':true}") }, true },
    { "ARM cluster: all its properties masked",
      { &arm_cluster, 0, NULL, NULL, APP("{'name':'a','count':1}"), NULL,
        "{'properties':true}", NULL }, true },
    { "ARM cluster: a mask elsewhere",
      { &arm_cluster, 0, NULL, NULL, APP("{'name':'a','count':1}"), NULL,
        NULL, "{'properties':{'networkProfile':true}}" }, false },
    { "azurerm pool: a masked name",
      { &az_pool, 0, "user", NULL, "{'node_count':1}", NULL, NULL,
        "{'name':true}" }, true },
    { "azurerm pool: a masked surge",
      { &az_pool, 0, "user", NULL, "{'node_count':1}", NULL, NULL,
        "{'upgrade_settings':[{'max_surge':true}]}" }, true },
    { "azurerm pool: the older autoscale name masked",
      { &az_pool, 0, "user", NULL, "{'node_count':1}", NULL,
        "{'enable_auto_scaling':true}", NULL }, true },
    { "azurerm pool: masked OS",
      { &az_pool, 0, "user", NULL, "{'node_count':1}", NULL, NULL,
        "{'os_type':true}" }, true },
    { "azurerm pool: masked tags only",
      { &az_pool, 0, "user", NULL, "{'node_count':1}", NULL, NULL,
        "{'tags':true,'node_labels':{'a':true}}" }, false },
    { "ARM pool: a masked maximum",
      { &arm_pool, 0, "np", NULL, PROPS("'count':1"), NULL, NULL,
        PROPS("'maxCount':true") }, true },
    { "ARM pool: masked upgrade settings before",
      { &arm_pool, 0, "np", PROPS("'count':1"), PROPS("'count':1"), NULL,
        PROPS("'upgradeSettings':{'drainTimeoutInMinutes':true}"), NULL },
      true },
    { "ARM pool: masked OS",
      { &arm_pool, 0, "np", NULL, PROPS("'count':1"), NULL, NULL,
        PROPS("'osType':true") }, true },
    { "ARM pool: masked tags only",
      { &arm_pool, 0, "np", NULL, PROPS("'count':1"), NULL, NULL,
        "{'properties':{'tags':true}}" }, false },
    { "maintenance configuration: masked, no pools to cover",
      { &arm_maintenance, 0, "default", NULL, PROPS("'count':1"), NULL,
        NULL, "{'properties':true}" }, false },
    { "setter: masked, its body's pools covered",
      { &arm_setter, 0, NULL, NULL, APP("{'name':'a'}"), NULL, NULL,
        "{'properties':true}" }, true },
    { "setter: masked elsewhere, its pools not covered",
      { &arm_setter, 0, NULL, NULL, APP("{'name':'a'}"), NULL, NULL,
        "{'properties':{'networkProfile':true}}" }, false },
};

static void mask_test(void **state)
{
    const struct mask_row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    const struct ndp_facts *f = facts_of(&set, &row->change);

    assert_int_equal(f->pools_sensitive, row->sensitive);
    /* Masked pools are still read: the reports leave them unprinted. */
    if (row->change.kind->kind == NDP_KIND_CLUSTER ||
        row->change.kind->kind == NDP_KIND_NODEPOOL ||
        row->change.kind->kind == NDP_KIND_SETTER)
        assert_int_equal(f->nr_pools, 1);
    ndp_changeset_release(&set);
}

/* ---- the network plugin -------------------------------------------------- */

static void network__plugin_and_mode_after_the_change(void **state)
{
    static const struct {
        struct doc change;
        const char *plugin, *mode;
    } rows[] = {
        { { &az_cluster, 0, NULL,
            "{'network_profile':[{'network_plugin':'kubenet'}]}",
            "{'network_profile':[{'network_plugin':'azure',"
            "'network_plugin_mode':'overlay'}]}", NULL, NULL, NULL },
          "azure", "overlay" },
        { { &az_cluster, 0, NULL, NULL,
            "{'network_profile':[{'network_plugin':'azure',"
            "'network_plugin_mode':null}]}", NULL, NULL, NULL },
          "azure", NULL },
        { { &az_cluster, NDP_ACTION_DELETE, NULL,
            "{'network_profile':[{'network_plugin':'azure'}]}", NULL, NULL,
            NULL, NULL },
          "azure", NULL },
        { { &arm_cluster, 0, NULL, NULL,
            "{'properties':{'networkProfile':{'networkPlugin':'azure',"
            "'networkPluginMode':''}}}", NULL, NULL, NULL },
          "azure", NULL },
        { { &arm_pool, 0, "np", NULL,
            "{'properties':{'networkProfile':{'networkPlugin':'azure'}}}",
            NULL, NULL, NULL },
          NULL, NULL },
        { { &az_cluster, 0, NULL, NULL, "{'network_profile':[]}", NULL, NULL,
            NULL },
          NULL, NULL },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct ndp_changeset set = NDP_CHANGESET_INIT;
        const struct ndp_facts *f = facts_of(&set, &rows[i].change);
        if ((f->network_plugin == NULL) != (rows[i].plugin == NULL) ||
            (f->network_plugin &&
             strcmp(f->network_plugin, rows[i].plugin) != 0) ||
            (f->network_plugin_mode == NULL) != (rows[i].mode == NULL) ||
            (f->network_plugin_mode &&
             strcmp(f->network_plugin_mode, rows[i].mode) != 0))
            fail_msg("row %zu: plugin '%s' mode '%s'", i,
                     f->network_plugin ? f->network_plugin : "(none)",
                     f->network_plugin_mode ? f->network_plugin_mode
                                            : "(none)");
        ndp_changeset_release(&set);
    }
}

/* ---- the Kubernetes version ---------------------------------------------- */

struct version_row {
    const char *name;
    struct doc change;
    const char *path, *before, *after; /* NULL: none */
    bool before_sensitive, after_sensitive;
};

#define KV(v, cur) "{'kubernetes_version':" v \
    ",'current_kubernetes_version':" cur "}"
#define ARM_KV(v, cur) "{'properties':{'kubernetesVersion':" v \
    ",'currentKubernetesVersion':" cur "}}"

static const struct version_row version_rows[] = {
    { "azurerm cluster: declared wins over current",
      { &az_cluster, 0, NULL, KV("'1.29'", "'1.28.5'"),
        KV("'1.30'", "'1.29.3'"), NULL, NULL, NULL },
      "kubernetes_version", "1.29", "1.30", false, false },
    { "azurerm cluster: \"\" declared, current read",
      { &az_cluster, 0, NULL, KV("''", "'1.28.5'"), KV("''", "'1.28.5'"),
        NULL, NULL, NULL },
      "kubernetes_version", "1.28.5", "1.28.5", false, false },
    { "azurerm cluster: not a version, current read",
      { &az_cluster, 0, NULL, KV("'latest'", "'1.28.5'"),
        KV("1.3", "'v1.29.0'"), NULL, NULL, NULL },
      "kubernetes_version", "1.28.5", "v1.29.0", false, false },
    { "azurerm cluster: null declared, no current",
      { &az_cluster, 0, NULL, KV("null", "null"), KV("null", "''"), NULL,
        NULL, NULL },
      "kubernetes_version", NULL, NULL, false, false },
    { "azurerm cluster created: nothing before",
      { &az_cluster, NDP_ACTION_CREATE, NULL, NULL, KV("'1.31.1'", "null"),
        NULL, NULL, NULL },
      "kubernetes_version", NULL, "1.31.1", false, false },
    { "azurerm cluster: unknown after",
      { &az_cluster, 0, NULL, KV("'1.30'", "'1.30.4'"), "{}",
        "{'kubernetes_version':true,'current_kubernetes_version':true}",
        NULL, NULL },
      "kubernetes_version", "1.30", NULL, false, false },
    { "azurerm cluster: the declared version masked after",
      { &az_cluster, 0, NULL, KV("'1.29'", "null"), KV("'1.30'", "null"),
        NULL, NULL, "{'kubernetes_version':true}" },
      "kubernetes_version", "1.29", "1.30", false, true },
    { "azurerm cluster: the current version masked before",
      { &az_cluster, 0, NULL, KV("''", "'1.29.1'"), KV("'1.30'", "null"),
        NULL, "{'current_kubernetes_version':true}", NULL },
      "kubernetes_version", "1.29.1", "1.30", true, false },
    { "azurerm cluster: a mask on either key masks the version",
      { &az_cluster, 0, NULL, KV("'1.29'", "'1.29.1'"),
        KV("''", "'1.29.1'"), NULL, "{'current_kubernetes_version':true}",
        "{'kubernetes_version':true}" },
      "kubernetes_version", "1.29", "1.29.1", true, true },
    { "ARM cluster: declared wins over current",
      { &arm_cluster, 0, NULL, ARM_KV("'1.29.0'", "'1.29.0'"),
        ARM_KV("'1.30.0'", "'1.29.0'"), NULL, NULL, NULL },
      "properties.kubernetesVersion", "1.29.0", "1.30.0", false, false },
    { "ARM cluster: current when none declared",
      { &arm_cluster, 0, NULL, ARM_KV("null", "'1.29.2'"),
        "{'properties':{'currentKubernetesVersion':'1.29.2'}}", NULL, NULL,
        NULL },
      "properties.kubernetesVersion", "1.29.2", "1.29.2", false, false },
    { "ARM cluster: masked under properties",
      { &arm_cluster, 0, NULL, ARM_KV("'1.29'", "null"),
        ARM_KV("'1.30'", "null"), NULL, "{'properties':true}",
        "{'properties':{'kubernetesVersion':true}}" },
      "properties.kubernetesVersion", "1.29", "1.30", true, true },
    { "azurerm pool: its orchestrator version",
      { &az_pool, 0, "user",
        "{'orchestrator_version':'','current_orchestrator_version':'1.29'}",
        "{'orchestrator_version':'1.30','current_orchestrator_version':"
        "'1.29'}", NULL, NULL, "{'orchestrator_version':true}" },
      "orchestrator_version", "1.29", "1.30", false, true },
    { "ARM pool: its orchestrator version",
      { &arm_pool, 0, "np", PROPS("'currentOrchestratorVersion':'1.29.4'"),
        PROPS("'orchestratorVersion':'1.30.0'"), NULL,
        PROPS("'currentOrchestratorVersion':true"), NULL },
      "properties.orchestratorVersion", "1.29.4", "1.30.0", true, false },
};

static void version_test(void **state)
{
    const struct version_row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    const struct ndp_facts *f = facts_of(&set, &row->change);

    assert_string_equal(f->version_path, row->path);
    if (row->before)
        assert_string_equal(ndp_facts_version_before(f), row->before);
    else
        assert_null(ndp_facts_version_before(f));
    if (row->after)
        assert_string_equal(ndp_facts_version_after(f), row->after);
    else
        assert_null(ndp_facts_version_after(f));
    /* One mask for the version, whichever side it covers. */
    assert_int_equal(f->versions_sensitive,
                     row->before_sensitive || row->after_sensitive);
    ndp_changeset_release(&set);
}

/* ---- versions as declared and reported, channel, support plan ------------ */

struct declared_row {
    const char *name;
    struct doc change;
    const char *want; /* describe_declared() */
};

static void add_versions(struct ndp_buf *b, const char *declared_before,
                         const char *declared_after, const char *reported,
                         bool sensitive)
{
    if (declared_before || declared_after)
        ndp_buf_addf(b, " d=%s>%s", declared_before ? declared_before : "-",
                     declared_after ? declared_after : "-");
    add_text(b, "r", reported);
    if (sensitive)
        ndp_buf_adds(b, " sensitive");
}

/*
 * "cluster d=BEFORE>AFTER r=REPORTED channel=C plan=P; NAME d=... r=..."
 * with only what is declared.
 */
static void describe_declared(struct ndp_buf *b, const struct ndp_change *ch)
{
    const struct ndp_facts *f = &ch->facts;
    size_t i;

    ndp_buf_adds(b, "change");
    add_versions(b, f->declared_version_before, f->declared_version_after,
                 f->reported_version_before, f->versions_sensitive);
    /* The channel for after the change, before it for a deleted one. */
    add_text(b, "channel", ch->after ? f->upgrade_channel.after
                                     : f->upgrade_channel.before);
    add_text(b, "plan", f->support_plan);
    for (i = 0; i < f->nr_pools; i++) {
        const struct ndp_pool_facts *p = &f->pools[i];
        ndp_buf_addf(b, "; %s", p->name);
        add_versions(b, p->declared_version_before, p->declared_version_after,
                     p->reported_version_before, p->versions_sensitive);
    }
}

static const struct declared_row declared_rows[] = {
    { "azurerm cluster: declared and reported, v4 channel, plan",
      { &az_cluster, 0, NULL,
        "{'kubernetes_version':'1.30.5','current_kubernetes_version':"
        "'1.30.7','automatic_upgrade_channel':'stable',"
        "'support_plan':'KubernetesOfficial'}",
        "{'kubernetes_version':'1.30','current_kubernetes_version':'1.30.7',"
        "'automatic_upgrade_channel':'patch',"
        "'support_plan':'AKSLongTermSupport'}", NULL, NULL, NULL },
      "change d=1.30.5>1.30 r=1.30.7 channel=patch plan=AKSLongTermSupport" },
    { "azurerm cluster: the v3 channel name",
      { &az_cluster, 0, NULL, NULL,
        "{'automatic_channel_upgrade':'rapid'}", NULL, NULL, NULL },
      "change channel=rapid" },
    { "azurerm cluster: the v4 name first",
      { &az_cluster, 0, NULL, NULL,
        "{'automatic_upgrade_channel':'patch',"
        "'automatic_channel_upgrade':'rapid'}", NULL, NULL, NULL },
      "change channel=patch" },
    { "azurerm cluster: a channel removed is none, not the one before",
      { &az_cluster, 0, NULL, "{'automatic_upgrade_channel':'patch'}",
        "{'automatic_upgrade_channel':null}", NULL, NULL, NULL },
      "change" },
    { "azurerm cluster deleted: read from before",
      { &az_cluster, NDP_ACTION_DELETE, NULL,
        "{'automatic_upgrade_channel':'patch','kubernetes_version':'1.29'}",
        NULL, NULL, NULL, NULL },
      "change d=1.29>- channel=patch" },
    { "azurerm cluster: not a version is still declared, \"\" is not",
      { &az_cluster, 0, NULL, "{'kubernetes_version':'latest'}",
        "{'kubernetes_version':'','current_kubernetes_version':''}", NULL,
        NULL, NULL },
      "change d=latest>-" },
    { "azurerm cluster: a version of another type is not declared",
      { &az_cluster, 0, NULL, "{'kubernetes_version':1.3}",
        "{'kubernetes_version':['1.30'],'support_plan':7}", NULL, NULL,
        NULL },
      "change" },
    { "azurerm cluster: a mask on the current version",
      { &az_cluster, 0, NULL,
        "{'kubernetes_version':'1.29','current_kubernetes_version':'1.29.4'}",
        "{'kubernetes_version':'1.30'}", NULL,
        "{'current_kubernetes_version':true}", NULL },
      "change d=1.29>1.30 r=1.29.4 sensitive" },
    { "azurerm default pool: declared and reported, the pool block masked",
      { &az_cluster, 0, NULL,
        DNP("'name':'sys','orchestrator_version':'1.29.2',"
            "'current_orchestrator_version':'1.29.3'"),
        DNP("'name':'sys','orchestrator_version':'1.30'"), NULL, NULL,
        "{'default_node_pool':true}" },
      "change; sys d=1.29.2>1.30 r=1.29.3 sensitive" },
    { "azurerm pool resource: deleted, nothing after",
      { &az_pool, NDP_ACTION_DELETE, "user",
        "{'orchestrator_version':'1.29'}", NULL, NULL, NULL, NULL },
      "change d=1.29>-; user d=1.29>-" },
    { "azurerm pool resource: a mask on its version",
      { &az_pool, 0, "user", "{'orchestrator_version':'1.29'}",
        "{'orchestrator_version':'1.30'}", NULL, NULL,
        "{'orchestrator_version':true}" },
      "change d=1.29>1.30 sensitive; user d=1.29>1.30 sensitive" },
    { "azurerm pool resource: no channel or plan read",
      { &az_pool, 0, "user", NULL,
        "{'automatic_upgrade_channel':'patch','support_plan':'x'}", NULL,
        NULL, NULL },
      "change; user" },
    { "ARM body: channel, plan and each pool's versions",
      { &arm_cluster, 0, NULL,
        "{'properties':{'kubernetesVersion':'1.29.9',"
        "'currentKubernetesVersion':'1.29.9','agentPoolProfiles':["
        "{'name':'a','orchestratorVersion':'1.29',"
        "'currentOrchestratorVersion':'1.29.9'},{'name':'b'},"
        "{'name':'gone','orchestratorVersion':'1.28.1'}]}}",
        "{'properties':{'kubernetesVersion':'1.30.1','supportPlan':"
        "'AKSLongTermSupport','autoUpgradeProfile':{'upgradeChannel':"
        "'none'},'agentPoolProfiles':[{'name':'a','orchestratorVersion':"
        "'1.30.1'},{'name':'b','orchestratorVersion':''},{'name':'new',"
        "'orchestratorVersion':'1.30.1'}]}}", NULL, NULL, NULL },
      "change d=1.29.9>1.30.1 r=1.29.9 channel=none plan=AKSLongTermSupport"
      "; a d=1.29>1.30.1 r=1.29.9; b; new d=->1.30.1; gone d=1.28.1>-" },
    { "ARM body: the pool list masked",
      { &arm_cluster, 0, NULL, NULL,
        APP("{'name':'a','orchestratorVersion':'1.30'}"), NULL, NULL,
        "{'properties':{'agentPoolProfiles':true}}" },
      "change; a d=->1.30 sensitive" },
    { "ARM pool resource: declared and reported",
      { &arm_pool, 0, "np",
        PROPS("'orchestratorVersion':'1.29','currentOrchestratorVersion':"
              "'1.29.2'"), PROPS("'orchestratorVersion':'1.30'"), NULL,
        NULL, NULL },
      "change d=1.29>1.30 r=1.29.2; np d=1.29>1.30 r=1.29.2" },
    { "ARM pool resource: a mask on its reported version",
      { &arm_pool, 0, "np", PROPS("'currentOrchestratorVersion':'1.29.2'"),
        PROPS("'orchestratorVersion':'1.30'"), NULL,
        PROPS("'currentOrchestratorVersion':true"), NULL },
      "change d=->1.30 r=1.29.2 sensitive; np d=->1.30 r=1.29.2 sensitive" },
    { "azapi setter: channel and plan",
      { &arm_setter, 0, NULL, NULL,
        "{'properties':{'kubernetesVersion':'1.31','autoUpgradeProfile':"
        "{'upgradeChannel':'stable'},'supportPlan':'KubernetesOfficial'}}",
        NULL, NULL, NULL },
      "change d=->1.31 channel=stable plan=KubernetesOfficial" },
    { "ARM maintenance configuration: no channel read",
      { &arm_maintenance, 0, "default", NULL,
        "{'properties':{'autoUpgradeProfile':{'upgradeChannel':'patch'}}}",
        NULL, NULL, NULL },
      "change" },
};

static void declared_test(void **state)
{
    const struct declared_row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_buf got = NDP_BUF_INIT;
    facts_of(&set, &row->change);
    describe_declared(&got, set.items[set.nr - 1]);
    if (strcmp(got.buf, row->want) != 0)
        fail_msg("declared\n  got  '%s'\n  want '%s'", got.buf, row->want);
    ndp_buf_release(&got);
    ndp_changeset_release(&set);
}

/* ---- the node disruption policy ------------------------------------------ */

struct profile_row {
    const char *name;
    struct doc change;
    const char *before, *after; /* JSON text, "null" for none */
    bool before_sensitive, after_sensitive;
};

#define POLICY(p) "{'properties':{'nodeDisruptionProfile':" \
    "{'nodeDisruptionPolicy':" p "}}}"

static const struct profile_row profile_rows[] = {
    { "ARM cluster body: both sides",
      { &arm_cluster, 0, NULL, POLICY("'Allow'"), POLICY("'Block'"),
        NULL, NULL, NULL }, "\"Allow\"", "\"Block\"", false, false },
    { "azapi setter: both sides",
      { &arm_setter, 0, NULL, POLICY("'Block'"),
        POLICY("'AllowDuringMaintenanceWindow'"), NULL, NULL, NULL },
      "\"Block\"", "\"AllowDuringMaintenanceWindow\"", false, false },
    { "setter first applied: no before",
      { &arm_setter, NDP_ACTION_CREATE, NULL, NULL, POLICY("'Block'"),
        NULL, NULL, NULL }, "null", "\"Block\"", false, false },
    { "ARM cluster: null and absent",
      { &arm_cluster, 0, NULL, POLICY("null"), "{'properties':{}}",
        NULL, NULL, NULL }, "null", "null", false, false },
    { "ARM cluster: a value of another type kept as it is",
      { &arm_cluster, 0, NULL, NULL, POLICY("3"), NULL, NULL, NULL },
      "null", "3", false, false },
    { "ARM cluster: masked after",
      { &arm_cluster, 0, NULL, POLICY("'Allow'"), POLICY("'Block'"),
        NULL, NULL, "{'properties':{'nodeDisruptionProfile':true}}" },
      "\"Allow\"", "\"Block\"", false, true },
    { "setter: masked before, whole body",
      { &arm_setter, 0, NULL, POLICY("'Allow'"), POLICY("'Allow'"),
        NULL, "true", NULL }, "\"Allow\"", "\"Allow\"", true, false },
    { "setter: a mask elsewhere",
      { &arm_setter, 0, NULL, POLICY("'Allow'"), POLICY("'Allow'"),
        NULL, "{'properties':{'networkProfile':true}}",
        "{'properties':{'nodeDisruptionProfile':{'other':true}}}" },
      "\"Allow\"", "\"Allow\"", false, false },
    { "azurerm cluster: no policy whatever the document says",
      { &az_cluster, 0, NULL, POLICY("'Allow'"), POLICY("'Block'"),
        NULL, NULL, "true" }, "null", "null", false, false },
    { "ARM pool: no policy",
      { &arm_pool, 0, "np", POLICY("'Allow'"), POLICY("'Block'"),
        NULL, NULL, NULL }, "null", "null", false, false },
    { "ARM maintenance configuration: no policy",
      { &arm_maintenance, 0, "default", NULL, POLICY("'Block'"), NULL,
        NULL, NULL }, "null", "null", false, false },
};

static void profile_test(void **state)
{
    const struct profile_row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_buf before = NDP_BUF_INIT, after = NDP_BUF_INIT;
    const struct ndp_facts *f = facts_of(&set, &row->change);

    ndp_json_to_buf(&before, f->profile_before);
    ndp_json_to_buf(&after, f->profile_after);
    assert_string_equal(before.buf, row->before);
    assert_string_equal(after.buf, row->after);
    assert_int_equal(f->profile_before_sensitive, row->before_sensitive);
    assert_int_equal(f->profile_after_sensitive, row->after_sensitive);
    ndp_buf_release(&before);
    ndp_buf_release(&after);
    ndp_changeset_release(&set);
}

/* ---- maintenance windows ------------------------------------------------- */

struct window_row {
    const char *name;
    struct doc change;
    const char *want; /* describe_windows() */
};

static void describe_windows(struct ndp_buf *b, const struct ndp_facts *f)
{
    size_t i;

    for (i = 0; i < f->nr_windows; i++) {
        const struct ndp_window_facts *w = &f->windows[i];
        ndp_buf_addf(b, "%s%s", i ? "; " : "", w->name);
        if (w->node_os)
            ndp_buf_adds(b, " node-os");
        if (w->arm)
            ndp_buf_adds(b, " arm");
        add_text(b, "at", w->path);
        if (w->before || w->after) {
            ndp_buf_adds(b, " ");
            ndp_json_to_buf(b, w->before);
            ndp_buf_adds(b, ">");
            ndp_json_to_buf(b, w->after);
        }
        if (w->after_unknown) {
            ndp_buf_adds(b, " unknown=");
            ndp_json_to_buf(b, w->after_unknown);
        }
        if (w->sensitive)
            ndp_buf_adds(b, " sensitive");
        add_text(b, "start", w->start_date_key);
    }
}

#define NODE_OS "maintenance_window_node_os node-os " \
    "at=maintenance_window_node_os[0]"
#define AZ_START " start=start_date"
#define ARM_AT " arm at=properties.maintenanceWindow"
#define ARM_START " start=startDate"
#define MW(w) "{'properties':{'maintenanceWindow':" w "}}"

static const struct window_row window_rows[] = {
    { "azurerm cluster without windows: the node OS one, undeclared",
      { &az_cluster, 0, NULL, "{}", "{'maintenance_window_node_os':[]}",
        NULL, NULL, NULL }, NODE_OS AZ_START },
    { "azurerm cluster: the others named first, auto-upgrade first",
      { &az_cluster, 0, NULL,
        "{'maintenance_window':[{'allowed':[{'day':'Sunday'}]}]}",
        "{'maintenance_window_auto_upgrade':[{'frequency':'Weekly'}],"
        "'maintenance_window_node_os':[{'frequency':'Daily'}]}", NULL, NULL,
        NULL },
      "maintenance_window_auto_upgrade at=maintenance_window_auto_upgrade[0]"
      " null>{\"frequency\":\"Weekly\"}" AZ_START "; maintenance_window"
      " at=maintenance_window[0] {\"allowed\":[{\"day\":\"Sunday\"}]}>null; "
      NODE_OS " null>{\"frequency\":\"Daily\"}" AZ_START },
    { "azurerm cluster: empty blocks are not declared",
      { &az_cluster, 0, NULL,
        "{'maintenance_window':[{}],'maintenance_window_node_os':[{}]}",
        "{'maintenance_window_auto_upgrade':[],"
        "'maintenance_window_node_os':null}", NULL, NULL, NULL },
      NODE_OS AZ_START },
    { "azurerm cluster: the node OS window on both sides",
      { &az_cluster, 0, NULL,
        "{'maintenance_window_node_os':[{'frequency':'Daily'}]}",
        "{'maintenance_window_node_os':[{'frequency':'Weekly'}]}", NULL,
        NULL, NULL },
      NODE_OS " {\"frequency\":\"Daily\"}>{\"frequency\":\"Weekly\"}"
      AZ_START },
    { "azurerm cluster: unknown node OS window",
      { &az_cluster, 0, NULL, NULL, "{}",
        "{'maintenance_window_node_os':true}", NULL, NULL },
      NODE_OS " unknown=true" AZ_START },
    { "azurerm cluster: a node OS window with an unknown start",
      { &az_cluster, 0, NULL, NULL,
        "{'maintenance_window_node_os':[{'frequency':'Weekly'}]}",
        "{'maintenance_window_node_os':[{'start_time':true}]}", NULL, NULL },
      NODE_OS " null>{\"frequency\":\"Weekly\"} unknown={\"start_time\":true}"
      AZ_START },
    { "azurerm cluster: an unknown elsewhere",
      { &az_cluster, 0, NULL, NULL, "{}", "{'kubernetes_version':true}",
        NULL, NULL }, NODE_OS AZ_START },
    { "azurerm cluster: node OS window masked after",
      { &az_cluster, 0, NULL, NULL,
        "{'maintenance_window_node_os':[{'utc_offset':'+01:00'}]}", NULL,
        NULL, "{'maintenance_window_node_os':[{'utc_offset':true}]}" },
      NODE_OS " null>{\"utc_offset\":\"+01:00\"} sensitive" AZ_START },
    { "azurerm cluster: node OS window masked before",
      { &az_cluster, 0, NULL, NULL, "{}", NULL,
        "{'maintenance_window_node_os':true}", NULL },
      NODE_OS " sensitive" AZ_START },
    { "ARM configuration: the node OS one",
      { &arm_maintenance, 0, "aksManagedNodeOSUpgradeSchedule",
        MW("{'durationHours':4}"), MW("{'durationHours':5}"), NULL, NULL,
        NULL },
      "aksManagedNodeOSUpgradeSchedule node-os" ARM_AT
      " {\"durationHours\":4}>{\"durationHours\":5}" ARM_START },
    { "ARM configuration: its name in another case",
      { &arm_maintenance, NDP_ACTION_CREATE,
        "aksmanagednodeosupgradeschedule", NULL, MW("{'durationHours':4}"),
        NULL, NULL, NULL },
      "aksmanagednodeosupgradeschedule node-os" ARM_AT
      " null>{\"durationHours\":4}" ARM_START },
    { "ARM configuration: the auto-upgrade one is not the node OS one",
      { &arm_maintenance, 0, "aksManagedAutoUpgradeSchedule", NULL,
        MW("{'durationHours':4}"), NULL, NULL, NULL },
      "aksManagedAutoUpgradeSchedule" ARM_AT " null>{\"durationHours\":4}"
      ARM_START },
    { "ARM configuration without a name: its address",
      { &arm_maintenance, 0, NULL, NULL, "{'properties':{}}", NULL, NULL,
        NULL }, "azapi_resource.mc" ARM_AT ARM_START },
    { "ARM configuration: an unknown duration",
      { &arm_maintenance, 0, "default", NULL, MW("{'startTime':'01:00'}"),
        "{'properties':{'maintenanceWindow':{'durationHours':true}},"
        "'id':true}", NULL, NULL },
      "default" ARM_AT " null>{\"startTime\":\"01:00\"} "
      "unknown={\"durationHours\":true}" ARM_START },
    { "ARM configuration: all its properties unknown",
      { &arm_maintenance, 0, "default", NULL, "{}", "{'properties':true}",
        NULL, NULL }, "default" ARM_AT " unknown=true" ARM_START },
    { "ARM configuration: the whole body unknown",
      { &arm_maintenance, 0, "default", NULL, "{}", "true", NULL, NULL },
      "default" ARM_AT " unknown=true" ARM_START },
    { "ARM configuration: an unknown elsewhere",
      { &arm_maintenance, 0, "default", NULL, "{}", "{'tags':true}", NULL,
        NULL }, "default" ARM_AT ARM_START },
    { "ARM configuration: masked before",
      { &arm_maintenance, 0, "default", MW("{'startTime':'01:00'}"), NULL,
        NULL, "{'properties':{'maintenanceWindow':{'startTime':true}}}",
        NULL },
      "default" ARM_AT " {\"startTime\":\"01:00\"}>null sensitive"
      ARM_START },
    { "ARM cluster body: no windows",
      { &arm_cluster, 0, NULL, NULL, MW("{'durationHours':4}"), NULL, NULL,
        NULL }, "" },
    { "azapi setter: no windows",
      { &arm_setter, 0, NULL, NULL, MW("{'durationHours':4}"), NULL, NULL,
        NULL }, "" },
    { "azurerm pool: no windows",
      { &az_pool, 0, "user", NULL,
        "{'maintenance_window_node_os':[{'frequency':'Daily'}]}", NULL,
        NULL, NULL }, "" },
};

static void window_test(void **state)
{
    const struct window_row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_buf got = NDP_BUF_INIT;

    describe_windows(&got, facts_of(&set, &row->change));
    if (strcmp(got.buf, row->want) != 0)
        fail_msg("windows\n  got  '%s'\n  want '%s'", got.buf, row->want);
    ndp_buf_release(&got);
    ndp_changeset_release(&set);
}

/*
 * What AKS gets of each window: the configuration name, the legacy hours
 * form, and an ARM configuration's legacy properties (after side).
 */
static void describe_configs(struct ndp_buf *b, const struct ndp_facts *f)
{
    size_t i;

    for (i = 0; i < f->nr_windows; i++) {
        const struct ndp_window_facts *w = &f->windows[i];
        ndp_buf_addf(b, "%s%s", i ? "; " : "",
                     w->config ? w->config : "(none)");
        if (w->legacy)
            ndp_buf_adds(b, " legacy");
        if (w->time_in_week_after) {
            ndp_buf_addf(b, " %s=", w->time_in_week_path);
            ndp_json_to_buf(b, w->time_in_week_after);
        }
        if (w->not_allowed_time_before)
            ndp_buf_addf(b, " %s<before", w->not_allowed_time_path);
    }
}

static const struct window_row config_rows[] = {
    { "azurerm blocks stand for the three configurations",
      { &az_cluster, 0, NULL, NULL,
        "{'maintenance_window':[{'allowed':[{'day':'Sunday'}]}],"
        "'maintenance_window_auto_upgrade':[{'frequency':'Weekly'}]}",
        NULL, NULL, NULL },
      "aksManagedAutoUpgradeSchedule; default legacy; "
      "aksManagedNodeOSUpgradeSchedule" },
    { "ARM configuration: its name",
      { &arm_maintenance, 0, "nightly", NULL, MW("{'durationHours':4}"),
        NULL, NULL, NULL }, "nightly" },
    { "ARM template configuration: the last segment of cluster/name",
      { &arm_maintenance, 0, "aks/nightly", NULL, MW("{'durationHours':4}"),
        NULL, NULL, NULL }, "nightly" },
    { "ARM template configuration: an expression is no name",
      { &arm_maintenance, 0, "[parameters('n')]", NULL,
        MW("{'durationHours':4}"), NULL, NULL, NULL }, "(none)" },
    { "ARM configuration: the legacy properties",
      { &arm_maintenance, 0, "default",
        "{'properties':{'notAllowedTime':[]}}",
        "{'properties':{'timeInWeek':[{'day':'Monday','hourSlots':[1]}]}}",
        NULL, NULL, NULL },
      "default properties.timeInWeek=[{\"day\":\"Monday\",\"hourSlots\":[1]}]"
      " properties.notAllowedTime<before" },
};

static void config_test(void **state)
{
    const struct window_row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_buf got = NDP_BUF_INIT;

    describe_configs(&got, facts_of(&set, &row->change));
    if (strcmp(got.buf, row->want) != 0)
        fail_msg("configs\n  got  '%s'\n  want '%s'", got.buf, row->want);
    ndp_buf_release(&got);
    ndp_changeset_release(&set);
}

/* ---- the node OS and cluster upgrade channels ----------------------------- */

struct channel_row {
    const char *name;
    struct doc change;
    const char *want; /* "os PATH BEFORE>AFTER; up PATH BEFORE>AFTER" */
};

static void describe_setting(struct ndp_buf *b, const char *label,
                             const struct ndp_setting_facts *s)
{
    ndp_buf_addf(b, "%s %s %s>%s%s%s", label, s->path ? s->path : "-",
                 s->before ? s->before : "-", s->after ? s->after : "-",
                 s->sensitive ? " sensitive" : "",
                 s->after_unknown ? " unknown" : "");
}

static const struct channel_row channel_rows[] = {
    { "azurerm v4 names",
      { &az_cluster, 0, NULL, "{'node_os_upgrade_channel':'NodeImage'}",
        "{'node_os_upgrade_channel':'Unmanaged',"
        "'automatic_upgrade_channel':'patch'}", NULL, NULL, NULL },
      "os node_os_upgrade_channel NodeImage>Unmanaged; "
      "up automatic_upgrade_channel ->patch" },
    { "azurerm v3 names",
      { &az_cluster, 0, NULL, NULL,
        "{'node_os_channel_upgrade':'None',"
        "'automatic_channel_upgrade':'node-image'}", NULL, NULL, NULL },
      "os node_os_channel_upgrade ->None; "
      "up automatic_channel_upgrade ->node-image" },
    { "azurerm: an empty string is not declared, an unknown is",
      { &az_cluster, 0, NULL, "{'node_os_upgrade_channel':''}",
        "{'automatic_upgrade_channel':''}",
        "{'node_os_upgrade_channel':true}", NULL,
        "{'automatic_upgrade_channel':true}" },
      "os node_os_upgrade_channel ->- unknown; "
      "up automatic_upgrade_channel ->-" },
    { "azurerm: masked",
      { &az_cluster, 0, NULL, NULL, "{'node_os_upgrade_channel':'None'}",
        NULL, NULL, "{'node_os_upgrade_channel':true}" },
      "os node_os_upgrade_channel ->None sensitive; "
      "up automatic_upgrade_channel ->-" },
    { "ARM cluster body",
      { &arm_cluster, 0, NULL, NULL,
        "{'properties':{'autoUpgradeProfile':{'nodeOSUpgradeChannel':"
        "'SecurityPatch','upgradeChannel':'stable'}}}", NULL, NULL, NULL },
      "os properties.autoUpgradeProfile.nodeOSUpgradeChannel ->SecurityPatch;"
      " up properties.autoUpgradeProfile.upgradeChannel ->stable" },
    { "azapi setter",
      { &arm_setter, 0, NULL, NULL,
        "{'properties':{'autoUpgradeProfile':{'nodeOSUpgradeChannel':"
        "'None'}}}", NULL, NULL, NULL },
      "os properties.autoUpgradeProfile.nodeOSUpgradeChannel ->None;"
      " up properties.autoUpgradeProfile.upgradeChannel ->-" },
    { "a pool resource declares no channel",
      { &arm_pool, 0, "np", NULL,
        "{'properties':{'autoUpgradeProfile':{'nodeOSUpgradeChannel':"
        "'None'}}}", NULL, NULL, NULL }, "os - ->-; up - ->-" },
};

static void channel_test(void **state)
{
    const struct channel_row *row = *state;
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_buf got = NDP_BUF_INIT;
    const struct ndp_facts *f = facts_of(&set, &row->change);

    describe_setting(&got, "os", &f->node_os_channel);
    ndp_buf_adds(&got, "; ");
    describe_setting(&got, "up", &f->upgrade_channel);
    if (strcmp(got.buf, row->want) != 0)
        fail_msg("channels\n  got  '%s'\n  want '%s'", got.buf, row->want);
    ndp_buf_release(&got);
    ndp_changeset_release(&set);
}

/* ---- the whole body and the rule engine's keys --------------------------- */

static void body_and_keys__by_notation_and_address(void **state)
{
    static const struct {
        const struct kind_spec *kind;
        const char *address;
        bool whole;
        const char *list_key, *default_key;
    } rows[] = {
        { &arm_cluster, "azapi_resource.aks", true, "agentPoolProfiles",
          NULL },
        { &arm_cluster, "module.m.azapi_resource.aks[0]", true,
          "agentPoolProfiles", NULL },
        { &arm_cluster, "/subscriptions/s/resourceGroups/rg/providers/"
          "Microsoft.ContainerService/managedClusters/aks", false,
          "agentPoolProfiles", NULL },
        { &arm_setter, "azapi_update_resource.ndp", true,
          "agentPoolProfiles", NULL },
        { &arm_pool, "/subscriptions/s/x/agentPools/np", false,
          "agentPoolProfiles", NULL },
        { &arm_maintenance, "azapi_resource.mc", true, "agentPoolProfiles",
          NULL },
        { &arm_cluster, NULL, false, "agentPoolProfiles", NULL },
        { &az_cluster, "azurerm_kubernetes_cluster.main", false, NULL,
          "default_node_pool" },
        { &az_pool, "azurerm_kubernetes_cluster_node_pool.user", false, NULL,
          "default_node_pool" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct ndp_changeset set = NDP_CHANGESET_INIT;
        struct ndp_change *c = add_doc(&set, &(struct doc){
                                                 rows[i].kind, 0, "x", NULL,
                                                 "{}", NULL, NULL, NULL });
        const struct ndp_facts *f = &c->facts;

        free(c->address);
        c->address = rows[i].address ? ndp_xstrdup(rows[i].address) : NULL;
        ndp_facts_fill_all(&set, 0);
        if (f->sends_whole_body != rows[i].whole)
            fail_msg("%s: sends_whole_body %d", rows[i].address,
                     f->sends_whole_body);
        if (rows[i].list_key)
            assert_string_equal(f->pool_list_key, rows[i].list_key);
        else
            assert_null(f->pool_list_key);
        if (rows[i].default_key)
            assert_string_equal(f->default_pool_key, rows[i].default_key);
        else
            assert_null(f->default_pool_key);
        ndp_changeset_release(&set);
    }
}

/*
 * ndp_facts_fill_all() fills the changes from 'from' on, and reads a
 * change again when called again (what it held before is freed).
 */
static void fill_all__from_an_index_and_again(void **state)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_change *first, *second;

    (void)state;
    first = add_doc(&set, &(struct doc){ &az_cluster, 0, NULL, NULL,
                                         DNP("'name':'sys'"), NULL, NULL,
                                         NULL });
    second = add_doc(&set, &(struct doc){ &arm_cluster, 0, NULL, NULL,
                                          APP("{'name':'a','count':1}"),
                                          NULL, NULL, NULL });
    ndp_facts_fill_all(&set, 1);
    assert_int_equal(first->facts.nr_pools, 0);
    assert_int_equal(first->facts.nr_windows, 0);
    assert_null(first->facts.default_pool_key);
    assert_int_equal(second->facts.nr_pools, 1);
    assert_int_equal(second->facts.pools[0].count, 1);

    json_object_put(second->after);
    second->after = test_json(APP("{'name':'b','count':7},{'name':'c'}"));
    ndp_facts_fill_all(&set, 0);
    assert_int_equal(first->facts.nr_pools, 1);
    assert_int_equal(first->facts.nr_windows, 1);
    assert_int_equal(second->facts.nr_pools, 2);
    assert_string_equal(second->facts.pools[0].name, "b");
    assert_int_equal(second->facts.pools[0].count, 7);
    ndp_facts_fill_all(&set, 0);
    assert_int_equal(second->facts.nr_pools, 2);
    assert_int_equal(first->facts.nr_windows, 1);
    ndp_facts_fill_all(&set, set.nr);
    ndp_changeset_release(&set);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, pool_rows, pool_test);
    ADD_TEST(&list, fields__paths_lead_to_the_values_read);
    ADD_ROWS(&list, mask_rows, mask_test);
    ADD_TEST(&list, network__plugin_and_mode_after_the_change);
    ADD_ROWS(&list, version_rows, version_test);
    ADD_ROWS(&list, declared_rows, declared_test);
    ADD_ROWS(&list, profile_rows, profile_test);
    ADD_ROWS(&list, window_rows, window_test);
    ADD_ROWS(&list, config_rows, config_test);
    ADD_ROWS(&list, channel_rows, channel_test);
    ADD_TEST(&list, body_and_keys__by_notation_and_address);
    ADD_TEST(&list, fill_all__from_an_index_and_again);
    return cmocka_run_group_tests_name("facts", list.items, NULL, NULL);
}

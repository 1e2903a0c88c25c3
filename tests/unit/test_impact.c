/*
 * SPDX-License-Identifier: Apache-2.0
 * test_impact.c - which pools a cluster's findings rebuild (src/impact.c,
 * ndp_impact_compute_all): marked rebuilt or touched by the verdict's
 * flags (verdicts.h) and by the pools a finding names (one, every one,
 * the Windows ones, none); created and deleted pools never rebuilt; pools
 * only a finding names, and those only the cluster state describes; the
 * rules a pool is rebuilt 'because' of, in report order whatever order
 * the findings were made in; sizes from the changes' facts; sensitive
 * pools; clusters kept apart; ndp_impact_finding_rebuilds(); and the
 * phase each pool is rebuilt, touched and rotated in: the cluster's own
 * PUT or its pool resources'.
 */
#include "test_helpers.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "impact.h"
#include "input.h"
#include "state.h"

/* ---- the change set ------------------------------------------------------ */

static struct ndp_change *add_change(struct ndp_changeset *set,
                                     size_t cluster, enum ndp_notation n,
                                     enum ndp_kind kind, const char *name,
                                     enum ndp_action action,
                                     const char *before, const char *after)
{
    static const char *const types[2][2] = {
        { "azurerm_kubernetes_cluster",
          "azurerm_kubernetes_cluster_node_pool" },
        { "Microsoft.ContainerService/managedClusters",
          "Microsoft.ContainerService/managedClusters/agentPools" },
    };
    bool pool = kind == NDP_KIND_NODEPOOL;
    char address[128];
    struct ndp_change *c;

    snprintf(address, sizeof(address), "%s.%s", types[n][pool],
             name ? name : "main");
    c = test_add_update(set, n, kind, types[n][pool], address,
                        test_json(before), test_json(after));
    c->action = action;
    c->cluster = cluster;
    c->name = pool && name ? ndp_xstrdup(name) : NULL;
    return c;
}

static void azurerm_pool(struct ndp_changeset *set, size_t cluster,
                         const char *name, enum ndp_action action,
                         const char *members)
{
    char doc[256];

    snprintf(doc, sizeof(doc), "{%s}", members);
    add_change(set, cluster, NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL, name,
               action, action == NDP_ACTION_CREATE ? NULL : doc,
               action == NDP_ACTION_DELETE ? NULL : doc);
}

/*
 * One cluster (index 0): the default pool 'sys' (Linux, 3 nodes), the
 * pool resources 'win' (Windows), 'user' (Linux), 'new' (created) and
 * 'gone' (deleted), in that order.
 */
static void base_set(struct ndp_changeset *set)
{
    add_change(set, 0, NDP_NOTATION_AZURERM, NDP_KIND_CLUSTER, NULL,
               NDP_ACTION_UPDATE, NULL,
               "{'default_node_pool':[{'name':'sys','node_count':3}]}");
    azurerm_pool(set, 0, "win", NDP_ACTION_UPDATE,
                 "'node_count':2,'os_type':'Windows'");
    azurerm_pool(set, 0, "user", NDP_ACTION_UPDATE,
                 "'node_count':4,'os_type':'Linux'");
    azurerm_pool(set, 0, "new", NDP_ACTION_CREATE, "'node_count':1");
    azurerm_pool(set, 0, "gone", NDP_ACTION_DELETE, "'node_count':1");
}

/* ---- findings ------------------------------------------------------------ */

struct fspec {
    const char *rule;
    enum ndp_verdict verdict;
    enum ndp_finding_pools pools;
    const char *pool;     /* with NDP_POOLS_NAMED */
    const char *resource; /* the report order: by resource, then rule */
    size_t cluster;
};

static void add_finding(struct ndp_findings *fs, const struct fspec *s)
{
    struct ndp_rule rule = { .id = s->rule, .category = "c" };
    struct ndp_finding_spec spec = {
        .rule = &rule,
        .verdict = s->verdict,
        .pools = s->pools,
        .pool = s->pool,
        .input = "plan.json",
        .cluster = s->cluster ? "c1" : "c0",
        .cluster_index = s->cluster,
        .resource = s->resource ? s->resource : "r",
        .message = "m",
    };

    ndp_findings_add(fs, &spec);
}

/*
 * An impact in words: "rebuilds", "touches" (or "nothing"), then each
 * pool with R rebuilt, T touched, C created, D deleted, S sensitive, and
 * the rules it is rebuilt because of.
 */
static void describe(struct ndp_buf *b, const struct ndp_impact *impact)
{
    size_t i;

    if (impact->rebuilds)
        ndp_buf_adds(b, impact->touches ? "rebuilds touches" : "rebuilds");
    else
        ndp_buf_adds(b, impact->touches ? "touches" : "nothing");
    for (i = 0; i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        ndp_buf_addf(b, " | %s", p->name);
        if (p->rebuilt || p->touched || p->created || p->deleted ||
            p->sensitive)
            ndp_buf_addf(b, " %s%s%s%s%s", p->rebuilt ? "R" : "",
                         p->touched ? "T" : "", p->created ? "C" : "",
                         p->deleted ? "D" : "", p->sensitive ? "S" : "");
        if (p->because)
            ndp_buf_addf(b, " %s", p->because);
    }
}

#define FINDINGS_MAX 4

struct impact_row {
    const char *name;
    struct fspec findings[FINDINGS_MAX];
    size_t nr;
    const char *want; /* describe() of the cluster's impact */
};

#define ALL_OF(rule, verdict) { rule, verdict, NDP_POOLS_ALL, NULL, NULL, 0 }
#define NAMED(rule, verdict, pool) \
    { rule, verdict, NDP_POOLS_NAMED, pool, NULL, 0 }
#define WINDOWS(rule, verdict) \
    { rule, verdict, NDP_POOLS_WINDOWS, NULL, NULL, 0 }
#define NONE(rule, verdict) { rule, verdict, NDP_POOLS_NONE, NULL, NULL, 0 }
#define NEW_GONE " | new C | gone D"
#define EVERY(how) " | sys " how " | win " how " | user " how NEW_GONE
#define UNTOUCHED " | sys | win | user" NEW_GONE

static const struct impact_row impact_rows[] = {
    { "allowed, every pool: each kept pool rebuilt",
      { ALL_OF("NDP101", NDP_VERDICT_ALLOWED) }, 1,
      "rebuilds touches" EVERY("RT NDP101") },
    { "may-reimage, every pool: rebuilt",
      { ALL_OF("NDP102", NDP_VERDICT_MAY_REIMAGE) }, 1,
      "rebuilds touches" EVERY("RT NDP102") },
    { "bypassed, every pool: rebuilt",
      { ALL_OF("NDP306", NDP_VERDICT_BYPASSED) }, 1,
      "rebuilds touches" EVERY("RT NDP306") },
    { "rotate, its pool: that pool rebuilt",
      { NAMED("NDP502", NDP_VERDICT_ROTATE, "user") }, 1,
      "rebuilds touches | sys | win | user RT NDP502" NEW_GONE },
    { "rejected, every pool: touched, none rebuilt",
      { ALL_OF("NDP101", NDP_VERDICT_REJECTED) }, 1, "touches" EVERY("T") },
    { "outside-window, its pool: touched",
      { NAMED("NDP201", NDP_VERDICT_OUTSIDE_WINDOW, "win") }, 1,
      "touches | sys | win T | user" NEW_GONE },
    { "replace: rebuilt anew, nothing marked, no pools",
      { ALL_OF("NDP003", NDP_VERDICT_REPLACE) }, 1, "nothing" },
    { "manual-upgrade: at the next node image, no pools",
      { ALL_OF("NDP306", NDP_VERDICT_MANUAL_UPGRADE) }, 1, "nothing" },
    { "gate-open: no pools",
      { ALL_OF("NDP001", NDP_VERDICT_GATE_OPEN) }, 1, "nothing" },
    { "window-overrun: no pools",
      { ALL_OF("NDP009", NDP_VERDICT_WINDOW_OVERRUN) }, 1, "nothing" },
    { "allowed, no pools known: nothing",
      { NONE("NDP002", NDP_VERDICT_MAY_REIMAGE) }, 1, "nothing" },
    { "rejected, no pools known: nothing",
      { NONE("NDP101", NDP_VERDICT_REJECTED) }, 1, "nothing" },
    { "allowed, the Windows pools",
      { WINDOWS("NDP204", NDP_VERDICT_ALLOWED) }, 1,
      "rebuilds touches | sys | win RT NDP204 | user" NEW_GONE },
    { "rejected, the Windows pools: touched",
      { WINDOWS("NDP204", NDP_VERDICT_REJECTED) }, 1,
      "touches | sys | win T | user" NEW_GONE },
    { "allowed, a pool named in another case",
      { NAMED("NDP201", NDP_VERDICT_ALLOWED, "USER") }, 1,
      "rebuilds touches | sys | win | user RT NDP201" NEW_GONE },
    { "allowed, a created pool: never rebuilt",
      { NAMED("NDP201", NDP_VERDICT_ALLOWED, "new") }, 1,
      "rebuilds touches" UNTOUCHED },
    { "allowed, a deleted pool: never rebuilt",
      { NAMED("NDP201", NDP_VERDICT_ALLOWED, "gone") }, 1,
      "rebuilds touches" UNTOUCHED },
    { "rejected, a created pool: never touched",
      { NAMED("NDP201", NDP_VERDICT_REJECTED, "new") }, 1,
      "touches" UNTOUCHED },
    { "allowed, every pool: created and deleted ones left alone",
      { ALL_OF("NDP101", NDP_VERDICT_ALLOWED),
        NAMED("NDP201", NDP_VERDICT_ALLOWED, "new") }, 2,
      "rebuilds touches" EVERY("RT NDP101") },
    { "allowed, a pool only the finding names: added, rebuilt",
      { NAMED("NDP201", NDP_VERDICT_ALLOWED, "ghost") }, 1,
      "rebuilds touches" UNTOUCHED " | ghost RT NDP201" },
    { "rejected, a pool only the finding names: added, touched",
      { NAMED("NDP201", NDP_VERDICT_REJECTED, "ghost") }, 1,
      "touches" UNTOUCHED " | ghost T" },
    { "pools only findings name: added in report order",
      { { "NDP201", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "zeta", "r2", 0 },
        { "NDP201", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "alpha", "r3",
          0 },
        { "NDP201", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "mid", "r1",
          0 } }, 3,
      "rebuilds touches" UNTOUCHED " | mid RT NDP201 | zeta RT NDP201"
      " | alpha RT NDP201" },
    { "a pool-level finding naming no pool: rebuilds, none marked",
      { NAMED("NDP201", NDP_VERDICT_ALLOWED, NULL) }, 1,
      "rebuilds touches" UNTOUCHED },
    { "two rules: because in report order",
      { { "NDP202", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "user", "r2", 0 },
        { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, "r1", 0 } },
      2,
      "rebuilds touches | sys RT NDP101 | win RT NDP101 | user RT "
      "NDP101,NDP202" NEW_GONE },
    { "report order: by resource before rule",
      { { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, "r2", 0 },
        { "NDP202", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, "r1", 0 } },
      2, "rebuilds touches" EVERY("RT NDP202,NDP101") },
    { "the same rule twice: once in because",
      { { "NDP501", NDP_VERDICT_ROTATE, NDP_POOLS_NAMED, "user", "r1", 0 },
        { "NDP501", NDP_VERDICT_ROTATE, NDP_POOLS_NAMED, "user", "r2", 0 },
        { "NDP501", NDP_VERDICT_ROTATE, NDP_POOLS_ALL, NULL, "r3", 0 } },
      3, "rebuilds touches" EVERY("RT NDP501") },
    { "a rule id that starts another: both in because",
      { { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, "r1", 0 },
        { "NDP10", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, "r2", 0 } },
      2, "rebuilds touches" EVERY("RT NDP101,NDP10") },
    { "a rule id that ends another: both in because",
      { { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, "r1", 0 },
        { "DP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, "r2", 0 } },
      2, "rebuilds touches" EVERY("RT NDP101,DP101") },
    { "allowed on one pool, rejected on all",
      { NAMED("NDP201", NDP_VERDICT_ALLOWED, "user"),
        ALL_OF("NDP101", NDP_VERDICT_REJECTED) }, 2,
      "rebuilds touches | sys T | win T | user RT NDP201" NEW_GONE },
    { "one rule refused, then let through: rebuilt",
      { { "NDP101", NDP_VERDICT_REJECTED, NDP_POOLS_ALL, NULL, "r1", 0 },
        { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, "r2", 0 } },
      2, "rebuilds touches" EVERY("RT NDP101") },
    { "no findings: nothing", { { 0 } }, 0, "nothing" },
};

/* A change set, findings over it and their impacts. */
struct world {
    struct ndp_changeset set;
    struct ndp_findings fs;
    struct ndp_impacts impacts;
};

#define WORLD_INIT { NDP_CHANGESET_INIT, NDP_FINDINGS_INIT, NDP_IMPACTS_INIT }

/*
 * Fills the facts of the set, adds the findings ('reverse': last first)
 * and computes the impacts of 'nr_clusters' clusters.
 */
static void compute_versions(struct world *w, size_t nr_clusters,
                             const struct ndp_state_cluster *const *states,
                             const char *const *versions,
                             const struct fspec *findings, size_t nr,
                             bool reverse)
{
    size_t i;

    ndp_facts_fill_all(&w->set, 0);
    for (i = 0; i < nr; i++)
        add_finding(&w->fs, &findings[reverse ? nr - 1 - i : i]);
    ndp_impact_compute_all(&w->impacts, nr_clusters, states, versions,
                           &w->set, &w->fs);
    assert_int_equal(w->impacts.nr, nr_clusters);
    for (i = 0; i < nr_clusters; i++) {
        assert_int_equal(w->impacts.items[i].window_minutes_left, -1);
        assert_false(w->impacts.items[i].window_sensitive);
    }
}

/* The same without the clusters' versions. */
static void compute(struct world *w, size_t nr_clusters,
                    const struct ndp_state_cluster *const *states,
                    const struct fspec *findings, size_t nr, bool reverse)
{
    compute_versions(w, nr_clusters, states, NULL, findings, nr, reverse);
}

/* Frees it all; the impacts are left empty. */
static void release_world(struct world *w)
{
    ndp_impacts_release(&w->impacts);
    assert_null(w->impacts.items);
    assert_int_equal(w->impacts.nr, 0);
    ndp_findings_release(&w->fs);
    ndp_changeset_release(&w->set);
}

/* describe() of 'impact' is 'want'. */
static void assert_described(const struct ndp_impact *impact,
                             const char *want)
{
    struct ndp_buf got = NDP_BUF_INIT;

    describe(&got, impact);
    if (strcmp(got.buf, want) != 0)
        fail_msg("impact\n  got  '%s'\n  want '%s'", got.buf, want);
    ndp_buf_release(&got);
}

static void impact_test(void **state)
{
    const struct impact_row *row = *state;
    const struct ndp_state_cluster *states[1] = { NULL };
    size_t reverse;

    /* The findings made in the row's order, then in the reverse order. */
    for (reverse = 0; reverse < 2; reverse++) {
        struct world w = WORLD_INIT;
        base_set(&w.set);
        compute(&w, 1, states, row->findings, row->nr, reverse);
        assert_described(&w.impacts.items[0], row->want);
        release_world(&w);
    }
}

/* ---- sizes, state, clusters, masks ------------------------------------ */

static const struct ndp_impact_pool *pool_named(const struct ndp_impact *im,
                                                const char *name)
{
    size_t i;

    for (i = 0; i < im->nr_pools; i++)
        if (strcmp(im->pools[i].name, name) == 0)
            return &im->pools[i];
    fail_msg("no pool '%s'", name);
    return NULL;
}

/* A pool of the cluster state: 'count' nodes, nothing else stated. */
static struct ndp_state_pool state_pool(char *name, char *os_type,
                                        long count)
{
    struct ndp_state_pool p = {
        .name = name, .os_type = os_type, .count = count, .min_count = -1,
        .max_count = -1, .drain_minutes = -1, .soak_minutes = -1,
    };

    return p;
}

/*
 * Each pool is sized by the last change that describes it (an ARM
 * cluster body, then the pool's own resource); 'created' from any of
 * them stays.
 */
static void sizes__from_facts_last_change_wins(void **state)
{
    struct world w = WORLD_INIT;
    const struct ndp_state_cluster *states[1] = { NULL };
    const struct ndp_impact_pool *user, *fresh, *body;
    const struct fspec all = ALL_OF("NDP101", NDP_VERDICT_ALLOWED);

    (void)state;
    add_change(&w.set, 0, NDP_NOTATION_ARM, NDP_KIND_CLUSTER, NULL,
               NDP_ACTION_UPDATE,
               "{'properties':{'agentPoolProfiles':[{'name':'user'},"
               "{'name':'body'}]}}",
               "{'properties':{'agentPoolProfiles':[{'name':'user',"
               "'count':3,'upgradeSettings':{'maxSurge':'33%'}},"
               "{'name':'fresh','count':1},{'name':'body','count':6,"
               "'minCount':2,'maxCount':8,'enableAutoScaling':true,"
               "'osType':'Linux','upgradeSettings':{'maxSurge':'2',"
               "'drainTimeoutInMinutes':12,"
               "'nodeSoakDurationInMinutes':4}}]}}");
    add_change(&w.set, 0, NDP_NOTATION_ARM, NDP_KIND_NODEPOOL, "user",
               NDP_ACTION_UPDATE, NULL,
               "{'properties':{'count':5,'minCount':2,'maxCount':9,"
               "'enableAutoScaling':true,'osType':'Windows',"
               "'upgradeSettings':{'drainTimeoutInMinutes':20,"
               "'nodeSoakDurationInMinutes':3}}}");
    add_change(&w.set, 0, NDP_NOTATION_ARM, NDP_KIND_NODEPOOL, "fresh",
               NDP_ACTION_UPDATE, NULL, "{'properties':{'count':2}}");
    compute(&w, 1, states, &all, 1, false);

    assert_int_equal(w.impacts.items[0].nr_pools, 3);
    user = pool_named(&w.impacts.items[0], "user");
    assert_int_equal(user->nodes, 5);
    assert_int_equal(user->min_nodes, 2);
    assert_int_equal(user->max_nodes, 9);
    assert_true(user->autoscale);
    assert_string_equal(user->os_type, "Windows");
    assert_null(user->surge); /* the pool resource declares none */
    assert_int_equal(user->drain_minutes, 20);
    assert_int_equal(user->soak_minutes, 3);
    assert_true(user->rebuilt);
    fresh = pool_named(&w.impacts.items[0], "fresh");
    assert_true(fresh->created);
    assert_int_equal(fresh->nodes, 2);
    assert_false(fresh->rebuilt);
    assert_false(fresh->touched);
    assert_null(fresh->because);
    body = pool_named(&w.impacts.items[0], "body");
    assert_int_equal(body->nodes, 6);
    assert_int_equal(body->min_nodes, 2);
    assert_int_equal(body->max_nodes, 8);
    assert_true(body->autoscale);
    assert_string_equal(body->os_type, "Linux");
    assert_string_equal(body->surge, "2");
    assert_int_equal(body->drain_minutes, 12);
    assert_int_equal(body->soak_minutes, 4);
    assert_string_equal(body->because, "NDP101");
    release_world(&w);
}

/*
 * How AKS rolls each pool (rollout.h) needs more than its size: the
 * version its unset maxSurge default depends on (its own, else the
 * cluster's in force, else the live state's of the pool, else of the
 * cluster), whether it is a Spot pool, maxUnavailable as sent, and
 * whether a rotation recreates it.  A setter's pools are not sized.
 */
static void rollout_inputs__version_spot_unavailable_rotation(void **state)
{
    char e[] = "e", v130[] = "1.30.1", v129[] = "1.29";
    struct ndp_state_pool pools[1];
    struct ndp_state_cluster st = { .pools = pools, .nr_pools = 1,
                                    .has_pools = true, .version = v129 };
    const struct ndp_state_cluster *states[1] = { &st };
    const char *versions[1] = { "1.33.0" };
    const struct fspec found[] = {
        ALL_OF("NDP101", NDP_VERDICT_ALLOWED),
        NAMED("NDP502", NDP_VERDICT_ROTATE, "a"),
        NAMED("NDP502", NDP_VERDICT_ROTATE, "gone"),
    };
    size_t round;

    (void)state;
    pools[0] = state_pool(e, NULL, 2);
    pools[0].version = v130;
    for (round = 0; round < 2; round++) {
        struct world w = WORLD_INIT;
        const struct ndp_impact *im;
        const struct ndp_impact_pool *p;

        add_change(&w.set, 0, NDP_NOTATION_ARM, NDP_KIND_CLUSTER, NULL,
                   NDP_ACTION_UPDATE, NULL,
                   "{'properties':{'agentPoolProfiles':["
                   "{'name':'a','count':3,'orchestratorVersion':'1.31.2'},"
                   "{'name':'b','count':3},"
                   "{'name':'c','count':2,'scaleSetPriority':'Spot'},"
                   "{'name':'d','count':6,'upgradeSettings':"
                   "{'maxSurge':'0','maxUnavailable':'2'}}]}}");
        add_change(&w.set, 0, NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL, "z",
                   NDP_ACTION_UPDATE, NULL,
                   "{'node_count':4,'upgrade_settings':"
                   "[{'max_unavailable':'1'}]}");
        add_change(&w.set, 0, NDP_NOTATION_ARM, NDP_KIND_SETTER, NULL,
                   NDP_ACTION_UPDATE, NULL,
                   "{'properties':{'agentPoolProfiles':[{'name':'f',"
                   "'count':9},{'name':'b','count':1}]}}");
        compute_versions(&w, 1, states, round ? NULL : versions, found,
                         NDP_ARRAY_SIZE(found), false);
        im = &w.impacts.items[0];
        /* a b c d z, e (the state), gone (a finding), not f (a setter) */
        assert_int_equal(im->nr_pools, 7);
        p = pool_named(im, "a");
        assert_string_equal(p->version, "1.31.2");
        assert_true(p->rotated);
        p = pool_named(im, "b");
        assert_string_equal(p->version, round ? "1.29" : "1.33.0");
        assert_int_equal(p->nodes, 3); /* not the setter's 1 */
        assert_false(p->rotated);
        assert_false(p->spot);
        assert_true(pool_named(im, "c")->spot);
        p = pool_named(im, "d");
        assert_string_equal(p->surge, "0");
        assert_string_equal(p->unavailable, "2");
        p = pool_named(im, "z");
        assert_string_equal(p->surge, "0"); /* azurerm sends it */
        assert_string_equal(p->unavailable, "1");
        assert_string_equal(pool_named(im, "e")->version,
                            round ? "1.30.1" : "1.33.0");
        release_world(&w);
    }
}

/*
 * The subnets of the input each pool is in (by id, whatever the case),
 * and where the cluster's pods take addresses, from its own change:
 * Azure CNI without overlay (node and pods), with overlay or kubenet
 * (node only), an unknown plugin (not known).
 */
static void subnets__by_id_and_addressing(void **state)
{
    static const char *const plugins[] = { "'azure'", "'azure'", "'kubenet'",
                                           "'none'" };
    static const char *const modes[] = { "null", "'overlay'", "null",
                                         "null" };
    static const enum ndp_addressing want[] = {
        NDP_ADDRESSING_NODE_AND_PODS, NDP_ADDRESSING_NODE_ONLY,
        NDP_ADDRESSING_NODE_ONLY, NDP_ADDRESSING_UNKNOWN
    };
    const struct fspec all = ALL_OF("NDP101", NDP_VERDICT_ALLOWED);
    const struct ndp_state_cluster *states[1] = { NULL };
    size_t m;

    (void)state;
    for (m = 0; m < NDP_ARRAY_SIZE(modes); m++) {
        struct world w = WORLD_INIT;
        struct ndp_subnet *sn;
        const struct ndp_impact *im;
        char cluster[256];

        snprintf(cluster, sizeof(cluster),
                 "{'network_profile':[{'network_plugin':%s,"
                 "'network_plugin_mode':%s}],'default_node_pool':[{"
                 "'name':'sys','node_count':3,'vnet_subnet_id':'/s/A'}]}",
                 plugins[m], modes[m]);
        add_change(&w.set, 0, NDP_NOTATION_AZURERM, NDP_KIND_CLUSTER, NULL,
                   NDP_ACTION_UPDATE, NULL, cluster);
        azurerm_pool(&w.set, 0, "p1", NDP_ACTION_UPDATE,
                     "'node_count':2,'vnet_subnet_id':'/s/a',"
                     "'pod_subnet_id':'/s/pods','max_pods':40");
        azurerm_pool(&w.set, 0, "p2", NDP_ACTION_UPDATE,
                     "'node_count':2,'vnet_subnet_id':'/s/other'");
        sn = ndp_changeset_add_subnet(&w.set);
        sn->id = ndp_xstrdup("/s/a");
        sn->address = ndp_xstrdup("azurerm_subnet.a");
        sn->prefixes = ndp_xstrdup("10.0.0.0/24");
        sn->usable = 251;
        compute(&w, 1, states, &all, 1, false);
        im = &w.impacts.items[0];
        assert_int_equal(im->addressing, want[m]);
        assert_int_equal(im->nr_subnets, 1);
        assert_ptr_equal(im->subnets[0], sn);
        assert_int_equal(pool_named(im, "sys")->subnet, 0);
        assert_int_equal(pool_named(im, "p1")->subnet, 0);
        assert_true(pool_named(im, "p1")->pod_subnet);
        assert_int_equal(pool_named(im, "p1")->max_pods, 40);
        assert_int_equal(pool_named(im, "p2")->subnet, SIZE_MAX);
        release_world(&w);
    }
}

/*
 * The cluster state adds the pools the input does not describe, sized
 * as the state says, after the input's; it never resizes a pool the
 * input describes.  Its OS counts for the Windows pools, in any case.
 */
static void state__adds_pools_the_input_lacks(void **state)
{
    char sys[] = "sys", spot[] = "spot", lin[] = "lin", windows[] = "windows",
         linux_os[] = "Linux", two[] = "2";
    struct ndp_state_pool pools[3];
    struct ndp_state_cluster st = { .pools = pools, .nr_pools = 3,
                                    .has_pools = true };
    const struct ndp_state_cluster *states[1] = { &st };
    const struct fspec windows_only = WINDOWS("NDP204",
                                              NDP_VERDICT_ALLOWED);
    struct world w = WORLD_INIT;
    const struct ndp_impact_pool *p;

    (void)state;
    pools[0] = state_pool(sys, windows, 10);
    pools[1] = state_pool(spot, windows, 6);
    pools[1].min_count = 1;
    pools[1].max_count = 8;
    pools[1].autoscale = true;
    pools[1].max_surge = two;
    pools[1].drain_minutes = 15;
    pools[1].soak_minutes = 1;
    pools[2] = state_pool(lin, linux_os, 2);
    base_set(&w.set);
    compute(&w, 1, states, &windows_only, 1, false);
    assert_described(&w.impacts.items[0], "rebuilds touches | sys | "
                     "win RT NDP204 | user" NEW_GONE " | spot RT NDP204 | "
                     "lin");
    p = pool_named(&w.impacts.items[0], "sys");
    assert_int_equal(p->nodes, 3);
    assert_string_equal(p->os_type, "Linux");
    p = pool_named(&w.impacts.items[0], "spot");
    assert_int_equal(p->nodes, 6);
    assert_int_equal(p->min_nodes, 1);
    assert_int_equal(p->max_nodes, 8);
    assert_true(p->autoscale);
    assert_string_equal(p->surge, "2");
    assert_int_equal(p->drain_minutes, 15);
    assert_int_equal(p->soak_minutes, 1);
    assert_false(p->sensitive);
    release_world(&w);
}

/*
 * Each cluster gets the pools of its own changes and state, marked by
 * its own findings; a cluster with no finding has no pools, and a change
 * of no listed cluster counts for none.
 */
static void clusters__kept_apart(void **state)
{
    char other[] = "other";
    struct ndp_state_pool pool = state_pool(other, NULL, 1);
    struct ndp_state_cluster st = { .pools = &pool, .nr_pools = 1 };
    const struct ndp_state_cluster *states[3] = { NULL, &st, NULL };
    const struct fspec findings[] = {
        { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, "r", 1 },
        { "NDP201", NDP_VERDICT_REJECTED, NDP_POOLS_NAMED, "sys", "r", 2 },
    };
    static const char *const default_pools[] = {
        "{'default_node_pool':[{'name':'sys1','node_count':3}]}",
        "{'default_node_pool':[{'name':'sys','node_count':7}]}",
        "{'default_node_pool':[{'name':'lost','node_count':1}]}",
    };
    struct world w = WORLD_INIT;
    size_t i;

    (void)state;
    base_set(&w.set);
    for (i = 0; i < NDP_ARRAY_SIZE(default_pools); i++)
        add_change(&w.set, i + 1, NDP_NOTATION_AZURERM, NDP_KIND_CLUSTER,
                   NULL, NDP_ACTION_UPDATE, NULL, default_pools[i]);
    compute(&w, 3, states, findings, NDP_ARRAY_SIZE(findings), false);
    assert_described(&w.impacts.items[0], "nothing");
    assert_described(&w.impacts.items[1],
                     "rebuilds touches | sys1 RT NDP101 | other RT NDP101");
    assert_described(&w.impacts.items[2], "touches | sys T");
    assert_int_equal(w.impacts.items[0].nr_pools, 0);
    assert_null(w.impacts.items[0].pools);
    assert_int_equal(pool_named(&w.impacts.items[2], "sys")->nodes, 7);
    release_world(&w);
}

/* No clusters: no impacts, and nothing to free but the empty list. */
static void clusters__none(void **state)
{
    struct world w = WORLD_INIT;

    (void)state;
    compute(&w, 0, NULL, NULL, 0, false);
    release_world(&w);
}

/*
 * A pool read from a change whose masks cover its pools is sensitive,
 * whatever other changes say of it; pools of the state and those only a
 * finding names are not.
 */
static void sensitive__sticks_to_the_pool(void **state)
{
    char spare[] = "spare";
    struct ndp_state_pool pool = state_pool(spare, NULL, 1);
    struct ndp_state_cluster st = { .pools = &pool, .nr_pools = 1 };
    const struct ndp_state_cluster *states[1] = { &st };
    const struct fspec findings[] = {
        ALL_OF("NDP101", NDP_VERDICT_ALLOWED),
        NAMED("NDP201", NDP_VERDICT_ALLOWED, "ghost"),
    };
    struct world w = WORLD_INIT;
    struct ndp_change *c;

    (void)state;
    c = add_change(&w.set, 0, NDP_NOTATION_ARM, NDP_KIND_CLUSTER, NULL,
                   NDP_ACTION_UPDATE, NULL,
                   "{'properties':{'agentPoolProfiles':[{'name':'a',"
                   "'count':1},{'name':'b','count':2}]}}");
    c->after_sensitive = test_json("{'properties':{'agentPoolProfiles':"
                                   "[{'count':true}]}}");
    add_change(&w.set, 0, NDP_NOTATION_ARM, NDP_KIND_NODEPOOL, "a",
               NDP_ACTION_UPDATE, NULL, "{'properties':{'count':1}}");
    add_change(&w.set, 0, NDP_NOTATION_ARM, NDP_KIND_NODEPOOL, "c",
               NDP_ACTION_UPDATE, NULL, "{'properties':{'count':1}}");
    compute(&w, 1, states, findings, NDP_ARRAY_SIZE(findings), false);
    assert_described(&w.impacts.items[0], "rebuilds touches | a RTS NDP101 "
                     "| b RTS NDP101 | c RT NDP101 | spare RT NDP101 | "
                     "ghost RT NDP201");
    release_world(&w);
}

/* ---- the phases of the apply (impact.h, put-time-limits PT-K8S-06) ------ */

/* "name R<bits> T<bits> O<bits>" for each pool: rebuilt, touched, rotated. */
static void describe_phases(struct ndp_buf *b, const struct ndp_impact *im)
{
    size_t i;

    for (i = 0; i < im->nr_pools; i++) {
        const struct ndp_impact_pool *p = &im->pools[i];
        ndp_buf_addf(b, "%s%s R%u T%u O%u", i ? " | " : "", p->name,
                     p->rebuilt_in, p->touched_in, p->rotated_in);
    }
}

#define AZ_MAIN "azurerm_kubernetes_cluster.main"
#define AZ_NP(name) "azurerm_kubernetes_cluster_node_pool." name
#define ARM_AP(name) "Microsoft.ContainerService/managedClusters/agentPools." \
                     name

static const struct phase_row {
    const char *name;
    enum ndp_notation notation;
    struct fspec findings[FINDINGS_MAX];
    size_t nr;
    const char *want; /* describe_phases(): 1 the cluster's, 2 the pools' */
} phase_rows[] = {
    { "azurerm: a cluster-level change rebuilds every pool in its PUT",
      NDP_NOTATION_AZURERM,
      { { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, AZ_MAIN, 0 } },
      1, "sys R1 T1 O0 | user R1 T1 O0 | spare R1 T1 O0" },
    { "azurerm: the default pool in the cluster's, a pool resource in its own",
      NDP_NOTATION_AZURERM,
      { { "NDP201", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "sys", AZ_MAIN,
          0 },
        { "NDP201", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "user",
          AZ_NP("user"), 0 } },
      2, "sys R1 T1 O0 | user R2 T2 O0 | spare R0 T0 O0" },
    { "azurerm: a pool rebuilt by both is in both phases",
      NDP_NOTATION_AZURERM,
      { { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, AZ_MAIN, 0 },
        { "NDP502", NDP_VERDICT_ROTATE, NDP_POOLS_NAMED, "user",
          AZ_NP("user"), 0 } },
      2, "sys R1 T1 O0 | user R3 T3 O2 | spare R1 T1 O0" },
    { "azurerm: a default pool rotation rotates in the cluster's phase",
      NDP_NOTATION_AZURERM,
      { { "NDP501", NDP_VERDICT_ROTATE, NDP_POOLS_NAMED, "sys", AZ_MAIN,
          0 } },
      1, "sys R1 T1 O1 | user R0 T0 O0 | spare R0 T0 O0" },
    { "azurerm: a refused pool change touches in its own phase",
      NDP_NOTATION_AZURERM,
      { { "NDP201", NDP_VERDICT_REJECTED, NDP_POOLS_NAMED, "user",
          AZ_NP("user"), 0 },
        { "NDP101", NDP_VERDICT_REJECTED, NDP_POOLS_ALL, NULL, AZ_MAIN, 0 } },
      2, "sys R0 T1 O0 | user R0 T3 O0 | spare R0 T1 O0" },
    { "azurerm: a rule in both phases marks both",
      NDP_NOTATION_AZURERM,
      { { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_ALL, NULL, AZ_MAIN, 0 },
        { "NDP101", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "spare",
          AZ_NP("spare"), 0 } },
      2, "sys R1 T1 O0 | user R1 T1 O0 | spare R3 T3 O0" },
    { "a finding about no change of the input: the cluster's",
      NDP_NOTATION_AZURERM,
      { { "NDP201", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "user", "r", 0 } },
      1, "sys R0 T0 O0 | user R1 T1 O0 | spare R0 T0 O0" },
    { "ARM: the body's pools in the cluster's PUT, agentPools after it",
      NDP_NOTATION_ARM,
      { { "NDP202", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "sys",
          "Microsoft.ContainerService/managedClusters.main", 0 },
        { "NDP203", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "user",
          ARM_AP("user"), 0 },
        { "NDP203", NDP_VERDICT_ALLOWED, NDP_POOLS_NAMED, "spare",
          ARM_AP("spare"), 0 } },
      3, "sys R1 T1 O0 | user R2 T2 O0 | spare R2 T2 O0" },
};

/*
 * One cluster: its own change (azurerm default pool 'sys', or an ARM body
 * listing 'sys') and the pool resources 'user' and 'spare' (the second an
 * azapi pool setter); each pool is rebuilt in the phase of the resource
 * whose finding names it (impact.h).
 */
static void phase_test(void **state)
{
    const struct phase_row *row = *state;
    const struct ndp_state_cluster *states[1] = { NULL };
    struct world w = WORLD_INIT;
    struct ndp_buf got = NDP_BUF_INIT;
    bool arm = row->notation == NDP_NOTATION_ARM;
    struct ndp_change *spare;

    add_change(&w.set, 0, row->notation, NDP_KIND_CLUSTER, NULL,
               NDP_ACTION_UPDATE, NULL,
               arm ? "{'properties':{'agentPoolProfiles':[{'name':'sys',"
                     "'count':3}]}}"
                   : "{'default_node_pool':[{'name':'sys','node_count':3}]}");
    add_change(&w.set, 0, row->notation, NDP_KIND_NODEPOOL, "user",
               NDP_ACTION_UPDATE, NULL,
               arm ? "{'properties':{'count':4}}"
                   : "{'node_count':4,'enable_auto_scaling':false}");
    spare = add_change(&w.set, 0, row->notation, NDP_KIND_NODEPOOL, "spare",
                       NDP_ACTION_UPDATE, NULL,
                       arm ? "{'properties':{'count':2}}"
                           : "{'node_count':2,'auto_scaling_enabled':false}");
    spare->setter = arm;
    compute(&w, 1, states, row->findings, row->nr, false);
    describe_phases(&got, &w.impacts.items[0]);
    if (strcmp(got.buf, row->want) != 0)
        fail_msg("%s\n  got  '%s'\n  want '%s'", row->name, got.buf,
                 row->want);
    ndp_buf_release(&got);
    release_world(&w);
}

/* ---- ndp_impact_finding_rebuilds() --------------------------------------- */

/*
 * True for a verdict that reimages (now or at the next node image) and a
 * finding that names pools; the verdicts are listed here, not read from
 * the table.
 */
static void finding_rebuilds__reimaging_verdicts_naming_pools(void **state)
{
    static const enum ndp_verdict reimaging[] = {
        NDP_VERDICT_ALLOWED, NDP_VERDICT_MAY_REIMAGE, NDP_VERDICT_BYPASSED,
        NDP_VERDICT_MANUAL_UPGRADE, NDP_VERDICT_REPLACE, NDP_VERDICT_ROTATE,
        NDP_VERDICT_ROLLOUT,
    };
    static const enum ndp_finding_pools kinds[] = {
        NDP_POOLS_NONE, NDP_POOLS_NAMED, NDP_POOLS_ALL, NDP_POOLS_WINDOWS,
    };
    struct ndp_findings fs = NDP_FINDINGS_INIT;
    size_t v, k, r;

    (void)state;
    for (v = 0; v < NDP_VERDICT_COUNT; v++) {
        bool reimages = false;
        for (r = 0; r < NDP_ARRAY_SIZE(reimaging); r++)
            reimages |= reimaging[r] == v;
        for (k = 0; k < NDP_ARRAY_SIZE(kinds); k++) {
            const struct fspec s = { "NDP101", (enum ndp_verdict)v, kinds[k],
                                     "p", NULL, 0 };
            bool want = reimages && kinds[k] != NDP_POOLS_NONE;
            add_finding(&fs, &s);
            if (ndp_impact_finding_rebuilds(&fs.items[fs.nr - 1]) != want)
                fail_msg("%s naming pools %zu: %d, want %d",
                         ndp_verdict_name((enum ndp_verdict)v), k, !want,
                         want);
        }
    }
    ndp_findings_release(&fs);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, impact_rows, impact_test);
    ADD_TEST(&list, sizes__from_facts_last_change_wins);
    ADD_TEST(&list, rollout_inputs__version_spot_unavailable_rotation);
    ADD_TEST(&list, subnets__by_id_and_addressing);
    ADD_TEST(&list, state__adds_pools_the_input_lacks);
    ADD_TEST(&list, clusters__kept_apart);
    ADD_TEST(&list, clusters__none);
    ADD_TEST(&list, sensitive__sticks_to_the_pool);
    ADD_TEST(&list, finding_rebuilds__reimaging_verdicts_naming_pools);
    ADD_ROWS(&list, phase_rows, phase_test);
    return cmocka_run_group_tests_name("impact", list.items, NULL, NULL);
}

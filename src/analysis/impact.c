/*
 * SPDX-License-Identifier: Apache-2.0
 * impact.c - what AKS itself never says: how big the disruption will be.
 *
 * Sits after the evaluator.  From the pools the input declares (the
 * changes' facts: default pools, agentPoolProfiles and pool resources)
 * and the live cluster state it knows each pool's node count, autoscaler
 * bounds, OS, maxSurge, drain and soak; from the findings it knows which pools are rebuilt: every pool
 * for a cluster-level change, the Windows pools for gMSA, the pool itself
 * for a pool-level one (the finding says which, finding.h).  How long
 * their rolling rebuild takes is rollout.c's to work out.
 *
 * Each pool also knows in which phase of the apply it is rebuilt
 * (impact.h): in the cluster's own PUT when the finding is about the
 * cluster resource (or a setter of it), in its own PUT, after the
 * cluster's, when the finding is about a pool resource; both when both
 * rebuild it.  What the phases add up to is rollout.c's.
 *
 * A pool this apply creates starts on new nodes, and a pool it deletes
 * is gone (the facts say which): neither is rebuilt or counted.  Created pools are named
 * in the impact ("created" in JSON) so that a reader does not look for
 * them among the rebuilt ones.
 *
 * Cost: pools are found by name through a keyed hash map, a cluster-level rule
 * marks the pools once however many findings it has, and changes and
 * findings are grouped into their clusters once (each cluster's findings
 * then put in report order): linear in the input, but for that order
 * (bench/scaling.sh 'pools', 'armpools' and 'clusters').
 */
#include "common.h"
#include "impact.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "state.h"
#include "strmap.h"

/* The pools of one cluster while they are read and marked. */
struct inventory {
    struct ndp_impact_pool *items;
    size_t nr, alloc;
    const struct ndp_subnet **subnets; /* the impact's, as they are found */
    size_t nr_subnets, alloc_subnets;
    struct ndp_strmap subnet_at;        /* id -> index in 'subnets' */
    const struct ndp_changeset *set;    /* its subnets ... */
    const struct ndp_strmap *subnet_ids; /* ... by id */
    enum ndp_addressing addressing;
    struct ndp_strmap by_name;  /* folded name -> index in 'items' */
    /* Cluster-level rule ids already marked, and already touched, in
     * each phase. */
    struct ndp_strmap applied[NDP_PHASES], touched[NDP_PHASES];
    struct ndp_strmap pool_resources; /* addresses of its pool resources */
    bool reading_sensitive;     /* the change being read masks its pools */
};

static struct ndp_impact_pool *find_pool(struct inventory *inv,
                                         const char *name)
{
    size_t i = name ? ndp_strmap_find(&inv->by_name, name) : SIZE_MAX;

    return i == SIZE_MAX ? NULL : &inv->items[i];
}

static struct ndp_impact_pool *add_pool(struct inventory *inv, const char *name)
{
    struct ndp_impact_pool *p = find_pool(inv, name);

    if (p) {
        p->sensitive |= inv->reading_sensitive;
        return p;
    }
    NDP_GROW(inv->items, inv->alloc, inv->nr + 1);
    p = &inv->items[inv->nr++];
    memset(p, 0, sizeof(*p));
    p->name = ndp_xstrdup(name);
    ndp_strmap_add(&inv->by_name, p->name, inv->nr - 1);
    p->sensitive = inv->reading_sensitive;
    p->nodes = p->min_nodes = p->max_nodes = -1;
    p->drain_minutes = p->soak_minutes = p->max_pods = -1;
    p->subnet = SIZE_MAX;
    return p;
}

/*
 * The index among the impact's subnets of the input's subnet 'id' (added
 * when first named), or SIZE_MAX when the input declares no such subnet.
 */
static size_t subnet_of(struct inventory *inv, const char *id)
{
    size_t g = id ? ndp_strmap_find(inv->subnet_ids, id) : SIZE_MAX;
    size_t at;

    if (g == SIZE_MAX)
        return SIZE_MAX;
    at = ndp_strmap_find(&inv->subnet_at, id);
    if (at != SIZE_MAX)
        return at;
    NDP_GROW(inv->subnets, inv->alloc_subnets, inv->nr_subnets + 1);
    inv->subnets[inv->nr_subnets] = &inv->set->subnets[g];
    ndp_strmap_add(&inv->subnet_at, inv->set->subnets[g].id,
                   inv->nr_subnets);
    return inv->nr_subnets++;
}

/* PT-CAP-02: where the pods of a cluster whose change says 'f' are. */
static enum ndp_addressing addressing_of(const struct ndp_facts *f)
{
    bool overlay = f->network_plugin_mode &&
                   ndp_strcasecmp(f->network_plugin_mode, "overlay") == 0;

    if (ndp_strcasecmp(f->network_plugin, "kubenet") == 0)
        return NDP_ADDRESSING_NODE_ONLY;
    if (ndp_strcasecmp(f->network_plugin, "azure") == 0)
        return overlay ? NDP_ADDRESSING_NODE_ONLY
                       : NDP_ADDRESSING_NODE_AND_PODS;
    return NDP_ADDRESSING_UNKNOWN;
}

/*
 * The pools 'ch' declares (its facts, change.h), over what other changes
 * said of the same pools: the last change to describe a pool sizes it.
 */
static void pools_of_change(struct inventory *inv, const struct ndp_change *ch)
{
    size_t i;

    /* A setter's pools are what it sets, not what the pools are. */
    if (ch->kind == NDP_KIND_SETTER)
        return;
    for (i = 0; i < ch->facts.nr_pools; i++) {
        const struct ndp_pool_facts *f = &ch->facts.pools[i];
        struct ndp_impact_pool *p;

        if (!f->name) /* a what-if delta's element: which pool is unknown */
            continue;
        p = add_pool(inv, f->name);

        p->nodes = f->count;
        p->min_nodes = f->min_count;
        p->max_nodes = f->max_count;
        p->autoscale = f->autoscale;
        p->os_type = f->os_type;
        p->surge = f->surge_sent;
        p->unavailable = f->unavailable_sent;
        p->version = ndp_pool_version_before(f)
                         ? ndp_pool_version_before(f)
                         : ndp_pool_version_after(f);
        p->spot = f->priority && ndp_strcasecmp(f->priority, "Spot") == 0;
        p->drain_minutes = f->drain_minutes;
        p->soak_minutes = f->soak_minutes;
        p->subnet = subnet_of(inv, f->subnet_id);
        p->pod_subnet = f->pod_subnet_id != NULL;
        p->max_pods = f->max_pods;
        p->created |= f->created;
        p->deleted |= f->deleted;
    }
    if (ch->kind == NDP_KIND_CLUSTER && ch->facts.network_plugin)
        inv->addressing = addressing_of(&ch->facts);
}

/* Pools the input does not describe, from 'az aks show' / nodepool list. */
static void pools_of_state(struct inventory *inv,
                           const struct ndp_state_cluster *st)
{
    size_t i;

    for (i = 0; st && i < st->nr_pools; i++) {
        const struct ndp_state_pool *s = &st->pools[i];
        struct ndp_impact_pool *p = find_pool(inv, s->name);
        if (p)
            continue;
        p = add_pool(inv, s->name);
        p->nodes = s->count;
        p->min_nodes = s->min_count;
        p->max_nodes = s->max_count;
        p->autoscale = s->autoscale;
        p->os_type = s->os_type;
        p->surge = s->max_surge;
        p->drain_minutes = s->drain_minutes;
        p->soak_minutes = s->soak_minutes;
    }
}

/*
 * The version of each pool that declares none: its cluster's in force,
 * else the live state's of the pool, else of the cluster.
 */
static void pool_versions(struct inventory *inv, const char *cluster,
                          const struct ndp_state_cluster *st)
{
    size_t i;

    for (i = 0; !cluster && st && i < st->nr_pools; i++) {
        struct ndp_impact_pool *p = find_pool(inv, st->pools[i].name);
        if (p && !p->version)
            p->version = st->pools[i].version;
    }
    for (i = 0; i < inv->nr; i++)
        if (!inv->items[i].version)
            inv->items[i].version = cluster ? cluster
                                    : st    ? st->version
                                            : NULL;
}

/* The findings whose rebuild the pools count (see impact.h). */
static bool rebuilds_now(const struct ndp_finding *f)
{
    return ndp_verdict_row(f->verdict)->rebuilds_now &&
           f->pools != NDP_POOLS_NONE;
}

bool ndp_impact_finding_rebuilds(const struct ndp_finding *f)
{
    return ndp_verdict_row(f->verdict)->reimages && f->pools != NDP_POOLS_NONE;
}

/*
 * A refused change rebuilds nothing now, but --window-check sizes the
 * rebuild it would start inside the window.
 */
static bool refused(const struct ndp_finding *f)
{
    return ndp_verdict_row(f->verdict)->refused && f->pools != NDP_POOLS_NONE;
}

/*
 * The phase of the PUT that applies 'f' (impact.h): a pool resource's own
 * when the finding is about one, the cluster's otherwise (its resource,
 * a setter of it, or no change of the input).
 */
static enum ndp_impact_phase finding_phase(const struct inventory *inv,
                                           const struct ndp_finding *f)
{
    return f->resource &&
                   ndp_strmap_find(&inv->pool_resources, f->resource) !=
                       SIZE_MAX
               ? NDP_PHASE_POOLS
               : NDP_PHASE_CLUSTER;
}

/* Like mark(), but 'because' lists only the rules that rebuild now. */
static void touch(struct ndp_impact_pool *p, const char *rule,
                  enum ndp_impact_phase phase)
{
    (void)rule;
    if (p->created || p->deleted)
        return;
    p->touched = true;
    p->touched_in |= NDP_PHASE_BIT(phase);
}

static void mark(struct ndp_impact_pool *p, const char *rule,
                 enum ndp_impact_phase phase)
{
    const char *b = p->because;
    struct ndp_buf list = NDP_BUF_INIT;
    size_t n = strlen(rule);

    if (p->created || p->deleted)
        return;
    p->rebuilt = p->touched = true;
    p->rebuilt_in |= NDP_PHASE_BIT(phase);
    p->touched_in |= NDP_PHASE_BIT(phase);
    /* Listed already when it is a whole item: "DP101" is not in "NDP101". */
    while (b && (b = strstr(b, rule)) != NULL) {
        if ((b == p->because || b[-1] == ',') &&
            (b[n] == '\0' || b[n] == ','))
            return;
        b += n;
    }
    if (p->because)
        ndp_buf_addf(&list, "%s,", p->because);
    ndp_buf_adds(&list, rule);
    free(p->because);
    p->because = ndp_buf_detach(&list);
}

static bool is_windows(const struct ndp_impact_pool *p)
{
    return p->os_type && ndp_strcasecmp(p->os_type, "Windows") == 0;
}

/*
 * Marks the pools 'f' rebuilds with 'how', in the phase of its PUT;
 * 'applied' holds, per phase, the cluster-level rules that have already
 * marked them that way.
 */
static void mark_pools(struct inventory *inv, const struct ndp_finding *f,
                       struct ndp_strmap *applied,
                       void (*how)(struct ndp_impact_pool *, const char *,
                                   enum ndp_impact_phase))
{
    bool windows = f->pools == NDP_POOLS_WINDOWS;
    enum ndp_impact_phase phase = finding_phase(inv, f);
    size_t i, seen;

    if (f->pools == NDP_POOLS_NONE)
        return;
    if (f->pools == NDP_POOLS_NAMED) {
        struct ndp_impact_pool *p = f->pool ? find_pool(inv, f->pool) : NULL;
        if (!p && f->pool)
            p = add_pool(inv, f->pool);
        if (p)
            how(p, f->rule_id, phase);
        return;
    }
    /* Marking is idempotent: each rule marks the pools once a phase. */
    seen = applied[phase].nr;
    ndp_strmap_add(&applied[phase], f->rule_id, seen);
    if (applied[phase].nr == seen)
        return;
    for (i = 0; i < inv->nr; i++)
        if (!windows || is_windows(&inv->items[i]))
            how(&inv->items[i], f->rule_id, phase);
}

/* A rotation creates the pool it names anew (verdicts.h), in its phase. */
static void mark_rotated(struct inventory *inv, const struct ndp_finding *f)
{
    struct ndp_impact_pool *p;

    if (!ndp_verdict_row(f->verdict)->recreates_pools ||
        f->pools != NDP_POOLS_NAMED || !f->pool)
        return;
    p = find_pool(inv, f->pool);
    if (p && p->rebuilt) {
        p->rotated = true;
        p->rotated_in |= NDP_PHASE_BIT(finding_phase(inv, f));
    }
}

/* The addresses of the pool resources among 'changes', for the phases. */
static void pool_resources(struct inventory *inv,
                           const struct ndp_changeset *set,
                           const size_t *changes, size_t nr_changes)
{
    size_t i;

    for (i = 0; i < nr_changes; i++) {
        const struct ndp_change *ch = set->items[changes[i]];
        if (ch->kind == NDP_KIND_NODEPOOL && ch->address)
            ndp_strmap_add(&inv->pool_resources, ch->address, i);
    }
}

/* The pools of a cluster's impact, and nothing once released. */
static void release_pools(struct ndp_impact *impact)
{
    size_t i;

    for (i = 0; i < impact->nr_pools; i++) {
        free(impact->pools[i].name);
        free(impact->pools[i].because);
    }
    free(impact->pools);
    impact->pools = NULL;
    impact->nr_pools = 0;
    free(impact->subnets);
    impact->subnets = NULL;
    impact->nr_subnets = 0;
}

/*
 * One cluster: its changes are the listed indexes, its findings those
 * listed, in report order (the order 'because' lists their rules in, and
 * pools that only a finding names are added in).
 */
static void compute_one(struct ndp_impact *out,
                        const struct ndp_state_cluster *state,
                        const char *version,
                        const struct ndp_strmap *subnet_ids,
                        const struct ndp_changeset *set,
                        const size_t *changes, size_t nr_changes,
                        const struct ndp_finding *const *found,
                        size_t nr_found)
{
    struct inventory inv;
    size_t i;

    memset(&inv, 0, sizeof(inv));
    inv.by_name.fold_case = true;
    inv.subnet_at.fold_case = true;
    inv.set = set;
    inv.subnet_ids = subnet_ids;
    pool_resources(&inv, set, changes, nr_changes);
    for (i = 0; i < nr_changes; i++) {
        const struct ndp_change *ch = set->items[changes[i]];
        inv.reading_sensitive = ch->facts.pools_sensitive;
        pools_of_change(&inv, ch);
    }
    inv.reading_sensitive = false;
    pools_of_state(&inv, state);
    pool_versions(&inv, version, state);
    for (i = 0; i < nr_found; i++) {
        const struct ndp_finding *f = found[i];
        if (rebuilds_now(f)) {
            mark_pools(&inv, f, inv.applied, mark);
            mark_rotated(&inv, f);
            out->rebuilds = out->touches = true;
        } else if (refused(f)) {
            mark_pools(&inv, f, inv.touched, touch);
            out->touches = true;
        }
    }
    out->pools = inv.items;
    out->nr_pools = inv.nr;
    out->subnets = inv.subnets;
    out->nr_subnets = inv.nr_subnets;
    out->addressing = inv.addressing;
    out->window_minutes_left = -1;
    if (!out->touches)
        release_pools(out);
    ndp_strmap_release(&inv.subnet_at);
    ndp_strmap_release(&inv.by_name);
    ndp_strmap_release(&inv.pool_resources);
    for (i = 0; i < NDP_PHASES; i++) {
        ndp_strmap_release(&inv.applied[i]);
        ndp_strmap_release(&inv.touched[i]);
    }
}

static int compare_finding_pointers(const void *a, const void *b)
{
    return ndp_finding_compare(*(const struct ndp_finding *const *)a,
                               *(const struct ndp_finding *const *)b);
}

/*
 * The findings of each cluster in report order, whatever order they
 * were made in: those of cluster c are (*out)[at[c]] .. (*out)[at[c+1]-1].
 */
static void findings_by_cluster(const struct ndp_finding ***out,
                                const size_t *found, const size_t *at,
                                size_t nr_clusters,
                                const struct ndp_findings *findings)
{
    const struct ndp_finding **order =
        ndp_xcalloc(findings->nr ? findings->nr : 1, sizeof(*order));
    size_t c, i;

    for (i = 0; i < at[nr_clusters]; i++)
        order[i] = &findings->items[found[i]];
    for (c = 0; c < nr_clusters; c++)
        qsort(order + at[c], at[c + 1] - at[c], sizeof(*order),
              compare_finding_pointers);
    *out = order;
}

void ndp_impact_compute_all(struct ndp_impacts *out, size_t nr_clusters,
                            const struct ndp_state_cluster *const *states,
                            const char *const *versions,
                            const struct ndp_changeset *set,
                            const struct ndp_findings *findings)
{
    size_t n = set->nr > findings->nr ? set->nr : findings->nr;
    size_t *of = ndp_xcalloc(n ? n : 1, sizeof(*of));
    size_t *changes, *change_at, *found, *found_at, i;
    const struct ndp_finding **order;
    struct ndp_strmap subnet_ids = NDP_STRMAP_INIT(true);

    out->items = ndp_xcalloc(nr_clusters ? nr_clusters : 1,
                             sizeof(*out->items));
    out->nr = nr_clusters;
    for (i = 0; i < set->nr; i++)
        of[i] = set->items[i]->cluster;
    ndp_group_indexes(&changes, &change_at, nr_clusters, set->nr, of);
    for (i = 0; i < findings->nr; i++)
        of[i] = findings->items[i].cluster_index;
    ndp_group_indexes(&found, &found_at, nr_clusters, findings->nr, of);
    findings_by_cluster(&order, found, found_at, nr_clusters, findings);
    for (i = 0; i < set->nr_subnets; i++)
        ndp_strmap_add(&subnet_ids, set->subnets[i].id, i);
    for (i = 0; i < nr_clusters; i++)
        compute_one(&out->items[i], states[i], versions ? versions[i] : NULL,
                    &subnet_ids, set, changes + change_at[i],
                    change_at[i + 1] - change_at[i], order + found_at[i],
                    found_at[i + 1] - found_at[i]);
    ndp_strmap_release(&subnet_ids);
    free(order);
    free(of);
    free(changes);
    free(change_at);
    free(found);
    free(found_at);
}

void ndp_impact_add_budget(struct ndp_impact *impact, const char *name,
                           long pods, bool unsatisfiable, bool sure,
                           bool bypassed, long drain_minutes)
{
    struct ndp_impact_budget *b;

    NDP_GROW(impact->budgets, impact->alloc_budgets, impact->nr_budgets + 1);
    b = &impact->budgets[impact->nr_budgets++];
    b->name = ndp_xstrdup(name);
    b->pods = pods;
    b->unsatisfiable = unsatisfiable;
    b->sure = sure;
    b->bypassed = bypassed;
    b->drain_minutes = drain_minutes;
}

static void release_budgets(struct ndp_impact *impact)
{
    size_t i;

    for (i = 0; i < impact->nr_budgets; i++)
        free(impact->budgets[i].name);
    free(impact->budgets);
}

void ndp_impacts_release(struct ndp_impacts *impacts)
{
    size_t i;

    for (i = 0; i < impacts->nr; i++) {
        release_pools(&impacts->items[i]);
        release_budgets(&impacts->items[i]);
    }
    free(impacts->items);
    memset(impacts, 0, sizeof(*impacts));
}

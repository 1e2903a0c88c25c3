/*
 * SPDX-License-Identifier: Apache-2.0
 * check_drain.c - pod disruption budgets that stop a drain the apply
 * starts (put-time-limits PT-DRN-01/02):
 *
 *   NDP910  a change that drains nodes of a cluster (an upgrade or a
 *           reimaging change that rebuilds pools now, a node count
 *           decrease) while a budget of that cluster has maxUnavailable 0
 *           (or "0%"): AKS checks for such budgets before it starts and
 *           refuses the operation with UnsatisfiablePDB.  refused; a
 *           budget the same apply creates, or whose cluster is not known,
 *           may-refuse.
 *   NDP911  the same with a budget that allows no disruption for the
 *           replicas of the workloads it selects in the input
 *           (minAvailable, or maxUnavailable, as the disruption
 *           controller counts): each eviction is refused, the drain waits
 *           drainTimeoutInMinutes and fails.  may-refuse.  Unknown
 *           replicas, or no workload of the input selected: nothing.
 *
 * Which budgets block and how is drain_budgets.c's.  A budget the apply
 * changes blocks in the state the drain meets (drain_sees()).  Force
 * upgrade in effect for the cluster (PT-UPG-06) drains without regard to
 * the budgets: both become an advisory note for an upgrade (a node count
 * decrease is no upgrade).
 *
 * Cost: per cluster with a drain, a pass over its blockers for each of
 * its drains, and a walk of the order graph for a drain that may meet a
 * changed budget.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "impact.h"
#include "kube.h"
#include "linker.h"
#include "rollout.h"
#include "state.h"
#include "strmap.h"
#include "timeutil.h"

/* Budgets named in one finding; the rest are counted. */
#define DRAIN_MAX_NAMED 5

/* ---- the order of the plan ---------------------------------------------- */

/* Walks from one drain: down ('below') and up ('above'), one generation
 * a drain. */
struct order_walk {
    struct ndp_order_walk g;
    unsigned *below, *above;
    size_t at;            /* the node of the last walks, plus 1 */
};

static void order_walk_init(struct order_walk *w,
                            const struct ndp_changeset *set)
{
    size_t n = set->nr_order ? set->nr_order : 1;

    ndp_order_walk_init(&w->g, set);
    w->below = ndp_xcalloc(n, sizeof(*w->below));
    w->above = ndp_xcalloc(n, sizeof(*w->above));
    w->at = 0;
}

static void order_walk_release(struct order_walk *w)
{
    ndp_order_walk_release(&w->g);
    free(w->below);
    free(w->above);
}

/* Both walks from node 'start' (once a node: the last is kept). */
static void order_walk_from(struct order_walk *w, size_t start)
{
    if (w->at == start + 1)
        return;
    w->g.gen++;
    w->at = start + 1;
    ndp_order_walk_stamp(&w->g, start, true, w->below);
    ndp_order_walk_stamp(&w->g, start, false, w->above);
}

/* ---- the changes that drain ---------------------------------------------- */

struct drain {
    const struct ndp_change *ch;
    size_t cluster;
    const char *pool;     /* the pool it drains, NULL: several */
    bool scale_in;        /* a node count decrease, not an upgrade */
    bool upgrade;         /* an upgrade (a version, a node image), which
                             force upgrade concerns; else a reimage */
    long from, to;        /* ... its counts */
    long scale_minutes;   /* ... the pool's drain timeout */
};

struct drains {
    struct drain *items;
    size_t nr, alloc;
    struct ndp_strmap seen; /* by change ("%p": two inputs may hold one
                               address), into 'items' */
    char **keys;            /* owned, the map's keys */
    size_t nr_keys, alloc_keys;
};

/* The key of change 'ch' in out->seen: owned by 'out'. */
#define CHANGE_KEY_SIZE 32

/* The key of change 'ch' in a drains' map, in 'buf'. */
static const char *change_key(char buf[CHANGE_KEY_SIZE],
                              const struct ndp_change *ch)
{
    snprintf(buf, CHANGE_KEY_SIZE, "%p", (const void *)ch);
    return buf;
}

/* The index of the drain of 'ch' in 'out', or SIZE_MAX. */
static size_t find_drain(const struct drains *out, const struct ndp_change *ch)
{
    char key[CHANGE_KEY_SIZE];

    return ndp_strmap_find(&out->seen, change_key(key, ch));
}

static void drains_release(struct drains *d)
{
    size_t i;

    for (i = 0; i < d->nr_keys; i++)
        free(d->keys[i]);
    free(d->keys);
    free(d->items);
    ndp_strmap_release(&d->seen);
}

static bool finding_drains(const struct ndp_finding *f)
{
    const struct ndp_verdict_row *row = ndp_verdict_row(f->verdict);

    return row->rebuilds_now && !row->recreates_pools &&
           f->pools != NDP_POOLS_NONE;
}

/*
 * The drain of 'ch', draining 'pool' (NULL: several): the one noted
 * already (a second pool makes its pool NULL), or a new one; NULL for a
 * change of no known cluster.
 */
static struct drain *add_drain(struct drains *out,
                               const struct ndp_change *ch, const char *pool,
                               size_t cluster)
{
    char key[CHANGE_KEY_SIZE];
    struct drain *dr;
    size_t at;

    if (!ch->address || cluster == NDP_UNKNOWN_CLUSTER)
        return NULL;
    at = find_drain(out, ch);
    if (at != SIZE_MAX) {
        dr = &out->items[at];
        if (!dr->scale_in && pool && dr->pool && strcmp(dr->pool, pool) != 0)
            dr->pool = NULL;
        return dr;
    }
    NDP_GROW(out->keys, out->alloc_keys, out->nr_keys + 1);
    out->keys[out->nr_keys] = ndp_xstrdup(change_key(key, ch));
    ndp_strmap_add(&out->seen, out->keys[out->nr_keys++], out->nr);
    NDP_GROW(out->items, out->alloc, out->nr + 1);
    dr = &out->items[out->nr++];
    memset(dr, 0, sizeof(*dr));
    dr->ch = ch;
    dr->cluster = cluster;
    dr->pool = pool;
    return dr;
}

/* The node count decreases of the pools a change declares. */
static void add_scale_ins(struct drains *out, const struct ndp_change *ch)
{
    struct drain *dr;
    size_t i;

    if (ch->action != NDP_ACTION_UPDATE || ch->deferred_reason ||
        ch->facts.pools_sensitive || find_drain(out, ch) != SIZE_MAX)
        return;
    for (i = 0; i < ch->facts.nr_pools; i++) {
        const struct ndp_pool_facts *p = &ch->facts.pools[i];
        if (p->created || p->deleted || p->autoscale || p->autoscale_before ||
            p->count < 0 || p->count_before <= p->count)
            continue;
        dr = add_drain(out, ch, p->name, ch->cluster);
        if (!dr)
            return;
        dr->scale_in = true;
        dr->from = p->count_before;
        dr->to = p->count;
        dr->scale_minutes = p->has_drain && p->drain_minutes >= 0
                                ? p->drain_minutes
                                : NDP_ROLLOUT_DEFAULT_DRAIN_MINUTES;
        return;
    }
}

/*
 * The changes that drain: those whose findings (so far) rebuild pools
 * now, then those that lower a pool's node count; one entry a change.
 */
static void find_drains(struct drains *out, const struct ndp_evaluator *ev)
{
    size_t i;

    for (i = 0; i < ev->out->nr; i++) {
        const struct ndp_finding *f = &ev->out->items[i];
        const struct ndp_change *ch;
        struct drain *dr;
        if (!finding_drains(f))
            continue;
        ch = ndp_change_index_find(&ev->changes, f->input, f->resource);
        dr = ch && !ch->deferred_reason
                 ? add_drain(out, ch,
                             f->pools == NDP_POOLS_NAMED ? f->pool : NULL,
                             f->cluster_index)
                 : NULL;
        /* An upgrade when one of its findings is. */
        if (dr && ndp_verdict_row(f->verdict)->upgrade)
            dr->upgrade = true;
    }
    for (i = 0; i < ev->set->nr; i++)
        add_scale_ins(out, ev->set->items[i]);
}

/* ---- what a drain meets -------------------------------------------------- */

/*
 * Force upgrade is in effect for cluster 'c' at the evaluation instant:
 * one of its changes turns it on with an end ('until') after that
 * instant.  Without an end, or with one past, the override takes no
 * effect (azurerm: effective_until "must be set for the upgrade_override
 * values to take effect").
 */
static const struct ndp_change *forcing(const struct ndp_evaluator *ev,
                                        size_t c)
{
    const struct ndp_change *ch;
    int64_t until;
    size_t k;

    for (k = 0; (ch = ndp_evaluator_change(ev, c, k)) != NULL; k++)
        if (ch->facts.force_upgrade && !ch->deferred_reason &&
            ch->facts.force_upgrade_until &&
            ndp_time_parse_rfc3339(&until, ch->facts.force_upgrade_until) ==
                0 &&
            until > ev->opt->at)
            return ch;
    return NULL;
}

enum force { FORCE_NO, FORCE_YES, FORCE_MAYBE };

/*
 * Force upgrade for drain 'dr', turned on by 'fch' (or NULL): in effect
 * when it is the drain's own change or one the drain waits for; not when
 * it waits for the drain; otherwise timing decides.
 */
static enum force force_for(struct order_walk *w, const struct drain *dr,
                            const struct ndp_change *fch)
{
    if (!fch || !dr->upgrade)
        return FORCE_NO;
    if (fch == dr->ch)
        return FORCE_YES;
    if (!fch->order_node || !dr->ch->order_node)
        return FORCE_MAYBE;
    order_walk_from(w, dr->ch->order_node - 1);
    if (w->below[fch->order_node - 1] == w->g.gen)
        return FORCE_YES;
    return w->above[fch->order_node - 1] == w->g.gen ? FORCE_NO : FORCE_MAYBE;
}

/* The impact's pool 'dr' drains, when it names one. */
static const struct ndp_impact_pool *drained_pool(
    const struct ndp_impacts *impacts, const struct drain *dr)
{
    const struct ndp_impact *im = dr->cluster < impacts->nr
                                      ? &impacts->items[dr->cluster] : NULL;
    size_t i;

    for (i = 0; im && dr->pool && i < im->nr_pools; i++)
        if (im->pools[i].name && strcmp(im->pools[i].name, dr->pool) == 0)
            return &im->pools[i];
    return NULL;
}

/* The drain timeout of the pools 'dr' drains, minutes: the largest. */
static long drain_minutes(const struct ndp_impacts *impacts,
                          const struct drain *dr)
{
    const struct ndp_impact *im = dr->cluster < impacts->nr
                                      ? &impacts->items[dr->cluster] : NULL;
    const struct ndp_impact_pool *pool = drained_pool(impacts, dr);
    long most = -1;
    size_t i;

    if (dr->scale_in)
        return dr->scale_minutes;
    if (dr->pool)
        return pool && !pool->sensitive ? ndp_rollout_drain_minutes(pool)
                                        : NDP_ROLLOUT_DEFAULT_DRAIN_MINUTES;
    for (i = 0; im && i < im->nr_pools; i++)
        if (!im->pools[i].sensitive && im->pools[i].rebuilt &&
            ndp_rollout_drain_minutes(&im->pools[i]) > most)
            most = ndp_rollout_drain_minutes(&im->pools[i]);
    return most >= 0 ? most : NDP_ROLLOUT_DEFAULT_DRAIN_MINUTES;
}

/*
 * Which state of a changed budget a drain meets (PT-DRN-01): the
 * kubernetes provider takes its host from the cluster, so Terraform
 * applies the budget after the cluster's own update (that drain meets
 * the state before); a change that waits for the budget in the plan's
 * configuration meets the state after; otherwise either.
 */
enum seen_state {
    SEES_NEITHER,
    SEES_SURELY,
    SEES_MAYBE,
    SEES_LATER    /* created by the apply after the drain's change: not
                     this drain, but the next (spec PT-DRN-01: a warning) */
};

static enum seen_state drain_sees(struct order_walk *w,
                                  const struct drain *dr,
                                  const struct ndp_blocker *bl)
{
    const struct ndp_kube_origin *o = &bl->b->origin;
    bool after_drain = o->cluster_ref && dr->ch->kind == NDP_KIND_CLUSTER &&
                       strcmp(o->cluster_ref, dr->ch->address) == 0;
    bool before_drain = false;

    if (o->side == NDP_KUBE_BOTH)
        return bl->cluster == NDP_UNKNOWN_CLUSTER ? SEES_MAYBE : SEES_SURELY;
    /* The order graph: the budget waits for the drain's change (through
     * its provider's host, a module output, a depends_on), or the drain's
     * change waits for the budget. */
    if (o->order_node && dr->ch->order_node && !dr->ch->deferred_reason) {
        order_walk_from(w, dr->ch->order_node - 1);
        after_drain = after_drain || w->above[o->order_node - 1] == w->g.gen;
        before_drain = !after_drain &&
                       w->below[o->order_node - 1] == w->g.gen;
    }
    /* Unordered: either side; one that blocks either way counts once, as
     * the side before. */
    if (!after_drain && !before_drain && bl->both_sides)
        return o->side == NDP_KUBE_AFTER ? SEES_NEITHER
               : bl->cluster == NDP_UNKNOWN_CLUSTER ? SEES_MAYBE
                                                    : SEES_SURELY;
    if (!after_drain && !before_drain)
        return SEES_MAYBE;
    /* Ordered: the side before when the budget's change comes after the
     * drain's, the side after when it comes before. */
    if (o->side == NDP_KUBE_AFTER && o->created && after_drain &&
        bl->block == NDP_BLOCK_UNSATISFIABLE)
        return SEES_LATER;
    if ((o->side == NDP_KUBE_BEFORE) != after_drain)
        return SEES_NEITHER;
    return bl->cluster == NDP_UNKNOWN_CLUSTER ? SEES_MAYBE : SEES_SURELY;
}

/* The budgets one drain meets, by rule; a list each, sure ones first. */
struct met {
    const struct ndp_blocker **zero, **stuck;
    size_t nr_zero, nr_zero_sure, nr_stuck;
    bool zero_order_unsure, zero_cluster_unsure; /* why not sure */
    bool zero_later;      /* one is created after this drain's change */
};

static void meet_one(struct met *m, const struct ndp_blocker *bl,
                     enum seen_state seen)
{
    if (seen == SEES_NEITHER)
        return;
    if (bl->block == NDP_BLOCK_NO_DISRUPTION) {
        m->stuck[m->nr_stuck++] = bl;
        return;
    }
    if (seen == SEES_SURELY) {
        /* Sure ones first: move the first unsure one to the end. */
        m->zero[m->nr_zero++] = m->zero[m->nr_zero_sure];
        m->zero[m->nr_zero_sure++] = bl;
        return;
    }
    m->zero[m->nr_zero++] = bl;
    if (seen == SEES_LATER)
        m->zero_later = true;
    else if (bl->cluster == NDP_UNKNOWN_CLUSTER)
        m->zero_cluster_unsure = true;
    else
        m->zero_order_unsure = true;
}

/* ---- findings ------------------------------------------------------------ */

static void drain_words(struct ndp_buf *msg, const struct drain *dr,
                        const char *cluster)
{
    bool own = dr->ch->kind == NDP_KIND_CLUSTER;

    if (dr->scale_in)
        ndp_buf_addf(msg, "The drain of a scale-in: %s lowers the node count "
                     "of pool %s%s%s from %ld to %ld", dr->ch->address,
                     dr->pool ? dr->pool : "(unnamed)",
                     own ? "" : " of cluster ", own ? "" : cluster,
                     dr->from, dr->to);
    else if (dr->pool)
        ndp_buf_addf(msg, "The drain of %s: %s rebuilds pool %s%s%s",
                     dr->upgrade ? "an upgrade" : "a reimage",
                     dr->ch->address, dr->pool, own ? "" : " of cluster ",
                     own ? "" : cluster);
    else
        ndp_buf_addf(msg, "The drain of %s: %s rebuilds pools%s%s",
                     dr->upgrade ? "an upgrade" : "a reimage",
                     dr->ch->address, own ? "" : " of cluster ",
                     own ? "" : cluster);
}

static void budget_name(struct ndp_buf *out, const struct ndp_blocker *bl)
{
    const struct ndp_kube_origin *o = &bl->b->origin;

    ndp_buf_addf(out, "%s/%s", bl->b->ns, bl->b->name);
    if (!o->address)
        ndp_buf_addf(out, " (live, %s)", o->input);
    else if (o->side == NDP_KUBE_BOTH)
        ndp_buf_addf(out, " (%s)", o->address);
    else if (bl->both_sides)
        ndp_buf_addf(out, " (%s, before and after this apply changes it)",
                     o->address);
    else if (o->side == NDP_KUBE_AFTER)
        ndp_buf_addf(out, " (%s, %s)", o->address,
                     o->created ? "created by this apply"
                                : "as this apply changes it");
    else
        ndp_buf_addf(out, " (%s, %s)", o->address,
                     o->deleted ? "before this apply deletes it"
                                : "before this apply changes it");
    if (bl->cluster == NDP_UNKNOWN_CLUSTER)
        ndp_buf_adds(out, o->address
                              ? " [of no known cluster: the input has "
                                "several and its provider's host names none "
                                "of them]"
                              : " [of no known cluster: the input has "
                                "several and kubectl output names none]");
}

static void amount_words(struct ndp_buf *out, const char *name,
                         const struct ndp_kube_amount *a)
{
    ndp_buf_addf(out, "%s %ld%s", name, a->value, a->percent ? "%" : "");
}

static void pods_words(struct ndp_buf *out, const struct ndp_blocker *bl)
{
    const struct ndp_kube_workload *w = bl->workload;

    if (bl->pods < 0 || !w)
        return;
    ndp_buf_addf(out, " (it holds %ld pod%s: %s %s/%s", bl->pods,
                 bl->pods == 1 ? "" : "s", w->kind, w->ns, w->name);
    if (w->replicas >= 0)
        ndp_buf_addf(out, ", %ld replica%s", w->replicas,
                     w->replicas == 1 ? "" : "s");
    if (bl->workloads > 1)
        ndp_buf_addf(out, ", and %zu other workload%s", bl->workloads - 1,
                     bl->workloads == 2 ? "" : "s");
    ndp_buf_adds(out, ")");
}

/* Budgets of one finding: their names, each with what it declares. */
static void list_budgets(struct ndp_buf *msg, const struct ndp_blocker *const *list,
                         size_t nr)
{
    size_t i;

    for (i = 0; i < nr && i < DRAIN_MAX_NAMED; i++) {
        const struct ndp_blocker *bl = list[i];
        ndp_buf_adds(msg, i ? "; " : "");
        budget_name(msg, bl);
        ndp_buf_adds(msg, " with ");
        if (bl->b->max_unavailable.set)
            amount_words(msg, "maxUnavailable", &bl->b->max_unavailable);
        else
            amount_words(msg, "minAvailable", &bl->b->min_available);
        pods_words(msg, bl);
    }
    if (nr > DRAIN_MAX_NAMED)
        ndp_buf_addf(msg, "; and %zu more", nr - DRAIN_MAX_NAMED);
}

struct finding_words {
    const char *id;
    enum ndp_verdict verdict;
    bool unsatisfiable;
    bool forced;
    bool force_unsure;      /* force upgrade turned on with no order to
                               the drain */
    bool later;             /* a budget created after the drain's change */
    bool order_unsure, cluster_unsure;
};

static void unsure_words(struct ndp_buf *msg, const struct finding_words *fw)
{
    const char *sep = " (if AKS sees it as the operation starts:";

    if (fw->verdict != NDP_VERDICT_MAY_REFUSE || !fw->unsatisfiable)
        return;
    if (fw->order_unsure) {
        ndp_buf_addf(msg, "%s the apply changes the budget with no order to "
                     "this change, so which state AKS sees depends on "
                     "timing", sep);
        sep = ";";
    }
    if (fw->cluster_unsure) {
        ndp_buf_addf(msg, "%s a budget of no known cluster counts when it "
                     "is in this cluster", sep);
        sep = ";";
    }
    if (fw->force_unsure) {
        ndp_buf_addf(msg, "%s force upgrade is turned on by a change with no "
                     "order to this one, so whether it is in effect then "
                     "depends on timing", sep);
        sep = ";";
    }
    if (sep[0] == ';')
        ndp_buf_adds(msg, ")");
    if (fw->later)
        ndp_buf_adds(msg, "; a budget this apply creates after this change "
                          "does not stop it, but refuses the next upgrade or "
                          "scale-in of the cluster");
}

/* What to do about budgets with maxUnavailable 0: by what the apply does
 * with them. */
static void unsatisfiable_help(struct ndp_buf *help, const struct drain *dr,
                               const struct ndp_blocker *const *list,
                               size_t nr)
{
    bool made_here = false, unknown = false;
    size_t i;

    for (i = 0; i < nr; i++) {
        made_here = made_here || list[i]->b->origin.side == NDP_KUBE_AFTER;
        unknown = unknown || list[i]->cluster == NDP_UNKNOWN_CLUSTER;
    }
    if (made_here)
        ndp_buf_addf(help, "A budget this apply creates or tightens: apply "
                     "it after this change (depends_on = [%s] on the "
                     "budget) or in a later apply. ", dr->ch->address);
    ndp_buf_adds(help, "Set maxUnavailable to 1 or more (or use minAvailable "
                 "below the replicas) in an apply before this one, or turn "
                 "on force upgrade for this upgrade (upgrade_override with "
                 "effective_until, upgradeSettings.overrideSettings."
                 "forceUpgrade with until), which drains without regard to "
                 "the budgets.");
    if (unknown)
        ndp_buf_adds(help, " For a budget of no known cluster, take the "
                     "kubernetes provider's host from the cluster's "
                     "kube_config, or give one cluster a run, so ndplint can "
                     "tell which cluster it is in.");
}

static void emit(const struct ndp_evaluator *ev,
                 const struct ndp_impacts *impacts, const struct drain *dr,
                 const struct finding_words *fw,
                 const struct ndp_blocker *const *list, size_t nr)
{
    struct ndp_check_finding f;
    const char *cluster = ev->clusters->items[dr->cluster].id;

    if (!nr || !ndp_check_begin(&f, ev, fw->id, dr->ch))
        return;
    f.verdict = fw->verdict;
    f.pool = dr->pool;
    drain_words(&f.msg, dr, cluster);
    ndp_buf_addf(&f.msg, ", while pod disruption budget%s ",
                 nr == 1 ? "" : "s");
    list_budgets(&f.msg, list, nr);
    if (fw->forced)
        ndp_buf_addf(&f.msg, " %s: force upgrade is in effect for the "
                     "cluster, so the upgrade drains without regard to "
                     "pod disruption budgets and may evict all their pods "
                     "at once", fw->unsatisfiable
                                    ? "would make AKS refuse it "
                                      "(UnsatisfiablePDB)"
                                    : "would stop the drain");
    else if (fw->unsatisfiable)
        ndp_buf_addf(&f.msg, " allow%s no eviction: AKS checks for budgets "
                     "with maxUnavailable 0 before the operation starts and "
                     "refuses it with UnsatisfiablePDB (\"PDB <ns>/<name> "
                     "has maxunavailble == 0 can't proceed with put "
                     "operation\"); no node is drained",
                     nr == 1 ? "s" : "");
    else
        ndp_buf_addf(&f.msg, " allow%s no disruption for the replicas the "
                     "input gives: the eviction API turns down each eviction "
                     "(\"Cannot evict pod as it would violate the pod's "
                     "disruption budget\"), so the drain of a node that runs "
                     "one of their pods waits drainTimeoutInMinutes (%ld min) "
                     "and the %s fails%s; undrainableNodeBehavior does not "
                     "rescue it", nr == 1 ? "s" : "",
                     drain_minutes(impacts, dr),
                     dr->scale_in ? "scale-in" : "operation",
                     dr->scale_in ? "" : " (UpgradeFailed, PodDrainFailure)");
    unsure_words(&f.msg, fw);
    if (fw->forced)
        ndp_buf_adds(&f.help, "Make sure the workloads can lose their pods "
                     "during the upgrade, or turn force upgrade off and "
                     "relax the budgets first.");
    else if (fw->unsatisfiable && fw->later && !fw->order_unsure &&
             !fw->cluster_unsure && !fw->force_unsure &&
             fw->verdict == NDP_VERDICT_MAY_REFUSE)
        ndp_buf_adds(&f.help, "Before the cluster's next upgrade or "
                     "scale-in, set the budget's maxUnavailable to 1 or more "
                     "(or use minAvailable below the replicas).");
    else if (fw->unsatisfiable)
        unsatisfiable_help(&f.help, dr, list, nr);
    else
        ndp_buf_adds(&f.help, "Raise the replicas above minAvailable (or "
                     "maxUnavailable above 0) in an apply before this one, "
                     "or relax the budget for the upgrade.");
    ndp_check_emit(&f, ev);
}

/*
 * The blockers of one cluster: those of no changed state, and the rest;
 * and, by position (fixed ones first), what the cluster's drains made of
 * each: MET_ANY a drain meets it, MET_SURELY surely, MET_IN_FORCE without
 * force upgrade in effect (what its impact says).
 */
struct cluster_blockers {
    const struct ndp_blocker **fixed, **changed;
    size_t nr_fixed, nr_changed;
    unsigned char *met;
};

#define MET_ANY 1u
#define MET_SURELY 2u
#define MET_IN_FORCE 4u

static void gather(struct cluster_blockers *cb, const struct ndp_blocker *all,
                   const size_t *of, const size_t *at, size_t c,
                   size_t nr_clusters)
{
    size_t n = at[c + 1] - at[c] + at[nr_clusters + 1] - at[nr_clusters], k;
    size_t groups[2][2] = { { at[c], at[c + 1] },
                            { at[nr_clusters], at[nr_clusters + 1] } }, g;

    memset(cb, 0, sizeof(*cb));
    cb->fixed = ndp_xcalloc(n ? n : 1, sizeof(*cb->fixed));
    cb->changed = ndp_xcalloc(n ? n : 1, sizeof(*cb->changed));
    cb->met = ndp_xcalloc(n ? n : 1, sizeof(*cb->met));
    for (g = 0; g < 2; g++)
        for (k = groups[g][0]; k < groups[g][1]; k++) {
            const struct ndp_blocker *bl = &all[of[k]];
            if (bl->block == NDP_BLOCK_NONE)
                continue;
            if (bl->b->origin.side == NDP_KUBE_BOTH)
                cb->fixed[cb->nr_fixed++] = bl;
            else
                cb->changed[cb->nr_changed++] = bl;
        }
}

static void release_gathered(struct cluster_blockers *cb)
{
    free(cb->fixed);
    free(cb->changed);
    free(cb->met);
}

static const struct ndp_blocker *blocker_at(const struct cluster_blockers *cb,
                                            size_t i)
{
    return i < cb->nr_fixed ? cb->fixed[i] : cb->changed[i - cb->nr_fixed];
}

static void judge_drain(const struct ndp_evaluator *ev,
                        const struct ndp_impacts *impacts,
                        const struct drain *dr, struct cluster_blockers *cb,
                        const struct ndp_change *fch, struct order_walk *w)
{
    size_t n = cb->nr_fixed + cb->nr_changed, i;
    struct finding_words fw;
    const struct ndp_impact_pool *pool = drained_pool(impacts, dr);
    enum force force = force_for(w, dr, fch);
    bool bypass = force == FORCE_YES;
    struct met m;

    memset(&m, 0, sizeof(m));
    m.zero = ndp_xcalloc(n ? n : 1, sizeof(*m.zero));
    m.stuck = ndp_xcalloc(n ? n : 1, sizeof(*m.stuck));
    for (i = 0; i < n; i++) {
        enum seen_state seen = drain_sees(w, dr, blocker_at(cb, i));
        meet_one(&m, blocker_at(cb, i), seen);
        if (seen != SEES_NEITHER)
            cb->met[i] |= MET_ANY | (seen == SEES_SURELY ? MET_SURELY : 0) |
                          (bypass ? 0 : MET_IN_FORCE);
    }
    memset(&fw, 0, sizeof(fw));
    fw.id = "NDP910";
    fw.unsatisfiable = true;
    fw.forced = bypass;
    fw.force_unsure = force == FORCE_MAYBE;
    fw.order_unsure = m.zero_order_unsure;
    fw.cluster_unsure = m.zero_cluster_unsure;
    fw.later = m.zero_later;
    fw.verdict = bypass ? NDP_VERDICT_ADVISORY
                 : m.nr_zero_sure && !fw.force_unsure ? NDP_VERDICT_REFUSED
                                                      : NDP_VERDICT_MAY_REFUSE;
    emit(ev, impacts, dr, &fw, m.zero, m.nr_zero);
    /* A Spot pool is not drained: its nodes are evicted (PT-UPG-07). */
    if (!(pool && pool->spot)) {
        fw.id = "NDP911";
        fw.unsatisfiable = false;
        fw.verdict = bypass ? NDP_VERDICT_ADVISORY : NDP_VERDICT_MAY_REFUSE;
        emit(ev, impacts, dr, &fw, m.stuck, m.nr_stuck);
    }
    free(m.zero);
    free(m.stuck);
}

/* At most this many budgets in one cluster's impact; the rest counted. */
#define DRAIN_MAX_IMPACT 50

/* The budgets the drains of cluster 'c' meet, in its impact. */
static void tell_impact(struct ndp_impacts *impacts, size_t c,
                        const struct cluster_blockers *cb)
{
    struct drain whole;
    struct ndp_buf name = NDP_BUF_INIT;
    long minutes;
    size_t i, listed = 0, n = cb->nr_fixed + cb->nr_changed;

    if (c >= impacts->nr)
        return;
    memset(&whole, 0, sizeof(whole));
    whole.cluster = c;
    minutes = drain_minutes(impacts, &whole);
    for (i = 0; i < n; i++) {
        const struct ndp_blocker *bl = blocker_at(cb, i);
        if (!(cb->met[i] & MET_ANY))
            continue;
        if (listed++ == DRAIN_MAX_IMPACT) {
            impacts->items[c].more_budgets++;
            listed--;
            continue;
        }
        ndp_buf_reset(&name);
        ndp_buf_addf(&name, "%s/%s", bl->b->ns, bl->b->name);
        ndp_impact_add_budget(&impacts->items[c], name.buf, bl->pods,
                              bl->block == NDP_BLOCK_UNSATISFIABLE,
                              (cb->met[i] & MET_SURELY) != 0,
                              !(cb->met[i] & MET_IN_FORCE), minutes);
    }
    ndp_buf_release(&name);
}

/* Each cluster's drains against its blockers: one pass over each. */
static void judge_drains(const struct ndp_evaluator *ev,
                         struct ndp_impacts *impacts,
                         const struct drains *drains,
                         const struct ndp_blocker *all, size_t nr_all)
{
    size_t nc = ev->clusters->nr, c, k, i;
    size_t *cluster_of, *drain_of, *drain_at, *of, *at;
    struct order_walk walk;

    cluster_of = ndp_xcalloc(nr_all ? nr_all : 1,
                             sizeof(*cluster_of));
    for (i = 0; i < nr_all; i++)
        cluster_of[i] = all[i].cluster == NDP_UNKNOWN_CLUSTER ? nc
                                                          : all[i].cluster;
    ndp_group_indexes(&of, &at, nc + 1, nr_all, cluster_of);
    free(cluster_of);
    cluster_of = ndp_xcalloc(drains->nr ? drains->nr : 1,
                             sizeof(*cluster_of));
    for (i = 0; i < drains->nr; i++)
        cluster_of[i] = drains->items[i].cluster;
    ndp_group_indexes(&drain_of, &drain_at, nc, drains->nr, cluster_of);
    free(cluster_of);
    order_walk_init(&walk, ev->set);
    for (c = 0; c < nc; c++) {
        struct cluster_blockers cb;
        const struct ndp_change *fch;
        if (drain_at[c] == drain_at[c + 1] ||
            at[c + 1] - at[c] + at[nc + 1] - at[nc] == 0)
            continue;
        gather(&cb, all, of, at, c, nc);
        fch = forcing(ev, c);
        for (k = drain_at[c]; k < drain_at[c + 1]; k++)
            judge_drain(ev, impacts, &drains->items[drain_of[k]], &cb, fch,
                        &walk);
        tell_impact(impacts, c, &cb);
        release_gathered(&cb);
    }
    free(of);
    free(at);
    free(drain_of);
    free(drain_at);
    order_walk_release(&walk);
}

void ndp_check_drain(const struct ndp_evaluator *ev,
                     struct ndp_impacts *impacts)
{
    const struct ndp_kube_objects *live =
        ev->opt->states ? &ev->opt->states->kube : NULL;
    struct drains drains = { NULL, 0, 0, NDP_STRMAP_INIT(false), NULL, 0, 0 };
    struct ndp_blocker *all;
    size_t nr;

    if (!ev->set->kube.nr_budgets && !(live && live->nr_budgets))
        return;
    find_drains(&drains, ev);
    if (drains.nr) {
        ndp_drain_blockers(&all, &nr, ev);
        judge_drains(ev, impacts, &drains, all, nr);
        free(all);
    }
    drains_release(&drains);
}

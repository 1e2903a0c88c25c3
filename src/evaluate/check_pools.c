/*
 * SPDX-License-Identifier: Apache-2.0
 * check_pools.c - what AKS refuses of a cluster's pools taken together or
 * of a pool's size when the apply upgrades it (put-time-limits PT-UPG-08,
 * PT-UPG-01), judged after the verdicts, beside check_upgrade.c (which
 * judges each pool's own settings):
 *
 *   NDP714  the apply leaves the cluster without a System pool: it
 *           deletes the last one, or makes it a User pool.  AKS keeps at
 *           least one at all times.  Said only where every pool of the
 *           cluster is known: the apply creates the cluster with a body
 *           that lists its pools, or --cluster-state lists them ('az aks
 *           show', 'az aks nodepool list'); a pool whose mode neither the
 *           input nor the live state says (or a template expression) may
 *           be a System pool, and then nothing is said.  Live state
 *           only completes the list: the finding is about what the
 *           change does.
 *   NDP715  a change that upgrades a pool (its orchestrator version or
 *           node image, or an ARM body's control plane that the pool
 *           moves with) while the pool's nodes and the surge nodes the
 *           upgrade adds come to more than 1000 VMSS instances: AKS
 *           rejects the upgrade before it starts (K3).  Not on the PUT
 *           that only sets maxSurge.  The count is the pool's (else live
 *           state's, else its autoscaler minimum: at least that many);
 *           the surge is the maxSurge sent (else live state's, else AKS's
 *           default: 10% from Kubernetes 1.32, 1 node before, and 1, the
 *           smaller, when the version is unknown).  A pool that takes
 *           nodes down with maxUnavailable, or a Spot pool, adds none.
 *
 * Cost: one pass over each cluster's pools and its live pools; one over
 * the hits, grouped by change.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "finding.h"
#include "jsonutil.h"
#include "linker.h"
#include "policy.h"
#include "rollout.h"
#include "rules.h"
#include "state.h"
#include "strmap.h"

/* Most VMSS instances AKS lets a pool reach at an upgrade (PT-UPG-01). */
#define MAX_POOL_INSTANCES 1000

/* The one finding of rule 'id' on pool 'p' of change 'ch', at 'field'. */
struct pool_finding {
    const char *id;
    const struct ndp_change *ch;
    const struct ndp_pool_facts *p;
    enum ndp_pool_field field;
    const char *before, *after; /* JSON texts */
    const char *message;
    const char *path;           /* printed in place of the field's, or NULL */
};

static void add_pool_finding(const struct ndp_evaluator *ev,
                             const struct pool_finding *pf, bool masked)
{
    struct ndp_check_finding f;

    if (!ndp_check_begin(&f, ev, pf->id, pf->ch))
        return;
    f.pool = masked ? NULL : pf->p->name;
    if (pf->path)
        ndp_buf_adds(&f.path, pf->path);
    else
        ndp_pool_field_path(&f.path, pf->p, pf->field);
    ndp_buf_adds(&f.before, masked ? "\"(sensitive)\"" : pf->before);
    ndp_buf_adds(&f.after, masked ? "\"(sensitive)\"" : pf->after);
    ndp_buf_adds(&f.msg, pf->message);
    ndp_check_emit(&f, ev);
}

static bool is_system(const char *mode)
{
    return mode && ndp_strcasecmp(mode, "System") == 0;
}

/*
 * A mode known before deployment: not a template expression
 * ("[parameters('mode')]"; "[[" escapes a literal '['), which may well
 * be System.
 */
static bool mode_known(const char *mode)
{
    size_t n = mode ? strlen(mode) : 0;

    return n && !(n >= 2 && mode[0] == '[' && mode[1] != '[' &&
                  mode[n - 1] == ']');
}

/* ---- NDP714: no System pool left ---- */

/* What one cluster's pools say of its System pools after the apply. */
struct system_pools {
    bool known;         /* every pool of the cluster is known */
    bool left;          /* a pool is System after the apply */
    bool unknown_mode;  /* a pool's mode after the apply is not known */
    size_t nr;          /* pools left after the apply */
    const struct ndp_change *first_ch;  /* the first of them the input */
    const struct ndp_pool_facts *first; /* declares */
    /* The pool whose System mode the apply takes away (deleted, or
     * made a User pool), the first one: */
    const struct ndp_change *taken_ch;
    const struct ndp_pool_facts *taken;
    const char *taken_mode_before;
};

/* Live state's pool 'name' of cluster 'st', or NULL. */
static const struct ndp_state_pool *
live_pool(const struct ndp_state_cluster *st, const struct ndp_strmap *names,
          const char *name)
{
    size_t i = st && name ? ndp_strmap_find(names, name) : SIZE_MAX;

    return i == SIZE_MAX ? NULL : &st->pools[i];
}

/*
 * Pool 'p' of change 'ch': its mode before the apply (as declared, else
 * live state's) and after it (as declared, else unchanged); whether the
 * apply takes its System mode away.  'again': another change of the
 * cluster declared it already, and it is not counted twice.
 */
static void read_input_pool(struct system_pools *out,
                            const struct ndp_change *ch,
                            const struct ndp_pool_facts *p,
                            const struct ndp_state_pool *live, bool again)
{
    bool deleted = p->deleted || ch->action == NDP_ACTION_DELETE;
    const char *before = p->mode_before ? p->mode_before
                         : live ? live->mode : NULL;
    const char *after = deleted ? NULL : p->mode ? p->mode : before;

    /* A deleted pool's facts hold its last declared values. */
    if (deleted && !before)
        before = p->mode;
    if (!deleted) {
        if (!out->first) {
            out->first_ch = ch;
            out->first = p;
        }
        /* A pool both a cluster body and a pool resource declare. */
        out->nr += !again;
        out->left = out->left || is_system(after);
        out->unknown_mode = out->unknown_mode || !mode_known(after);
    }
    if (is_system(before) && !is_system(after) &&
        (deleted || mode_known(after)) && !out->taken) {
        out->taken_ch = ch;
        out->taken = p;
        out->taken_mode_before = before;
    }
}

/*
 * The pools of cluster 'c': those the input declares, then those only
 * live state knows.  'names' indexes the live pools by name.
 */
static void read_system_pools(struct system_pools *out,
                              const struct ndp_evaluator *ev, size_t c,
                              const struct ndp_state_cluster *st,
                              const struct ndp_strmap *names)
{
    struct ndp_strmap seen = NDP_STRMAP_INIT(true);
    const struct ndp_change *ch;
    size_t k, i;

    for (k = 0; (ch = ndp_evaluator_change(ev, c, k)) != NULL; k++)
        for (i = 0; i < ch->facts.nr_pools; i++) {
            const struct ndp_pool_facts *p = &ch->facts.pools[i];
            if (!p->name) {
                /* A what-if delta's unnamed element: a pool not known. */
                out->unknown_mode = true;
                continue;
            }
            read_input_pool(out, ch, p, live_pool(st, names, p->name),
                            ndp_strmap_find(&seen, p->name) != SIZE_MAX);
            ndp_strmap_add(&seen, p->name, 0);
        }
    for (i = 0; st && i < st->nr_pools; i++) {
        if (!st->pools[i].name ||
            ndp_strmap_find(&seen, st->pools[i].name) != SIZE_MAX)
            continue;
        ndp_strmap_add(&seen, st->pools[i].name, 0);
        out->nr++;
        out->left = out->left || is_system(st->pools[i].mode);
        out->unknown_mode = out->unknown_mode || !st->pools[i].mode;
    }
    ndp_strmap_release(&seen);
}

/* What the apply does to pool 'p' that leaves no System pool, in words. */
static void taken_words(struct ndp_buf *msg, const struct system_pools *sp,
                        bool deleted, bool masked)
{
    const struct ndp_pool_facts *p = sp->taken;

    if (!p) {
        ndp_buf_adds(msg, "the apply creates the cluster without a System "
                     "pool");
        return;
    }
    ndp_buf_adds(msg, deleted ? "the apply deletes System node pool"
                              : "the apply makes System node pool");
    if (!masked)
        ndp_buf_addf(msg, " '%s'", p->name);
    if (!deleted)
        ndp_buf_addf(msg, " a %s pool", masked ? "(sensitive)" : p->mode);
}

static void no_system_finding(const struct ndp_evaluator *ev,
                              const struct system_pools *sp, bool live)
{
    const struct ndp_pool_facts *p = sp->taken ? sp->taken : sp->first;
    const struct ndp_change *ch = sp->taken ? sp->taken_ch : sp->first_ch;
    bool deleted = p->deleted || ch->action == NDP_ACTION_DELETE;
    bool masked = ch->facts.pools_sensitive;
    struct ndp_buf msg = NDP_BUF_INIT, before = NDP_BUF_INIT,
                   after = NDP_BUF_INIT;
    struct pool_finding pf = { "NDP714", ch, p, NDP_POOL_MODE, NULL, NULL,
                               NULL, NULL };

    taken_words(&msg, sp, deleted, masked);
    ndp_buf_addf(&msg, ", and none of the %zu pool%s the cluster keeps (%s) "
                 "is a System pool: AKS keeps at least one System pool at "
                 "all times and refuses it; %s", sp->nr,
                 sp->nr == 1 ? "" : "s",
                 live ? "as the input and --cluster-state list them"
                      : "as the apply creates them",
                 sp->taken ? "keep this pool System, or make another pool "
                             "System in an apply before this one"
                           : "make one of them a System pool (mode "
                             "System)");
    ndp_emit_text(&before, sp->taken_mode_before, false, NULL);
    ndp_emit_text(&after, deleted ? NULL : p->mode, false, NULL);
    pf.before = before.buf;
    pf.after = after.buf;
    pf.message = msg.buf;
    add_pool_finding(ev, &pf, masked);
    ndp_buf_release(&msg);
    ndp_buf_release(&before);
    ndp_buf_release(&after);
}

/* NDP714 for cluster 'c', unless the apply deletes the cluster. */
static void check_system_left(const struct ndp_evaluator *ev, size_t c)
{
    const struct ndp_state_cluster *st = ev->resolved->items[c].state;
    size_t own = ev->clusters->items[c].change;
    const struct ndp_change *cluster =
        own != SIZE_MAX ? ev->set->items[own] : NULL;
    struct ndp_strmap names = NDP_STRMAP_INIT(true);
    struct system_pools sp;
    /* A cluster the apply creates or replaces is new: what runs now
     * (live state) is gone after it. */
    bool fresh = cluster && (cluster->action == NDP_ACTION_CREATE ||
                             cluster->action == NDP_ACTION_REPLACE);
    /* A body whose pool list is an expression lists no pool to know. */
    bool created = fresh && cluster->facts.nr_pools > 0;
    bool live;
    size_t i;

    memset(&sp, 0, sizeof(sp));
    if (cluster && cluster->action == NDP_ACTION_DELETE)
        return;
    if (fresh)
        st = NULL;
    live = st && st->pool_list;
    sp.known = live || created;
    if (!sp.known)
        return;
    for (i = 0; st && i < st->nr_pools; i++)
        if (st->pools[i].name)
            ndp_strmap_add(&names, st->pools[i].name, i);
    read_system_pools(&sp, ev, c, st, &names);
    /* A cluster the apply creates without one is refused too. */
    if ((sp.taken || (created && sp.first)) && !sp.left && !sp.unknown_mode)
        no_system_finding(ev, &sp, live);
    ndp_strmap_release(&names);
}

/* ---- NDP715: nodes and surge nodes above 1000 at an upgrade ---- */

/* How many nodes an upgrade of a pool rolls, and where that comes from. */
struct upgrade_size {
    long nodes;             /* -1: unknown */
    const char *nodes_from; /* NULL: the input; else words */
    const char *surge;      /* the maxSurge it rolls with */
    const char *surge_from; /* NULL: sent; else words */
    long surge_nodes;
};

/* The pool's nodes: its count, else live state's, else its minimum. */
static void size_nodes(struct upgrade_size *out,
                       const struct ndp_pool_facts *p,
                       const struct ndp_state_pool *live)
{
    out->nodes = p->count;
    if (out->nodes >= 0)
        return;
    if (live && live->count >= 0) {
        out->nodes = live->count;
        out->nodes_from = "as --cluster-state says";
    } else if (p->autoscale && p->min_count >= 0) {
        out->nodes = p->min_count;
        out->nodes_from = "at least: its autoscaler minimum";
    }
}

/*
 * The surge nodes an upgrade of the pool adds: false when it adds none
 * (maxSurge 0, a Spot pool) or cannot be told.
 */
static bool size_surge(struct upgrade_size *out,
                       const struct ndp_pool_facts *p,
                       const struct ndp_state_pool *live,
                       const char *version_after)
{
    long n;
    enum ndp_amount_form form;
    int minor = ndp_k8s_minor(version_after);

    if (p->priority && ndp_strcasecmp(p->priority, "Spot") == 0)
        return false;
    out->surge = p->surge_sent;
    if (!out->surge && live && live->max_surge) {
        out->surge = live->max_surge;
        out->surge_from = "as --cluster-state says";
    } else if (!out->surge && minor >= NDP_ROLLOUT_DEFAULT_SURGE_MINOR) {
        out->surge = "10%";
        out->surge_from = "AKS's default from Kubernetes 1.32";
    } else if (!out->surge) {
        out->surge = "1";
        out->surge_from = minor >= 0 ? "AKS's default before Kubernetes 1.32"
                                     : "assumed: AKS's smaller default, "
                                       "the pool's version not being in "
                                       "the input";
    }
    form = ndp_rollout_amount(out->surge, &n);
    if ((form != NDP_AMOUNT_COUNT && form != NDP_AMOUNT_PERCENT) || n <= 0)
        return false;
    out->surge_nodes = ndp_rollout_surge_nodes(out->surge, out->nodes);
    return true;
}

/* What the upgrade hit 'h' changes, for the message. */
static const char *upgrade_words(const struct ndp_hit *h)
{
    if (h->rule->scope != NDP_SCOPE_NODEPOOL)
        return "with the control plane";
    return strstr(h->path, "mage") ? "its node image"
                                   : "its orchestrator version";
}

/* A hit's value as JSON, "(sensitive)" under a mask. */
static void hit_value(struct ndp_buf *out, const struct json_object *v,
                      bool sensitive)
{
    char *text = ndp_emit_json_value(v, sensitive, false, NULL);

    ndp_buf_adds(out, text);
    free(text);
}

/*
 * The finding is at the maxSurge the pool declares, what to change; else
 * at what upgrades it (hit 'h'): its count may not be in the input.
 */
static void too_big_finding(const struct ndp_evaluator *ev,
                            const struct ndp_change *ch,
                            const struct ndp_pool_facts *p,
                            const struct upgrade_size *u,
                            const struct ndp_hit *h)
{
    bool masked = ch->facts.pools_sensitive;
    bool at_surge = p->max_surge != NULL;
    const char *what = upgrade_words(h);
    struct ndp_buf msg = NDP_BUF_INIT, before = NDP_BUF_INIT,
                   after = NDP_BUF_INIT;
    struct pool_finding pf = { "NDP715", ch, p, NDP_POOL_MAX_SURGE, NULL,
                               NULL, NULL, NULL };

    if (masked) {
        ndp_buf_addf(&msg, "this change upgrades a node pool (%s) whose "
                     "nodes and surge nodes (sensitive) come to more than "
                     "the %d VMSS instances AKS allows: AKS rejects the "
                     "upgrade before it starts; lower maxSurge or scale "
                     "the pool down first", what, MAX_POOL_INSTANCES);
    } else {
        ndp_buf_addf(&msg, "this change upgrades node pool '%s' (%s), and "
                     "its %ld nodes", p->name, what, u->nodes);
        if (u->nodes_from)
            ndp_buf_addf(&msg, " (%s)", u->nodes_from);
        ndp_buf_addf(&msg, " with the %ld surge nodes of maxSurge '%s'",
                     u->surge_nodes, u->surge);
        if (u->surge_from)
            ndp_buf_addf(&msg, " (%s)", u->surge_from);
        ndp_buf_addf(&msg, " come to %ld VMSS instances, above the %d AKS "
                     "allows: AKS rejects the upgrade before it starts "
                     "(error code unconfirmed); ",
                     u->nodes + u->surge_nodes, MAX_POOL_INSTANCES);
        if (u->nodes < MAX_POOL_INSTANCES)
            ndp_buf_addf(&msg, "set maxSurge to at most '%ld', or take "
                         "nodes down with maxSurge '0' and maxUnavailable "
                         "on a User pool, or scale the pool down first",
                         MAX_POOL_INSTANCES - u->nodes);
        else
            ndp_buf_addf(&msg, "scale the pool below %d nodes first",
                         MAX_POOL_INSTANCES);
    }
    if (at_surge) {
        ndp_emit_text(&before, p->surge_before, false, NULL);
        ndp_emit_text(&after, p->max_surge, false, NULL);
    } else {
        hit_value(&before, h->before, h->before_sensitive);
        hit_value(&after, h->after, h->after_sensitive);
        pf.path = h->path;
    }
    pf.before = before.buf;
    pf.after = after.buf;
    pf.message = msg.buf;
    add_pool_finding(ev, &pf, masked);
    ndp_buf_release(&msg);
    ndp_buf_release(&before);
    ndp_buf_release(&after);
}

/* Pool 'p' of change 'ch', which upgrade hit 'h' rolls: NDP715. */
static void check_upgrade_size(const struct ndp_evaluator *ev,
                               const struct ndp_change *ch,
                               const struct ndp_pool_facts *p,
                               const struct ndp_hit *h)
{
    const struct ndp_state_cluster *st =
        ev->resolved->items[ch->cluster].state;
    const struct ndp_state_pool *live = NULL;
    struct upgrade_size u;
    size_t i;

    memset(&u, 0, sizeof(u));
    for (i = 0; st && p->name && i < st->nr_pools; i++)
        if (st->pools[i].name &&
            ndp_strcasecmp(st->pools[i].name, p->name) == 0)
            live = &st->pools[i];
    size_nodes(&u, p, live);
    /* A pool that moves with the control plane goes to its version. */
    if (u.nodes < 0 ||
        !size_surge(&u, p, live,
                    ndp_pool_version_after(p)
                        ? ndp_pool_version_after(p)
                    : h->rule->scope != NDP_SCOPE_NODEPOOL
                        ? ndp_facts_version_after(&ch->facts) : NULL) ||
        u.nodes + u.surge_nodes <= MAX_POOL_INSTANCES)
        return;
    too_big_finding(ev, ch, p, &u, h);
}

/* Is the printed path 'path' in pool 'p' (a pool resource: any path)? */
static bool path_in_pool(const char *path, const struct ndp_pool_facts *p)
{
    size_t n = strlen(p->path);

    return strcmp(p->path, "properties") == 0 || n == 0 ||
           (strncmp(path, p->path, n) == 0 && path[n] == '.');
}

/*
 * Does upgrade hit 'h' of change 'ch' roll pool 'p'?  A pool's own
 * version or node image; an ARM body's control plane for each pool the
 * body neither creates, deletes nor pins a version of.  azurerm sends
 * kubernetes_version alone, a control-plane-only upgrade (PT-K8S-06).
 */
static bool rolls(const struct ndp_hit *h, const struct ndp_change *ch,
                  const struct ndp_pool_facts *p)
{
    if (h->rule->scope == NDP_SCOPE_NODEPOOL)
        return path_in_pool(h->path, p);
    return ch->notation == NDP_NOTATION_ARM && !ch->delta_only &&
           (ch->kind == NDP_KIND_CLUSTER || ch->kind == NDP_KIND_SETTER) &&
           !p->created && !p->deleted && !p->version_pinned;
}

/* NDP715 for the pools of change 'ch' that its upgrade hits roll. */
static void check_change_upgrades(const struct ndp_evaluator *ev,
                                  const struct ndp_change *ch,
                                  const size_t *hits, size_t nr)
{
    bool *done = ndp_xcalloc(ch->facts.nr_pools ? ch->facts.nr_pools : 1,
                             sizeof(*done));
    size_t i, k;

    for (i = 0; i < nr; i++) {
        const struct ndp_hit *h = &ev->hits->items[hits[i]];
        if (h->rule->class_ != NDP_CLASS_UPGRADE || h->after_unknown)
            continue;
        for (k = 0; k < ch->facts.nr_pools; k++) {
            const struct ndp_pool_facts *p = &ch->facts.pools[k];
            if (done[k] || p->deleted || !rolls(h, ch, p))
                continue;
            done[k] = true;
            check_upgrade_size(ev, ch, p, h);
        }
    }
    free(done);
}

static void check_upgrades(const struct ndp_evaluator *ev)
{
    size_t i, *by_change = NULL, *at = NULL;
    size_t *change_of = ndp_xcalloc(ev->hits->nr ? ev->hits->nr : 1,
                                    sizeof(*change_of));

    for (i = 0; i < ev->hits->nr; i++)
        change_of[i] = ev->hits->items[i].change;
    ndp_group_indexes(&by_change, &at, ev->set->nr, ev->hits->nr, change_of);
    for (i = 0; i < ev->set->nr; i++)
        if (at[i + 1] > at[i] && ev->set->items[i]->facts.nr_pools)
            check_change_upgrades(ev, ev->set->items[i], by_change + at[i],
                                  at[i + 1] - at[i]);
    free(change_of);
    free(by_change);
    free(at);
}

void ndp_check_pools(const struct ndp_evaluator *ev)
{
    size_t c;

    for (c = 0; c < ev->clusters->nr; c++)
        check_system_left(ev, c);
    check_upgrades(ev);
}

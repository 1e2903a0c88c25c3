/*
 * SPDX-License-Identifier: Apache-2.0
 * drain_budgets.c - which pod disruption budgets block a drain, and how
 * (put-time-limits PT-DRN-01/02; check_drain.c judges the drains against
 * them): every budget of the plans (set->kube) and of kubectl output (the
 * states' kube) placed in its cluster, the pods of the workloads it
 * selects counted, and what it allows read as the disruption controller
 * reads it.  An object of the plans hides a live one of the same cluster,
 * kind, namespace and name; a name that stands for one not printed
 * ("(sensitive)") hides nothing.
 *
 * Cost: linear in budgets, workloads and their labels, but for the
 * workloads a budget's selector may select (those sharing its first
 * matchLabels pair, or its namespace): at most DRAIN_MAX_CANDIDATES a
 * budget and DRAIN_MAX_COMPARISONS label comparisons, past which its pods
 * are not counted.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "kube.h"
#include "linker.h"
#include "state.h"
#include "strmap.h"

#include <limits.h>

/* Workloads looked at for one budget, at most; and label comparisons
 * (a selector's terms times a workload's labels, summed), at most. */
#define DRAIN_MAX_CANDIDATES 1000
#define DRAIN_MAX_COMPARISONS 100000

/* ---- keys: owned strings in a map, with chains of entries --------------- */

struct keyed {
    struct ndp_strmap map;
    char **keys;
    size_t nr_keys, alloc_keys;
    size_t *head;         /* by key: first entry, SIZE_MAX: none */
    size_t *next, *value; /* by entry */
    size_t nr, alloc, alloc_value, alloc_head;
};

static void keyed_add(struct keyed *k, const char *key, size_t value)
{
    size_t slot = ndp_strmap_find(&k->map, key);

    if (slot == SIZE_MAX) {
        NDP_GROW(k->keys, k->alloc_keys, k->nr_keys + 1);
        NDP_GROW(k->head, k->alloc_head, k->nr_keys + 1);
        k->keys[k->nr_keys] = ndp_xstrdup(key);
        k->head[k->nr_keys] = SIZE_MAX;
        slot = ndp_strmap_add(&k->map, k->keys[k->nr_keys], k->nr_keys);
        k->nr_keys++;
    }
    NDP_GROW(k->next, k->alloc, k->nr + 1);
    NDP_GROW(k->value, k->alloc_value, k->nr + 1);
    k->next[k->nr] = k->head[slot];
    k->value[k->nr] = value;
    k->head[slot] = k->nr++;
}

/* The first entry under 'key', or SIZE_MAX. */
static size_t keyed_first(const struct keyed *k, const char *key)
{
    size_t slot = ndp_strmap_find(&k->map, key);

    return slot == SIZE_MAX ? SIZE_MAX : k->head[slot];
}

static void keyed_release(struct keyed *k)
{
    size_t i;

    for (i = 0; i < k->nr_keys; i++)
        free(k->keys[i]);
    free(k->keys);
    free(k->head);
    free(k->next);
    free(k->value);
    ndp_strmap_release(&k->map);
}

/* "CLUSTER\x1fNS" and, with a label, "\x1fKEY\x1fVALUE" after it. */
static void object_key(struct ndp_buf *out, size_t cluster, const char *ns,
                       const char *label, const char *value)
{
    ndp_buf_reset(out);
    ndp_buf_addf(out, "%zu\x1f%s", cluster, ns);
    if (label)
        ndp_buf_addf(out, "\x1f%s\x1f%s", label, value);
}

/* ---- the objects and their clusters -------------------------------------- */

/* A budget or workload of the plans or of the live state, placed. */
struct placed {
    const void *obj;
    size_t cluster;
};

struct drain_check {
    const struct ndp_evaluator *ev;
    struct placed *budgets, *workloads;
    size_t nr_budgets, nr_workloads;
    struct keyed by_label;  /* workloads by cluster, namespace and label */
    struct keyed by_ns;     /* ... and by cluster and namespace */
};

/*
 * The cluster of an object: the one its provider's host names when that
 * is a cluster of the input, else the input's only cluster (PT-DRN-01).
 */
static size_t object_cluster(const struct ndp_evaluator *ev,
                             const struct ndp_kube_origin *o)
{
    if (o->cluster_ref) {
        const struct ndp_change *ch =
            ndp_change_index_find(&ev->changes, o->input, o->cluster_ref);
        if (ch && ch->kind == NDP_KIND_CLUSTER)
            return ch->cluster;
    }
    return ev->clusters->nr == 1 ? 0 : NDP_UNKNOWN_CLUSTER;
}

/* A name that stands for one not printed: it tells no object apart. */
static bool placeholder(const char *name)
{
    return name[0] == '(';
}

/*
 * Who hides whom: every object of the plans (either side of a change)
 * hides a live one of the same cluster, kind, namespace and name, which
 * the apply manages; a live one is kept once.  'keys' owns the map's
 * keys.
 */
struct hiding {
    struct ndp_strmap seen;
    char **keys;
    size_t nr, alloc;
};

/* Any cluster: what a live object of no known cluster is looked up by. */
#define ANY_CLUSTER (SIZE_MAX - 1)

/* Notes 'key' (taken over) unless noted already; true when it was. */
static bool note(struct hiding *h, struct ndp_buf *key)
{
    if (ndp_strmap_find(&h->seen, key->buf) != SIZE_MAX) {
        ndp_buf_release(key);
        return true;
    }
    NDP_GROW(h->keys, h->alloc, h->nr + 1);
    h->keys[h->nr] = ndp_buf_detach(key);
    ndp_strmap_add(&h->seen, h->keys[h->nr], h->nr);
    h->nr++;
    return false;
}

/*
 * Notes an object; true when one of its key was noted already (a live
 * one: hidden).  An object of the plans is noted under its cluster and
 * under any cluster, so that it hides a live one of no known cluster.
 */
static bool hide(struct hiding *h, size_t cluster, const char *ns,
                 const char *kind, const char *name, bool from_plan)
{
    struct ndp_buf key = NDP_BUF_INIT;
    bool seen;

    if (placeholder(name))
        return false;
    object_key(&key, !from_plan && cluster == NDP_UNKNOWN_CLUSTER
                         ? ANY_CLUSTER : cluster, ns, kind, name);
    seen = note(h, &key);
    if (from_plan) {
        object_key(&key, ANY_CLUSTER, ns, kind, name);
        note(h, &key);
    }
    return seen;
}

static void hiding_release(struct hiding *h)
{
    size_t i;

    for (i = 0; i < h->nr; i++)
        free(h->keys[i]);
    free(h->keys);
    ndp_strmap_release(&h->seen);
}

static void place_budgets(struct drain_check *d,
                          const struct ndp_kube_objects *plan,
                          const struct ndp_kube_objects *live)
{
    struct hiding h = { NDP_STRMAP_INIT(false), NULL, 0, 0 };
    size_t i, n = plan->nr_budgets + (live ? live->nr_budgets : 0);

    d->budgets = ndp_xcalloc(n ? n : 1, sizeof(*d->budgets));
    for (i = 0; i < n; i++) {
        bool from_plan = i < plan->nr_budgets;
        const struct ndp_kube_budget *b = from_plan
            ? &plan->budgets[i] : &live->budgets[i - plan->nr_budgets];
        size_t c = object_cluster(d->ev, &b->origin);
        if (hide(&h, c, b->ns, "PodDisruptionBudget", b->name, from_plan) &&
            !from_plan)
            continue;
        d->budgets[d->nr_budgets].obj = b;
        d->budgets[d->nr_budgets++].cluster = c;
    }
    hiding_release(&h);
}

static void index_workload(struct drain_check *d, size_t at)
{
    const struct ndp_kube_workload *w = d->workloads[at].obj;
    struct ndp_buf key = NDP_BUF_INIT;
    size_t i, c = d->workloads[at].cluster;

    object_key(&key, c, w->ns, NULL, NULL);
    keyed_add(&d->by_ns, key.buf, at);
    if (w->labels_unknown) {
        /* It may carry any label: every selector may select it. */
        object_key(&key, c, w->ns, "", "");
        keyed_add(&d->by_label, key.buf, at);
    }
    for (i = 0; i < w->pod_labels.nr; i++) {
        object_key(&key, c, w->ns, w->pod_labels.keys[i],
                   w->pod_labels.values[i]);
        keyed_add(&d->by_label, key.buf, at);
    }
    ndp_buf_release(&key);
}

/*
 * The workloads whose pods a drain meets: those of the plans as the apply
 * leaves them (not the side before an update; not one the apply creates,
 * whose pods are not on the old nodes when the drain starts) and the live
 * ones the plans do not manage.
 */
static void place_workloads(struct drain_check *d,
                            const struct ndp_kube_objects *plan,
                            const struct ndp_kube_objects *live)
{
    struct hiding h = { NDP_STRMAP_INIT(false), NULL, 0, 0 };
    size_t i, n = plan->nr_workloads + (live ? live->nr_workloads : 0);

    d->workloads = ndp_xcalloc(n ? n : 1, sizeof(*d->workloads));
    for (i = 0; i < n; i++) {
        bool from_plan = i < plan->nr_workloads;
        const struct ndp_kube_workload *w = from_plan
            ? &plan->workloads[i] : &live->workloads[i - plan->nr_workloads];
        size_t c = object_cluster(d->ev, &w->origin);
        if ((hide(&h, c, w->ns, w->kind, w->name, from_plan) && !from_plan) ||
            w->origin.side == NDP_KUBE_BEFORE || w->origin.created)
            continue;
        d->workloads[d->nr_workloads].obj = w;
        d->workloads[d->nr_workloads].cluster = c;
        index_workload(d, d->nr_workloads++);
    }
    hiding_release(&h);
}

/* ---- what a budget allows ------------------------------------------------ */

/* The pods of the workloads 'p' selects: false when not known. */
static bool count_pods(const struct drain_check *d, const struct placed *p,
                       struct ndp_blocker *out)
{
    const struct ndp_kube_budget *b = p->obj;
    struct ndp_buf key = NDP_BUF_INIT;
    const struct keyed *k = b->selector.match_labels.nr ? &d->by_label
                                                         : &d->by_ns;
    size_t e, looked = 0, cost = 0;
    size_t terms = b->selector.match_labels.nr + b->selector.nr_reqs + 1;
    bool known = true;

    object_key(&key, p->cluster, b->ns,
               b->selector.match_labels.nr ? b->selector.match_labels.keys[0]
                                           : NULL,
               b->selector.match_labels.nr
                   ? b->selector.match_labels.values[0] : NULL);
    out->pods = 0;
    if (b->selector.match_labels.nr) {
        struct ndp_buf any = NDP_BUF_INIT;
        object_key(&any, p->cluster, b->ns, "", "");
        known = keyed_first(&d->by_label, any.buf) == SIZE_MAX;
        ndp_buf_release(&any);
    }
    for (e = keyed_first(k, key.buf); e != SIZE_MAX && known; e = k->next[e]) {
        const struct placed *wp = &d->workloads[k->value[e]];
        const struct ndp_kube_workload *w = wp->obj;
        cost += terms * (w->pod_labels.nr + 1);
        if (++looked > DRAIN_MAX_CANDIDATES ||
            cost > DRAIN_MAX_COMPARISONS || w->labels_unknown) {
            known = false;
        } else if (wp->cluster == p->cluster && strcmp(w->ns, b->ns) == 0 &&
                   ndp_kube_selects(&b->selector, &w->pod_labels)) {
            known = w->replicas >= 0;
            out->pods = out->pods > LONG_MAX - w->replicas
                            ? LONG_MAX : out->pods + w->replicas;
            if (!out->workload)
                out->workload = w;
            out->workloads++;
        }
    }
    ndp_buf_release(&key);
    return known && out->workloads > 0;
}

static void judge_budget(const struct drain_check *d, const struct placed *p,
                         struct ndp_blocker *out)
{
    const struct ndp_kube_budget *b = p->obj;

    memset(out, 0, sizeof(*out));
    out->b = b;
    out->cluster = p->cluster;
    out->pods = -1;
    if (b->selector.unknown)
        return;
    if (ndp_kube_budget_unsatisfiable(b)) {
        out->block = NDP_BLOCK_UNSATISFIABLE;
        if (!count_pods(d, p, out))
            out->pods = -1;
        return;
    }
    if (count_pods(d, p, out) && out->pods > 0 &&
        ndp_kube_allowed_disruptions(b, out->pods) == 0)
        out->block = NDP_BLOCK_NO_DISRUPTION;
    else
        out->pods = -1;
}

/*
 * The two sides of one changed budget are read one after the other
 * (input_kube.c): when both block the same way, whichever a drain meets
 * blocks it.
 */
static void pair_sides(struct ndp_blocker *all, size_t nr)
{
    size_t i;

    for (i = 0; i + 1 < nr; i++) {
        const struct ndp_kube_origin *a = &all[i].b->origin;
        const struct ndp_kube_origin *b = &all[i + 1].b->origin;
        if (a->side == NDP_KUBE_BEFORE && b->side == NDP_KUBE_AFTER &&
            a->address && b->address && a->input == b->input &&
            strcmp(a->address, b->address) == 0 &&
            all[i].block != NDP_BLOCK_NONE &&
            all[i].block == all[i + 1].block)
            all[i].both_sides = all[i + 1].both_sides = true;
    }
}

void ndp_drain_blockers(struct ndp_blocker **out, size_t *nr,
                        const struct ndp_evaluator *ev)
{
    const struct ndp_kube_objects *live =
        ev->opt->states ? &ev->opt->states->kube : NULL;
    struct drain_check d;
    size_t i;

    memset(&d, 0, sizeof(d));
    d.ev = ev;
    place_budgets(&d, &ev->set->kube, live);
    place_workloads(&d, &ev->set->kube, live);
    *out = ndp_xcalloc(d.nr_budgets ? d.nr_budgets : 1, sizeof(**out));
    *nr = d.nr_budgets;
    for (i = 0; i < d.nr_budgets; i++)
        judge_budget(&d, &d.budgets[i], &(*out)[i]);
    pair_sides(*out, d.nr_budgets);
    free(d.budgets);
    free(d.workloads);
    keyed_release(&d.by_label);
    keyed_release(&d.by_ns);
}

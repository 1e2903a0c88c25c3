/*
 * SPDX-License-Identifier: Apache-2.0
 * check_concurrency.c - two changes the apply may send to one managed
 * cluster at once (put-time-limits PT-CONC-01):
 *
 *   NDP901  two changes that PUT the same cluster (the cluster resource,
 *           an azapi_resource or azapi_update_resource of it), or one
 *           that PUTs the cluster and one that changes one of its pools,
 *           with no order between them in the plan's configuration:
 *           Terraform runs changes without a dependency in parallel, and
 *           AKS answers the second "Operation is not allowed: Another
 *           operation (...) is in progress" (OperationNotAllowed).
 *           may-refuse: whether they meet depends on timing.  An order is
 *           a chain of references or depends_on either way (the input
 *           stage reads it, input_order.c); a change whose order is not
 *           known (what-if, a plan without configuration) and a deferred
 *           change (applied in a later round) are left out.
 *
 * Cost: per cluster with a change that PUTs it, one walk of the order
 * graph up and one down from each such change (a stamp per node, never
 * cleared); clusters without one cost a pass over their changes.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "linker.h"

struct order_walk {
    struct ndp_order_walk g;
    unsigned *stamp;
    bool *unsure;           /* waits, at some remove, for an opaque node */
};

static bool puts_cluster(const struct ndp_change *ch)
{
    return (ch->kind == NDP_KIND_CLUSTER || ch->kind == NDP_KIND_SETTER) &&
           (ch->action == NDP_ACTION_CREATE ||
            ch->action == NDP_ACTION_UPDATE ||
            ch->action == NDP_ACTION_REPLACE);
}

static bool changes_pool(const struct ndp_change *ch)
{
    return ch->kind == NDP_KIND_NODEPOOL && ch->action != NDP_ACTION_NOOP &&
           ch->action != NDP_ACTION_READ;
}

static bool ordered_known(const struct ndp_change *ch)
{
    return ch->order_node && !ch->deferred_reason;
}

/*
 * Every node that waits, at some remove, for an opaque one (a resource
 * the configuration names but the reader does not keep): it may be
 * ordered after anything, so no pair with it is said to be unordered.
 * One walk up from all opaque nodes at once.
 */
static void mark_unsure(struct order_walk *w)
{
    size_t n = w->g.set->nr_order, head = 0, tail = 0, i;

    w->unsure = ndp_xcalloc(n ? n : 1, sizeof(*w->unsure));
    for (i = 0; i < n; i++)
        if (w->g.set->order[i].opaque) {
            w->unsure[i] = true;
            w->g.queue[tail++] = i;
        }
    while (head < tail) {
        size_t at = w->g.queue[head++], k;
        for (k = w->g.up_at[at]; k < w->g.up_at[at + 1]; k++)
            if (!w->unsure[w->g.up[k]]) {
                w->unsure[w->g.up[k]] = true;
                w->g.queue[tail++] = w->g.up[k];
            }
    }
}

static void walk_init(struct order_walk *w, const struct ndp_changeset *set)
{
    size_t n = set->nr_order;

    ndp_order_walk_init(&w->g, set);
    w->stamp = ndp_xcalloc(n ? n : 1, sizeof(*w->stamp));
    mark_unsure(w);
}

static void walk_release(struct order_walk *w)
{
    ndp_order_walk_release(&w->g);
    free(w->stamp);
    free(w->unsure);
}

/* "module.a[\"x\"].t.n[0]": the length of "module.a[\"x\"]." (0: root). */
static size_t module_part(const char *address)
{
    const char *p = address;

    while (strncmp(p, "module.", 7) == 0) {
        const char *q = ndp_address_skip_key(p + 7 + strcspn(p + 7, ".["));
        if (*q != '.')
            break;
        p = q + 1;
    }
    return (size_t)(p - address);
}

/* 'ch' comes from an ARM template (its order is dependsOn). */
static bool from_template(const struct ndp_changeset *set,
                          const struct ndp_change *ch)
{
    size_t i;

    for (i = 0; i < set->nr_inputs; i++)
        if (set->inputs[i].path == ch->input)
            return set->inputs[i].format &&
                   strcmp(set->inputs[i].format, "arm-template") == 0;
    return false;
}

static void emit(const struct ndp_evaluator *ev, const struct ndp_change *a,
                 const struct ndp_change *b, const char *cluster)
{
    struct ndp_check_finding f;
    size_t ma = module_part(a->address), mb = module_part(b->address);
    bool pool = changes_pool(b);

    if (!ndp_check_begin(&f, ev, "NDP901", b))
        return;
    f.verdict = NDP_VERDICT_MAY_REFUSE;
    if (pool)
        ndp_buf_addf(&f.msg, "%s PUTs cluster %s and %s changes one of its "
                     "pools", a->address, cluster, b->address);
    else
        ndp_buf_addf(&f.msg, "%s and %s both PUT cluster %s", a->address,
                     b->address, cluster);
    if (from_template(ev->set, b)) {
        ndp_buf_adds(&f.msg, " with no dependsOn between them in the "
                     "template: ARM deploys them at once, and AKS refuses "
                     "the one that arrives second with OperationNotAllowed, "
                     "\"Operation is not allowed: Another operation (...) is "
                     "in progress, please wait for it to finish before "
                     "starting a new operation\"");
        ndp_buf_addf(&f.help, "Order them: add the first to the dependsOn "
                     "of the second (%s), by its symbolic name or its "
                     "resourceId().", b->address);
        ndp_check_emit(&f, ev);
        return;
    }
    ndp_buf_adds(&f.msg, " with no order between them in the plan's "
                 "configuration (no reference or depends_on either way): "
                 "Terraform may send both at once, and AKS refuses the one "
                 "that arrives second with OperationNotAllowed, \"Operation "
                 "is not allowed: Another operation (...) is in progress, "
                 "please wait for it to finish before starting a new "
                 "operation\"");
    if (ma == mb && strncmp(a->address, b->address, ma) == 0)
        ndp_buf_addf(&f.help, "Order them: add depends_on = [%s] to %s.",
                     a->address + ma, b->address);
    else
        ndp_buf_addf(&f.help, "Order them: add a depends_on that names %s "
                     "(or its module) to %s, on the module block when they "
                     "are in different modules.", a->address, b->address);
    ndp_check_emit(&f, ev);
}

static void check_cluster(const struct ndp_evaluator *ev, size_t c,
                          struct order_walk *w, bool *ready)
{
    const struct ndp_change *a, *b;
    const char *cluster = ev->clusters->items[c].id;
    size_t i, k;

    for (i = 0; (a = ndp_evaluator_change(ev, c, i)) != NULL; i++) {
        if (!puts_cluster(a) || !ordered_known(a))
            continue;
        if (!*ready) {
            walk_init(w, ev->set);
            *ready = true;
        }
        w->g.gen++;
        ndp_order_walk_stamp(&w->g, a->order_node - 1, true, w->stamp);
        ndp_order_walk_stamp(&w->g, a->order_node - 1, false, w->stamp);
        for (k = 0; (b = ndp_evaluator_change(ev, c, k)) != NULL; k++) {
            if (k == i || !ordered_known(b) ||
                (puts_cluster(b) ? k < i : !changes_pool(b)))
                continue;
            if (w->stamp[b->order_node - 1] != w->g.gen &&
                !w->unsure[a->order_node - 1] &&
                !w->unsure[b->order_node - 1])
                emit(ev, a, b, cluster);
        }
    }
}

void ndp_check_concurrency(const struct ndp_evaluator *ev)
{
    struct order_walk w;
    bool ready = false;
    size_t c;

    memset(&w, 0, sizeof(w));
    if (!ev->set->nr_order)
        return;
    for (c = 0; c < ev->clusters->nr; c++)
        if (ev->at[c + 1] - ev->at[c] >= 2)
            check_cluster(ev, c, &w, &ready);
    if (ready)
        walk_release(&w);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * order_walk.c - walks of the change set's order graph (struct
 * ndp_order_node, read from a plan's configuration or a template's
 * dependsOn) for the checks that ask which change comes first
 * (check_concurrency.c, check_drain.c): the reverse edges built once, and
 * a breadth-first walk down (what a node waits for) or up (what waits for
 * it) that stamps what it reaches with the walk's generation, so that no
 * stamp is ever cleared.
 *
 * Cost: the reverse edges, one pass over the graph; a walk, the part of
 * the graph it reaches.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "change.h"

void ndp_order_walk_init(struct ndp_order_walk *w,
                         const struct ndp_changeset *set)
{
    size_t i, j, n = set->nr_order, *fill;

    w->set = set;
    w->up_at = ndp_xcalloc(n + 1, sizeof(*w->up_at));
    for (i = 0; i < n; i++)
        for (j = 0; j < set->order[i].nr; j++)
            w->up_at[set->order[i].deps[j] + 1]++;
    for (i = 0; i < n; i++)
        w->up_at[i + 1] += w->up_at[i];
    w->up = ndp_xcalloc(w->up_at[n] ? w->up_at[n] : 1, sizeof(*w->up));
    fill = ndp_xcalloc(n ? n : 1, sizeof(*fill));
    for (i = 0; i < n; i++)
        for (j = 0; j < set->order[i].nr; j++) {
            size_t d = set->order[i].deps[j];
            w->up[w->up_at[d] + fill[d]++] = i;
        }
    free(fill);
    w->queue = ndp_xcalloc(n ? n : 1, sizeof(*w->queue));
    w->gen = 0;
}

void ndp_order_walk_release(struct ndp_order_walk *w)
{
    free(w->up_at);
    free(w->up);
    free(w->queue);
    memset(w, 0, sizeof(*w));
}

void ndp_order_walk_stamp(struct ndp_order_walk *w, size_t start, bool down,
                          unsigned *stamp)
{
    size_t head = 0, tail = 0, i;

    w->queue[tail++] = start;
    while (head < tail) {
        size_t n = w->queue[head++], nr, *next;
        if (down) {
            nr = w->set->order[n].nr;
            next = w->set->order[n].deps;
        } else {
            nr = w->up_at[n + 1] - w->up_at[n];
            next = w->up + w->up_at[n];
        }
        for (i = 0; i < nr; i++)
            if (stamp[next[i]] != w->gen) {
                stamp[next[i]] = w->gen;
                w->queue[tail++] = next[i];
            }
    }
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * rollout.h - how long a rolling rebuild of the pools an impact names can
 * take, after impact.h has said which pools and how they are sized: surge
 * nodes, batches, drain and soak per batch, and the worst case in
 * minutes and in words (what window-overrun and --window-check compare
 * with the window).
 */
#ifndef NDP_ROLLOUT_H
#define NDP_ROLLOUT_H

#include <stdbool.h>
#include <stddef.h>

struct ndp_buf;
struct ndp_impact;
struct ndp_impact_pool;

/* AKS upgradeSettings defaults: drainTimeoutInMinutes, nodeSoak... */
#define NDP_ROLLOUT_DEFAULT_DRAIN_MINUTES 30
#define NDP_ROLLOUT_DEFAULT_SOAK_MINUTES 0

/*
 * Surge nodes for a pool of 'nodes' under maxSurge 'surge' ("3", "33%",
 * NULL for the AKS default of 1): a percentage rounds up; at least 1, at
 * most 'nodes' (when known, i.e. > 0).
 */
long ndp_rollout_surge_nodes(const char *surge, long nodes);

/*
 * Batches of 'surge' nodes a rolling rebuild of 'nodes' takes (rounded
 * up, without overflow for any count), or -1 when 'nodes' is unknown.
 */
long ndp_rollout_batches(long nodes, long surge);

/* Nodes the rebuild of 'p' goes through: the autoscaler's maximum at
 * worst; -1 when unknown. */
long ndp_rollout_pool_nodes(const struct ndp_impact_pool *p);

/* The drain timeout and node soak time of each batch of 'p', minutes,
 * the AKS defaults where the pool declares none. */
long ndp_rollout_drain_minutes(const struct ndp_impact_pool *p);
long ndp_rollout_soak_minutes(const struct ndp_impact_pool *p);

/*
 * The worst case of a rolling rebuild (spec §8: size windows to the
 * operations they must hold).  Each pool takes ceil(nodes / surge)
 * batches, the autoscaler's maximum when it scales, and each batch up to
 * its drain timeout plus its node soak time; the pools are counted one
 * after another.
 */
struct ndp_rollout {
    size_t pools;           /* pools counted */
    bool known;             /* every count is known and none is sensitive;
                               otherwise 'batches' and 'minutes' are -1 */
    long batches;           /* all the batches of all the pools */
    long minutes;           /* their worst-case length, saturating */
    long batch_min, batch_max; /* the shortest and longest batch, minutes */
};

/*
 * Fills 'out' with the worst case of the rebuild of the pools of 'impact'
 * that its findings rebuild, or with 'touched' of those its reimaging
 * changes touch (refused now or not).  'out->pools' is 0 when none is.
 */
void ndp_rollout_size(struct ndp_rollout *out,
                      const struct ndp_impact *impact, bool touched);

/*
 * Appends 'minutes' in words: "45 min", "5 h", "7 h 30 min".
 */
void ndp_rollout_duration_words(struct ndp_buf *out, long minutes);

/*
 * Appends the rollout 'r' (of at least one pool) in words: "the rebuild
 * of 4 pools can take up to 7 h 30 min (15 batches × 30 min, the pools
 * one after another: a worst case)"; when it is not known, why not.
 */
void ndp_rollout_words(struct ndp_buf *out, const struct ndp_rollout *r);

#endif

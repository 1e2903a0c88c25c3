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

#include "impact.h"

struct ndp_buf;

/* AKS upgradeSettings defaults: drainTimeoutInMinutes, nodeSoak... */
#define NDP_ROLLOUT_DEFAULT_DRAIN_MINUTES 30
#define NDP_ROLLOUT_DEFAULT_SOAK_MINUTES 0

/* A maxSurge or maxUnavailable value: a count, a percentage, or neither. */
enum ndp_amount_form {
    NDP_AMOUNT_NONE,    /* NULL: not sent */
    NDP_AMOUNT_BAD,     /* neither ("abc", "-1", "5 %", "1.5") */
    NDP_AMOUNT_COUNT,   /* digits alone: "5" */
    NDP_AMOUNT_PERCENT  /* digits and '%': "33%" */
};

/* Reads 'v' into '*n' (0 unless a count or a percentage), saturating. */
enum ndp_amount_form ndp_rollout_amount(const char *v, long *n);

/*
 * Nodes at a time for a pool of 'nodes' under a maxSurge or maxUnavailable
 * of 'amount' ("3", "33%"; NULL or not a number: 1): a percentage rounds
 * up; at least 1, at most 'nodes' (when known, i.e. > 0).
 */
long ndp_rollout_surge_nodes(const char *amount, long nodes);

/*
 * Where a pool's maxSurge comes from (put-time-limits PT-UPG-02): sent by
 * the apply, or AKS's default for an unset one, 10% (rounded up, at least
 * one node) on Kubernetes 1.32 and later and 1 node below; when the
 * version is unknown, 10% is assumed.
 */
enum ndp_surge_source {
    NDP_SURGE_SENT,
    NDP_SURGE_DEFAULT,         /* 10%: Kubernetes 1.32 and later */
    NDP_SURGE_DEFAULT_BEFORE,  /* 1: below 1.32 */
    NDP_SURGE_DEFAULT_ASSUMED  /* 10%: the version is unknown */
};

/* The first Kubernetes version (1.32, as ndp_k8s_minor() counts it)
 * whose unset maxSurge is 10%. */
#define NDP_ROLLOUT_DEFAULT_SURGE_MINOR 132

/*
 * How AKS rebuilds one pool (PT-UPG-01, -03, -07, PT-ROT-03): surge nodes
 * added and old ones drained; with maxSurge 0 and maxUnavailable n, n
 * nodes taken down at a time and none added; a Spot pool cordoned and
 * evicted without drain or surge, one node at a time (assumed); an
 * azurerm rotation creates the whole pool anew beside the old one.
 */
enum ndp_rollout_kind {
    NDP_ROLLOUT_SURGE,
    NDP_ROLLOUT_UNAVAILABLE,
    NDP_ROLLOUT_SPOT,
    NDP_ROLLOUT_ROTATION
};

/* One pool's rebuild as ndp_rollout_pool_plan() sizes it. */
struct ndp_rollout_pool {
    enum ndp_rollout_kind kind;
    enum ndp_surge_source surge_source;
    const char *max_surge;  /* as sent, or the default ("10%", "1"):
                               borrowed from the pool, or static */
    long nodes;             /* ndp_rollout_pool_nodes() */
    long surge_nodes;       /* added per batch: 0 but for a surge */
    long unavailable_nodes; /* taken down per batch with maxUnavailable */
    long batches;           /* -1 when the node count is unknown; 0 for a
                               pool scaled to zero and for a rotation */
    long extra_nodes;       /* above the pool's nodes at the peak: its
                               surge nodes, the whole pool for a
                               rotation; -1 when unknown */
    long drain_minutes;     /* per batch: 0 for a Spot pool (no drain) */
    long soak_minutes;      /* per batch */
};

/* Sizes the rebuild of pool 'p' into 'out'. */
void ndp_rollout_pool_plan(struct ndp_rollout_pool *out,
                           const struct ndp_impact_pool *p);

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
 * operations they must hold).  Each pool takes ceil(nodes / nodes per
 * batch) batches (ndp_rollout_pool_plan()), the autoscaler's maximum when
 * it scales, and each batch up to its drain timeout plus its node soak
 * time; the pools are counted one after another.  A pool an azurerm
 * rotation creates anew has no batches and is not timed.
 *
 * At the peak the extra nodes of the pools rebuilt together add up
 * (put-time-limits PT-CAP-01: quota is the sum over the pools upgraded
 * together), and those of pools rebuilt in different phases do not
 * (impact.h, PT-K8S-06): the cluster's own PUT first, then its pool
 * resources in parallel.  The peak is the larger phase.  A pool rebuilt
 * in both counts in both, and a rotation only in the phase that rotates
 * it (a surge rebuild in the other).
 */
struct ndp_rollout {
    size_t pools;           /* pools counted */
    size_t rotated;         /* of them, created anew by a rotation */
    bool known;             /* every count is known and none is sensitive;
                               otherwise 'batches', 'minutes',
                               'extra_nodes' and 'phase_extra' are -1 */
    long batches;           /* all the batches of all the pools */
    long minutes;           /* their worst-case length, saturating */
    long batch_min, batch_max; /* the shortest and longest batch, minutes */
    long extra_nodes;       /* nodes above the pools' own at the peak: the
                               largest of 'phase_extra' */
    long phase_extra[NDP_PHASES]; /* the extra nodes of each phase */
    size_t phase_pools[NDP_PHASES]; /* the pools each phase rebuilds */
    enum ndp_impact_phase peak; /* the phase of the peak (the first of
                                   two equal ones) */
};

/*
 * Fills 'out' with the worst case of the rebuild of the pools of 'impact'
 * that its findings rebuild, or with 'touched' of those its reimaging
 * changes touch (refused now or not).  'out->pools' is 0 when none is.
 */
void ndp_rollout_size(struct ndp_rollout *out,
                      const struct ndp_impact *impact, bool touched);

/* maxPods of a pool that declares none, under Azure CNI (node subnet). */
#define NDP_ROLLOUT_DEFAULT_MAX_PODS 30

/* The addresses the pools of one subnet take (ndp_rollout_subnet_needs()). */
struct ndp_subnet_need {
    long addresses;         /* at the peak; -1 when a count is unknown or
                               sensitive */
    unsigned phases;        /* NDP_PHASE_BIT()s of the phases that rebuild
                               a pool in it (0: none is rebuilt) */
    enum ndp_impact_phase peak; /* the phase of the peak, when 'phases' */
};

/*
 * The addresses the pools of 'impact' need in each of its subnets at the
 * peak (put-time-limits PT-CAP-02), into 'out' (impact->nr_subnets
 * entries): under flat Azure CNI (impact->addressing) each pool in the
 * subnet takes (nodes + its extra nodes) x (1 + maxPods); under Azure CNI
 * Overlay and kubenet, and for a pool whose pods have a subnet of their
 * own, (nodes + extra) alone; a deleted pool none.  The extra nodes are those of the phase that adds most to the
 * subnet (struct ndp_rollout): the pools rebuilt in the cluster's own
 * PUT, or those its pool resources rebuild together after it.  Only the
 * pools the input and the live state describe are counted: at least this
 * many.
 */
void ndp_rollout_subnet_needs(struct ndp_subnet_need *out,
                              const struct ndp_impact *impact);

/*
 * Appends when the peak of 'phase' comes: "in the cluster's own update",
 * "while the node pool resources are updated, in parallel, after the
 * cluster".
 */
void ndp_rollout_phase_words(struct ndp_buf *out,
                             enum ndp_impact_phase phase);

/*
 * The extra nodes at the peak of the whole apply: each impact's rebuilt
 * pools at once, summed over the clusters ('nr' impacts); 0 when nothing
 * is rebuilt, -1 when a count is unknown or sensitive.  Saturates.
 */
struct ndp_impacts;
long ndp_rollout_plan_extra_nodes(const struct ndp_impacts *impacts);

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

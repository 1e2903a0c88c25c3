/*
 * SPDX-License-Identifier: Apache-2.0
 * rollout.c - the worst case of a rolling rebuild (see rollout.h): a pool
 * of N nodes under a surge of S takes ceil(N / S) batches, each up to its
 * drain timeout plus its node soak time.  Counts come from the input, so
 * every product and sum saturates instead of overflowing.
 */
#include "common.h"
#include "rollout.h"
#include "buf.h"
#include "impact.h"

#include <limits.h>

/*
 * ceil(nodes * percent / 100) without the product, which overflows for a
 * node count near 2^63 (both come from the input): nodes = 100q + r.
 * A percentage of 100 or more is every node.
 */
static long percent_of(long nodes, long percent)
{
    if (percent >= 100)
        return nodes;
    return nodes / 100 * percent + (nodes % 100 * percent + 99) / 100;
}

long ndp_rollout_surge_nodes(const char *surge, long nodes)
{
    long s = 1;
    char *end;

    if (surge && *surge) {
        long v = strtol(surge, &end, 10);
        if (end != surge && *end == '%' && v > 0 && nodes > 0)
            s = percent_of(nodes, v);
        else if (end != surge && *end == '\0' && v > 0)
            s = v;
    }
    if (s < 1)
        s = 1;
    if (nodes > 0 && s > nodes)
        s = nodes;
    return s;
}

long ndp_rollout_batches(long nodes, long surge)
{
    if (nodes <= 0 || surge <= 0)
        return -1;
    return nodes / surge + (nodes % surge != 0);
}

long ndp_rollout_pool_nodes(const struct ndp_impact_pool *p)
{
    if (p->autoscale && p->max_nodes > 0)
        return p->max_nodes > p->nodes ? p->max_nodes : p->nodes;
    return p->nodes;
}

/* Saturating, for counts that come from the input (never negative). */
static long add_sat(long a, long b)
{
    return a > LONG_MAX - b ? LONG_MAX : a + b;
}

static long mul_sat(long a, long b)
{
    return a && b > LONG_MAX / a ? LONG_MAX : a * b;
}

/*
 * The drain timeout of 'p' in minutes.  azurerm writes an unset one as 0,
 * which AKS would refuse (it takes 1-1440), so 0 reads as the default.
 */
long ndp_rollout_drain_minutes(const struct ndp_impact_pool *p)
{
    return p->drain_minutes > 0 ? p->drain_minutes
                                : NDP_ROLLOUT_DEFAULT_DRAIN_MINUTES;
}

long ndp_rollout_soak_minutes(const struct ndp_impact_pool *p)
{
    return p->soak_minutes >= 0 ? p->soak_minutes
                                : NDP_ROLLOUT_DEFAULT_SOAK_MINUTES;
}

/* The longest one batch of 'p' can take: drained, then soaked. */
static long batch_minutes(const struct ndp_impact_pool *p)
{
    return add_sat(ndp_rollout_drain_minutes(p), ndp_rollout_soak_minutes(p));
}

static void count_pool(struct ndp_rollout *out, const struct ndp_impact_pool *p)
{
    long nodes = ndp_rollout_pool_nodes(p);
    /* A pool scaled to zero has nothing to rebuild: no batch, not unknown. */
    long batches = nodes == 0 ? 0
                   : ndp_rollout_batches(nodes,
                                        ndp_rollout_surge_nodes(p->surge,
                                                               nodes));
    long each = batch_minutes(p);

    out->pools++;
    if (p->sensitive || batches < 0)
        out->known = false;
    if (!out->known)
        return;
    out->batches = add_sat(out->batches, batches);
    out->minutes = add_sat(out->minutes, mul_sat(batches, each));
    if (!batches)
        return;
    if (!out->batch_max || each < out->batch_min)
        out->batch_min = each;
    if (each > out->batch_max)
        out->batch_max = each;
}

void ndp_rollout_size(struct ndp_rollout *out,
                        const struct ndp_impact *impact, bool touched)
{
    size_t i;

    memset(out, 0, sizeof(*out));
    out->known = true;
    for (i = 0; i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        if (touched ? p->touched : p->rebuilt)
            count_pool(out, p);
    }
    if (!out->known || !out->pools)
        out->batches = out->minutes = -1;
    out->known = out->known && out->pools;
}

void ndp_rollout_duration_words(struct ndp_buf *out, long minutes)
{
    if (minutes >= 60)
        ndp_buf_addf(out, "%ld h", minutes / 60);
    if (minutes >= 60 && minutes % 60)
        ndp_buf_addch(out, ' ');
    if (minutes < 60 || minutes % 60)
        ndp_buf_addf(out, "%ld min", minutes % 60);
}

void ndp_rollout_words(struct ndp_buf *out, const struct ndp_rollout *r)
{
    ndp_buf_addf(out, "the rebuild of %zu pool%s ", r->pools,
                 r->pools == 1 ? "" : "s");
    if (!r->known) {
        ndp_buf_adds(out, "cannot be sized: a node count is unknown or "
                          "sensitive (--cluster-state gives the counts)");
        return;
    }
    ndp_buf_adds(out, "can take up to ");
    ndp_rollout_duration_words(out, r->minutes);
    ndp_buf_addf(out, " (%ld batch%s ", r->batches,
                 r->batches == 1 ? "" : "es");
    if (r->batch_min == r->batch_max) {
        ndp_buf_adds(out, "\xc3\x97 ");
        ndp_rollout_duration_words(out, r->batch_max);
    } else {
        ndp_buf_addf(out, "of %ld to %ld min", r->batch_min, r->batch_max);
    }
    ndp_buf_adds(out, r->pools > 1 ? ", the pools one after another: a "
                                     "worst case)"
                                   : ")");
}


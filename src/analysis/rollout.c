/*
 * SPDX-License-Identifier: Apache-2.0
 * rollout.c - the worst case of a rolling rebuild (see rollout.h): a pool
 * of N nodes under a surge of S takes ceil(N / S) batches, each up to its
 * drain timeout plus its node soak time; with maxSurge 0 and
 * maxUnavailable U, ceil(N / U) batches and no surge node; a Spot pool
 * one node at a time without drain; an azurerm rotation no batch, but the
 * whole pool again at the peak.  An unset maxSurge is AKS's default for
 * the pool's Kubernetes version.  The extra nodes at the peak, and the
 * addresses they take, add up within a phase of the apply (impact.h) and
 * not across phases: the peak is the larger phase.  Counts come from the
 * input, so every product and sum saturates instead of overflowing.
 */
#include "common.h"
#include "rollout.h"
#include "buf.h"
#include "impact.h"
#include "policy.h"

#include <ctype.h>
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

enum ndp_amount_form ndp_rollout_amount(const char *v, long *n)
{
    const char *s = v;

    *n = 0;
    if (!v)
        return NDP_AMOUNT_NONE;
    if (!isdigit((unsigned char)*s))
        return NDP_AMOUNT_BAD;
    for (; isdigit((unsigned char)*s); s++)
        *n = *n > (LONG_MAX - 9) / 10 ? LONG_MAX : *n * 10 + (*s - '0');
    if (*s == '%' && s[1] == '\0')
        return NDP_AMOUNT_PERCENT;
    if (*s == '\0')
        return NDP_AMOUNT_COUNT;
    *n = 0;
    return NDP_AMOUNT_BAD;
}

long ndp_rollout_surge_nodes(const char *amount, long nodes)
{
    long s = 1, v;
    enum ndp_amount_form form = ndp_rollout_amount(amount, &v);

    if (form == NDP_AMOUNT_PERCENT && v > 0 && nodes > 0)
        s = percent_of(nodes, v);
    else if (form == NDP_AMOUNT_COUNT && v > 0)
        s = v;
    if (nodes > 0 && s > nodes)
        s = nodes;
    return s;
}

/* A value that asks for no node at a time ("0", "0%"); NULL is none. */
static bool is_zero(const char *amount)
{
    long v;
    enum ndp_amount_form form = ndp_rollout_amount(amount, &v);

    return (form == NDP_AMOUNT_COUNT || form == NDP_AMOUNT_PERCENT) &&
           v == 0;
}

/*
 * The default of an unset maxSurge for a pool on 'version' (PT-UPG-02):
 * "10%" from Kubernetes 1.32, "1" below, "10%" assumed when unknown.
 */
static const char *default_surge(const char *version,
                                 enum ndp_surge_source *source)
{
    int minor = ndp_k8s_minor(version);

    if (minor < 0) {
        *source = NDP_SURGE_DEFAULT_ASSUMED;
        return "10%";
    }
    if (minor < NDP_ROLLOUT_DEFAULT_SURGE_MINOR) {
        *source = NDP_SURGE_DEFAULT_BEFORE;
        return "1";
    }
    *source = NDP_SURGE_DEFAULT;
    return "10%";
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

static enum ndp_rollout_kind pool_kind(const struct ndp_impact_pool *p)
{
    long v;

    if (p->rotated)
        return NDP_ROLLOUT_ROTATION;
    if (p->spot)
        return NDP_ROLLOUT_SPOT;
    /* Both above 0 (the preview fallback): surge nodes first. */
    if (is_zero(p->surge) &&
        ndp_rollout_amount(p->unavailable, &v) >= NDP_AMOUNT_COUNT && v > 0)
        return NDP_ROLLOUT_UNAVAILABLE;
    return NDP_ROLLOUT_SURGE;
}

void ndp_rollout_pool_plan(struct ndp_rollout_pool *out,
                           const struct ndp_impact_pool *p)
{
    long at_a_time = 1;

    memset(out, 0, sizeof(*out));
    out->kind = pool_kind(p);
    out->surge_source = NDP_SURGE_SENT;
    out->max_surge = p->surge ? p->surge
                              : default_surge(p->version, &out->surge_source);
    out->nodes = ndp_rollout_pool_nodes(p);
    out->drain_minutes = ndp_rollout_drain_minutes(p);
    out->soak_minutes = ndp_rollout_soak_minutes(p);
    switch (out->kind) {
    case NDP_ROLLOUT_SURGE:
        at_a_time = out->surge_nodes =
            ndp_rollout_surge_nodes(out->max_surge, out->nodes);
        break;
    case NDP_ROLLOUT_UNAVAILABLE:
        at_a_time = out->unavailable_nodes =
            ndp_rollout_surge_nodes(p->unavailable, out->nodes);
        break;
    case NDP_ROLLOUT_SPOT:
        out->drain_minutes = 0;
        break;
    case NDP_ROLLOUT_ROTATION:
        out->drain_minutes = out->soak_minutes = 0;
        out->extra_nodes = out->nodes;
        return;
    }
    /* A pool scaled to zero has nothing to rebuild: no batch, not unknown. */
    out->batches = out->nodes == 0 ? 0
                                   : ndp_rollout_batches(out->nodes,
                                                         at_a_time);
    out->extra_nodes = out->nodes < 0    ? -1
                       : out->nodes == 0 ? 0
                                         : out->surge_nodes;
}

/* The phases of 'bits' (impact.h), the cluster's when there are none. */
static unsigned phases_or_cluster(unsigned bits)
{
    return bits ? bits : NDP_PHASE_BIT(NDP_PHASE_CLUSTER);
}

/* The phases 'p' is counted in: those that rebuild it, or touch it. */
static unsigned pool_phases(const struct ndp_impact_pool *p, bool touched)
{
    return phases_or_cluster(touched ? p->touched_in : p->rebuilt_in);
}

/*
 * Sizes the rebuild of 'p' in 'phase': a rotation only in the phases
 * that rotate it (all of the pool's when none is noted), a surge or
 * unavailable rebuild in the others.
 */
static void plan_in_phase(struct ndp_rollout_pool *out,
                          const struct ndp_impact_pool *p,
                          enum ndp_impact_phase phase)
{
    struct ndp_impact_pool as_rolled = *p;
    unsigned rotating = p->rotated_in ? p->rotated_in
                                      : NDP_PHASE_BIT(phase);

    as_rolled.rotated = p->rotated && (rotating & NDP_PHASE_BIT(phase));
    ndp_rollout_pool_plan(out, &as_rolled);
}

/* The extra nodes of 'p' in each of its phases, added to 'out'. */
static void count_phases(struct ndp_rollout *out,
                         const struct ndp_impact_pool *p, bool touched)
{
    unsigned phases = pool_phases(p, touched);
    struct ndp_rollout_pool plan;
    int ph;

    for (ph = 0; ph < NDP_PHASES; ph++) {
        if (!(phases & NDP_PHASE_BIT(ph)))
            continue;
        plan_in_phase(&plan, p, (enum ndp_impact_phase)ph);
        out->phase_pools[ph]++;
        if (plan.extra_nodes < 0)
            out->known = false;
        else
            out->phase_extra[ph] = add_sat(out->phase_extra[ph],
                                           plan.extra_nodes);
    }
}

static void count_pool(struct ndp_rollout *out, const struct ndp_impact_pool *p,
                       bool touched)
{
    struct ndp_rollout_pool plan;
    long each;

    ndp_rollout_pool_plan(&plan, p);
    each = add_sat(plan.drain_minutes, plan.soak_minutes);
    out->pools++;
    out->rotated += plan.kind == NDP_ROLLOUT_ROTATION;
    count_phases(out, p, touched);
    if (p->sensitive || plan.batches < 0 || plan.extra_nodes < 0)
        out->known = false;
    if (!out->known)
        return;
    out->batches = add_sat(out->batches, plan.batches);
    out->minutes = add_sat(out->minutes, mul_sat(plan.batches, each));
    if (!plan.batches)
        return;
    if (!out->batch_max || each < out->batch_min)
        out->batch_min = each;
    if (each > out->batch_max)
        out->batch_max = each;
}

/* The peak: the phase that adds most, the first of two equal ones. */
static void choose_peak(struct ndp_rollout *out)
{
    int ph;

    out->peak = NDP_PHASE_CLUSTER;
    for (ph = 0; ph < NDP_PHASES; ph++)
        if (out->phase_pools[ph] &&
            (!out->phase_pools[out->peak] ||
             out->phase_extra[ph] > out->phase_extra[out->peak]))
            out->peak = (enum ndp_impact_phase)ph;
    out->extra_nodes = out->phase_extra[out->peak];
}

void ndp_rollout_size(struct ndp_rollout *out,
                        const struct ndp_impact *impact, bool touched)
{
    size_t i;
    int ph;

    memset(out, 0, sizeof(*out));
    out->known = true;
    for (i = 0; i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        if (touched ? p->touched : p->rebuilt)
            count_pool(out, p, touched);
    }
    choose_peak(out);
    if (!out->known || !out->pools) {
        out->batches = out->minutes = out->extra_nodes = -1;
        for (ph = 0; ph < NDP_PHASES; ph++)
            out->phase_extra[ph] = -1;
    }
    out->known = out->known && out->pools;
}

/* The addresses each node of 'p' takes: its own, and its pods' here. */
static long addresses_per_node(const struct ndp_impact_pool *p,
                               enum ndp_addressing addressing)
{
    if (p->pod_subnet || addressing == NDP_ADDRESSING_NODE_ONLY)
        return 1;
    return add_sat(1, p->max_pods > 0 ? p->max_pods
                                      : NDP_ROLLOUT_DEFAULT_MAX_PODS);
}

/*
 * What pool 'p' takes of its subnet: its nodes' addresses into '*base',
 * its extra nodes' into 'by_phase', each phase that rebuilds it; false
 * when a count is unknown or sensitive.
 */
static bool pool_addresses(long *base, long by_phase[NDP_PHASES],
                           unsigned *phases, const struct ndp_impact_pool *p,
                           enum ndp_addressing addressing)
{
    long per_node = addresses_per_node(p, addressing);
    long nodes = ndp_rollout_pool_nodes(p);
    struct ndp_rollout_pool plan;
    int ph;

    if (nodes < 0 || p->sensitive)
        return false;
    *base = add_sat(*base, mul_sat(nodes, per_node));
    for (ph = 0; p->rebuilt && ph < NDP_PHASES; ph++) {
        if (!(pool_phases(p, false) & NDP_PHASE_BIT(ph)))
            continue;
        plan_in_phase(&plan, p, (enum ndp_impact_phase)ph);
        if (plan.extra_nodes < 0)
            return false;
        by_phase[ph] = add_sat(by_phase[ph],
                               mul_sat(plan.extra_nodes, per_node));
        *phases |= NDP_PHASE_BIT(ph);
    }
    return true;
}

/* One subnet's need from its pools' addresses: the base, then the peak. */
static void subnet_peak(struct ndp_subnet_need *out, long base,
                        const long by_phase[NDP_PHASES])
{
    int ph;

    out->peak = NDP_PHASE_CLUSTER;
    for (ph = 0; ph < NDP_PHASES; ph++)
        if ((out->phases & NDP_PHASE_BIT(ph)) &&
            (!(out->phases & NDP_PHASE_BIT(out->peak)) ||
             by_phase[ph] > by_phase[out->peak]))
            out->peak = (enum ndp_impact_phase)ph;
    if (out->addresses >= 0)
        out->addresses = add_sat(base, by_phase[out->peak]);
}

void ndp_rollout_subnet_needs(struct ndp_subnet_need *out,
                              const struct ndp_impact *impact)
{
    size_t n = impact->nr_subnets ? impact->nr_subnets : 1;
    long *base = ndp_xcalloc(n, sizeof(*base));
    long (*by_phase)[NDP_PHASES] = ndp_xcalloc(n, sizeof(*by_phase));
    size_t i;

    memset(out, 0, impact->nr_subnets * sizeof(*out));
    for (i = 0; i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        size_t s = p->subnet;

        if (s >= impact->nr_subnets || p->deleted || out[s].addresses < 0)
            continue;
        if (!pool_addresses(&base[s], by_phase[s], &out[s].phases, p,
                            impact->addressing))
            out[s].addresses = -1;
    }
    for (i = 0; i < impact->nr_subnets; i++)
        subnet_peak(&out[i], base[i], by_phase[i]);
    free(base);
    free(by_phase);
}

void ndp_rollout_phase_words(struct ndp_buf *out,
                             enum ndp_impact_phase phase)
{
    ndp_buf_adds(out, phase == NDP_PHASE_POOLS
                          ? "while the node pool resources are updated, in "
                            "parallel, after the cluster"
                          : "in the cluster's own update");
}

long ndp_rollout_plan_extra_nodes(const struct ndp_impacts *impacts)
{
    struct ndp_rollout r;
    long total = 0;
    size_t i;

    for (i = 0; i < impacts->nr; i++) {
        if (!impacts->items[i].rebuilds)
            continue;
        ndp_rollout_size(&r, &impacts->items[i], false);
        /* No pool described, or a count unknown: not counted. */
        if (!r.known)
            return -1;
        total = add_sat(total, r.extra_nodes);
    }
    return total;
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

/* "; the 2 pools created anew by a rotation are not timed" */
static void rotated_words(struct ndp_buf *out, const struct ndp_rollout *r)
{
    if (!r->rotated)
        return;
    if (r->rotated == 1)
        ndp_buf_adds(out, "; the pool azurerm creates anew by a rotation "
                          "is not timed");
    else
        ndp_buf_addf(out, "; the %zu pools azurerm creates anew by a "
                          "rotation are not timed", r->rotated);
}

void ndp_rollout_words(struct ndp_buf *out, const struct ndp_rollout *r)
{
    if (r->known && r->rotated == r->pools) {
        ndp_buf_addf(out, "the rebuild of %zu pool%s is a rotation, which "
                     "creates %s anew beside the old one%s: not timed here",
                     r->pools, r->pools == 1 ? "" : "s",
                     r->pools == 1 ? "it" : "each",
                     r->pools == 1 ? "" : "s");
        return;
    }
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
    rotated_words(out, r);
}


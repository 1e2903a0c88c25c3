/*
 * SPDX-License-Identifier: Apache-2.0
 * test_rollout.c - the worst case of a rolling rebuild (src/rollout.c):
 * surge nodes from a count or a percentage (rounded up, bounded, garbage
 * read as the AKS default), batches without overflow, the nodes of an
 * autoscaled pool, the drain and soak defaults, ndp_rollout_size() over
 * impacts (rebuilt or touched pools, unknown and sensitive counts,
 * saturation), the peak of the phases of an apply (the cluster's own
 * update, then its pool resources together) for quota and subnets, and
 * the words the reports print, to the letter.
 */
#include "test_common.h"
#include "buf.h"
#include "change.h"
#include "impact.h"
#include "rollout.h"

#include <limits.h>

/* ---- surge nodes --------------------------------------------------------- */

static const struct surge_row {
    const char *name;
    const char *surge;
    long nodes, want;
} surge_rows[] = {
    { "surge: none is 1 (the caller applies the AKS default)", NULL, 10,
      1 },
    { "surge: \"\" is 1", "", 10, 1 },
    { "surge: a count", "3", 10, 3 },
    { "surge: a count above the pool is the pool", "50", 5, 5 },
    { "surge: a count of an unknown pool is kept", "5", -1, 5 },
    { "surge: a count of an empty pool is kept", "5", 0, 5 },
    { "surge: 33% of 10 rounds up to 4", "33%", 10, 4 },
    { "surge: 33% of 3 rounds up to 1", "33%", 3, 1 },
    { "surge: 1% of 100 is 1", "1%", 100, 1 },
    { "surge: 1% of 101 rounds up to 2", "1%", 101, 2 },
    { "surge: 10% of 1 rounds up to 1", "10%", 1, 1 },
    { "surge: 99% of 101 rounds up to 100", "99%", 101, 100 },
    { "surge: 50% of 5 rounds up to 3", "50%", 5, 3 },
    { "surge: 100% is every node", "100%", 7, 7 },
    { "surge: over 100% is every node", "150%", 4, 4 },
    { "surge: a percentage of an unknown pool is 1", "33%", -1, 1 },
    { "surge: a percentage of an empty pool is 1", "50%", 0, 1 },
    { "surge: 0 is at least 1", "0", 5, 1 },
    { "surge: 0% is at least 1", "0%", 5, 1 },
    { "surge: negative is 1", "-2", 5, 1 },
    { "surge: a negative percentage is 1", "-10%", 5, 1 },
    { "surge: not a number is 1", "x", 5, 1 },
    { "surge: trailing garbage is 1", "3x", 5, 1 },
    { "surge: a trailing blank is 1", "3 ", 5, 1 },
    { "surge: a bare % is 1", "%", 5, 1 },
    /* Counts and percentages near 2^63 clamp instead of overflowing. */
    { "surge: 50% of LONG_MAX", "50%", LONG_MAX, LONG_MAX / 2 + 1 },
    { "surge: 1% of LONG_MAX", "1%", LONG_MAX, 92233720368547759L },
    { "surge: 99% of LONG_MAX", "99%", LONG_MAX, 9131138316486228049L },
    { "surge: a huge percentage of 10", "9223372036854775807%", 10, 10 },
    { "surge: a huge percentage of LONG_MAX", "9223372036854775807%",
      LONG_MAX, LONG_MAX },
    { "surge: a percentage past LONG_MAX", "99999999999999999999%",
      LONG_MAX, LONG_MAX },
    { "surge: a count past LONG_MAX of a huge pool",
      "99999999999999999999", LONG_MAX, LONG_MAX },
    { "surge: a count past LONG_MAX of a small pool",
      "99999999999999999999", 3, 3 },
    { "surge: a count past LONG_MAX of an unknown pool",
      "99999999999999999999", -1, LONG_MAX },
    { "surge: a count below LONG_MIN is 1", "-99999999999999999999", 5, 1 },
};

static void surge_test(void **state)
{
    const struct surge_row *row = *state;

    assert_int_equal(ndp_rollout_surge_nodes(row->surge, row->nodes),
                     row->want);
}

/* ---- batches, nodes, drain and soak -------------------------------------- */

static void batches__round_up_without_overflow(void **state)
{
    static const struct {
        long nodes, surge, want;
    } rows[] = {
        { 10, 3, 4 }, { 9, 3, 3 }, { 1, 1, 1 }, { 3, 5, 1 },
        { 0, 1, -1 }, { -1, 1, -1 }, { 5, 0, -1 }, { 5, -1, -1 },
        { LONG_MAX, 1, LONG_MAX }, { LONG_MAX, 2, LONG_MAX / 2 + 1 },
        { LONG_MAX, LONG_MAX, 1 }, { LONG_MAX - 1, LONG_MAX, 1 },
        { LONG_MAX, 5, 1844674407370955162L },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++)
        if (ndp_rollout_batches(rows[i].nodes, rows[i].surge) != rows[i].want)
            fail_msg("%ld nodes, surge %ld: %ld batches, want %ld",
                     rows[i].nodes, rows[i].surge,
                     ndp_rollout_batches(rows[i].nodes, rows[i].surge),
                     rows[i].want);
}

/* An autoscaled pool is rebuilt at the autoscaler's maximum, at worst. */
static void pool_nodes__autoscaler_maximum_at_worst(void **state)
{
    static const struct {
        long nodes, max;
        bool autoscale;
        long want;
    } rows[] = {
        { 3, -1, false, 3 },   { 3, 10, false, 3 }, { 3, 10, true, 10 },
        { 12, 10, true, 12 },  /* a count above the maximum */
        { -1, 10, true, 10 },  { 3, -1, true, 3 },  { 3, 0, true, 3 },
        { -1, -1, true, -1 },  { -1, -1, false, -1 }, { 0, 5, true, 5 },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct ndp_impact_pool p = { .nodes = rows[i].nodes,
                                     .max_nodes = rows[i].max,
                                     .autoscale = rows[i].autoscale };
        if (ndp_rollout_pool_nodes(&p) != rows[i].want)
            fail_msg("%ld nodes, max %ld%s: %ld, want %ld", rows[i].nodes,
                     rows[i].max, rows[i].autoscale ? ", autoscaled" : "",
                     ndp_rollout_pool_nodes(&p), rows[i].want);
    }
}

/*
 * The AKS defaults where nothing is declared (-1); azurerm writes an
 * unset drain timeout as 0, which AKS would refuse, so 0 is the default
 * too; a soak of 0 is no soak.
 */
static void drain_and_soak__defaults(void **state)
{
    static const struct {
        long declared, drain, soak;
    } rows[] = {
        { -1, NDP_ROLLOUT_DEFAULT_DRAIN_MINUTES,
          NDP_ROLLOUT_DEFAULT_SOAK_MINUTES },
        { 0, NDP_ROLLOUT_DEFAULT_DRAIN_MINUTES, 0 },
        { 1, 1, 1 }, { 45, 45, 45 }, { 1440, 1440, 1440 },
    };
    size_t i;

    (void)state;
    assert_int_equal(NDP_ROLLOUT_DEFAULT_DRAIN_MINUTES, 30);
    assert_int_equal(NDP_ROLLOUT_DEFAULT_SOAK_MINUTES, 0);
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct ndp_impact_pool p = { .drain_minutes = rows[i].declared,
                                     .soak_minutes = rows[i].declared };
        assert_int_equal(ndp_rollout_drain_minutes(&p), rows[i].drain);
        assert_int_equal(ndp_rollout_soak_minutes(&p), rows[i].soak);
    }
}

/* ---- ndp_rollout_size() and its words ------------------------------------ */

struct pool_spec {
    long nodes, max;
    bool autoscale;
    const char *surge;
    long drain, soak;
    bool sensitive, rebuilt, touched;
};

/* What ndp_rollout_size() gives; batch_min and batch_max only if known. */
struct sizes {
    size_t pools;
    bool known;
    long batches, minutes, batch_min, batch_max;
};

#define POOLS_MAX 3

struct size_row {
    const char *name;
    struct pool_spec pools[POOLS_MAX];
    size_t nr;
    struct sizes rebuilt, touched;
    const char *words; /* of the rebuilt pools, or NULL */
};

/* A pool the findings rebuild (and so touch); one only touched. */
#define REBUILT(n, surge, drain, soak) \
    { n, -1, false, surge, drain, soak, false, true, true }
#define TOUCHED(n, surge, drain, soak) \
    { n, -1, false, surge, drain, soak, false, false, true }
#define UNSIZED { 0, false, -1, -1, 0, 0 }
#define X "\xc3\x97"
#define WORST ", the pools one after another: a worst case)"

static const struct size_row size_rows[] = {
    { "size: no pools", { { 0 } }, 0, UNSIZED, UNSIZED, NULL },
    { "size: one node, one batch",
      { REBUILT(1, "1", 30, 0) }, 1,
      { 1, true, 1, 30, 30, 30 }, { 1, true, 1, 30, 30, 30 },
      "the rebuild of 1 pool can take up to 30 min (1 batch " X " 30 min)" },
    { "size: 10 nodes, surge 1",
      { REBUILT(10, "1", 30, 0) }, 1,
      { 1, true, 10, 300, 30, 30 }, { 1, true, 10, 300, 30, 30 },
      "the rebuild of 1 pool can take up to 5 h (10 batches " X " 30 min)" },
    { "size: nothing declared, the AKS defaults",
      { REBUILT(4, NULL, -1, -1) }, 1,
      { 1, true, 4, 120, 30, 30 }, { 1, true, 4, 120, 30, 30 },
      "the rebuild of 1 pool can take up to 2 h (4 batches " X " 30 min)" },
    { "size: azurerm's drain of 0 is the default",
      { REBUILT(3, "1", 0, 0) }, 1,
      { 1, true, 3, 90, 30, 30 }, { 1, true, 3, 90, 30, 30 },
      "the rebuild of 1 pool can take up to 1 h 30 min (3 batches " X
      " 30 min)" },
    { "size: drain and soak make a batch",
      { REBUILT(2, "1", 60, 15) }, 1,
      { 1, true, 2, 150, 75, 75 }, { 1, true, 2, 150, 75, 75 },
      "the rebuild of 1 pool can take up to 2 h 30 min (2 batches " X
      " 1 h 15 min)" },
    { "size: a percentage surge rounds up",
      { REBUILT(10, "33%", 20, 10) }, 1,
      { 1, true, 3, 90, 30, 30 }, { 1, true, 3, 90, 30, 30 }, NULL },
    { "size: an autoscaled pool at its maximum",
      { { 2, 10, true, "3", -1, -1, false, true, true } }, 1,
      { 1, true, 4, 120, 30, 30 }, { 1, true, 4, 120, 30, 30 },
      "the rebuild of 1 pool can take up to 2 h (4 batches " X " 30 min)" },
    { "size: two pools of different batches, one after another",
      { REBUILT(6, "2", 50, 10), REBUILT(4, "50%", 15, 5) }, 2,
      { 2, true, 5, 220, 20, 60 }, { 2, true, 5, 220, 20, 60 },
      "the rebuild of 2 pools can take up to 3 h 40 min (5 batches of 20 "
      "to 60 min" WORST },
    { "size: two pools of the same batches",
      { REBUILT(2, "1", 30, 0), REBUILT(3, "1", 30, 0) }, 2,
      { 2, true, 5, 150, 30, 30 }, { 2, true, 5, 150, 30, 30 },
      "the rebuild of 2 pools can take up to 2 h 30 min (5 batches " X
      " 30 min" WORST },
    { "size: a refused change's pool is only touched",
      { TOUCHED(4, "1", 30, 0) }, 1,
      UNSIZED, { 1, true, 4, 120, 30, 30 }, NULL },
    { "size: rebuilt and touched pools",
      { REBUILT(2, "1", 30, 0), TOUCHED(3, "1", 10, 0) }, 2,
      { 1, true, 2, 60, 30, 30 }, { 2, true, 5, 90, 10, 30 },
      "the rebuild of 1 pool can take up to 1 h (2 batches " X " 30 min)" },
    { "size: a pool neither rebuilt nor touched is not counted",
      { { 5, -1, false, "1", 30, 0, false, false, false },
        REBUILT(1, "1", 30, 0) }, 2,
      { 1, true, 1, 30, 30, 30 }, { 1, true, 1, 30, 30, 30 }, NULL },
    { "size: an unknown count, not sized",
      { REBUILT(2, "1", 30, 0), REBUILT(-1, "1", 30, 0) }, 2,
      { 2, false, -1, -1, 0, 0 }, { 2, false, -1, -1, 0, 0 },
      "the rebuild of 2 pools cannot be sized: a node count is unknown or "
      "sensitive (--cluster-state gives the counts)" },
    { "size: a sensitive count, not sized",
      { { 3, -1, false, "1", 30, 0, true, true, true } }, 1,
      { 1, false, -1, -1, 0, 0 }, { 1, false, -1, -1, 0, 0 },
      "the rebuild of 1 pool cannot be sized: a node count is unknown or "
      "sensitive (--cluster-state gives the counts)" },
    { "size: a sensitive pool only touched leaves the rebuild sized",
      { { 3, -1, false, "1", 30, 0, true, false, true },
        REBUILT(2, "1", 30, 0) }, 2,
      { 1, true, 2, 60, 30, 30 }, { 2, false, -1, -1, 0, 0 }, NULL },
    { "size: a pool scaled to zero has no batch",
      { REBUILT(0, "1", 45, 0), REBUILT(2, "1", 30, 0) }, 2,
      { 2, true, 2, 60, 30, 30 }, { 2, true, 2, 60, 30, 30 },
      "the rebuild of 2 pools can take up to 1 h (2 batches " X " 30 min"
      WORST },
    { "size: huge counts saturate",
      { REBUILT(LONG_MAX, "1", 30, 0), REBUILT(LONG_MAX, "1", 30, 0) }, 2,
      { 2, true, LONG_MAX, LONG_MAX, 30, 30 },
      { 2, true, LONG_MAX, LONG_MAX, 30, 30 },
      "the rebuild of 2 pools can take up to 153722867280912930 h 7 min "
      "(9223372036854775807 batches " X " 30 min" WORST },
    { "size: a huge drain saturates",
      { REBUILT(2, "1", LONG_MAX, 5) }, 1,
      { 1, true, 2, LONG_MAX, LONG_MAX, LONG_MAX },
      { 1, true, 2, LONG_MAX, LONG_MAX, LONG_MAX }, NULL },
};

static void check_sizes(const char *name, bool touched,
                        const struct ndp_rollout *got,
                        const struct sizes *want)
{
    if (got->pools != want->pools || got->known != want->known ||
        got->batches != want->batches || got->minutes != want->minutes ||
        (want->known && (got->batch_min != want->batch_min ||
                         got->batch_max != want->batch_max)))
        fail_msg("%s (%s): %zu pools, known %d, %ld batches, %ld min, "
                 "batches of %ld to %ld min", name,
                 touched ? "touched" : "rebuilt", got->pools, got->known,
                 got->batches, got->minutes, got->batch_min,
                 got->batch_max);
}

static void size_test(void **state)
{
    const struct size_row *row = *state;
    struct ndp_impact_pool pools[POOLS_MAX];
    struct ndp_impact impact = { .pools = pools, .nr_pools = row->nr };
    struct ndp_rollout ro;
    size_t i;

    memset(pools, 0, sizeof(pools));
    for (i = 0; i < row->nr; i++) {
        const struct pool_spec *s = &row->pools[i];
        pools[i].nodes = s->nodes;
        pools[i].min_nodes = -1;
        pools[i].max_nodes = s->max;
        pools[i].autoscale = s->autoscale;
        pools[i].surge = s->surge;
        pools[i].drain_minutes = s->drain;
        pools[i].soak_minutes = s->soak;
        pools[i].sensitive = s->sensitive;
        pools[i].rebuilt = s->rebuilt;
        pools[i].touched = s->touched;
    }
    ndp_rollout_size(&ro, &impact, true);
    check_sizes(row->name, true, &ro, &row->touched);
    ndp_rollout_size(&ro, &impact, false);
    check_sizes(row->name, false, &ro, &row->rebuilt);
    if (row->words) {
        struct ndp_buf b = NDP_BUF_INIT;
        ndp_rollout_words(&b, &ro);
        if (strcmp(b.buf, row->words) != 0)
            fail_msg("words\n  got  '%s'\n  want '%s'", b.buf, row->words);
        ndp_buf_release(&b);
    }
}

/* ---- one pool as AKS rolls it -------------------------------------------- */

static const struct plan_row {
    const char *name;
    struct ndp_impact_pool pool;  /* nodes, surge, unavailable, version... */
    enum ndp_rollout_kind kind;
    enum ndp_surge_source source;
    const char *max_surge;
    long surge_nodes, unavailable_nodes, batches, extra, drain, soak;
} plan_rows[] = {
    { "plan: a sent surge",
      { .nodes = 10, .max_nodes = -1, .surge = "3", .drain_minutes = 45,
        .soak_minutes = 5 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_SENT, "3", 3, 0, 4, 3, 45, 5 },
    { "plan: unset on 1.32 is 10%, rounded up",
      { .nodes = 25, .max_nodes = -1, .version = "1.32.0",
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_DEFAULT, "10%", 3, 0, 9, 3, 30, 0 },
    { "plan: unset on 1.32 is at least 1 node",
      { .nodes = 3, .max_nodes = -1, .version = "1.32",
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_DEFAULT, "10%", 1, 0, 3, 1, 30, 0 },
    { "plan: unset below 1.32 is 1 node",
      { .nodes = 25, .max_nodes = -1, .version = "1.31.9",
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_DEFAULT_BEFORE, "1", 1, 0, 25, 1, 30, 0 },
    { "plan: unset on an unknown version, 10% assumed",
      { .nodes = 25, .max_nodes = -1, .drain_minutes = -1,
        .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_DEFAULT_ASSUMED, "10%", 3, 0, 9, 3, 30,
      0 },
    { "plan: a version that is no version, 10% assumed",
      { .nodes = 25, .max_nodes = -1, .version = "latest",
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_DEFAULT_ASSUMED, "10%", 3, 0, 9, 3, 30,
      0 },
    { "plan: maxSurge 0 and maxUnavailable 2: two down at a time",
      { .nodes = 7, .max_nodes = -1, .surge = "0", .unavailable = "2",
        .drain_minutes = 10, .soak_minutes = 0 },
      NDP_ROLLOUT_UNAVAILABLE, NDP_SURGE_SENT, "0", 0, 2, 4, 0, 10, 0 },
    { "plan: maxSurge 0% and maxUnavailable 50%",
      { .nodes = 5, .max_nodes = -1, .surge = "0%", .unavailable = "50%",
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_UNAVAILABLE, NDP_SURGE_SENT, "0%", 0, 3, 2, 0, 30, 0 },
    { "plan: maxUnavailable above the pool is the pool",
      { .nodes = 3, .max_nodes = -1, .surge = "0", .unavailable = "9",
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_UNAVAILABLE, NDP_SURGE_SENT, "0", 0, 3, 1, 0, 30, 0 },
    { "plan: both above 0: surge first",
      { .nodes = 6, .max_nodes = -1, .surge = "2", .unavailable = "1",
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_SENT, "2", 2, 0, 3, 2, 30, 0 },
    { "plan: unset surge beside maxUnavailable: the default surge",
      { .nodes = 6, .max_nodes = -1, .unavailable = "2", .version = "1.33",
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_DEFAULT, "10%", 1, 0, 6, 1, 30, 0 },
    { "plan: both 0 (refused) still sized one at a time",
      { .nodes = 4, .max_nodes = -1, .surge = "0", .unavailable = "0",
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_SENT, "0", 1, 0, 4, 1, 30, 0 },
    { "plan: a Spot pool: no surge, no drain, one at a time",
      { .nodes = 4, .max_nodes = -1, .surge = "2", .spot = true,
        .drain_minutes = 60, .soak_minutes = 2 },
      NDP_ROLLOUT_SPOT, NDP_SURGE_SENT, "2", 0, 0, 4, 0, 0, 2 },
    { "plan: a rotation: the whole pool again, no batch",
      { .nodes = 5, .max_nodes = -1, .surge = "33%", .rotated = true,
        .spot = true, .drain_minutes = 60, .soak_minutes = 2 },
      NDP_ROLLOUT_ROTATION, NDP_SURGE_SENT, "33%", 0, 0, 0, 5, 0, 0 },
    { "plan: a rotation of an autoscaled pool at its maximum",
      { .nodes = 2, .max_nodes = 8, .autoscale = true, .rotated = true,
        .drain_minutes = -1, .soak_minutes = -1 },
      NDP_ROLLOUT_ROTATION, NDP_SURGE_DEFAULT_ASSUMED, "10%", 0, 0, 0, 8, 0,
      0 },
    { "plan: an unknown count",
      { .nodes = -1, .max_nodes = -1, .surge = "33%", .drain_minutes = -1,
        .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_SENT, "33%", 1, 0, -1, -1, 30, 0 },
    { "plan: a pool scaled to zero",
      { .nodes = 0, .max_nodes = -1, .surge = "1", .drain_minutes = -1,
        .soak_minutes = -1 },
      NDP_ROLLOUT_SURGE, NDP_SURGE_SENT, "1", 1, 0, 0, 0, 30, 0 },
};

static void plan_test(void **state)
{
    const struct plan_row *row = *state;
    struct ndp_rollout_pool got;

    ndp_rollout_pool_plan(&got, &row->pool);
    if (got.kind != row->kind || got.surge_source != row->source ||
        strcmp(got.max_surge, row->max_surge) != 0 ||
        got.surge_nodes != row->surge_nodes ||
        got.unavailable_nodes != row->unavailable_nodes ||
        got.batches != row->batches || got.extra_nodes != row->extra ||
        got.drain_minutes != row->drain || got.soak_minutes != row->soak)
        fail_msg("%s: kind %d source %d surge '%s' surge %ld unavailable "
                 "%ld batches %ld extra %ld drain %ld soak %ld", row->name,
                 got.kind, got.surge_source, got.max_surge, got.surge_nodes,
                 got.unavailable_nodes, got.batches, got.extra_nodes,
                 got.drain_minutes, got.soak_minutes);
}

/* The amounts a check and the sizing read alike. */
static void amount__counts_percentages_and_neither(void **state)
{
    static const struct {
        const char *v;
        enum ndp_amount_form form;
        long n;
    } rows[] = {
        { NULL, NDP_AMOUNT_NONE, 0 },    { "", NDP_AMOUNT_BAD, 0 },
        { "0", NDP_AMOUNT_COUNT, 0 },    { "007", NDP_AMOUNT_COUNT, 7 },
        { "33%", NDP_AMOUNT_PERCENT, 33 }, { "0%", NDP_AMOUNT_PERCENT, 0 },
        { "%", NDP_AMOUNT_BAD, 0 },      { "5 %", NDP_AMOUNT_BAD, 0 },
        { " 5", NDP_AMOUNT_BAD, 0 },     { "+5", NDP_AMOUNT_BAD, 0 },
        { "-1", NDP_AMOUNT_BAD, 0 },     { "1.5", NDP_AMOUNT_BAD, 0 },
        { "5%%", NDP_AMOUNT_BAD, 0 },    { "abc", NDP_AMOUNT_BAD, 0 },
        { "99999999999999999999", NDP_AMOUNT_COUNT, LONG_MAX },
        { "99999999999999999999%", NDP_AMOUNT_PERCENT, LONG_MAX },
    };
    size_t i;
    long n;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++)
        if (ndp_rollout_amount(rows[i].v, &n) != rows[i].form ||
            n != rows[i].n)
            fail_msg("'%s': form %d, %ld", rows[i].v ? rows[i].v : "NULL",
                     ndp_rollout_amount(rows[i].v, &n), n);
}

/*
 * The extra nodes of the whole apply: each cluster's rebuilt pools at
 * once, summed; unknown when one count is; a rotation and the words.
 */
static void plan_extra__summed_over_clusters(void **state)
{
    struct ndp_impact_pool a[2], b[1];
    struct ndp_impact items[3];
    struct ndp_impacts impacts = { items, 3 };
    struct ndp_rollout ro;
    struct ndp_buf words = NDP_BUF_INIT;

    (void)state;
    memset(a, 0, sizeof(a));
    memset(b, 0, sizeof(b));
    memset(items, 0, sizeof(items));
    a[0] = (struct ndp_impact_pool){ .nodes = 10, .max_nodes = -1,
                                     .surge = "33%", .drain_minutes = -1,
                                     .soak_minutes = -1, .rebuilt = true };
    a[1] = (struct ndp_impact_pool){ .nodes = 3, .max_nodes = -1,
                                     .rotated = true, .drain_minutes = -1,
                                     .soak_minutes = -1, .rebuilt = true };
    b[0] = (struct ndp_impact_pool){ .nodes = 6, .max_nodes = -1,
                                     .surge = "0", .unavailable = "1",
                                     .drain_minutes = -1, .soak_minutes = -1,
                                     .rebuilt = true };
    items[0] = (struct ndp_impact){ .rebuilds = true, .pools = a,
                                    .nr_pools = 2 };
    items[1] = (struct ndp_impact){ .rebuilds = true, .pools = b,
                                    .nr_pools = 1 };
    /* items[2] rebuilds nothing */
    assert_int_equal(ndp_rollout_plan_extra_nodes(&impacts), 4 + 3 + 0);
    ndp_rollout_size(&ro, &items[0], false);
    assert_int_equal(ro.pools, 2);
    assert_int_equal(ro.rotated, 1);
    assert_int_equal(ro.batches, 3);
    assert_int_equal(ro.minutes, 90);
    ndp_rollout_words(&words, &ro);
    assert_string_equal(words.buf, "the rebuild of 2 pools can take up to "
                        "1 h 30 min (3 batches " X " 30 min, the pools one "
                        "after another: a worst case); the pool azurerm "
                        "creates anew by a rotation is not timed");
    ndp_buf_reset(&words);
    items[0].nr_pools = 1;
    items[0].pools = &a[1];
    ndp_rollout_size(&ro, &items[0], false);
    ndp_rollout_words(&words, &ro);
    assert_string_equal(words.buf, "the rebuild of 1 pool is a rotation, "
                        "which creates it anew beside the old one: not "
                        "timed here");
    b[0].nodes = -1;
    assert_int_equal(ndp_rollout_plan_extra_nodes(&impacts), -1);
    b[0].nodes = 6;
    b[0].sensitive = true;
    assert_int_equal(ndp_rollout_plan_extra_nodes(&impacts), -1);
    items[1].nr_pools = 0; /* rebuilds, but no pool is described */
    assert_int_equal(ndp_rollout_plan_extra_nodes(&impacts), -1);
    items[0].rebuilds = items[1].rebuilds = false;
    assert_int_equal(ndp_rollout_plan_extra_nodes(&impacts), 0);
    ndp_buf_release(&words);
}

/*
 * The addresses the pools of each subnet take at the peak under flat
 * Azure CNI: (nodes + extra) x (1 + maxPods), maxPods 30 by default, the
 * nodes alone for a pool with a pod subnet; only rebuilt pools add their
 * surge; a deleted pool takes none; an unknown or sensitive count makes
 * the subnet's figure unknown.
 */
static void subnet_needs__nodes_surge_and_pods(void **state)
{
    struct ndp_subnet nets[3];
    const struct ndp_subnet *subnets[3] = { &nets[0], &nets[1], &nets[2] };
    struct ndp_impact_pool pools[6];
    struct ndp_impact impact = { .rebuilds = true, .pools = pools,
                                 .nr_pools = 6, .addressing = NDP_ADDRESSING_NODE_AND_PODS,
                                 .subnets = subnets, .nr_subnets = 3 };
    struct ndp_subnet_need need[3];
    size_t i;

    (void)state;
    memset(nets, 0, sizeof(nets));
    memset(pools, 0, sizeof(pools));
    for (i = 0; i < 6; i++) {
        pools[i].max_nodes = -1;
        pools[i].drain_minutes = pools[i].soak_minutes = -1;
        pools[i].max_pods = -1;
    }
    /* subnet 0: 3 nodes + 1 surge at 110 pods; 2 nodes not rebuilt at 30 */
    pools[0] = (struct ndp_impact_pool){ .nodes = 3, .max_nodes = -1,
        .surge = "1", .max_pods = 110, .rebuilt = true, .subnet = 0 };
    pools[1] = (struct ndp_impact_pool){ .nodes = 2, .max_nodes = -1,
        .surge = "1", .max_pods = -1, .subnet = 0 };
    /* subnet 1: pods elsewhere, a rotation doubles, a deleted pool none */
    pools[2] = (struct ndp_impact_pool){ .nodes = 4, .max_nodes = -1,
        .surge = "50%", .pod_subnet = true, .max_pods = 250,
        .rebuilt = true, .subnet = 1 };
    pools[3] = (struct ndp_impact_pool){ .nodes = 5, .max_nodes = -1,
        .rotated = true, .max_pods = 10, .rebuilt = true, .subnet = 1 };
    pools[4] = (struct ndp_impact_pool){ .nodes = 9, .max_nodes = -1,
        .deleted = true, .max_pods = 10, .subnet = 1 };
    /* subnet 2: an unknown count */
    pools[5] = (struct ndp_impact_pool){ .nodes = -1, .max_nodes = -1,
        .surge = "1", .rebuilt = true, .subnet = 2 };
    ndp_rollout_subnet_needs(need, &impact);
    assert_int_equal(need[0].addresses, 4 * 111 + 2 * 31);
    assert_int_equal(need[1].addresses, (4 + 2) * 1 + (5 + 5) * 11);
    assert_int_equal(need[2].addresses, -1);
    pools[1].sensitive = true;
    ndp_rollout_subnet_needs(need, &impact);
    assert_int_equal(need[0].addresses, -1);
    pools[1].subnet = SIZE_MAX; /* in no subnet of the input */
    pools[1].sensitive = false;
    ndp_rollout_subnet_needs(need, &impact);
    assert_int_equal(need[0].addresses, 4 * 111);
}

/* ---- the phases of the apply (put-time-limits PT-CAP-01/02, PT-K8S-06) -- */

#define CL NDP_PHASE_BIT(NDP_PHASE_CLUSTER)
#define PR NDP_PHASE_BIT(NDP_PHASE_POOLS)

/* A pool the findings rebuild in 'in' (phase bits), by surge or rotation. */
struct phased_pool {
    long nodes;
    const char *surge;
    unsigned in, rotated_in;
    bool rotated;
};

#define PHASED_MAX 3

static const struct peak_row {
    const char *name;
    struct phased_pool pools[PHASED_MAX];
    size_t nr;
    long extra, cluster_extra, pools_extra;
    enum ndp_impact_phase peak;
} peak_rows[] = {
    { "peak: the cluster's own update alone adds its pools up",
      { { 10, "2", CL, 0, false }, { 6, "3", CL, 0, false } }, 2,
      5, 5, 0, NDP_PHASE_CLUSTER },
    { "peak: pool resources alone run together and add up",
      { { 10, "2", PR, 0, false }, { 6, "3", PR, 0, false } }, 2,
      5, 0, 5, NDP_PHASE_POOLS },
    { "peak: two phases are the larger, not the sum (pools larger)",
      { { 3, "1", CL, 0, false }, { 10, "2", PR, 0, false },
        { 6, "3", PR, 0, false } }, 3,
      5, 1, 5, NDP_PHASE_POOLS },
    { "peak: two phases are the larger, not the sum (cluster larger)",
      { { 20, "4", CL, 0, false }, { 10, "1", PR, 0, false },
        { 6, "1", PR, 0, false } }, 3,
      4, 4, 2, NDP_PHASE_CLUSTER },
    { "peak: two equal phases name the cluster's",
      { { 3, "2", CL, 0, false }, { 3, "2", PR, 0, false } }, 2,
      2, 2, 2, NDP_PHASE_CLUSTER },
    { "peak: a pool rebuilt in both phases counts in both",
      { { 3, "1", CL, 0, false }, { 8, "2", CL | PR, 0, false } }, 2,
      3, 3, 2, NDP_PHASE_CLUSTER },
    { "peak: no phase noted is the cluster's",
      { { 4, "2", 0, 0, false }, { 4, "1", 0, 0, false } }, 2,
      3, 3, 0, NDP_PHASE_CLUSTER },
    { "peak: a rotation is 2 x N in its own phase only",
      { { 25, "10%", CL, 0, false }, { 5, "1", CL | PR, PR, true } }, 2,
      5, 3 + 1, 5, NDP_PHASE_POOLS },
    { "peak: a default pool rotation in the cluster's phase",
      { { 6, "1", CL, CL, true }, { 4, "2", PR, 0, false } }, 2,
      6, 6, 2, NDP_PHASE_CLUSTER },
    { "peak: a rotation noted in no phase rotates in every one",
      { { 5, "1", CL | PR, 0, true } }, 1, 5, 5, 5, NDP_PHASE_CLUSTER },
};

static void phased_pools(struct ndp_impact_pool *pools,
                         const struct phased_pool *spec, size_t nr,
                         bool touched)
{
    size_t i;

    memset(pools, 0, nr * sizeof(*pools));
    for (i = 0; i < nr; i++) {
        pools[i].nodes = spec[i].nodes;
        pools[i].min_nodes = pools[i].max_nodes = -1;
        pools[i].surge = spec[i].surge;
        pools[i].drain_minutes = pools[i].soak_minutes = -1;
        pools[i].max_pods = -1;
        pools[i].subnet = 0;
        pools[i].rotated = spec[i].rotated;
        pools[i].rotated_in = spec[i].rotated_in;
        pools[i].touched = true;
        pools[i].touched_in = spec[i].in;
        pools[i].rebuilt = !touched;
        pools[i].rebuilt_in = touched ? 0 : spec[i].in;
    }
}

/*
 * The extra nodes at the peak are the larger phase's, each phase the sum
 * of its pools; the same for the pools a refused change only touches.
 */
static void peak_test(void **state)
{
    const struct peak_row *row = *state;
    struct ndp_impact_pool pools[PHASED_MAX];
    struct ndp_impact impact = { .rebuilds = true, .pools = pools,
                                 .nr_pools = row->nr };
    struct ndp_rollout ro;
    int touched;

    for (touched = 0; touched < 2; touched++) {
        phased_pools(pools, row->pools, row->nr, touched);
        ndp_rollout_size(&ro, &impact, touched);
        if (!ro.known || ro.extra_nodes != row->extra ||
            ro.phase_extra[NDP_PHASE_CLUSTER] != row->cluster_extra ||
            ro.phase_extra[NDP_PHASE_POOLS] != row->pools_extra ||
            ro.peak != row->peak)
            fail_msg("%s (%s): extra %ld (cluster %ld, pools %ld), peak %d",
                     row->name, touched ? "touched" : "rebuilt",
                     ro.extra_nodes, ro.phase_extra[NDP_PHASE_CLUSTER],
                     ro.phase_extra[NDP_PHASE_POOLS], ro.peak);
    }
}

/*
 * The plan-wide figure adds each cluster's peak, not each cluster's sum
 * of pools; an unknown count in either phase leaves it unknown.
 */
static void plan_extra__each_cluster_at_its_peak(void **state)
{
    static const struct phased_pool a[] = {
        { 3, "1", CL, 0, false }, { 10, "2", PR, 0, false },
        { 6, "3", PR, 0, false },
    };
    static const struct phased_pool b[] = { { 5, "1", CL | PR, PR, true } };
    struct ndp_impact_pool pa[3], pb[1];
    struct ndp_impact items[2];
    struct ndp_impacts impacts = { items, 2 };

    (void)state;
    phased_pools(pa, a, 3, false);
    phased_pools(pb, b, 1, false);
    memset(items, 0, sizeof(items));
    items[0] = (struct ndp_impact){ .rebuilds = true, .pools = pa,
                                    .nr_pools = 3 };
    items[1] = (struct ndp_impact){ .rebuilds = true, .pools = pb,
                                    .nr_pools = 1 };
    /* 5 (pool resources; the cluster's 1 comes before) + 5 (rotation) */
    assert_int_equal(ndp_rollout_plan_extra_nodes(&impacts), 5 + 5);
    pa[0].nodes = -1; /* unknown in the phase that is not the peak */
    assert_int_equal(ndp_rollout_plan_extra_nodes(&impacts), -1);
}

/*
 * Per subnet: every pool's nodes, plus the extra nodes of the phase that
 * adds most to it, not of both; the phase is said; a subnet none of whose
 * pools is rebuilt has no phase.
 */
static void subnet_needs__peak_phase_not_the_sum(void **state)
{
    static const struct phased_pool spec[] = {
        { 3, "1", CL, 0, false },      /* subnet 0, 11 addresses a node */
        { 4, "2", PR, 0, false },      /* subnet 0 */
        { 2, "1", CL | PR, PR, true }, /* subnet 1: rotated in phase 2 */
    };
    struct ndp_subnet nets[3];
    const struct ndp_subnet *subnets[3] = { &nets[0], &nets[1], &nets[2] };
    struct ndp_impact_pool pools[4];
    struct ndp_impact impact = { .rebuilds = true, .pools = pools,
                                 .nr_pools = 4, .addressing = NDP_ADDRESSING_NODE_AND_PODS,
                                 .subnets = subnets, .nr_subnets = 3 };
    struct ndp_subnet_need need[3];
    size_t i;

    (void)state;
    memset(nets, 0, sizeof(nets));
    phased_pools(pools, spec, 3, false);
    for (i = 0; i < 3; i++)
        pools[i].max_pods = 10;
    pools[2].subnet = 1;
    /* subnet 2: a pool not rebuilt */
    pools[3] = pools[0];
    pools[3].rebuilt = pools[3].touched = false;
    pools[3].rebuilt_in = pools[3].touched_in = 0;
    pools[3].subnet = 2;
    ndp_rollout_subnet_needs(need, &impact);
    /* (3 + 4) nodes, then 2 surge nodes (phase 2) rather than 1 */
    assert_int_equal(need[0].addresses, (3 + 4 + 2) * 11);
    assert_int_equal(need[0].phases, CL | PR);
    assert_int_equal(need[0].peak, NDP_PHASE_POOLS);
    /* 2 nodes, then 2 more for the rotation, not 1 + 2 */
    assert_int_equal(need[1].addresses, (2 + 2) * 11);
    assert_int_equal(need[1].peak, NDP_PHASE_POOLS);
    assert_int_equal(need[2].addresses, 3 * 11);
    assert_int_equal(need[2].phases, 0);
    /* the cluster's phase grows past the pools' */
    pools[0].surge = "3";
    ndp_rollout_subnet_needs(need, &impact);
    assert_int_equal(need[0].addresses, (3 + 4 + 3) * 11);
    assert_int_equal(need[0].peak, NDP_PHASE_CLUSTER);
}

static void phase_words__name_the_phase(void **state)
{
    struct ndp_buf b = NDP_BUF_INIT;

    (void)state;
    ndp_rollout_phase_words(&b, NDP_PHASE_CLUSTER);
    assert_string_equal(b.buf, "in the cluster's own update");
    ndp_buf_reset(&b);
    ndp_rollout_phase_words(&b, NDP_PHASE_POOLS);
    assert_string_equal(b.buf, "while the node pool resources are updated, "
                               "in parallel, after the cluster");
    ndp_buf_release(&b);
}

/* ---- durations in words -------------------------------------------------- */

static void duration_words__hours_and_minutes(void **state)
{
    static const struct {
        long minutes;
        const char *want;
    } rows[] = {
        { 0, "0 min" }, { 1, "1 min" }, { 45, "45 min" }, { 59, "59 min" },
        { 60, "1 h" }, { 61, "1 h 1 min" }, { 90, "1 h 30 min" },
        { 450, "7 h 30 min" }, { 1440, "24 h" }, { 1441, "24 h 1 min" },
        { LONG_MAX, "153722867280912930 h 7 min" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct ndp_buf b = NDP_BUF_INIT;
        ndp_buf_adds(&b, "up to ");
        ndp_rollout_duration_words(&b, rows[i].minutes);
        if (strcmp(b.buf + 6, rows[i].want) != 0)
            fail_msg("%ld minutes: '%s', want '%s'", rows[i].minutes,
                     b.buf + 6, rows[i].want);
        ndp_buf_release(&b);
    }
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, surge_rows, surge_test);
    ADD_TEST(&list, batches__round_up_without_overflow);
    ADD_TEST(&list, pool_nodes__autoscaler_maximum_at_worst);
    ADD_TEST(&list, drain_and_soak__defaults);
    ADD_ROWS(&list, size_rows, size_test);
    ADD_ROWS(&list, plan_rows, plan_test);
    ADD_TEST(&list, amount__counts_percentages_and_neither);
    ADD_TEST(&list, plan_extra__summed_over_clusters);
    ADD_TEST(&list, subnet_needs__nodes_surge_and_pods);
    ADD_ROWS(&list, peak_rows, peak_test);
    ADD_TEST(&list, plan_extra__each_cluster_at_its_peak);
    ADD_TEST(&list, subnet_needs__peak_phase_not_the_sum);
    ADD_TEST(&list, phase_words__name_the_phase);
    ADD_TEST(&list, duration_words__hours_and_minutes);
    return cmocka_run_group_tests_name("rollout", list.items, NULL, NULL);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * apply_diff.c - the apply-window search (apply_window.h) against a
 * brute-force scan, minute by minute, over random schedules.
 *
 * Random ARM MaintenanceWindows (every schedule type, intervals with a
 * startDate, odd UTC offsets, notAllowedDates) are drawn from a fixed
 * seed; for each, a bitmap says minute by minute whether the window
 * engine calls it open (ndp_window_is_open).  Random pairs of them, as two
 * clusters, are then searched from a random minute: the search must give
 * the first minute at which both bitmaps are set, and the first minute
 * after it at which one is not, or nothing when no such minute falls
 * within the horizon.  Every window starts and ends on a whole minute, so
 * the scan misses nothing.  Prints each disagreement and exits 1 on any.
 */
#include "common.h"
#include "apply_window.h"
#include "buf.h"
#include "timeutil.h"
#include "window.h"

#include <json-c/json.h>

#define NR_SCHEDULES 64
#define NR_PAIRS 2400
#define START_SPREAD_DAYS 28            /* 'at' falls in the first 4 weeks */
#define SPAN_MINUTES ((START_SPREAD_DAYS + 366 + 8) * 1440L)

static uint64_t rng_state = 0x6e64706c696e7433ULL; /* fixed seed */

static uint32_t rnd(uint32_t n)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

static const char *const days[] = { "Monday", "Tuesday", "Wednesday",
    "Thursday", "Friday", "Saturday", "Sunday" };
static const char *const weeks[] = { "First", "Second", "Third", "Fourth",
    "Last" };
static const char *const offsets[] = { "+00:00", "-05:00", "+05:30",
    "+09:00", "-09:30", "+14:00", "-12:00", "+01:00" };

/* A random start date near the base, as YYYY-MM-DD. */
static void add_date(struct ndp_buf *b, int64_t base)
{
    int64_t t = base + ((int64_t)rnd(90) - 45) * 86400;
    struct ndp_buf s = NDP_BUF_INIT;

    ndp_time_format_utc(&s, t);
    ndp_buf_addf(b, "\"%.10s\"", s.buf);
    ndp_buf_release(&s);
}

static void random_window(struct ndp_buf *b, int64_t base)
{
    bool start_date = false;
    unsigned type = rnd(4), interval = 1 + rnd(3);

    ndp_buf_adds(b, "{\"schedule\": {");
    switch (type) {
    case 0:
        ndp_buf_addf(b, "\"daily\": {\"intervalDays\": %u}", interval);
        break;
    case 1:
        ndp_buf_addf(b, "\"weekly\": {\"intervalWeeks\": %u, "
                     "\"dayOfWeek\": \"%s\"}", interval, days[rnd(7)]);
        break;
    case 2:
        interval = 1 + rnd(2);
        ndp_buf_addf(b, "\"absoluteMonthly\": {\"intervalMonths\": %u, "
                     "\"dayOfMonth\": %u}", interval,
                     rnd(5) ? 1 + rnd(28) : 29 + rnd(3));
        break;
    default:
        interval = 1 + rnd(2);
        ndp_buf_addf(b, "\"relativeMonthly\": {\"intervalMonths\": %u, "
                     "\"weekIndex\": \"%s\", \"dayOfWeek\": \"%s\"}",
                     interval, weeks[rnd(5)], days[rnd(7)]);
        break;
    }
    /* Some daily windows of 24 hours: openings without a gap between. */
    ndp_buf_addf(b, "}, \"durationHours\": %u, \"utcOffset\": \"%s\", "
                 "\"startTime\": \"%02u:%02u\"",
                 type == 0 && rnd(3) == 0 ? 24 : 4 + rnd(21),
                 offsets[rnd(8)], rnd(24), rnd(4) ? rnd(4) * 15 : rnd(60));
    /* Intervals above 1 need a startDate to have a known phase. */
    if (interval > 1 || rnd(3) == 0)
        start_date = true;
    if (start_date) {
        ndp_buf_adds(b, ", \"startDate\": ");
        add_date(b, base);
    }
    if (rnd(2)) {
        unsigned i, n = 1 + rnd(3);

        ndp_buf_adds(b, ", \"notAllowedDates\": [");
        for (i = 0; i < n; i++) {
            int64_t s = base + (int64_t)rnd(420) * 86400;
            struct ndp_buf a = NDP_BUF_INIT, e = NDP_BUF_INIT;

            ndp_time_format_utc(&a, s);
            ndp_time_format_utc(&e, s + (int64_t)rnd(20) * 86400);
            ndp_buf_addf(b, "%s{\"start\": \"%.10s\", \"end\": \"%.10s\"}",
                         i ? ", " : "", a.buf, e.buf);
            ndp_buf_release(&a);
            ndp_buf_release(&e);
        }
        ndp_buf_adds(b, "]");
    }
    ndp_buf_adds(b, "}");
}

struct schedule {
    struct ndp_window *w;
    char *text;
    uint64_t *open;             /* one bit per minute from the base */
};

static bool bit(const struct schedule *s, long m)
{
    return (s->open[m / 64] >> (m % 64)) & 1;
}

static void scan(struct schedule *s, int64_t base)
{
    long m;

    s->open = ndp_xcalloc((size_t)SPAN_MINUTES / 64 + 1, sizeof(uint64_t));
    for (m = 0; m < SPAN_MINUTES; m++)
        if (ndp_window_is_open(s->w, base + (int64_t)m * 60, NULL))
            s->open[m / 64] |= (uint64_t)1 << (m % 64);
}

/* The brute-force answer from minute 'at_m': false when none. */
static bool brute(const struct schedule *a, const struct schedule *b,
                  long at_m, long *from_m, long *until_m, bool *capped)
{
    long m, limit = at_m + NDP_APPLY_HORIZON / 60;

    for (m = at_m; m < limit; m++)
        if (bit(a, m) && bit(b, m))
            break;
    if (m >= limit)
        return false;
    *from_m = m;
    while (m < SPAN_MINUTES && bit(a, m) && bit(b, m))
        m++;
    *until_m = m;
    *capped = m >= SPAN_MINUTES;
    return true;
}

int main(void)
{
    static struct schedule s[NR_SCHEDULES];
    int64_t base = 0;
    size_t i, pairs = 0, found = 0, disagreements = 0;

    if (ndp_time_parse_rfc3339(&base, "2026-11-02T00:00:00Z") < 0)
        return 1;
    for (i = 0; i < NR_SCHEDULES; i++) {
        struct ndp_buf text = NDP_BUF_INIT, problems = NDP_BUF_INIT;
        struct json_object *j;

        do {
            ndp_buf_reset(&text);
            ndp_buf_reset(&problems);
            random_window(&text, base);
            j = json_tokener_parse(text.buf);
            s[i].w = j ? ndp_window_from_arm(j, &problems) : NULL;
            json_object_put(j);
            if (s[i].w && problems.len) {
                ndp_window_free(s[i].w);
                s[i].w = NULL;
            }
        } while (!s[i].w);
        s[i].text = ndp_buf_detach(&text);
        ndp_buf_release(&problems);
        scan(&s[i], base);
    }
    for (pairs = 0; pairs < NR_PAIRS; pairs++) {
        const struct schedule *a = &s[rnd(NR_SCHEDULES)];
        const struct schedule *b = &s[rnd(NR_SCHEDULES)];
        long at_m = (long)rnd(START_SPREAD_DAYS * 1440);
        int64_t at = base + (int64_t)at_m * 60;
        struct ndp_apply_cluster c[2];
        struct ndp_apply_window got;
        long from_m = 0, until_m = 0;
        bool capped = false, want;
        bool ok;

        c[0].gate = c[1].gate = NDP_GATE_WINDOWS;
        c[0].windows[0] = a->w;
        c[1].windows[0] = b->w;
        c[0].nr_windows = c[1].nr_windows = 1;
        ndp_apply_window_plan(&got, c, 2, at);
        want = brute(a, b, at_m, &from_m, &until_m, &capped);
        if (want) {
            found++;
            ok = got.reason == NDP_APPLY_WINDOW && got.known &&
                 got.from == base + (int64_t)from_m * 60 &&
                 (capped ? got.until >= base + (int64_t)until_m * 60
                         : got.until == base + (int64_t)until_m * 60);
        } else {
            /* One that never opens alone is frozen, else no common one. */
            ok = !got.known && (got.reason == NDP_APPLY_NO_COMMON ||
                                got.reason == NDP_APPLY_FROZEN);
        }
        if (!ok) {
            struct ndp_buf msg = NDP_BUF_INIT;

            disagreements++;
            ndp_buf_adds(&msg, "at ");
            ndp_time_format_utc(&msg, at);
            ndp_buf_addf(&msg, ": search %s",
                         ndp_apply_reason_name(got.reason));
            if (got.known) {
                ndp_buf_adds(&msg, " ");
                ndp_time_format_utc(&msg, got.from);
                ndp_buf_adds(&msg, "..");
                ndp_time_format_utc(&msg, got.until);
            }
            ndp_buf_adds(&msg, ", scan ");
            if (want) {
                ndp_time_format_utc(&msg, base + (int64_t)from_m * 60);
                ndp_buf_adds(&msg, "..");
                ndp_time_format_utc(&msg, base + (int64_t)until_m * 60);
            } else {
                ndp_buf_adds(&msg, "none");
            }
            fprintf(stderr, "%s\n  a = %s\n  b = %s\n", msg.buf, a->text,
                    b->text);
            ndp_buf_release(&msg);
        }
    }
    printf("%zu pairs, %zu with a common window, %zu disagreements\n",
           pairs, found, disagreements);
    for (i = 0; i < NR_SCHEDULES; i++) {
        ndp_window_free(s[i].w);
        free(s[i].text);
        free(s[i].open);
    }
    return disagreements ? 1 : 0;
}

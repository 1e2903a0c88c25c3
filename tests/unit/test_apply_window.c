/*
 * SPDX-License-Identifier: Apache-2.0
 * test_apply_window.c - unit tests for "when can this apply?"
 * (apply_window.h): one cluster's window (crossing midnight, every other
 * week from a startDate, notAllowedDates over the next opening, the apply
 * replacing the window), a freeze, and plans of two clusters whose windows
 * never meet or meet for one hour.  Windows are ARM MaintenanceWindow
 * literals written with ' for "; instants are RFC 3339 text.
 */
#include "test_common.h"
#include "apply_window.h"
#include "buf.h"
#include "timeutil.h"
#include "window.h"

/* Daily 22:00 UTC for 6 hours: every opening crosses midnight. */
#define W_DAILY_22 "{'schedule': {'daily': {'intervalDays': 1}}, " \
    "'durationHours': 6, 'startTime': '22:00'}"
/* Daily 03:00 UTC for 4 hours: meets W_DAILY_22 from 03:00 to 04:00. */
#define W_DAILY_03 "{'schedule': {'daily': {'intervalDays': 1}}, " \
    "'durationHours': 4, 'startTime': '03:00'}"
/* Saturday 20:00 UTC-05:00 for 4 hours (Sunday 01:00-05:00 UTC). */
#define W_SAT_EST "{'schedule': {'weekly': {'intervalWeeks': 1, " \
    "'dayOfWeek': 'Saturday'}}, 'durationHours': 4, " \
    "'utcOffset': '-05:00', 'startTime': '20:00'}"
/* The same every other week from Saturday 2026-11-28. */
#define W_SAT_2W "{'schedule': {'weekly': {'intervalWeeks': 2, " \
    "'dayOfWeek': 'Saturday'}}, 'durationHours': 4, " \
    "'utcOffset': '-05:00', 'startTime': '20:00', " \
    "'startDate': '2026-11-28'}"
/* The same, weekly, with 2026-12-05 not allowed. */
#define W_SAT_BLOCKED "{'schedule': {'weekly': {'intervalWeeks': 1, " \
    "'dayOfWeek': 'Saturday'}}, 'durationHours': 4, " \
    "'utcOffset': '-05:00', 'startTime': '20:00', " \
    "'notAllowedDates': [{'start': '2026-12-05', 'end': '2026-12-05'}]}"
/* Monday 02:00 UTC for 4 hours: never meets W_SAT_EST. */
#define W_MON "{'schedule': {'weekly': {'intervalWeeks': 1, " \
    "'dayOfWeek': 'Monday'}}, 'durationHours': 4, 'startTime': '02:00'}"
/* Always open, but not on 2026-12-10 (UTC). */
#define W_DAILY_24_BLOCKED "{'schedule': {'daily': {'intervalDays': 1}}, " \
    "'durationHours': 24, 'startTime': '00:00', " \
    "'notAllowedDates': [{'start': '2026-12-10', 'end': '2026-12-10'}]}"
/* Daily, but not allowed for more than the horizon. */
#define W_DAILY_NEVER "{'schedule': {'daily': {'intervalDays': 1}}, " \
    "'durationHours': 4, 'startTime': '02:00', " \
    "'notAllowedDates': [{'start': '2026-12-01', 'end': '2027-12-31'}]}"
/* Every other week without startDate: its phase is unknown. */
#define W_2W_NO_START "{'schedule': {'weekly': {'intervalWeeks': 2, " \
    "'dayOfWeek': 'Monday'}}, 'durationHours': 4, 'startTime': '02:00'}"

#define AT "2026-12-02T12:00:00Z" /* a Wednesday */

static struct ndp_window *window(const char *text)
{
    struct json_object *j = test_json(text);
    struct ndp_buf problems = NDP_BUF_INIT;
    struct ndp_window *w = ndp_window_from_arm(j, &problems);

    assert_non_null(w);
    if (problems.len)
        fail_msg("window problems: %s", problems.buf);
    ndp_buf_release(&problems);
    json_object_put(j);
    return w;
}

static int64_t instant(const char *text)
{
    int64_t t = 0;

    assert_int_equal(ndp_time_parse_rfc3339(&t, text), 0);
    return t;
}

static void cluster_of(struct ndp_apply_cluster *c, struct ndp_window *a,
                       struct ndp_window *b)
{
    c->gate = NDP_GATE_WINDOWS;
    c->windows[0] = a;
    c->windows[1] = b;
    c->nr_windows = b ? 2 : 1;
}

static void expect(const struct ndp_apply_window *got,
                   enum ndp_apply_reason reason, const char *from,
                   const char *until)
{
    assert_string_equal(ndp_apply_reason_name(got->reason),
                        ndp_apply_reason_name(reason));
    assert_int_equal(got->known, from != NULL);
    if (from)
        assert_int_equal(got->from, instant(from));
    if (until)
        assert_int_equal(got->until, instant(until));
}

/* One cluster with one window, evaluated at 'at'. */
static void one(const char *w_text, const char *at, const char *from,
                const char *until)
{
    struct ndp_window *w = window(w_text);
    struct ndp_apply_cluster c;
    struct ndp_apply_window got;

    cluster_of(&c, w, NULL);
    ndp_apply_window_cluster(&got, &c, instant(at));
    expect(&got, NDP_APPLY_WINDOW, from, until);
    ndp_window_free(w);
}

static void test_crossing_midnight(void **state)
{
    (void)state;
    one(W_DAILY_22, AT, "2026-12-02T22:00:00Z", "2026-12-03T04:00:00Z");
    /* Inside, after midnight: from the instant to the close. */
    one(W_DAILY_22, "2026-12-03T01:30:00Z", "2026-12-03T01:30:00Z",
        "2026-12-03T04:00:00Z");
    /* The close itself is outside: the next evening. */
    one(W_DAILY_22, "2026-12-03T04:00:00Z", "2026-12-03T22:00:00Z",
        "2026-12-04T04:00:00Z");
}

static void test_every_other_week_from_start_date(void **state)
{
    (void)state;
    /* 2026-11-28, 12-12, ...: Saturday 12-05 is not an opening. */
    one(W_SAT_2W, AT, "2026-12-13T01:00:00Z", "2026-12-13T05:00:00Z");
    one(W_SAT_EST, AT, "2026-12-06T01:00:00Z", "2026-12-06T05:00:00Z");
    /* Before startDate nothing opens. */
    one(W_SAT_2W, "2026-11-01T00:00:00Z", "2026-11-29T01:00:00Z",
        "2026-11-29T05:00:00Z");
}

static void test_not_allowed_dates_cover_next_opening(void **state)
{
    (void)state;
    one(W_SAT_BLOCKED, AT, "2026-12-13T01:00:00Z", "2026-12-13T05:00:00Z");
}

static void test_openings_without_gap_are_one_stretch(void **state)
{
    (void)state;
    one(W_DAILY_24_BLOCKED, AT, AT, "2026-12-10T00:00:00Z");
}

static void test_apply_replaces_window(void **state)
{
    struct ndp_window *a = window(W_DAILY_22);
    struct ndp_window *b = window(W_DAILY_03);
    struct ndp_apply_cluster c;
    struct ndp_apply_window got;

    (void)state;
    cluster_of(&c, a, b);
    ndp_apply_window_cluster(&got, &c, instant(AT));
    expect(&got, NDP_APPLY_WINDOW, "2026-12-03T03:00:00Z",
           "2026-12-03T04:00:00Z");
    ndp_window_free(a);
    ndp_window_free(b);
}

/* Two clusters, one window each. */
static void two(const char *a_text, const char *b_text,
                enum ndp_apply_reason reason, const char *from,
                const char *until)
{
    struct ndp_window *a = window(a_text);
    struct ndp_window *b = window(b_text);
    struct ndp_apply_cluster c[2];
    struct ndp_apply_window got;

    cluster_of(&c[0], a, NULL);
    cluster_of(&c[1], b, NULL);
    ndp_apply_window_plan(&got, c, 2, instant(AT));
    expect(&got, reason, from, until);
    ndp_window_free(a);
    ndp_window_free(b);
}

static void test_two_clusters_never_meet(void **state)
{
    (void)state;
    two(W_SAT_EST, W_MON, NDP_APPLY_NO_COMMON, NULL, NULL);
    /* Every other Saturday from 11-28 and every Saturday but 12-05 first
     * meet on 12-12 (12-13 UTC). */
    two(W_SAT_2W, W_SAT_BLOCKED, NDP_APPLY_WINDOW, "2026-12-13T01:00:00Z",
        "2026-12-13T05:00:00Z");
}

static void test_two_clusters_meet_for_one_hour(void **state)
{
    (void)state;
    two(W_DAILY_22, W_DAILY_03, NDP_APPLY_WINDOW, "2026-12-03T03:00:00Z",
        "2026-12-03T04:00:00Z");
    two(W_DAILY_03, W_DAILY_22, NDP_APPLY_WINDOW, "2026-12-03T03:00:00Z",
        "2026-12-03T04:00:00Z");
}

static void test_block_is_frozen(void **state)
{
    struct ndp_window *a = window(W_DAILY_22);
    struct ndp_apply_cluster c[2];
    struct ndp_apply_window got;

    (void)state;
    memset(c, 0, sizeof(c));
    c[0].gate = NDP_GATE_FROZEN;
    ndp_apply_window_cluster(&got, &c[0], instant(AT));
    expect(&got, NDP_APPLY_FROZEN, NULL, NULL);
    /* One frozen cluster freezes the plan, whatever the others allow. */
    cluster_of(&c[1], a, NULL);
    ndp_apply_window_plan(&got, c, 2, instant(AT));
    expect(&got, NDP_APPLY_FROZEN, NULL, NULL);
    ndp_window_free(a);
}

static void test_window_never_opening_is_frozen(void **state)
{
    struct ndp_window *a = window(W_DAILY_NEVER);
    struct ndp_window *b = window(W_DAILY_22);
    struct ndp_apply_cluster c[2];
    struct ndp_apply_window got;

    (void)state;
    cluster_of(&c[0], b, NULL);
    cluster_of(&c[1], a, NULL);
    ndp_apply_window_cluster(&got, &c[1], instant(AT));
    expect(&got, NDP_APPLY_FROZEN, NULL, NULL);
    ndp_apply_window_plan(&got, c, 2, instant(AT));
    expect(&got, NDP_APPLY_FROZEN, NULL, NULL);
    ndp_window_free(a);
    ndp_window_free(b);
}

static void test_nothing_refused_is_now(void **state)
{
    struct ndp_apply_cluster c[2];
    struct ndp_apply_window got;

    (void)state;
    memset(c, 0, sizeof(c));
    ndp_apply_window_plan(&got, c, 2, instant(AT));
    expect(&got, NDP_APPLY_NOW, AT, NULL);
    ndp_apply_window_plan(&got, NULL, 0, instant(AT));
    expect(&got, NDP_APPLY_NOW, AT, NULL);
}

static void test_unknown_openings(void **state)
{
    struct ndp_window *a = window(W_2W_NO_START);
    struct ndp_window *b = window(W_DAILY_22);
    struct ndp_apply_cluster c[2];
    struct ndp_apply_window got;
    int64_t from, until;

    (void)state;
    /* A phase-unknown window has no opening the search can name. */
    assert_false(ndp_apply_search((const struct ndp_window *const *)&a, 1,
                                  instant(AT), &from, &until));
    memset(c, 0, sizeof(c));
    c[0].gate = NDP_GATE_UNKNOWN;
    cluster_of(&c[1], b, NULL);
    ndp_apply_window_plan(&got, c, 2, instant(AT));
    expect(&got, NDP_APPLY_WINDOW, NULL, NULL);
    ndp_window_free(a);
    ndp_window_free(b);
}

static void test_reason_names(void **state)
{
    (void)state;
    assert_string_equal(ndp_apply_reason_name(NDP_APPLY_NOW), "now");
    assert_string_equal(ndp_apply_reason_name(NDP_APPLY_WINDOW), "window");
    assert_string_equal(ndp_apply_reason_name(NDP_APPLY_FROZEN), "frozen");
    assert_string_equal(ndp_apply_reason_name(NDP_APPLY_NO_COMMON),
                        "no-common-window");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crossing_midnight),
        cmocka_unit_test(test_every_other_week_from_start_date),
        cmocka_unit_test(test_not_allowed_dates_cover_next_opening),
        cmocka_unit_test(test_openings_without_gap_are_one_stretch),
        cmocka_unit_test(test_apply_replaces_window),
        cmocka_unit_test(test_two_clusters_never_meet),
        cmocka_unit_test(test_two_clusters_meet_for_one_hour),
        cmocka_unit_test(test_block_is_frozen),
        cmocka_unit_test(test_window_never_opening_is_frozen),
        cmocka_unit_test(test_nothing_refused_is_now),
        cmocka_unit_test(test_unknown_openings),
        cmocka_unit_test(test_reason_names),
    };

    return cmocka_run_group_tests_name("apply_window", tests, NULL, NULL);
}

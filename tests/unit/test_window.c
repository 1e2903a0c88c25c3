/*
 * SPDX-License-Identifier: Apache-2.0
 * test_window.c - unit tests for the maintenance window engine: reading
 * both notations, window-invalid problems, is_open / next at the edges
 * (exact start and end, midnight, month and year ends, leap days, 'Last'
 * week index, intervals with and without startDate, offsets that move the
 * local date, notAllowedDates), and the describe / to_json text.
 *
 * Each table row becomes one cmocka test named after the behaviour it
 * checks.  Windows are written as JSON literals and parsed with
 * json_tokener_parse; instants are RFC 3339 text.
 */
#include "test_common.h"
#include "buf.h"
#include "timeutil.h"
#include "window.h"
#include "report/report_window.h"

enum notation { ARM, AZURERM };

/* ---- windows used by several rows --------------------------------- */

/* The seed example, as az CLI prints it (unused variants null). */
#define W_SAT_EST                                                         \
    "{\"schedule\": {\"daily\": null, \"weekly\": {\"intervalWeeks\": 1, " \
    "\"dayOfWeek\": \"Saturday\"}, \"absoluteMonthly\": null, "           \
    "\"relativeMonthly\": null}, \"durationHours\": 4, "                  \
    "\"utcOffset\": \"-05:00\", \"startTime\": \"20:00\", "               \
    "\"startDate\": null, \"notAllowedDates\": null}"

#define W_MON_TOKYO                                                       \
    "{\"schedule\": {\"weekly\": {\"intervalWeeks\": 1, "                 \
    "\"dayOfWeek\": \"Monday\"}}, \"durationHours\": 4, "                 \
    "\"utcOffset\": \"+09:00\", \"startTime\": \"01:00\"}"

#define W_DAILY_22                                                        \
    "{\"schedule\": {\"daily\": {\"intervalDays\": 1}}, "                 \
    "\"durationHours\": 6, \"startTime\": \"22:00\"}"

#define W_DAILY_24                                                        \
    "{\"schedule\": {\"daily\": {\"intervalDays\": 1}}, "                 \
    "\"durationHours\": 24, \"startTime\": \"00:00\"}"

#define W_DAILY_3(start_date)                                             \
    "{\"schedule\": {\"daily\": {\"intervalDays\": 3}}, "                 \
    "\"durationHours\": 4, \"startTime\": \"10:00\"" start_date "}"

#define W_SAT_2W(start_date)                                              \
    "{\"schedule\": {\"weekly\": {\"intervalWeeks\": 2, "                 \
    "\"dayOfWeek\": \"Saturday\"}}, \"durationHours\": 4, "               \
    "\"utcOffset\": \"-05:00\", \"startTime\": \"20:00\"" start_date "}"

#define W_ABS(interval, day, time, hours, start_date)                     \
    "{\"schedule\": {\"absoluteMonthly\": {\"intervalMonths\": " interval \
    ", \"dayOfMonth\": " day "}}, \"durationHours\": " hours ", "         \
    "\"startTime\": \"" time "\"" start_date "}"

#define W_REL(interval, index, day, time, start_date)                     \
    "{\"schedule\": {\"relativeMonthly\": {\"intervalMonths\": " interval \
    ", \"weekIndex\": \"" index "\", \"dayOfWeek\": \"" day "\"}}, "      \
    "\"durationHours\": 4, \"startTime\": \"" time "\"" start_date "}"

/* The spec's example: +02:00, 2022-12-23..2023-01-03 blocks 12-22 22:00Z
 * to 01-03 22:00Z. */
#define W_DAILY_BLOCKED(time, hours, span)                                \
    "{\"schedule\": {\"daily\": {\"intervalDays\": 1}}, "                 \
    "\"durationHours\": " hours ", \"utcOffset\": \"+02:00\", "           \
    "\"startTime\": \"" time "\", \"notAllowedDates\": [" span "]}"

#define SPAN_XMAS "{\"start\": \"2022-12-23\", \"end\": \"2023-01-03\"}"
#define SPAN_XMAS_REVERSED                                                \
    "{\"start\": \"2023-01-03\", \"end\": \"2022-12-23\"}"

#define AZ_WEEKLY                                                         \
    "{\"frequency\": \"Weekly\", \"interval\": 1, \"duration\": 4, "      \
    "\"day_of_week\": \"Saturday\", \"day_of_month\": 0, "                \
    "\"week_index\": \"\", \"start_time\": \"20:00\", "                   \
    "\"utc_offset\": \"-05:00\", \"start_date\": \"\", "                  \
    "\"not_allowed\": []}"

#define AZ_RELATIVE                                                       \
    "{\"frequency\": \"RelativeMonthly\", \"interval\": 2, "              \
    "\"duration\": 6, \"day_of_week\": \"Sunday\", \"day_of_month\": 0, " \
    "\"week_index\": \"Last\", \"start_time\": \"03:00\", "               \
    "\"utc_offset\": \"+00:00\", "                                        \
    "\"start_date\": \"2026-01-01T00:00:00Z\", \"not_allowed\": "         \
    "[{\"start\": \"2026-03-01T00:00:00Z\", "                             \
    "\"end\": \"2026-03-31T00:00:00Z\"}]}"

#define AZ_DAILY_DEFAULTS                                                 \
    "{\"frequency\": \"Daily\", \"interval\": 1, \"duration\": 5, "       \
    "\"day_of_week\": null, \"day_of_month\": 0, \"week_index\": \"\", "  \
    "\"start_time\": \"01:30\", \"utc_offset\": \"\", "                   \
    "\"start_date\": null, \"not_allowed\": null}"

#define AZ_ABS_START_WITH_OFFSET                                          \
    "{\"frequency\": \"AbsoluteMonthly\", \"interval\": 2, "              \
    "\"duration\": 4, \"day_of_week\": \"\", \"day_of_month\": 21, "      \
    "\"week_index\": \"\", \"start_time\": \"10:00\", "                   \
    "\"utc_offset\": \"+00:00\", "                                        \
    "\"start_date\": \"2026-04-21T23:00:00-05:00\", \"not_allowed\": []}"

/* ---- queries: is_open and next -------------------------------------- */

struct query_case {
    const char *name;
    enum notation notation;
    const char *window;
    const char *at;
    const char *closes;      /* NULL: closed */
    const char *next_start;  /* NULL: no next window */
    const char *next_end;
};

static const struct query_case query_cases[] = {
    /* Weekly, the seed example: Saturday 20:00 at -05:00 for 4 hours. */
    { "weekly_exact_start__inside", ARM, W_SAT_EST,
      "2026-03-07T20:00:00-05:00", "2026-03-08T00:00:00-05:00",
      "2026-03-07T20:00:00-05:00", "2026-03-08T00:00:00-05:00" },
    { "weekly_exact_end__outside", ARM, W_SAT_EST,
      "2026-03-08T00:00:00-05:00", NULL,
      "2026-03-14T20:00:00-05:00", "2026-03-15T00:00:00-05:00" },
    { "weekly_second_before_start__outside", ARM, W_SAT_EST,
      "2026-03-07T19:59:59-05:00", NULL,
      "2026-03-07T20:00:00-05:00", "2026-03-08T00:00:00-05:00" },
    { "weekly_last_second__inside", ARM, W_SAT_EST,
      "2026-03-07T23:59:59-05:00", "2026-03-08T00:00:00-05:00",
      "2026-03-14T20:00:00-05:00", "2026-03-15T00:00:00-05:00" },
    { "weekly_negative_offset_utc_sunday__inside", ARM, W_SAT_EST,
      "2026-03-08T03:30:00Z", "2026-03-08T05:00:00Z",
      "2026-03-15T01:00:00Z", "2026-03-15T05:00:00Z" },
    { "weekly_negative_offset_utc_saturday_afternoon__outside", ARM,
      W_SAT_EST, "2026-03-07T21:00:00Z", NULL,
      "2026-03-08T01:00:00Z", "2026-03-08T05:00:00Z" },
    { "weekly_positive_offset_utc_sunday__inside", ARM, W_MON_TOKYO,
      "2026-03-08T16:00:00Z", "2026-03-08T20:00:00Z",
      "2026-03-08T16:00:00Z", "2026-03-08T20:00:00Z" },
    { "weekly_positive_offset_utc_monday__outside", ARM, W_MON_TOKYO,
      "2026-03-09T16:00:00Z", NULL,
      "2026-03-15T16:00:00Z", "2026-03-15T20:00:00Z" },

    /* Daily 22:00 UTC for 6 hours: every window crosses midnight. */
    { "daily_crosses_midnight__inside_after_midnight", ARM, W_DAILY_22,
      "2026-03-02T02:00:00Z", "2026-03-02T04:00:00Z",
      "2026-03-02T22:00:00Z", "2026-03-03T04:00:00Z" },
    { "daily_crosses_month_end__inside_on_the_first", ARM, W_DAILY_22,
      "2026-03-01T03:59:59Z", "2026-03-01T04:00:00Z",
      "2026-03-01T22:00:00Z", "2026-03-02T04:00:00Z" },
    { "daily_crosses_year_end__inside_on_new_year", ARM, W_DAILY_22,
      "2027-01-01T01:00:00Z", "2027-01-01T04:00:00Z",
      "2027-01-01T22:00:00Z", "2027-01-02T04:00:00Z" },
    { "daily_exact_end__outside", ARM, W_DAILY_22,
      "2026-03-02T04:00:00Z", NULL,
      "2026-03-02T22:00:00Z", "2026-03-03T04:00:00Z" },
    { "daily_24_hours__open_until_next_midnight", ARM, W_DAILY_24,
      "2026-06-15T13:00:00Z", "2026-06-16T00:00:00Z",
      "2026-06-16T00:00:00Z", "2026-06-17T00:00:00Z" },

    /* intervalDays 3 from 2026-01-01: Jan 1, 4, 7, 10 ... */
    { "daily_interval_3_off_day__outside", ARM,
      W_DAILY_3(", \"startDate\": \"2026-01-01\""),
      "2026-01-05T11:00:00Z", NULL,
      "2026-01-07T10:00:00Z", "2026-01-07T14:00:00Z" },
    { "daily_interval_3_on_day__inside", ARM,
      W_DAILY_3(", \"startDate\": \"2026-01-01\""),
      "2026-01-07T11:00:00Z", "2026-01-07T14:00:00Z",
      "2026-01-10T10:00:00Z", "2026-01-10T14:00:00Z" },
    { "daily_before_start_date__outside_until_start_date", ARM,
      W_DAILY_3(", \"startDate\": \"2026-01-01\""),
      "2025-12-29T11:00:00Z", NULL,
      "2026-01-01T10:00:00Z", "2026-01-01T14:00:00Z" },
    { "daily_interval_3_no_start_date_at_start__outside_next_earliest",
      ARM, W_DAILY_3(""),
      "2026-01-07T10:00:00Z", NULL,
      "2026-01-07T10:00:00Z", "2026-01-07T14:00:00Z" },
    { "daily_interval_3_no_start_date_inside__outside_next_is_tomorrow",
      ARM, W_DAILY_3(""),
      "2026-01-07T11:00:00Z", NULL,
      "2026-01-08T10:00:00Z", "2026-01-08T14:00:00Z" },

    /* intervalWeeks 2 from Sunday 2026-01-04: Jan 10, 24, Feb 7 ... */
    { "weekly_interval_2_start_date_after_weekday__that_week_skipped", ARM,
      W_SAT_2W(", \"startDate\": \"2026-01-04\""),
      "2026-01-03T20:30:00-05:00", NULL,
      "2026-01-10T20:00:00-05:00", "2026-01-11T00:00:00-05:00" },
    { "weekly_interval_2_off_week__outside", ARM,
      W_SAT_2W(", \"startDate\": \"2026-01-04\""),
      "2026-01-17T21:00:00-05:00", NULL,
      "2026-01-24T20:00:00-05:00", "2026-01-25T00:00:00-05:00" },
    { "weekly_interval_2_on_week__inside", ARM,
      W_SAT_2W(", \"startDate\": \"2026-01-04\""),
      "2026-03-07T21:00:00-05:00", "2026-03-08T00:00:00-05:00",
      "2026-03-21T20:00:00-05:00", "2026-03-22T00:00:00-05:00" },
    { "weekly_interval_2_no_start_date__never_open_next_earliest", ARM,
      W_SAT_2W(""), "2026-03-07T21:00:00-05:00", NULL,
      "2026-03-14T20:00:00-05:00", "2026-03-15T00:00:00-05:00" },
    { "weekly_start_date_in_future__outside_until_first_occurrence", ARM,
      "{\"schedule\": {\"weekly\": {\"intervalWeeks\": 1, \"dayOfWeek\": "
      "\"Saturday\"}}, \"durationHours\": 4, \"startTime\": \"20:00\", "
      "\"startDate\": \"2026-03-10\"}",
      "2026-03-07T20:00:00Z", NULL,
      "2026-03-14T20:00:00Z", "2026-03-15T00:00:00Z" },

    /* absoluteMonthly */
    { "absolute_monthly_exact_start__inside", ARM,
      W_ABS("1", "15", "02:00", "4", ""), "2026-05-15T02:00:00Z",
      "2026-05-15T06:00:00Z",
      "2026-05-15T02:00:00Z", "2026-05-15T06:00:00Z" },
    { "absolute_monthly_exact_end__outside_next_month", ARM,
      W_ABS("1", "15", "02:00", "4", ""), "2026-05-15T06:00:00Z", NULL,
      "2026-06-15T02:00:00Z", "2026-06-15T06:00:00Z" },
    { "absolute_monthly_day_29_leap_february__window_into_march", ARM,
      W_ABS("1", "29", "23:00", "4", ""), "2028-02-29T23:30:00Z",
      "2028-03-01T03:00:00Z",
      "2028-03-29T23:00:00Z", "2028-03-30T03:00:00Z" },
    { "absolute_monthly_day_29_non_leap_february__skipped", ARM,
      W_ABS("1", "29", "23:00", "4", ""), "2027-02-01T00:00:00Z", NULL,
      "2027-03-29T23:00:00Z", "2027-03-30T03:00:00Z" },
    { "absolute_monthly_day_31_in_30_day_month__skipped", ARM,
      W_ABS("1", "31", "00:00", "4", ""), "2026-04-01T00:00:00Z", NULL,
      "2026-05-31T00:00:00Z", "2026-05-31T04:00:00Z" },
    { "absolute_monthly_interval_2__counted_from_first_day_31", ARM,
      W_ABS("2", "31", "00:00", "4", ", \"startDate\": \"2026-02-10\""),
      "2026-02-10T00:00:00Z", NULL,
      "2026-03-31T00:00:00Z", "2026-03-31T04:00:00Z" },
    { "absolute_monthly_interval_2_day_31__short_months_skipped", ARM,
      W_ABS("2", "31", "00:00", "4", ", \"startDate\": \"2026-02-10\""),
      "2026-08-01T00:00:00Z", NULL,
      "2027-01-31T00:00:00Z", "2027-01-31T04:00:00Z" },
    { "absolute_monthly_crosses_year_end__inside_on_new_year", ARM,
      W_ABS("1", "31", "22:00", "8", ""), "2027-01-01T05:59:59Z",
      "2027-01-01T06:00:00Z",
      "2027-01-31T22:00:00Z", "2027-02-01T06:00:00Z" },

    /* relativeMonthly; March 2026 has five Sundays, February four. */
    { "relative_monthly_last_in_5_sunday_month__fifth_sunday", ARM,
      W_REL("1", "Last", "Sunday", "03:00", ""), "2026-03-22T03:00:00Z",
      NULL, "2026-03-29T03:00:00Z", "2026-03-29T07:00:00Z" },
    { "relative_monthly_last_in_4_sunday_month__fourth_sunday", ARM,
      W_REL("1", "Last", "Sunday", "03:00", ""), "2026-02-22T03:00:00Z",
      "2026-02-22T07:00:00Z",
      "2026-02-22T03:00:00Z", "2026-02-22T07:00:00Z" },
    { "relative_monthly_fourth_in_5_sunday_month__not_the_last", ARM,
      W_REL("1", "Fourth", "Sunday", "03:00", ""), "2026-03-22T03:00:00Z",
      "2026-03-22T07:00:00Z",
      "2026-03-22T03:00:00Z", "2026-03-22T07:00:00Z" },
    { "relative_monthly_interval_3__counted_from_first_after_start_date",
      ARM, W_REL("3", "First", "Monday", "09:00",
                 ", \"startDate\": \"2026-01-20\""),
      "2026-01-20T00:00:00Z", NULL,
      "2026-02-02T09:00:00Z", "2026-02-02T13:00:00Z" },
    { "relative_monthly_interval_3_off_month__skipped", ARM,
      W_REL("3", "First", "Monday", "09:00",
            ", \"startDate\": \"2026-01-20\""),
      "2026-03-02T10:00:00Z", NULL,
      "2026-05-04T09:00:00Z", "2026-05-04T13:00:00Z" },
    { "relative_monthly_interval_3_no_start_date__never_open", ARM,
      W_REL("3", "First", "Monday", "09:00", ""),
      "2026-03-02T10:00:00Z", NULL,
      "2026-04-06T09:00:00Z", "2026-04-06T13:00:00Z" },

    /* notAllowedDates 2022-12-23..2023-01-03 at +02:00. */
    { "not_allowed_window_running_into_span__skipped_whole", ARM,
      W_DAILY_BLOCKED("22:00", "4", SPAN_XMAS), "2022-12-22T20:00:00Z",
      NULL, "2023-01-04T20:00:00Z", "2023-01-05T00:00:00Z" },
    { "not_allowed_day_before_span__open_next_after_span", ARM,
      W_DAILY_BLOCKED("22:00", "4", SPAN_XMAS), "2022-12-21T21:00:00Z",
      "2022-12-22T00:00:00Z",
      "2023-01-04T20:00:00Z", "2023-01-05T00:00:00Z" },
    { "not_allowed_window_running_past_span_end__skipped_whole", ARM,
      W_DAILY_BLOCKED("22:00", "4", SPAN_XMAS), "2023-01-03T23:00:00Z",
      NULL, "2023-01-04T20:00:00Z", "2023-01-05T00:00:00Z" },
    { "not_allowed_window_starting_at_span_start__skipped", ARM,
      W_DAILY_BLOCKED("00:00", "4", SPAN_XMAS), "2022-12-22T22:00:00Z",
      NULL, "2023-01-03T22:00:00Z", "2023-01-04T02:00:00Z" },
    { "not_allowed_window_starting_at_span_end__open", ARM,
      W_DAILY_BLOCKED("00:00", "4", SPAN_XMAS), "2023-01-03T22:00:00Z",
      "2023-01-04T02:00:00Z",
      "2023-01-03T22:00:00Z", "2023-01-04T02:00:00Z" },
    { "not_allowed_window_ending_at_span_start__open", ARM,
      W_DAILY_BLOCKED("18:00", "6", SPAN_XMAS), "2022-12-22T21:59:59Z",
      "2022-12-22T22:00:00Z",
      "2023-01-04T16:00:00Z", "2023-01-04T22:00:00Z" },
    { "not_allowed_reversed_span__blocks_dates_between", ARM,
      W_DAILY_BLOCKED("22:00", "4", SPAN_XMAS_REVERSED),
      "2022-12-25T21:00:00Z", NULL,
      "2023-01-04T20:00:00Z", "2023-01-05T00:00:00Z" },
    { "not_allowed_covering_ten_years__no_next_window", ARM,
      W_DAILY_BLOCKED("22:00", "4",
                      "{\"start\": \"2020-01-01\", \"end\": \"2040-12-31\"}"),
      "2026-01-01T21:00:00Z", NULL, NULL, NULL },

    /* azurerm notation */
    { "azurerm_weekly_exact_start__inside", AZURERM, AZ_WEEKLY,
      "2026-03-07T20:00:00-05:00", "2026-03-08T00:00:00-05:00",
      "2026-03-07T20:00:00-05:00", "2026-03-08T00:00:00-05:00" },
    { "azurerm_relative_monthly_blocked_month__next_after_span", AZURERM,
      AZ_RELATIVE, "2026-02-01T00:00:00Z", NULL,
      "2026-05-31T03:00:00Z", "2026-05-31T09:00:00Z" },
    { "azurerm_daily_empty_utc_offset__utc", AZURERM, AZ_DAILY_DEFAULTS,
      "2026-07-01T01:30:00Z", "2026-07-01T06:30:00Z",
      "2026-07-01T01:30:00Z", "2026-07-01T06:30:00Z" },
    { "azurerm_start_date_date_part_as_written__window_on_that_date",
      AZURERM, AZ_ABS_START_WITH_OFFSET, "2026-04-21T12:00:00Z",
      "2026-04-21T14:00:00Z",
      "2026-06-21T10:00:00Z", "2026-06-21T14:00:00Z" },

    /* Durations outside the AKS range are still evaluated. */
    { "duration_2__evaluated_as_2_hours", ARM,
      W_ABS("1", "15", "02:00", "2", ""), "2026-05-15T04:00:00Z", NULL,
      "2026-06-15T02:00:00Z", "2026-06-15T04:00:00Z" },
    { "duration_30__evaluated_as_24_hours", ARM,
      W_ABS("1", "15", "02:00", "30", ""), "2026-05-16T02:00:00Z", NULL,
      "2026-06-15T02:00:00Z", "2026-06-16T02:00:00Z" },
    { "duration_0__never_opens", ARM,
      W_ABS("1", "15", "02:00", "0", ""), "2026-05-15T02:00:00Z", NULL,
      NULL, NULL },
};

static int64_t instant(const char *text)
{
    int64_t t = 0;

    if (ndp_time_parse_rfc3339(&t, text) < 0) {
        print_error("bad instant in test table: %s\n", text);
        fail();
    }
    return t;
}

static struct ndp_window *parse_window(enum notation notation,
                                       const char *json,
                                       struct ndp_buf *problems)
{
    struct json_object *root = json_tokener_parse(json);
    struct ndp_window *w;

    if (!root && strcmp(json, "null") != 0) {
        print_error("bad JSON in test table: %s\n", json);
        fail();
    }
    w = notation == ARM ? ndp_window_from_arm(root, problems)
                        : ndp_window_from_azurerm(root, problems);
    json_object_put(root);
    return w;
}

/* Compares an instant with the expected RFC 3339 text, showing both. */
static void assert_instant(int64_t got, const char *expected)
{
    struct ndp_buf text = NDP_BUF_INIT;

    if (got != instant(expected)) {
        ndp_time_format_utc(&text, got);
        print_error("expected %s, got %s\n", expected, text.buf);
        ndp_buf_release(&text);
        fail();
    }
}

static void query_case_runs(void **state)
{
    const struct query_case *c = *state;
    struct ndp_buf problems = NDP_BUF_INIT;
    struct ndp_window *w = parse_window(c->notation, c->window, &problems);
    int64_t at = instant(c->at);
    int64_t closes = -1;
    int64_t start = -1;
    int64_t end = -1;
    bool open;
    bool has_next;

    assert_non_null(w);
    open = ndp_window_is_open(w, at, &closes);
    has_next = ndp_window_next(w, at, &start, &end);
    if (c->closes) {
        assert_true(open);
        assert_instant(closes, c->closes);
    } else {
        assert_false(open);
    }
    if (c->next_start) {
        assert_true(has_next);
        assert_instant(start, c->next_start);
        assert_instant(end, c->next_end);
    } else {
        assert_false(has_next);
    }
    ndp_window_free(w);
    ndp_buf_release(&problems);
}

/* ---- window-invalid problems ---------------------------------------- */

struct problem_case {
    const char *name;
    enum notation notation;
    const char *window;
    bool evaluable;          /* a window is returned */
    const char *problem;     /* "" when none; else a substring */
    bool exact;              /* 'problem' is the whole text */
};

#define ARM_WEEKLY_WITH(extra)                                            \
    "{\"schedule\": {\"weekly\": {\"intervalWeeks\": 1, "                 \
    "\"dayOfWeek\": \"Saturday\"}}, \"startTime\": \"20:00\"" extra "}"

#define ARM_DAILY(interval, duration, start_time)                         \
    "{\"schedule\": {\"daily\": {\"intervalDays\": " interval "}}, "      \
    "\"durationHours\": " duration ", \"startTime\": " start_time "}"

#define AZ_BLOCK(frequency, interval, extra)                              \
    "{\"frequency\": \"" frequency "\", \"interval\": " interval ", "     \
    "\"duration\": 4, \"day_of_week\": \"Saturday\", "                    \
    "\"day_of_month\": 0, \"week_index\": \"\", "                         \
    "\"start_time\": \"20:00\", \"utc_offset\": \"+00:00\"" extra "}"

static const struct problem_case problem_cases[] = {
    { "arm_az_cli_nulls__no_problems", ARM, W_SAT_EST, true, "", true },
    { "arm_enum_case_differs__no_problems", ARM,
      "{\"schedule\": {\"relativeMonthly\": {\"intervalMonths\": 1, "
      "\"weekIndex\": \"last\", \"dayOfWeek\": \"SUNDAY\"}}, "
      "\"durationHours\": 4, \"startTime\": \"03:00\"}", true, "", true },
    { "arm_key_case_differs__accepted", ARM,
      "{\"Schedule\": {\"Weekly\": {\"IntervalWeeks\": 1, "
      "\"DayOfWeek\": \"Saturday\"}}, \"DurationHours\": 4, "
      "\"StartTime\": \"20:00\"}", true, "", true },
    { "arm_duration_3__below_minimum", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 3"), true,
      "durationHours 3 is below the AKS minimum of 4", true },
    { "arm_duration_25__above_maximum", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 25"), true,
      "durationHours 25 is above the AKS maximum of 24", true },
    { "arm_duration_missing__reported_still_evaluable", ARM,
      ARM_WEEKLY_WITH(""), true, "durationHours is missing", true },
    { "arm_duration_string__not_an_integer", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": \"4\""), true,
      "durationHours is not an integer", true },
    { "arm_duration_integral_double__accepted", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4.0"), true, "", true },
    { "arm_interval_days_8__out_of_range_still_evaluable", ARM,
      ARM_DAILY("8", "4", "\"01:00\""), true,
      "intervalDays 8 is outside the AKS range 1..7", true },
    { "arm_interval_weeks_0__not_evaluable", ARM,
      "{\"schedule\": {\"weekly\": {\"intervalWeeks\": 0, "
      "\"dayOfWeek\": \"Saturday\"}}, \"durationHours\": 4, "
      "\"startTime\": \"20:00\"}", false,
      "intervalWeeks 0 is outside the AKS range 1..4", true },
    { "arm_interval_months_7__out_of_range_still_evaluable", ARM,
      W_ABS("7", "1", "00:00", "4", ", \"startDate\": \"2026-01-01\""),
      true, "intervalMonths 7 is outside the AKS range 1..6", true },
    { "arm_interval_missing__not_evaluable", ARM,
      "{\"schedule\": {\"weekly\": {\"dayOfWeek\": \"Monday\"}}, "
      "\"durationHours\": 4, \"startTime\": \"20:00\"}", false,
      "intervalWeeks is missing", true },
    { "arm_start_time_24_00__not_evaluable", ARM,
      ARM_DAILY("1", "4", "\"24:00\""), false,
      "startTime '24:00' is not HH:mm between 00:00 and 23:59", true },
    { "arm_start_time_single_digit_hour__not_evaluable", ARM,
      ARM_DAILY("1", "4", "\"7:00\""), false,
      "startTime '7:00' is not HH:mm", false },
    { "arm_start_time_missing__not_evaluable", ARM,
      "{\"schedule\": {\"daily\": {\"intervalDays\": 1}}, "
      "\"durationHours\": 4}", false, "startTime is missing", true },
    { "arm_utc_offset_without_colon__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"utcOffset\": \"+0500\""),
      true, "utcOffset '+0500' is not +HH:MM or -HH:MM", true },
    { "arm_utc_offset_minute_60__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"utcOffset\": \"+05:60\""),
      true, "utcOffset '+05:60' is not +HH:MM or -HH:MM", true },
    { "arm_start_date_feb_30__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, "
                      "\"startDate\": \"2026-02-30\""),
      true, "startDate '2026-02-30' is not a valid date (YYYY-MM-DD)", true },
    { "arm_not_allowed_end_before_start__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"notAllowedDates\": "
                      "[{\"start\": \"2026-01-05\", "
                      "\"end\": \"2026-01-01\"}]"),
      true, "notAllowedDates[0] ends on 2026-01-01, before it starts on "
      "2026-01-05", true },
    { "arm_not_allowed_bad_date__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"notAllowedDates\": "
                      "[{\"start\": \"2026-01-05\", \"end\": \"2026-01-06\"},"
                      " {\"start\": \"2026-12-01\", "
                      "\"end\": \"2026-13-01\"}]"),
      true, "notAllowedDates[1].end '2026-13-01' is not a valid date "
      "(YYYY-MM-DD)", true },
    { "arm_not_allowed_missing_end__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"notAllowedDates\": "
                      "[{\"start\": \"2026-01-05\"}]"),
      true, "notAllowedDates[0].end is missing", true },
    { "arm_not_allowed_not_array__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"notAllowedDates\": {}"),
      true, "notAllowedDates is not an array", true },
    { "arm_week_index_fifth__not_evaluable", ARM,
      W_REL("1", "Fifth", "Sunday", "03:00", ""), false,
      "weekIndex 'Fifth' is not First, Second, Third, Fourth or Last",
      true },
    { "arm_day_of_week_funday__not_evaluable", ARM,
      W_REL("1", "Last", "Funday", "03:00", ""), false,
      "dayOfWeek 'Funday' is not a day of the week (Sunday..Saturday)",
      true },
    { "arm_day_of_month_32__not_evaluable", ARM,
      W_ABS("1", "32", "00:00", "4", ""), false,
      "dayOfMonth 32 is outside 1..31", true },
    { "arm_no_schedule_type__not_evaluable", ARM,
      "{\"schedule\": {}, \"durationHours\": 4, \"startTime\": \"20:00\"}",
      false, "schedule has no schedule type (daily, weekly, "
      "absoluteMonthly or relativeMonthly)", true },
    { "arm_all_schedule_types_null__not_evaluable", ARM,
      "{\"schedule\": {\"daily\": null, \"weekly\": null, "
      "\"absoluteMonthly\": null, \"relativeMonthly\": null}, "
      "\"durationHours\": 4, \"startTime\": \"20:00\"}",
      false, "schedule has no schedule type", false },
    { "arm_schedule_missing__not_evaluable", ARM,
      "{\"durationHours\": 4, \"startTime\": \"20:00\"}", false,
      "schedule is missing", true },
    { "arm_two_schedule_types__not_evaluable", ARM,
      "{\"schedule\": {\"daily\": {\"intervalDays\": 1}, \"weekly\": "
      "{\"intervalWeeks\": 1, \"dayOfWeek\": \"Monday\"}}, "
      "\"durationHours\": 4, \"startTime\": \"20:00\"}", false,
      "schedule has more than one schedule type (daily, weekly)", true },
    { "arm_not_an_object__not_evaluable", ARM, "[]", false,
      "maintenanceWindow is not an object", true },
    { "arm_null__not_evaluable", ARM, "null", false,
      "maintenanceWindow is not an object", true },
    { "arm_several_problems__all_reported_in_order", ARM,
      ARM_DAILY("9", "2", "\"01:00\""), true,
      "intervalDays 9 is outside the AKS range 1..7; durationHours 2 is "
      "below the AKS minimum of 4", true },
    { "azurerm_valid_weekly__no_problems", AZURERM, AZ_WEEKLY, true, "",
      true },
    { "azurerm_valid_relative_monthly__no_problems", AZURERM, AZ_RELATIVE,
      true, "", true },
    /* azurerm refuses it in terraform plan: no plan of it holds one. */
    { "azurerm_duration_3__left_to_terraform_plan", AZURERM,
      "{\"frequency\": \"Daily\", \"interval\": 1, \"duration\": 3, "
      "\"start_time\": \"20:00\"}", true, "", true },
    { "arm_duration_3__below_minimum", ARM,
      "{\"schedule\": {\"daily\": {\"intervalDays\": 1}}, "
      "\"durationHours\": 3, \"startTime\": \"20:00\"}", true,
      "durationHours 3 is below the AKS minimum of 4", true },
    { "azurerm_empty_start_time__sent_as_empty", AZURERM,
      "{\"frequency\": \"Daily\", \"interval\": 1, \"duration\": 4, "
      "\"start_time\": \"\"}", false,
      "start_time is missing, and azurerm sends it as \"\", which AKS "
      "refuses (inferred: startTime is required, HH:mm)", true },
    { "azurerm_frequency_hourly__not_evaluable", AZURERM,
      AZ_BLOCK("Hourly", "1", ""), false,
      "frequency 'Hourly' is not Daily, Weekly, AbsoluteMonthly or "
      "RelativeMonthly", true },
    { "azurerm_interval_0__not_evaluable", AZURERM,
      AZ_BLOCK("Weekly", "0", ""), false,
      "interval 0 is outside the AKS range 1..4", true },
    { "azurerm_day_of_month_0_for_absolute_monthly__not_evaluable",
      AZURERM, AZ_BLOCK("AbsoluteMonthly", "1", ""), false,
      "day_of_month 0 is outside 1..31", true },
    { "azurerm_empty_day_of_week_for_weekly__not_evaluable", AZURERM,
      "{\"frequency\": \"Weekly\", \"interval\": 1, \"duration\": 4, "
      "\"day_of_week\": \"\", \"start_time\": \"20:00\"}", false,
      "day_of_week is missing", true },
    { "azurerm_start_date_not_rfc3339__reported", AZURERM,
      AZ_BLOCK("Weekly", "1", ", \"start_date\": \"21/04/2026\""), true,
      "start_date '21/04/2026' is not a valid date (YYYY-MM-DD or "
      "RFC 3339)", true },
    { "azurerm_not_allowed_end_before_start__reported", AZURERM,
      AZ_BLOCK("Weekly", "1", ", \"not_allowed\": [{\"start\": "
               "\"2026-12-31T00:00:00Z\", \"end\": "
               "\"2026-12-20T00:00:00Z\"}]"), true,
      "not_allowed[0] ends on 2026-12-20, before it starts on 2026-12-31",
      true },
    { "azurerm_not_an_object__not_evaluable", AZURERM, "\"weekly\"", false,
      "maintenance_window_node_os is not an object", true },
    /* utcOffset: whole quarter hours within 14 hours (API 2026-08-02). */
    { "arm_utc_offset_plus_15__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"utcOffset\": \"+15:00\""),
      true, "utcOffset '+15:00' is not one AKS accepts: whole quarter "
      "hours from -14:00 to +14:00", true },
    { "arm_utc_offset_minus_14_15__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"utcOffset\": \"-14:15\""),
      true, "utcOffset '-14:15' is not one AKS accepts", false },
    { "arm_utc_offset_twenty_past__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"utcOffset\": \"+05:20\""),
      true, "utcOffset '+05:20' is not one AKS accepts", false },
    { "arm_utc_offset_plus_14__accepted", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"utcOffset\": \"+14:00\""),
      true, "", true },
    { "arm_utc_offset_minus_14__accepted", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"utcOffset\": \"-14:00\""),
      true, "", true },
    { "arm_utc_offset_nepal_quarter__accepted", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"utcOffset\": \"+05:45\""),
      true, "", true },
    { "azurerm_utc_offset_plus_15__reported", AZURERM,
      "{\"frequency\": \"Daily\", \"interval\": 1, \"duration\": 4, "
      "\"start_time\": \"20:00\", \"utc_offset\": \"+15:00\"}", true,
      "utc_offset '+15:00' is not one AKS accepts: whole quarter hours "
      "from -14:00 to +14:00", true },
    /* Dates are dates in ARM; azurerm cuts its RFC 3339 text to a date. */
    { "arm_start_date_time__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, "
                      "\"startDate\": \"2027-03-01T00:00:00Z\""),
      true, "startDate '2027-03-01T00:00:00Z' is a date-time; AKS takes a "
      "date, YYYY-MM-DD", true },
    { "arm_not_allowed_date_time__reported", ARM,
      ARM_WEEKLY_WITH(", \"durationHours\": 4, \"notAllowedDates\": "
                      "[{\"start\": \"2027-12-20\", "
                      "\"end\": \"2028-01-02T00:00:00+01:00\"}]"),
      true, "notAllowedDates[0].end '2028-01-02T00:00:00+01:00' is a "
      "date-time; AKS takes a date, YYYY-MM-DD", true },
    { "azurerm_start_date_time__accepted", AZURERM,
      AZ_BLOCK("Weekly", "1", ", \"start_date\": \"2027-03-01T00:00:00Z\", "
               "\"not_allowed\": [{\"start\": \"2027-12-20T00:00:00Z\", "
               "\"end\": \"2028-01-02T00:00:00Z\"}]"),
      true, "", true },
};

static void problem_case_runs(void **state)
{
    const struct problem_case *c = *state;
    struct ndp_buf problems = NDP_BUF_INIT;
    struct ndp_window *w = parse_window(c->notation, c->window, &problems);

    if (c->evaluable)
        assert_non_null(w);
    else
        assert_null(w);
    if (c->exact)
        assert_string_equal(problems.buf, c->problem);
    else if (!strstr(problems.buf, c->problem)) {
        print_error("'%s' not in '%s'\n", c->problem, problems.buf);
        fail();
    }
    ndp_window_free(w);
    ndp_buf_release(&problems);
}

/* ---- describe and to_json ------------------------------------------- */

struct text_case {
    const char *name;
    enum notation notation;
    const char *window;
    const char *describe;
    const char *json;
};

#define CAVEAT_INTERVAL "the interval is counted from the first occurrence " \
    "on or after startDate"
#define CAVEAT_SKIPPED "a window that overlaps notAllowedDates is skipped " \
    "entirely"

static const struct text_case text_cases[] = {
    { "text_weekly_seed_example__plain_words", ARM, W_SAT_EST,
      "weekly on Saturday at 20:00 UTC-05:00 for 4 hours",
      "{\"schedule\":{\"weekly\":{\"intervalWeeks\":1,\"dayOfWeek\":"
      "\"Saturday\"}},\"durationHours\":4,\"utcOffset\":\"-05:00\","
      "\"startTime\":\"20:00\",\"startDate\":null,\"notAllowedDates\":[]}" },
    { "text_daily_every_2_days_from_start_date_except_span", ARM,
      "{\"schedule\": {\"daily\": {\"intervalDays\": 2}}, "
      "\"durationHours\": 6, \"utcOffset\": \"+05:30\", "
      "\"startTime\": \"01:00\", \"startDate\": \"2026-01-05\", "
      "\"notAllowedDates\": [{\"start\": \"2026-12-20\", "
      "\"end\": \"2027-01-02\"}]}",
      "every 2 days at 01:00 UTC+05:30 for 6 hours, from 2026-01-05, "
      "except 2026-12-20..2027-01-02 (" CAVEAT_INTERVAL "; "
      CAVEAT_SKIPPED ")",
      "{\"schedule\":{\"daily\":{\"intervalDays\":2}},\"durationHours\":6,"
      "\"utcOffset\":\"+05:30\",\"startTime\":\"01:00\","
      "\"startDate\":\"2026-01-05\",\"notAllowedDates\":[{\"start\":"
      "\"2026-12-20\",\"end\":\"2027-01-02\"}]}" },
    { "text_every_3_months_last_sunday_no_start_date__phase_caveat", ARM,
      W_REL("3", "Last", "Sunday", "03:00", ""),
      "every 3 months on the last Sunday at 03:00 UTC for 4 hours "
      "(without startDate AKS counts intervalMonths from the "
      "configuration's creation date, which ndplint cannot know: the "
      "window is never taken to be open, and the next opening given is "
      "the earliest possible one)",
      "{\"schedule\":{\"relativeMonthly\":{\"intervalMonths\":3,"
      "\"weekIndex\":\"Last\",\"dayOfWeek\":\"Sunday\"}},"
      "\"durationHours\":4,\"utcOffset\":\"+00:00\",\"startTime\":"
      "\"03:00\",\"startDate\":null,\"notAllowedDates\":[]}" },
    { "text_every_2_weeks__interval_in_words", ARM,
      W_SAT_2W(", \"startDate\": \"2026-01-04\""),
      "every 2 weeks on Saturday at 20:00 UTC-05:00 for 4 hours, from "
      "2026-01-04 (" CAVEAT_INTERVAL ")",
      "{\"schedule\":{\"weekly\":{\"intervalWeeks\":2,\"dayOfWeek\":"
      "\"Saturday\"}},\"durationHours\":4,\"utcOffset\":\"-05:00\","
      "\"startTime\":\"20:00\",\"startDate\":\"2026-01-04\","
      "\"notAllowedDates\":[]}" },
    { "text_monthly_day_31__short_month_caveat", ARM,
      W_ABS("1", "31", "00:00", "24", ""),
      "monthly on day 31 at 00:00 UTC for 24 hours (dayOfMonth 31 is "
      "taken to have no window in shorter months)",
      "{\"schedule\":{\"absoluteMonthly\":{\"intervalMonths\":1,"
      "\"dayOfMonth\":31}},\"durationHours\":24,\"utcOffset\":\"+00:00\","
      "\"startTime\":\"00:00\",\"startDate\":null,\"notAllowedDates\":[]}" },
    { "text_azurerm_relative_monthly__arm_terms", AZURERM, AZ_RELATIVE,
      "every 2 months on the last Sunday at 03:00 UTC for 6 hours, from "
      "2026-01-01, except 2026-03-01..2026-03-31 (" CAVEAT_INTERVAL "; "
      CAVEAT_SKIPPED ")",
      "{\"schedule\":{\"relativeMonthly\":{\"intervalMonths\":2,"
      "\"weekIndex\":\"Last\",\"dayOfWeek\":\"Sunday\"}},"
      "\"durationHours\":6,\"utcOffset\":\"+00:00\",\"startTime\":"
      "\"03:00\",\"startDate\":\"2026-01-01\",\"notAllowedDates\":[{"
      "\"start\":\"2026-03-01\",\"end\":\"2026-03-31\"}]}" },
    { "text_duration_30_single_day_span__caveats", ARM,
      "{\"schedule\": {\"weekly\": {\"intervalWeeks\": 1, \"dayOfWeek\": "
      "\"monday\"}}, \"durationHours\": 30, \"startTime\": \"08:15\", "
      "\"notAllowedDates\": [{\"start\": \"2026-12-25\", "
      "\"end\": \"2026-12-25\"}]}",
      "weekly on Monday at 08:15 UTC for 30 hours, except 2026-12-25 "
      "(durationHours 30 is evaluated as 24, the AKS maximum; "
      CAVEAT_SKIPPED ")",
      "{\"schedule\":{\"weekly\":{\"intervalWeeks\":1,\"dayOfWeek\":"
      "\"Monday\"}},\"durationHours\":30,\"utcOffset\":\"+00:00\","
      "\"startTime\":\"08:15\",\"startDate\":null,\"notAllowedDates\":[{"
      "\"start\":\"2026-12-25\",\"end\":\"2026-12-25\"}]}" },
    { "text_duration_missing__taken_as_4_caveat", ARM,
      ARM_DAILY("1", "null", "\"23:45\""),
      "every day at 23:45 UTC for 4 hours (durationHours is missing or "
      "unreadable and is taken as 4 hours, the AKS minimum)",
      "{\"schedule\":{\"daily\":{\"intervalDays\":1}},\"durationHours\":4,"
      "\"utcOffset\":\"+00:00\",\"startTime\":\"23:45\",\"startDate\":null,"
      "\"notAllowedDates\":[]}" },
};

static void text_case_runs(void **state)
{
    const struct text_case *c = *state;
    struct ndp_buf problems = NDP_BUF_INIT;
    struct ndp_buf out = NDP_BUF_INIT;
    struct ndp_window *w = parse_window(c->notation, c->window, &problems);
    struct json_object *reparsed;

    assert_non_null(w);
    ndp_report_schedule_words(&out, w);
    assert_string_equal(out.buf, c->describe);
    ndp_buf_reset(&out);
    ndp_report_schedule_json(&out, w);
    assert_string_equal(out.buf, c->json);
    /* The JSON is valid ARM and reads back to the same JSON. */
    reparsed = json_tokener_parse(out.buf);
    assert_non_null(reparsed);
    ndp_window_free(w);
    w = ndp_window_from_arm(reparsed, NULL);
    assert_non_null(w);
    ndp_buf_reset(&out);
    ndp_report_schedule_json(&out, w);
    assert_string_equal(out.buf, c->json);
    json_object_put(reparsed);
    ndp_window_free(w);
    ndp_buf_release(&out);
    ndp_buf_release(&problems);
}

/* ---- values known only after apply (after_unknown) ----------------- */

struct unknown_case {
    const char *name;
    enum notation notation;
    const char *window;      /* "null" when the whole window is unknown */
    const char *unknown;     /* its after_unknown mask */
    const char *at;
    bool evaluable;
    bool open;
    bool has_next;
    const char *problems;
    const char *words;       /* part of the describe text */
};

#define AZ_SAT(extra)                                                     \
    "{\"frequency\": \"Weekly\", \"interval\": 1, "                      \
    "\"day_of_week\": \"Saturday\", \"utc_offset\": \"-05:00\"" extra "}"
#define ARM_SAT(extra)                                                    \
    "{\"schedule\": {\"weekly\": {\"intervalWeeks\": 1, "                 \
    "\"dayOfWeek\": \"Saturday\"}}, \"utcOffset\": \"-05:00\"" extra "}"
#define SAT_2100 "2026-12-05T21:00:00-05:00"
#define UNKNOWN_WORDS "the window cannot be fully evaluated, and an "      \
    "instant that depends on the unknown part is taken to be outside it"

static const struct unknown_case unknown_cases[] = {
    { "unknown_azurerm_start_time__closed_without_next", AZURERM,
      AZ_SAT(", \"duration\": 4"), "{\"start_time\": true}", SAT_2100,
      true, false, false, "",
      "weekly on Saturday at an unknown time UTC-05:00 for 4 hours "
      "(unknown: start_time; " UNKNOWN_WORDS ")" },
    { "unknown_azurerm_duration__first_4_hours_inside", AZURERM,
      AZ_SAT(", \"start_time\": \"20:00\""), "{\"duration\": true}",
      "2026-12-05T23:59:59-05:00", true, true, true, "",
      "for an unknown number of hours (unknown: duration; only its first "
      "4 hours, the AKS minimum, are taken to be inside)" },
    { "unknown_azurerm_duration__fifth_hour_outside", AZURERM,
      AZ_SAT(", \"start_time\": \"20:00\""), "{\"duration\": true}",
      "2026-12-06T00:00:00-05:00", true, false, true, "", "" },
    { "unknown_arm_day_of_week__closed_without_next", ARM,
      "{\"schedule\": {\"weekly\": {\"intervalWeeks\": 1}}, "
      "\"durationHours\": 4, \"startTime\": \"20:00\"}",
      "{\"schedule\": {\"weekly\": {\"dayOfWeek\": true}}}", SAT_2100,
      true, false, false, "",
      "a partly unknown schedule at 20:00 UTC for 4 hours "
      "(unknown: dayOfWeek; " UNKNOWN_WORDS ")" },
    { "unknown_arm_duration__known_values_still_judged", ARM,
      "{\"schedule\": {\"daily\": {\"intervalDays\": 1}}, "
      "\"startTime\": \"20:00\", \"utcOffset\": \"+15:00\"}",
      "{\"durationHours\": true}", SAT_2100, true, false, true,
      "utcOffset '+15:00' is not one AKS accepts: whole quarter hours "
      "from -14:00 to +14:00", "" },
    { "unknown_arm_whole_window__closed_without_next", ARM, "null", "true",
      SAT_2100, true, false, false, "",
      "an unknown schedule at an unknown time at an unknown UTC offset "
      "for an unknown number of hours (unknown: schedule, durationHours, "
      "startTime, utcOffset, startDate, notAllowedDates; " },
    { "unknown_arm_start_date__closed", ARM,
      ARM_SAT(", \"durationHours\": 4, \"startTime\": \"20:00\""),
      "{\"startDate\": true}", SAT_2100, true, false, false, "",
      "unknown: startDate;" },
    { "unknown_arm_not_allowed_entry__closed", ARM,
      ARM_SAT(", \"durationHours\": 4, \"startTime\": \"20:00\", "
              "\"notAllowedDates\": [{\"start\": \"2027-01-01\"}]"),
      "{\"notAllowedDates\": [{\"end\": true}]}", SAT_2100, true, false,
      false, "", "unknown: notAllowedDates;" },
    { "unknown_mask_elsewhere__missing_still_reported", AZURERM,
      AZ_SAT(", \"start_time\": \"20:00\""), "{\"start_date\": true}",
      SAT_2100, true, false, false, "duration is missing", "" },
    { "unknown_mask_elsewhere__missing_start_time_not_evaluable", ARM,
      ARM_SAT(", \"durationHours\": 4"), "{\"startDate\": true}",
      SAT_2100, false, false, false, "startTime is missing", "" },
};

static void unknown_case_runs(void **state)
{
    const struct unknown_case *c = *state;
    struct json_object *root = json_tokener_parse(c->window);
    struct json_object *mask = json_tokener_parse(c->unknown);
    struct ndp_buf problems = NDP_BUF_INIT;
    struct ndp_buf words = NDP_BUF_INIT;
    struct ndp_window *w;

    assert_non_null(mask);
    w = c->notation == ARM
            ? ndp_window_from_arm_unknown(root, mask, &problems)
            : ndp_window_from_azurerm_unknown(root, mask, &problems);
    assert_string_equal(problems.buf, c->problems);
    if (!c->evaluable) {
        assert_null(w);
        goto out;
    }
    assert_non_null(w);
    assert_true(ndp_window_partly_unknown(w));
    assert_int_equal(ndp_window_is_open(w, instant(c->at), NULL), c->open);
    assert_int_equal(ndp_window_next(w, instant(c->at), NULL, NULL),
                     c->has_next);
    assert_int_equal(ndp_window_opening_unknown(w), !c->has_next);
    ndp_report_schedule_words(&words, w);
    if (!strstr(words.buf, c->words)) {
        print_error("'%s' not in '%s'\n", c->words, words.buf);
        fail();
    }
out:
    ndp_window_free(w);
    json_object_put(root);
    json_object_put(mask);
    ndp_buf_release(&problems);
    ndp_buf_release(&words);
}

static void unknown_whole_window__json_names_the_parts(void **state)
{
    struct json_object *mask = json_tokener_parse("true");
    struct ndp_window *w = ndp_window_from_arm_unknown(NULL, mask, NULL);
    struct ndp_buf out = NDP_BUF_INIT;

    (void)state;
    ndp_report_schedule_json(&out, w);
    assert_string_equal(out.buf, "{\"schedule\":null,\"durationHours\":null,"
                        "\"utcOffset\":null,\"startTime\":null,"
                        "\"startDate\":null,\"notAllowedDates\":null,"
                        "\"unknown\":[\"schedule\",\"durationHours\","
                        "\"startTime\",\"utcOffset\",\"startDate\","
                        "\"notAllowedDates\"]}");
    ndp_window_free(w);
    json_object_put(mask);
    ndp_buf_release(&out);
}

static void known_window__not_partly_unknown(void **state)
{
    struct ndp_window *w = parse_window(ARM, W_SAT_EST, NULL);

    (void)state;
    assert_false(ndp_window_partly_unknown(w));
    assert_false(ndp_window_opening_unknown(w));
    ndp_window_free(w);
}

/* ---- a startDate already past --------------------------------------- */

static void start_date_past__at_the_window_offset(void **state)
{
    struct ndp_window *w = parse_window(
        ARM, W_SAT_2W(", \"startDate\": \"2026-03-14\""), NULL);
    struct ndp_buf problems = NDP_BUF_INIT;

    (void)state;
    /* 2026-03-14 23:59:59 at -05:00: still the start date there. */
    assert_false(ndp_window_check_start_date(
        w, instant("2026-03-15T04:59:59Z"), &problems));
    assert_string_equal(problems.buf, "");
    assert_true(ndp_window_check_start_date(
        w, instant("2026-03-15T05:00:00Z"), &problems));
    assert_string_equal(problems.buf,
                        "startDate 2026-03-14 is before the current date "
                        "(2026-03-15 at the window's UTC offset), and AKS "
                        "refuses to set a window that starts in the past "
                        "(\"The input 'maintenanceWindow.startDate' ... is "
                        "before the current time\")");
    ndp_window_free(w);
    ndp_buf_release(&problems);
}

/*
 * A configuration the PUT creates (put-time-limits PT-MW-05): the same
 * dates, and the refusal said to be unconfirmed.
 */
static void new_start_date_past__refusal_unconfirmed(void **state)
{
    struct ndp_window *w = parse_window(
        ARM, W_SAT_2W(", \"startDate\": \"2026-03-14\""), NULL);
    struct ndp_buf problems = NDP_BUF_INIT;

    (void)state;
    assert_false(ndp_window_check_new_start_date(
        w, instant("2026-03-15T04:59:59Z"), &problems));
    assert_string_equal(problems.buf, "");
    assert_true(ndp_window_check_new_start_date(
        w, instant("2026-03-15T05:00:00Z"), &problems));
    assert_string_equal(problems.buf,
                        "startDate 2026-03-14 is before the current date "
                        "(2026-03-15 at the window's UTC offset): AKS "
                        "refuses to set a window that starts in the past on "
                        "a configuration that exists (\"The input "
                        "'maintenanceWindow.startDate' ... is before the "
                        "current time\"), and whether it refuses one that "
                        "creates the configuration is unconfirmed");
    assert_false(ndp_window_check_new_start_date(NULL, 0, NULL));
    ndp_window_free(w);
    ndp_buf_release(&problems);
}

static void start_date_absent__never_past(void **state)
{
    struct ndp_window *w = parse_window(ARM, W_SAT_EST, NULL);

    (void)state;
    assert_false(ndp_window_check_start_date(
        w, instant("2030-01-01T00:00:00Z"), NULL));
    assert_false(ndp_window_check_start_date(NULL, 0, NULL));
    ndp_window_free(w);
}

static void start_date_azurerm__named_in_its_notation(void **state)
{
    struct ndp_window *w = parse_window(AZURERM, AZ_RELATIVE, NULL);
    struct ndp_buf problems = NDP_BUF_INIT;

    (void)state;
    assert_true(ndp_window_check_start_date(
        w, instant("2026-12-05T12:00:00Z"), &problems));
    assert_non_null(strstr(problems.buf, "start_date 2026-01-01 is before"));
    ndp_window_free(w);
    ndp_buf_release(&problems);
}

/* ---- single behaviours ---------------------------------------------- */

static void phase_unknown__only_interval_above_1_without_start_date(
    void **state)
{
    struct ndp_window *w;

    (void)state;
    w = parse_window(ARM, W_SAT_2W(""), NULL);
    assert_true(ndp_window_phase_unknown(w));
    ndp_window_free(w);
    w = parse_window(ARM, W_SAT_2W(", \"startDate\": \"2026-01-04\""), NULL);
    assert_false(ndp_window_phase_unknown(w));
    ndp_window_free(w);
    w = parse_window(ARM, W_SAT_EST, NULL);
    assert_false(ndp_window_phase_unknown(w));
    ndp_window_free(w);
    assert_false(ndp_window_phase_unknown(NULL));
}

static void utc_offset_minutes__signed(void **state)
{
    struct ndp_window *w;

    (void)state;
    w = parse_window(ARM, W_SAT_EST, NULL);
    assert_int_equal(ndp_window_utc_offset_minutes(w), -300);
    ndp_window_free(w);
    w = parse_window(ARM, W_MON_TOKYO, NULL);
    assert_int_equal(ndp_window_utc_offset_minutes(w), 540);
    ndp_window_free(w);
    w = parse_window(AZURERM, AZ_DAILY_DEFAULTS, NULL);
    assert_int_equal(ndp_window_utc_offset_minutes(w), 0);
    ndp_window_free(w);
}

static void problems_after_existing_text__semicolon_separated(void **state)
{
    struct ndp_buf problems = NDP_BUF_INIT;
    struct ndp_window *w;

    (void)state;
    ndp_buf_adds(&problems, "earlier");
    w = parse_window(ARM, ARM_WEEKLY_WITH(", \"durationHours\": 3"),
                     &problems);
    assert_string_equal(problems.buf, "earlier; durationHours 3 is below "
                        "the AKS minimum of 4");
    ndp_window_free(w);
    ndp_buf_release(&problems);
}

static void null_arguments__accepted(void **state)
{
    struct ndp_window *w;

    (void)state;
    ndp_window_free(NULL);
    assert_false(ndp_window_is_open(NULL, 0, NULL));
    assert_false(ndp_window_next(NULL, 0, NULL, NULL));
    w = parse_window(ARM, W_DAILY_24, NULL);
    assert_true(ndp_window_is_open(w, 0, NULL));
    assert_true(ndp_window_next(w, 0, NULL, NULL));
    ndp_window_free(w);
}

static void instant_out_of_range__closed_without_next(void **state)
{
    struct ndp_window *w;

    (void)state;
    w = parse_window(ARM, W_DAILY_24, NULL);
    assert_false(ndp_window_is_open(w, INT64_MAX, NULL));
    assert_false(ndp_window_next(w, INT64_MAX, NULL, NULL));
    assert_false(ndp_window_is_open(w, INT64_MIN, NULL));
    assert_false(ndp_window_next(w, INT64_MIN, NULL, NULL));
    ndp_window_free(w);
}

/* Every instant of a year agrees with next(): open exactly in windows. */
static void relative_monthly_year_sweep__is_open_agrees_with_next(void **state)
{
    struct ndp_window *w;
    int64_t t = instant("2026-01-01T00:00:00Z");
    int64_t stop = instant("2027-01-01T00:00:00Z");
    int64_t start;
    int64_t end;
    int64_t closes;

    (void)state;
    w = parse_window(AZURERM, AZ_RELATIVE, NULL);
    while (ndp_window_next(w, t, &start, &end) && start < stop) {
        assert_false(ndp_window_is_open(w, start - 1, NULL));
        assert_true(ndp_window_is_open(w, start, &closes));
        assert_int_equal(closes, end);
        assert_true(ndp_window_is_open(w, end - 1, NULL));
        assert_false(ndp_window_is_open(w, end, NULL));
        t = end;
    }
    ndp_window_free(w);
}

/*
 * The first minute from 'at' (within 'minutes') when both are open, and
 * the end of that stretch (the earlier close of the two occurrences).
 */
static bool brute_common(const struct ndp_window *a,
                         const struct ndp_window *b, int64_t at,
                         int64_t minutes, int64_t *start, int64_t *end)
{
    int64_t t;

    for (t = at; t < at + minutes * 60; t += 60) {
        int64_t ca, cb;
        if (ndp_window_is_open(a, t, &ca) && ndp_window_is_open(b, t, &cb)) {
            /* Ends where the first of the two occurrences closes. */
            *start = t;
            *end = ca < cb ? ca : cb;
            return true;
        }
    }
    return false;
}

/*
 * ndp_window_next_common() against a minute-by-minute scan over 16 days,
 * for every pair of the windows above and several starting instants.
 */
static void next_common__agrees_with_a_minute_scan(void **state)
{
    static const char *const windows[] = {
        W_SAT_EST, W_MON_TOKYO, W_DAILY_22, W_DAILY_24,
        W_DAILY_3(", \"startDate\": \"2026-11-30\""),
        W_SAT_2W(", \"startDate\": \"2026-11-28\""),
        "{\"schedule\": {\"weekly\": {\"intervalWeeks\": 1, "
        "\"dayOfWeek\": \"Sunday\"}}, \"durationHours\": 4, "
        "\"startTime\": \"03:00\"}",
    };
    static const char *const starts[] = {
        "2026-12-01T00:00:00Z", "2026-12-06T03:30:00Z", "2026-12-06T04:59:00Z",
    };
    size_t i, j, k, found = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(windows); i++) {
        for (j = 0; j < NDP_ARRAY_SIZE(windows); j++) {
            struct ndp_window *a = parse_window(ARM, windows[i], NULL);
            struct ndp_window *b = parse_window(ARM, windows[j], NULL);
            for (k = 0; k < NDP_ARRAY_SIZE(starts); k++) {
                int64_t at = instant(starts[k]), s = 0, e = 0, bs, be;
                bool got = ndp_window_next_common(a, b, at, &s, &e);
                bool want = brute_common(a, b, at, 16 * 24 * 60, &bs, &be);
                if (want) {
                    found++;
                    assert_true(got);
                    assert_int_equal(s, bs);
                    assert_int_equal(e, be);
                } else {
                    assert_true(!got || s >= at + 16 * 24 * 3600);
                }
            }
            ndp_window_free(a);
            ndp_window_free(b);
        }
    }
    assert_true(found > 20);
}

/* Windows that never meet: no common opening. */
static void next_common__none_when_windows_never_overlap(void **state)
{
    struct ndp_window *a = parse_window(ARM, W_SAT_EST, NULL);
    struct ndp_window *b = parse_window(ARM, W_MON_TOKYO, NULL);
    int64_t s, e;

    (void)state;
    assert_false(ndp_window_next_common(a, b, instant("2026-12-01T00:00:00Z"),
                                        &s, &e));
    ndp_window_free(a);
    ndp_window_free(b);
}

/* The legacy hours of the default configuration, as AKS reads them. */
static void legacy_problems(const char *week, const char *times, bool partial,
                            const char *want)
{
    struct json_object *w = week ? test_json(week) : NULL;
    struct json_object *t = times ? test_json(times) : NULL;
    struct ndp_buf out = NDP_BUF_INIT;

    ndp_window_legacy_problems(&out, w, t, partial);
    assert_string_equal(out.len ? out.buf : "", want);
    json_object_put(w);
    json_object_put(t);
    ndp_buf_release(&out);
}

static void legacy_hours__days_slots_and_date_times(void **state)
{
    (void)state;
    legacy_problems("[{'day':'Monday','hourSlots':[0,23]}]",
                    "[{'start':'2026-12-24T00:00:00Z',"
                    "'end':'2026-12-26T00:00:00Z'}]", false, "");
    legacy_problems(NULL, NULL, false, "");
    legacy_problems("[{'day':'Funday','hourSlots':[1]}]", NULL, false,
                    "timeInWeek[0].day is not a day of the week "
                    "(Sunday..Saturday)");
    legacy_problems("[{'day':'sunday','hourSlots':[24]}]", NULL, false,
                    "timeInWeek[0].hourSlots[0] is not an hour 0..23");
    legacy_problems("[{'day':'Sunday','hourSlots':'1-3'}]", NULL, false,
                    "timeInWeek[0].hourSlots is not an array");
    legacy_problems("{'day':'Sunday'}", "'x'", false,
                    "timeInWeek is not an array; notAllowedTime is not an "
                    "array");
    legacy_problems(NULL, "[{'start':'soon'}]", false,
                    "notAllowedTime[0].start is not a date-time; "
                    "notAllowedTime[0].end is not a date-time");
    /* A what-if delta leaves out what does not change. */
    legacy_problems("[{'hourSlots':[2]}]", "[{'start':'soon'}]", true,
                    "notAllowedTime[0].start is not a date-time");
}

int main(void)
{
    static struct test_list list;
    int failed;

    ADD_TEST(&list, legacy_hours__days_slots_and_date_times);
    ADD_ROWS(&list, query_cases, query_case_runs);
    ADD_ROWS(&list, problem_cases, problem_case_runs);
    ADD_ROWS(&list, text_cases, text_case_runs);
    ADD_ROWS(&list, unknown_cases, unknown_case_runs);
    ADD_TEST(&list, unknown_whole_window__json_names_the_parts);
    ADD_TEST(&list, known_window__not_partly_unknown);
    ADD_TEST(&list, start_date_past__at_the_window_offset);
    ADD_TEST(&list, start_date_absent__never_past);
    ADD_TEST(&list, new_start_date_past__refusal_unconfirmed);
    ADD_TEST(&list, start_date_azurerm__named_in_its_notation);
    ADD_TEST(&list, phase_unknown__only_interval_above_1_without_start_date);
    ADD_TEST(&list, utc_offset_minutes__signed);
    ADD_TEST(&list, problems_after_existing_text__semicolon_separated);
    ADD_TEST(&list, null_arguments__accepted);
    ADD_TEST(&list, instant_out_of_range__closed_without_next);
    ADD_TEST(&list, relative_monthly_year_sweep__is_open_agrees_with_next);
    ADD_TEST(&list, next_common__agrees_with_a_minute_scan);
    ADD_TEST(&list, next_common__none_when_windows_never_overlap);
    failed = cmocka_run_group_tests_name("window", list.items, NULL, NULL);
    return failed;
}

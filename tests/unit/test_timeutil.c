/*
 * SPDX-License-Identifier: Apache-2.0
 * test_timeutil.c - unit tests for timeutil: RFC 3339 and date parsing,
 * the civil-date conversions, weekdays and the formatters.
 *
 * Each table row becomes one cmocka test named after the behaviour it
 * checks, so a failure names the row.
 */
#include "test_common.h"
#include "buf.h"
#include "timeutil.h"

struct parse_case {
    const char *name;
    const char *text;
    bool ok;
    int64_t expected;
};

static const struct parse_case parse_cases[] = {
    { "rfc3339_epoch__zero", "1970-01-01T00:00:00Z", true, 0 },
    { "rfc3339_before_epoch__negative", "1969-12-31T23:59:59Z", true, -1 },
    { "rfc3339_utc_z__parsed", "2026-12-06T02:30:00Z", true, 1796524200 },
    { "rfc3339_negative_offset__converted_to_utc",
      "2026-12-05T21:30:00-05:00", true, 1796524200 },
    { "rfc3339_positive_offset_across_date__converted_to_utc",
      "2026-12-06T08:00:00+05:30", true, 1796524200 },
    { "rfc3339_lowercase_t_and_z__accepted", "2026-12-06t02:30:00z", true,
      1796524200 },
    { "rfc3339_fraction__dropped", "2026-12-06T02:30:00.987654Z", true,
      1796524200 },
    { "rfc3339_plus_zero_offset__utc", "2026-12-06T02:30:00+00:00", true,
      1796524200 },
    { "rfc3339_leap_day__accepted", "2024-02-29T12:00:00Z", true,
      1709208000 },
    { "rfc3339_offset_plus_14__accepted", "2000-03-01T00:00:00+14:00", true,
      951818400 },
    { "rfc3339_year_9999__accepted", "9999-12-31T23:59:59Z", true,
      253402300799 },
    { "rfc3339_year_1__accepted", "0001-01-01T00:00:00Z", true,
      -62135596800 },
    { "rfc3339_feb_30__rejected", "2026-02-30T00:00:00Z", false, 0 },
    { "rfc3339_feb_29_non_leap__rejected", "2025-02-29T00:00:00Z", false, 0 },
    { "rfc3339_feb_29_1900__rejected", "1900-02-29T00:00:00Z", false, 0 },
    { "rfc3339_april_31__rejected", "2026-04-31T00:00:00Z", false, 0 },
    { "rfc3339_month_13__rejected", "2026-13-01T00:00:00Z", false, 0 },
    { "rfc3339_month_0__rejected", "2026-00-10T00:00:00Z", false, 0 },
    { "rfc3339_day_0__rejected", "2026-01-00T00:00:00Z", false, 0 },
    { "rfc3339_hour_24__rejected", "2026-01-01T24:00:00Z", false, 0 },
    { "rfc3339_minute_60__rejected", "2026-01-01T23:60:00Z", false, 0 },
    { "rfc3339_leap_second__rejected", "2026-12-31T23:59:60Z", false, 0 },
    { "rfc3339_missing_offset__rejected", "2026-01-01T00:00:00", false, 0 },
    { "rfc3339_space_separator__rejected", "2026-01-01 00:00:00Z", false, 0 },
    { "rfc3339_missing_seconds__rejected", "2026-01-01T00:00Z", false, 0 },
    { "rfc3339_short_offset__rejected", "2026-01-01T00:00:00+5:00", false,
      0 },
    { "rfc3339_offset_minute_60__rejected", "2026-01-01T00:00:00+05:60",
      false, 0 },
    { "rfc3339_offset_hour_24__rejected", "2026-01-01T00:00:00+24:00", false,
      0 },
    { "rfc3339_empty_fraction__rejected", "2026-01-01T00:00:00.Z", false,
      0 },
    { "rfc3339_trailing_text__rejected", "2026-01-01T00:00:00Zjunk", false,
      0 },
    { "rfc3339_single_digit_month__rejected", "2026-1-01T00:00:00Z", false,
      0 },
    { "rfc3339_date_only__rejected", "2026-01-01", false, 0 },
    { "rfc3339_empty__rejected", "", false, 0 },
};

struct date_case {
    const char *name;
    const char *text;
    bool ok;
    int64_t days;
};

static const struct date_case date_cases[] = {
    { "date_epoch__day_0", "1970-01-01", true, 0 },
    { "date_2000_03_01__day_11017", "2000-03-01", true, 11017 },
    { "date_leap_day_2028__accepted", "2028-02-29", true, 21243 },
    { "date_leap_day_1600__accepted", "1600-02-29", true, -135081 },
    { "date_feb_29_2027__rejected", "2027-02-29", false, 0 },
    { "date_feb_29_2100__rejected", "2100-02-29", false, 0 },
    { "date_april_31__rejected", "2026-04-31", false, 0 },
    { "date_with_time__rejected", "2026-04-30T00:00:00Z", false, 0 },
    { "date_two_digit_year__rejected", "26-04-30", false, 0 },
    { "date_slashes__rejected", "2026/04/30", false, 0 },
};

struct civil_case {
    const char *name;
    int64_t y;
    unsigned m;
    unsigned d;
    int64_t days;
    unsigned weekday;
};

static const struct civil_case civil_cases[] = {
    { "civil_epoch__thursday", 1970, 1, 1, 0, 4 },
    { "civil_day_before_epoch__wednesday", 1969, 12, 31, -1, 3 },
    { "civil_2026_01_01__thursday", 2026, 1, 1, 20454, 4 },
    { "civil_2026_03_07__saturday", 2026, 3, 7, 20519, 6 },
    { "civil_2028_02_29__tuesday", 2028, 2, 29, 21243, 2 },
    { "civil_year_1__monday", 1, 1, 1, -719162, 1 },
    { "civil_year_0_march_1__wednesday", 0, 3, 1, -719468, 3 },
};

struct format_case {
    const char *name;
    int64_t t;
    bool utc;
    int offset_minutes;
    const char *expected;
};

static const struct format_case format_cases[] = {
    { "format_utc_epoch__z", 0, true, 0, "1970-01-01T00:00:00Z" },
    { "format_utc_before_epoch__previous_day", -1, true, 0,
      "1969-12-31T23:59:59Z" },
    { "format_utc_2026__z", 1796524200, true, 0, "2026-12-06T02:30:00Z" },
    { "format_offset_negative__previous_local_date", 1796524200, false, -300,
      "2026-12-05T21:30:00-05:00" },
    { "format_offset_half_hour__local_time", 1796524200, false, 330,
      "2026-12-06T08:00:00+05:30" },
    { "format_offset_zero__plus_sign", 1796524200, false, 0,
      "2026-12-06T02:30:00+00:00" },
    { "format_offset_crossing_year__new_year", 1798761600 - 1, false, 60,
      "2027-01-01T00:59:59+01:00" },
    { "format_utc_last_instant__printed", NDP_TIME_MAX, true, 0,
      "9999-12-31T23:59:59Z" },
    { "format_utc_past_9999__words", NDP_TIME_MAX + 1, true, 0,
      "after the end of 9999" },
    { "format_utc_far_past_9999__words", NDP_TIME_MAX + 86400 * 400LL, true,
      0, "after the end of 9999" },
    { "format_offset_local_last_instant__printed", NDP_TIME_MAX - 3600, false,
      60, "9999-12-31T23:59:59+01:00" },
    { "format_offset_local_past_9999__words", NDP_TIME_MAX, false, 60,
      "after the end of 9999" },
    { "format_offset_local_before_0000__words", NDP_TIME_MIN, false, -300,
      "before the start of 0000" },
    { "format_utc_first_instant__printed", NDP_TIME_MIN, true, 0,
      "0000-01-01T00:00:00Z" },
};

/* --at's forms, read against a fixed "now": 2026-12-01T10:00:00Z. */
#define AT_NOW 1796119200

static const struct parse_case at_cases[] = {
    { "at_rfc3339_with_seconds__parsed", "2026-12-06T02:30:00Z", true,
      1796524200 },
    { "at_rfc3339_without_seconds__parsed", "2026-12-06T02:30Z", true,
      1796524200 },
    { "at_without_seconds_with_offset__converted_to_utc",
      "2026-12-05T21:30-05:00", true, 1796524200 },
    { "at_fraction__dropped", "2026-12-06T02:30:00.5Z", true, 1796524200 },
    { "at_date_alone__midnight_utc", "2026-12-06", true, 1796515200 },
    { "at_leap_day_alone__midnight_utc", "2028-02-29", true, 1835395200 },
    { "at_now__now", "now", true, AT_NOW },
    { "at_plus_minutes__from_now", "+90m", true, AT_NOW + 90 * 60 },
    { "at_plus_hours__from_now", "+6h", true, AT_NOW + 6 * 3600 },
    { "at_plus_days__from_now", "+2d", true, AT_NOW + 2 * 86400 },
    { "at_plus_zero__now", "+0h", true, AT_NOW },
    { "at_plus_six_digits__accepted", "+999999m", true,
      AT_NOW + 999999 * 60 },
    { "at_plus_seven_digits__rejected", "+1000000m", false, 0 },
    { "at_minus_offset__rejected", "-2h", false, 0 },
    { "at_no_sign__rejected", "90m", false, 0 },
    { "at_no_digits__rejected", "+h", false, 0 },
    { "at_no_unit__rejected", "+90", false, 0 },
    { "at_seconds_unit__rejected", "+90s", false, 0 },
    { "at_week_unit__rejected", "+1w", false, 0 },
    { "at_long_unit__rejected", "+90min", false, 0 },
    { "at_space_before_unit__rejected", "+90 m", false, 0 },
    { "at_uppercase_unit__rejected", "+6H", false, 0 },
    { "at_two_offsets__rejected", "+1d2h", false, 0 },
    { "at_now_with_offset__rejected", "now+6h", false, 0 },
    { "at_now_uppercase__rejected", "NOW", false, 0 },
    { "at_empty__rejected", "", false, 0 },
    { "at_date_with_z__rejected", "2026-12-06Z", false, 0 },
    { "at_date_with_t__rejected", "2026-12-06T", false, 0 },
    { "at_bad_date__rejected", "2026-02-30", false, 0 },
    { "at_hour_alone__rejected", "2026-12-06T02Z", false, 0 },
    { "at_missing_offset__rejected", "2026-12-06T02:30", false, 0 },
    { "at_space_separator__rejected", "2026-12-06 02:30Z", false, 0 },
    { "at_one_digit_seconds__rejected", "2026-12-06T02:30:0Z", false, 0 },
    { "at_minute_60__rejected", "2026-12-06T02:60Z", false, 0 },
    { "at_before_year_0000__rejected", "0000-01-01T00:00:00+01:00", false,
      0 },
    { "at_words__rejected", "tomorrow", false, 0 },
};

static void at_case_runs(void **state)
{
    const struct parse_case *c = *state;
    int64_t t = 12345;
    int rc = ndp_time_parse_at(&t, c->text, AT_NOW);

    if (c->ok) {
        assert_int_equal(rc, 0);
        assert_int_equal(t, c->expected);
    } else {
        assert_int_equal(rc, -1);
        assert_int_equal(t, 12345);
    }
}

static void at_past_year_9999__rejected(void **state)
{
    int64_t t = 12345;

    (void)state;
    assert_int_equal(ndp_time_parse_at(&t, "+0m", NDP_TIME_MAX), 0);
    assert_int_equal(t, NDP_TIME_MAX);
    assert_int_equal(ndp_time_parse_at(&t, "+1m", NDP_TIME_MAX), -1);
    assert_int_equal(ndp_time_parse_at(&t, "now", NDP_TIME_MIN - 1), -1);
    assert_int_equal(t, NDP_TIME_MAX);
}

static void parse_case_runs(void **state)
{
    const struct parse_case *c = *state;
    int64_t t = 12345;
    int rc = ndp_time_parse_rfc3339(&t, c->text);

    if (c->ok) {
        assert_int_equal(rc, 0);
        assert_int_equal(t, c->expected);
    } else {
        assert_int_equal(rc, -1);
        assert_int_equal(t, 12345);
    }
}

static void date_case_runs(void **state)
{
    const struct date_case *c = *state;
    int64_t days = 12345;
    int rc = ndp_date_parse(&days, c->text);

    assert_int_equal(rc, c->ok ? 0 : -1);
    assert_int_equal(days, c->ok ? c->days : 12345);
}

static void civil_case_runs(void **state)
{
    const struct civil_case *c = *state;
    int64_t y;
    unsigned m;
    unsigned d;

    assert_int_equal(ndp_days_from_civil(c->y, c->m, c->d), c->days);
    ndp_civil_from_days(c->days, &y, &m, &d);
    assert_int_equal(y, c->y);
    assert_int_equal(m, c->m);
    assert_int_equal(d, c->d);
    assert_int_equal(ndp_weekday_from_days(c->days), c->weekday);
}

static void format_case_runs(void **state)
{
    const struct format_case *c = *state;
    struct ndp_buf out = NDP_BUF_INIT;

    if (c->utc)
        ndp_time_format_utc(&out, c->t);
    else
        ndp_time_format_offset(&out, c->t, c->offset_minutes);
    assert_string_equal(out.buf, c->expected);
    ndp_buf_release(&out);
}

/* Walks day by day across 4000 years: each step is the next calendar day. */
static void civil_walk_over_4000_years__every_day_follows_the_last(
    void **state)
{
    int64_t start = ndp_days_from_civil(-400, 1, 1);
    int64_t end = ndp_days_from_civil(3600, 1, 1);
    int64_t y;
    unsigned m;
    unsigned d;
    int64_t py = -401;
    unsigned pm = 12;
    unsigned pd = 31;

    (void)state;
    for (int64_t days = start; days < end; days++) {
        ndp_civil_from_days(days, &y, &m, &d);
        if (d > 1) {
            assert_true(y == py && m == pm && d == pd + 1);
        } else if (m > 1) {
            assert_true(y == py && m == pm + 1
                        && pd == ndp_days_in_month(py, pm));
        } else {
            assert_true(y == py + 1 && pm == 12 && pd == 31);
        }
        assert_int_equal(ndp_days_from_civil(y, m, d), days);
        assert_int_equal(ndp_weekday_from_days(days),
                         (unsigned)ndp_floor_mod(days + 4, 7));
        py = y;
        pm = m;
        pd = d;
    }
}

static void days_in_month__leap_rules(void **state)
{
    (void)state;
    assert_int_equal(ndp_days_in_month(2026, 1), 31);
    assert_int_equal(ndp_days_in_month(2026, 2), 28);
    assert_int_equal(ndp_days_in_month(2028, 2), 29);
    assert_int_equal(ndp_days_in_month(2100, 2), 28);
    assert_int_equal(ndp_days_in_month(2000, 2), 29);
    assert_int_equal(ndp_days_in_month(2026, 4), 30);
    assert_int_equal(ndp_days_in_month(2026, 12), 31);
    assert_int_equal(ndp_days_in_month(2026, 0), 0);
    assert_int_equal(ndp_days_in_month(2026, 13), 0);
}

static void floor_div_and_mod__round_towards_minus_infinity(void **state)
{
    (void)state;
    assert_int_equal(ndp_floor_div(7, 2), 3);
    assert_int_equal(ndp_floor_div(-7, 2), -4);
    assert_int_equal(ndp_floor_div(-8, 2), -4);
    assert_int_equal(ndp_floor_mod(-7, 2), 1);
    assert_int_equal(ndp_floor_mod(-86401, 86400), 86399);
    assert_int_equal(ndp_floor_mod(0, 7), 0);
}

static void date_format__zero_padded(void **state)
{
    struct ndp_buf out = NDP_BUF_INIT;

    (void)state;
    ndp_date_format(&out, ndp_days_from_civil(987, 6, 5));
    assert_string_equal(out.buf, "0987-06-05");
    ndp_buf_reset(&out);
    ndp_date_format(&out, ndp_days_from_civil(9999, 12, 31));
    assert_string_equal(out.buf, "9999-12-31");
    ndp_buf_reset(&out);
    ndp_date_format(&out, ndp_days_from_civil(10000, 1, 1));
    assert_string_equal(out.buf, "after the end of 9999");
    ndp_buf_reset(&out);
    ndp_date_format(&out, ndp_days_from_civil(-1, 12, 31));
    assert_string_equal(out.buf, "before the start of 0000");
    ndp_buf_release(&out);
}

static void parse_null__rejected(void **state)
{
    int64_t t;

    (void)state;
    assert_int_equal(ndp_time_parse_rfc3339(&t, NULL), -1);
    assert_int_equal(ndp_date_parse(&t, NULL), -1);
    assert_int_equal(ndp_time_parse_at(&t, NULL, 0), -1);
}


int main(void)
{
    static struct test_list list;
    int failed;

    ADD_ROWS(&list, parse_cases, parse_case_runs);
    ADD_ROWS(&list, at_cases, at_case_runs);
    ADD_ROWS(&list, date_cases, date_case_runs);
    ADD_ROWS(&list, civil_cases, civil_case_runs);
    ADD_ROWS(&list, format_cases, format_case_runs);
    ADD_TEST(&list, civil_walk_over_4000_years__every_day_follows_the_last);
    ADD_TEST(&list, days_in_month__leap_rules);
    ADD_TEST(&list, floor_div_and_mod__round_towards_minus_infinity);
    ADD_TEST(&list, date_format__zero_padded);
    ADD_TEST(&list, parse_null__rejected);
    ADD_TEST(&list, at_past_year_9999__rejected);
    failed = cmocka_run_group_tests_name("timeutil", list.items, NULL, NULL);
    return failed;
}

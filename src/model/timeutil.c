/*
 * SPDX-License-Identifier: Apache-2.0
 * timeutil.c - calendar arithmetic and RFC 3339 text for instants held as
 * int64 seconds since the Unix epoch.
 *
 * The window engine and the input readers need dates without depending on
 * the process's TZ, locale or the C library's time-zone code, so the
 * proleptic Gregorian conversions are done here by hand (after Howard
 * Hinnant's "chrono-compatible low-level date algorithms") and every
 * offset is an explicit argument.  Years are limited to 0000-9999, the range
 * RFC 3339 can write.
 */
#include "common.h"
#include "timeutil.h"
#include "buf.h"

#define DAYS_PER_ERA 146097     /* days in 400 Gregorian years */
#define DAYS_0000_03_01_TO_EPOCH 719468

int64_t ndp_floor_div(int64_t n, int64_t d)
{
    int64_t q = n / d;

    /* C truncates towards zero; calendars need the floor. */
    if ((n % d != 0) && ((n < 0) != (d < 0)))
        q--;
    return q;
}

int64_t ndp_floor_mod(int64_t n, int64_t d)
{
    return n - ndp_floor_div(n, d) * d;
}

/*
 * The year is shifted to start on 1 March so that the leap day is the last
 * day of the shifted year; then a 400-year era has a fixed length and the
 * day of the shifted year follows from the month by a linear formula.
 */
int64_t ndp_days_from_civil(int64_t y, unsigned m, unsigned d)
{
    int64_t era;
    int64_t year_of_era;
    int64_t day_of_year;
    int64_t day_of_era;
    unsigned shifted_month = m > 2 ? m - 3 : m + 9;

    if (m <= 2)
        y--;
    era = ndp_floor_div(y, 400);
    year_of_era = y - era * 400;
    day_of_year = (153 * (int64_t)shifted_month + 2) / 5 + (int64_t)d - 1;
    day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100
                 + day_of_year;
    return era * DAYS_PER_ERA + day_of_era - DAYS_0000_03_01_TO_EPOCH;
}

void ndp_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d)
{
    int64_t z = days + DAYS_0000_03_01_TO_EPOCH;
    int64_t era = ndp_floor_div(z, DAYS_PER_ERA);
    int64_t day_of_era = z - era * DAYS_PER_ERA;
    int64_t year_of_era = (day_of_era - day_of_era / 1460
                           + day_of_era / 36524 - day_of_era / 146096) / 365;
    int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4
                                        - year_of_era / 100);
    int64_t shifted_month = (5 * day_of_year + 2) / 153;
    unsigned month = (unsigned)(shifted_month < 10 ? shifted_month + 3
                                                   : shifted_month - 9);

    *d = (unsigned)(day_of_year - (153 * shifted_month + 2) / 5 + 1);
    *m = month;
    *y = year_of_era + era * 400 + (month <= 2);
}

unsigned ndp_weekday_from_days(int64_t days)
{
    /* 1970-01-01 was a Thursday. */
    return (unsigned)ndp_floor_mod(days + 4, 7);
}

static bool is_leap_year(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned ndp_days_in_month(int64_t y, unsigned m)
{
    static const unsigned char length[12] = {
        31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
    };

    if (m < 1 || m > 12)
        return 0;
    if (m == 2 && is_leap_year(y))
        return 29;
    return length[m - 1];
}

/*
 * Reads exactly 'n' decimal digits at '*p' and advances past them; -1 when
 * any of them is not a digit.  isdigit() is avoided: it depends on the
 * locale.
 */
static int parse_digits(const char **p, int n)
{
    int value = 0;

    for (int i = 0; i < n; i++) {
        char c = (*p)[i];

        if (c < '0' || c > '9')
            return -1;
        value = value * 10 + (c - '0');
    }
    *p += n;
    return value;
}

/* "YYYY-MM-DD" at '*p' (advanced past it) into days since the epoch. */
static int parse_date_part(const char **p, int64_t *days_out)
{
    int y;
    int m;
    int d;

    y = parse_digits(p, 4);
    if (y < 0 || **p != '-')
        return -1;
    (*p)++;
    m = parse_digits(p, 2);
    if (m < 1 || m > 12 || **p != '-')
        return -1;
    (*p)++;
    d = parse_digits(p, 2);
    if (d < 1 || (unsigned)d > ndp_days_in_month(y, (unsigned)m))
        return -1;
    *days_out = ndp_days_from_civil(y, (unsigned)m, (unsigned)d);
    return 0;
}

/*
 * "HH:MM:SS" (fraction, if any, skipped) into seconds after midnight; with
 * 'seconds_optional', "HH:MM" alone too (seconds 0).
 */
static int parse_time_part(const char **p, int64_t *seconds_out,
                           bool seconds_optional)
{
    int h;
    int min;
    int s;

    h = parse_digits(p, 2);
    if (h < 0 || h > 23 || **p != ':')
        return -1;
    (*p)++;
    min = parse_digits(p, 2);
    if (min < 0 || min > 59)
        return -1;
    if (**p != ':') {
        if (!seconds_optional)
            return -1;
        *seconds_out = (int64_t)h * 3600 + min * 60;
        return 0;
    }
    (*p)++;
    /* A leap second (60) cannot be represented in POSIX seconds. */
    s = parse_digits(p, 2);
    if (s < 0 || s > 59)
        return -1;
    if (**p == '.') {
        (*p)++;
        if (**p < '0' || **p > '9')
            return -1;
        while (**p >= '0' && **p <= '9')
            (*p)++;
    }
    *seconds_out = (int64_t)h * 3600 + min * 60 + s;
    return 0;
}

/* "Z" or "+HH:MM" / "-HH:MM" at '*p' into minutes east of UTC. */
static int parse_offset_part(const char **p, int *minutes_out)
{
    int sign;
    int h;
    int min;

    if (**p == 'Z' || **p == 'z') {
        (*p)++;
        *minutes_out = 0;
        return 0;
    }
    if (**p != '+' && **p != '-')
        return -1;
    sign = **p == '-' ? -1 : 1;
    (*p)++;
    h = parse_digits(p, 2);
    if (h < 0 || h > 23 || **p != ':')
        return -1;
    (*p)++;
    min = parse_digits(p, 2);
    if (min < 0 || min > 59)
        return -1;
    *minutes_out = sign * (h * 60 + min);
    return 0;
}

/* ndp_time_parse_rfc3339(), with the seconds optional when asked. */
static int parse_date_time(int64_t *out, const char *s, bool seconds_optional)
{
    const char *p = s;
    int64_t days;
    int64_t seconds;
    int offset;

    if (!s || parse_date_part(&p, &days) < 0)
        return -1;
    if (*p != 'T' && *p != 't')
        return -1;
    p++;
    if (parse_time_part(&p, &seconds, seconds_optional) < 0
        || parse_offset_part(&p, &offset) < 0 || *p != '\0')
        return -1;
    *out = days * NDP_SECONDS_PER_DAY + seconds - (int64_t)offset * 60;
    return 0;
}

int ndp_time_parse_rfc3339(int64_t *out, const char *s)
{
    return parse_date_time(out, s, false);
}

/*
 * "+N" followed by 'm', 'h' or 'd', N one to NDP_AT_OFFSET_DIGITS digits,
 * into seconds.  No sign but '+': an instant in the past is written as one.
 */
#define NDP_AT_OFFSET_DIGITS 6
static int parse_offset_from_now(int64_t *seconds_out, const char *s)
{
    int64_t n = 0;
    size_t digits = 0;

    if (*s++ != '+')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
        if (digits == NDP_AT_OFFSET_DIGITS)
            return -1;
        n = n * 10 + (*s - '0');
    }
    if (!digits || s[0] == '\0' || s[1] != '\0')
        return -1;
    switch (*s) {
    case 'm': *seconds_out = n * 60; return 0;
    case 'h': *seconds_out = n * 3600; return 0;
    case 'd': *seconds_out = n * NDP_SECONDS_PER_DAY; return 0;
    default: return -1;
    }
}

int ndp_time_parse_at(int64_t *out, const char *s, int64_t now)
{
    int64_t t;

    if (!s)
        return -1;
    if (strcmp(s, "now") == 0) {
        t = now;
    } else if (*s == '+') {
        if (parse_offset_from_now(&t, s) < 0)
            return -1;
        t += now;
    } else if (ndp_date_parse(&t, s) == 0) {
        t *= NDP_SECONDS_PER_DAY;
    } else if (parse_date_time(&t, s, true) < 0) {
        return -1;
    }
    /* The years RFC 3339 can write, so that the reports can print it. */
    if (t < NDP_TIME_MIN || t > NDP_TIME_MAX)
        return -1;
    *out = t;
    return 0;
}

int ndp_date_parse(int64_t *days_out, const char *s)
{
    const char *p = s;
    int64_t days;

    if (!s || parse_date_part(&p, &days) < 0 || *p != '\0')
        return -1;
    *days_out = days;
    return 0;
}

/* The words for local seconds 'local' outside years 0000-9999, or NULL. */
static const char *beyond_words(int64_t local)
{
    if (local > NDP_TIME_MAX)
        return NDP_TIME_AFTER_WORDS;
    if (local < NDP_TIME_MIN)
        return NDP_TIME_BEFORE_WORDS;
    return NULL;
}

void ndp_date_format(struct ndp_buf *out, int64_t days)
{
    const char *beyond;
    int64_t y;
    unsigned m;
    unsigned d;

    /* A day is beyond when its first second is. */
    beyond = days > NDP_TIME_MAX / NDP_SECONDS_PER_DAY
                 ? NDP_TIME_AFTER_WORDS
                 : beyond_words(days * NDP_SECONDS_PER_DAY);
    if (beyond) {
        ndp_buf_adds(out, beyond);
        return;
    }
    ndp_civil_from_days(days, &y, &m, &d);
    ndp_buf_addf(out, "%04lld-%02u-%02u", (long long)y, m, d);
}

/* Appends "YYYY-MM-DDTHH:MM:SS" for 'local' seconds, no zone designator;
 * returns false, having appended the words, when 'local' is beyond. */
static bool add_date_time(struct ndp_buf *out, int64_t local)
{
    int64_t days = ndp_floor_div(local, NDP_SECONDS_PER_DAY);
    int64_t second_of_day = local - days * NDP_SECONDS_PER_DAY;
    const char *beyond = beyond_words(local);

    if (beyond) {
        ndp_buf_adds(out, beyond);
        return false;
    }
    ndp_date_format(out, days);
    ndp_buf_addf(out, "T%02d:%02d:%02d", (int)(second_of_day / 3600),
                 (int)(second_of_day / 60 % 60), (int)(second_of_day % 60));
    return true;
}

void ndp_time_format_utc(struct ndp_buf *out, int64_t t)
{
    if (add_date_time(out, t))
        ndp_buf_addch(out, 'Z');
}

void ndp_time_format_offset(struct ndp_buf *out, int64_t t,
                            int offset_minutes)
{
    int magnitude = offset_minutes < 0 ? -offset_minutes : offset_minutes;

    if (add_date_time(out, t + (int64_t)offset_minutes * 60))
        ndp_buf_addf(out, "%c%02d:%02d", offset_minutes < 0 ? '-' : '+',
                     magnitude / 60, magnitude % 60);
}

void ndp_time_format_both(struct ndp_buf *out, int64_t t, int offset_minutes)
{
    ndp_time_format_utc(out, t);
    if (t > NDP_TIME_MAX)
        return;
    ndp_buf_adds(out, " (");
    ndp_time_format_offset(out, t, offset_minutes);
    ndp_buf_addch(out, ')');
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * timeutil.h - instants as int64 seconds since the Unix epoch (UTC), and
 * their RFC 3339 text form.  Pure functions; no time zone database and no
 * dependence on the process locale or TZ.
 */
#ifndef NDP_TIMEUTIL_H
#define NDP_TIMEUTIL_H

#include <stdint.h>

struct ndp_buf;

/*
 * Parses an RFC 3339 date-time ("2026-12-06T02:30:00Z",
 * "2026-12-05T21:30:00-05:00", fractional seconds allowed and dropped,
 * 't'/'z' accepted).  Returns 0 and sets '*out', or -1 when malformed or
 * out of range (a valid calendar date is required).
 */
int ndp_time_parse_rfc3339(int64_t *out, const char *s);

/* The first and last instants of years 0000-9999. */
#define NDP_TIME_MIN (-62167219200LL)  /* 0000-01-01T00:00:00Z */
#define NDP_TIME_MAX 253402300799LL    /* 9999-12-31T23:59:59Z */
#define NDP_SECONDS_PER_DAY 86400

/*
 * Parses an instant as --at takes it, given the current instant 'now'
 * (passed in, so that the relative forms can be tested without a clock):
 *   - RFC 3339 as ndp_time_parse_rfc3339() reads it, the seconds optional
 *     ("2026-12-06T02:30Z");
 *   - a date alone, "2026-12-06": its midnight UTC;
 *   - "now";
 *   - an offset from now: "+90m", "+6h", "+2d" (one to six digits).
 * Returns 0 and sets '*out', or -1 (leaving it alone) for anything else,
 * or for an instant outside years 0000-9999.
 */
int ndp_time_parse_at(int64_t *out, const char *s, int64_t now);

/* Parses "YYYY-MM-DD" into days since 1970-01-01.  0 or -1. */
int ndp_date_parse(int64_t *days_out, const char *s);

/* Days since the epoch for a proleptic Gregorian date (month 1-12). */
int64_t ndp_days_from_civil(int64_t y, unsigned m, unsigned d);
/* The inverse. */
void ndp_civil_from_days(int64_t days, int64_t *y, unsigned *m, unsigned *d);
/* 0 = Sunday ... 6 = Saturday. */
unsigned ndp_weekday_from_days(int64_t days);

/*
 * Instants are written only inside years 0000-9999, the range RFC 3339
 * can write: one after 9999-12-31T23:59:59 (in the time written) is
 * written NDP_TIME_AFTER_WORDS, one before year 0000 NDP_TIME_BEFORE_WORDS,
 * never as a year of five digits or a negative one.
 */
#define NDP_TIME_AFTER_WORDS "after the end of 9999"
#define NDP_TIME_BEFORE_WORDS "before the start of 0000"

/* Appends "YYYY-MM-DDTHH:MM:SSZ" (or the words above). */
void ndp_time_format_utc(struct ndp_buf *out, int64_t t);
/* Appends the local time at a fixed offset: "YYYY-MM-DDTHH:MM:SS-05:00"
 * (or the words above). */
void ndp_time_format_offset(struct ndp_buf *out, int64_t t,
                            int offset_minutes);
/*
 * Appends "2026-12-06T01:00:00Z (2026-12-05T20:00:00-05:00)": 't' in UTC
 * and at 'offset_minutes'; NDP_TIME_AFTER_WORDS alone when 't' passes
 * 9999, which the local time would only repeat.
 */
void ndp_time_format_both(struct ndp_buf *out, int64_t t, int offset_minutes);

/*
 * Additions used by the window engine.
 */

/* Number of days in month 'm' (1-12) of year 'y'; 0 for a bad month. */
unsigned ndp_days_in_month(int64_t y, unsigned m);

/* Appends the date 'days' (since 1970-01-01) as "YYYY-MM-DD" (or the words
 * above). */
void ndp_date_format(struct ndp_buf *out, int64_t days);

/* Floor division and the matching non-negative remainder ('d' > 0). */
int64_t ndp_floor_div(int64_t n, int64_t d);
int64_t ndp_floor_mod(int64_t n, int64_t d);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * window.c - the maintenance window engine: for a window read by
 * window_parse.c, answers for a given instant whether AKS would be inside
 * a window, when the next one opens, and when two windows are next open
 * together.  A pure function of (window, instant): no clock, no words.
 *
 * The evaluator (src/evaluate/) asks it for every cluster whose profile is
 * AllowDuringMaintenanceWindow: a change gated so is refused outside a
 * window, so every answer here leans the safe way.  Where the AKS
 * documentation is silent, the engine never claims open time that AKS
 * might not grant:
 *
 *  - An interval above 1 without startDate: AKS counts from the
 *    configuration's creation date, which ndplint cannot see.  Occurrences
 *    of different phases never overlap (a window lasts at most 24 hours and
 *    occurrences are whole days, weeks or months apart), so no instant is
 *    inside under every phase: such a window is never open, and "next"
 *    reports the earliest opening any phase allows.
 *  - dayOfMonth 29-31 in a month without that day: no window that month
 *    (AKS might skip or clamp; skipping is the reading that never invents a
 *    window).
 *  - notAllowedDates: an occurrence that overlaps a blocked span at all,
 *    even by one second at either end, is dropped whole rather than cut at
 *    the span edge: AKS decides per occurrence whether it runs, and a cut
 *    window would claim time AKS may refuse.
 *
 * Intervals with startDate count from the first occurrence on or after
 * startDate (Azure/AKS issue #5720 describes this for intervalWeeks; the
 * same rule is applied to days and months, so "every 2 months on day 31"
 * from 10 February counts from 31 March).  Dates (startDate,
 * notAllowedDates) are local dates at utcOffset.
 *
 * A window some of whose values are known only after apply: an instant
 * whose answer depends on the unknown part is outside (is_open false, no
 * next opening), except that an unknown durationHours is read as 4 hours,
 * the AKS minimum.  durationHours above 24 is evaluated as 24.
 *
 * Queries allocate nothing and loop over at most ten years of days.
 */
#include "common.h"
#include "window.h"
#include "window_internal.h"
#include "timeutil.h"

#define SECONDS_PER_HOUR 3600
#define HORIZON_DAYS 3653        /* ten years, leap days included */
/* Every valid schedule occurs within 62 days of any date. */
#define ANCHOR_SEARCH_DAYS 400

/* ------------------------------------------------------------------ */
/* Which local days carry a window                                      */

static int64_t month_number(int64_t day)
{
    int64_t y;
    unsigned m;
    unsigned d;

    ndp_civil_from_days(day, &y, &m, &d);
    return y * 12 + (int64_t)m - 1;
}

static bool matches_week_index(const struct ndp_window *w, int64_t day)
{
    int64_t y;
    unsigned m;
    unsigned d;

    ndp_civil_from_days(day, &y, &m, &d);
    if (w->set.week_index == NDP_WINDOW_WEEK_LAST)
        return d + 7 > ndp_days_in_month(y, m);
    return (d - 1) / 7 + 1 == w->set.week_index;
}

/* Does 'day' fit the schedule's calendar rule, the interval aside? */
static bool matches_calendar(const struct ndp_window *w, int64_t day)
{
    int64_t y;
    unsigned m;
    unsigned d;

    switch (w->set.kind) {
    case NDP_SCHEDULE_DAILY:
        return true;
    case NDP_SCHEDULE_WEEKLY:
        return ndp_weekday_from_days(day) == w->set.day_of_week;
    case NDP_SCHEDULE_ABSOLUTE_MONTHLY:
        /* A month without this day has no window (see the top comment). */
        ndp_civil_from_days(day, &y, &m, &d);
        return d == w->set.day_of_month;
    case NDP_SCHEDULE_RELATIVE_MONTHLY:
        return ndp_weekday_from_days(day) == w->set.day_of_week
               && matches_week_index(w, day);
    case NDP_SCHEDULE_NONE:
        break;
    }
    return false;
}

/* Is 'day' a whole number of intervals after the anchor? */
static bool matches_interval(const struct ndp_window *w, int64_t day)
{
    int64_t since = day - w->anchor_day;

    switch (w->set.kind) {
    case NDP_SCHEDULE_DAILY:
        return ndp_floor_mod(since, w->set.interval) == 0;
    case NDP_SCHEDULE_WEEKLY:
        /* 'day' is on the anchor's weekday: 'since' is whole weeks. */
        return ndp_floor_mod(since / 7, w->set.interval) == 0;
    case NDP_SCHEDULE_ABSOLUTE_MONTHLY:
    case NDP_SCHEDULE_RELATIVE_MONTHLY:
        return ndp_floor_mod(month_number(day) - month_number(w->anchor_day),
                             w->set.interval) == 0;
    case NDP_SCHEDULE_NONE:
        break;
    }
    return false;
}

/*
 * The first occurrence on or after startDate starts the interval count.
 * If none is found (impossible for a schedule that passed validation) the
 * window never opens.
 */
void ndp_window_find_anchor(struct ndp_window *w)
{
    if (!w->set.has_start_date)
        return;
    for (int64_t day = w->set.start_date;
         day < w->set.start_date + ANCHOR_SEARCH_DAYS; day++) {
        if (matches_calendar(w, day)) {
            w->anchor_day = day;
            w->has_anchor = true;
            return;
        }
    }
}

bool ndp_window_phase_unknown(const struct ndp_window *w)
{
    return w && !w->set.has_start_date && w->set.interval > 1
           && !ndp_window_opening_unknown(w);
}

/*
 * Only an unknown durationHours leaves the openings known: the first
 * 4 hours (the AKS minimum) are inside whatever it turns out to be.  Any
 * other unknown part moves or blocks openings, so no instant is taken to
 * be inside and no opening is named.
 */
bool ndp_window_opening_unknown(const struct ndp_window *w)
{
    return w && (w->set.unknown & ~(unsigned)NDP_WINDOW_UNKNOWN_DURATION) != 0;
}

bool ndp_window_partly_unknown(const struct ndp_window *w)
{
    return w && w->set.unknown != 0;
}

/*
 * Does the window that starts on local 'day' exist?  Without startDate
 * there is no anchor and the interval test is dropped: with interval 1 it
 * is moot, and with an unknown phase this answers "may exist", which is
 * what ndp_window_next() wants for the earliest possible opening.
 */
static bool is_occurrence(const struct ndp_window *w, int64_t day)
{
    if (!w->set.has_start_date)
        return matches_calendar(w, day);
    if (!w->has_anchor || day < w->anchor_day || !matches_calendar(w, day))
        return false;
    return w->set.interval == 1 || matches_interval(w, day);
}

/* ------------------------------------------------------------------ */
/* Instants                                                            */

/* The evaluated length: at most 24 hours (AKS refuses more), never < 0. */
static int64_t duration_seconds(const struct ndp_window *w)
{
    long long hours = w->set.duration_hours;

    if (hours < 0)
        hours = 0;
    if (hours > NDP_WINDOW_MAX_HOURS)
        hours = NDP_WINDOW_MAX_HOURS;
    return (int64_t)hours * SECONDS_PER_HOUR;
}

/* Seconds from UTC midnight of local 'day' to the window start. */
static int64_t start_shift(const struct ndp_window *w)
{
    return (int64_t)w->set.start_minute * 60
           - (int64_t)w->set.utc_offset_minutes * 60;
}

static int64_t window_start(const struct ndp_window *w, int64_t day)
{
    return day * NDP_SECONDS_PER_DAY + start_shift(w);
}

/* Does [start, end) touch any notAllowedDates span (local whole days)? */
static bool overlaps_not_allowed(const struct ndp_window *w, int64_t start,
                                 int64_t end)
{
    int64_t offset = (int64_t)w->set.utc_offset_minutes * 60;

    for (size_t i = 0; i < w->set.n_spans; i++) {
        const struct ndp_window_span *s = &w->set.spans[i];
        int64_t first = s->start < s->end ? s->start : s->end;
        int64_t last = s->start < s->end ? s->end : s->start;
        int64_t blocked_from = first * NDP_SECONDS_PER_DAY - offset;
        int64_t blocked_until = (last + 1) * NDP_SECONDS_PER_DAY - offset;

        if (start < blocked_until && blocked_from < end)
            return true;
    }
    return false;
}

bool ndp_window_is_open(const struct ndp_window *w, int64_t at,
                        int64_t *closes_at)
{
    int64_t length;
    int64_t first_day;
    int64_t last_day;

    /* An unknown phase is closed at every instant: see the top comment. */
    if (!w || ndp_window_phase_unknown(w) || ndp_window_opening_unknown(w) ||
        !ndp_window_instant_in_range(at))
        return false;
    length = duration_seconds(w);
    if (length == 0)
        return false;
    /* Windows last at most a day, so at most two days can hold 'at'. */
    last_day = ndp_floor_div(at - start_shift(w), NDP_SECONDS_PER_DAY);
    first_day = ndp_floor_div(at - start_shift(w) - length,
                              NDP_SECONDS_PER_DAY);
    for (int64_t day = last_day; day >= first_day; day--) {
        int64_t start = window_start(w, day);
        int64_t end = start + length;

        if (start <= at && at < end && is_occurrence(w, day)
            && !overlaps_not_allowed(w, start, end)) {
            if (closes_at)
                *closes_at = end;
            return true;
        }
    }
    return false;
}

bool ndp_window_next(const struct ndp_window *w, int64_t at, int64_t *start,
                     int64_t *end)
{
    int64_t length;
    int64_t horizon;

    if (!w || ndp_window_opening_unknown(w) || !ndp_window_instant_in_range(at))
        return false;
    length = duration_seconds(w);
    if (length == 0)
        return false;
    horizon = at + (int64_t)HORIZON_DAYS * NDP_SECONDS_PER_DAY;
    /* The first local day whose window starts at or after 'at'. */
    for (int64_t day = -ndp_floor_div(start_shift(w) - at, NDP_SECONDS_PER_DAY);
         window_start(w, day) < horizon; day++) {
        int64_t s = window_start(w, day);

        if (is_occurrence(w, day)
            && !overlaps_not_allowed(w, s, s + length)) {
            if (start)
                *start = s;
            if (end)
                *end = s + length;
            return true;
        }
    }
    return false;
}

int ndp_window_utc_offset_minutes(const struct ndp_window *w)
{
    return w ? w->set.utc_offset_minutes : 0;
}

const struct ndp_window_settings *
ndp_window_get_settings(const struct ndp_window *w)
{
    return &w->set;
}

/* ------------------------------------------------------------------ */
/* Two windows at once                                                 */

/* The window interval holding 'at', else the next one. */
static bool interval_at_or_after(const struct ndp_window *w, int64_t at,
                                 int64_t *start, int64_t *end)
{
    if (ndp_window_is_open(w, at, end)) {
        *start = at;
        return true;
    }
    return ndp_window_next(w, at, start, end);
}

bool ndp_window_next_common(const struct ndp_window *a,
                            const struct ndp_window *b, int64_t at,
                            int64_t *start, int64_t *end)
{
    int64_t t = at;

    while (t - at < (int64_t)HORIZON_DAYS * NDP_SECONDS_PER_DAY) {
        int64_t sa, ea, sb, eb, s, e;

        if (!interval_at_or_after(a, t, &sa, &ea) ||
            !interval_at_or_after(b, t, &sb, &eb))
            return false;
        s = sa > sb ? sa : sb;
        e = ea < eb ? ea : eb;
        if (s < e) {
            *start = s;
            *end = e;
            return true;
        }
        /* Past the interval that ends first: t grows every time round. */
        t = e;
    }
    return false;
}

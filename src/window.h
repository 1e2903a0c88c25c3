/*
 * SPDX-License-Identifier: Apache-2.0
 * window.h - maintenance windows: a pure function of (schedule, instant).
 *
 * An AKS MaintenanceWindow (daily / weekly / absoluteMonthly /
 * relativeMonthly, startTime, durationHours, utcOffset, startDate,
 * notAllowedDates) is read from either notation into an opaque
 * struct ndp_window (src/window/window_parse.c), then asked whether an
 * instant is inside a window and when the next window opens
 * (src/window/window.c).  No clock is read here: the instant is always an
 * argument (seconds since the Unix epoch, UTC).  Nothing here writes
 * words or JSON: the reporters do, from ndp_window_get_settings()
 * (src/report/report_schedule.c).
 */
#ifndef NDP_WINDOW_H
#define NDP_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_object;
struct ndp_buf;
struct ndp_window;

/* The schedule types, in ARM's order. */
enum ndp_window_schedule {
    NDP_SCHEDULE_DAILY,
    NDP_SCHEDULE_WEEKLY,
    NDP_SCHEDULE_ABSOLUTE_MONTHLY,
    NDP_SCHEDULE_RELATIVE_MONTHLY,
    NDP_SCHEDULE_NONE
};

/*
 * Parts of a window Terraform knows only after apply (after_unknown), or
 * that a what-if delta leaves out with nothing else to fill them in.
 */
enum ndp_window_unknown {
    NDP_WINDOW_UNKNOWN_SCHEDULE = 1 << 0, /* type, interval, day or week
                                             index */
    NDP_WINDOW_UNKNOWN_DURATION = 1 << 1,
    NDP_WINDOW_UNKNOWN_START_TIME = 1 << 2,
    NDP_WINDOW_UNKNOWN_UTC_OFFSET = 1 << 3,
    NDP_WINDOW_UNKNOWN_START_DATE = 1 << 4,
    NDP_WINDOW_UNKNOWN_NOT_ALLOWED = 1 << 5
};

#define NDP_WINDOW_WEEK_LAST 5   /* weekIndex "Last" */
#define NDP_WINDOW_MIN_HOURS 4   /* the AKS minimum durationHours: a
                                    missing or unknown one is read so */
#define NDP_WINDOW_MAX_HOURS 24  /* the AKS maximum: more is evaluated so */

/* A notAllowedDates entry as written: local days, both inclusive. */
struct ndp_window_span {
    int64_t start;
    int64_t end;
};

/*
 * A window's settings as read, for the reporters that write it in words
 * or in ARM JSON (the engine's own readings are its predicates below).
 * The window owns them, and its 'spans' and 'unknown_names'.
 */
struct ndp_window_settings {
    enum ndp_window_schedule kind;
    long long interval;
    unsigned day_of_week;         /* 0 = Sunday */
    unsigned day_of_month;        /* 1-31 */
    unsigned week_index;          /* 1-4, or NDP_WINDOW_WEEK_LAST */
    long long duration_hours;     /* as written; 4 when missing */
    bool duration_missing;
    int utc_offset_minutes;
    bool utc_offset_unreadable;   /* evaluated as +00:00 */
    int start_minute;             /* local minutes after midnight */
    bool has_start_date;
    int64_t start_date;           /* local day */
    size_t n_spans;
    struct ndp_window_span *spans;
    unsigned unknown;             /* enum ndp_window_unknown bits */
    char *unknown_names;          /* their field names, ", "-separated */
};

/*
 * Reads an ARM 'MaintenanceWindow' object (the value of
 * properties.maintenanceWindow; az CLI output with unused schedule variants
 * written as null is accepted).  Borrows 'mw'.  Returns a new window owned
 * by the caller, or NULL when the object is too broken to evaluate; either
 * way every problem (value outside AKS limits, malformed time, offset or
 * date, more than one schedule type, ...) is appended to 'problems' as
 * "; "-separated text, so the caller can raise a window-invalid warning.
 * A window with problems that can still be evaluated is returned.
 */
struct ndp_window *ndp_window_from_arm(const struct json_object *mw,
                                       struct ndp_buf *problems);

/*
 * Same, for the azurerm block maintenance_window_node_os[0] (frequency,
 * interval, duration, day_of_week, day_of_month, week_index, start_time,
 * utc_offset, start_date as RFC 3339, not_allowed[] {start, end}).
 */
struct ndp_window *ndp_window_from_azurerm(const struct json_object *block,
                                           struct ndp_buf *problems);

void ndp_window_free(struct ndp_window *w);

/*
 * Is 'at' inside a window?  A window is the half-open interval
 * [start, start + durationHours): the start instant is inside, the end
 * instant is not.  When inside and 'closes_at' is not NULL, it receives the
 * end of the current window.
 */
bool ndp_window_is_open(const struct ndp_window *w, int64_t at,
                        int64_t *closes_at);

/*
 * The first window that starts strictly after 'at' (or at 'at' itself when
 * 'at' is a window start): its start and end.  Returns false when there is
 * none within the search horizon (ten years), e.g. every occurrence falls in
 * notAllowedDates.
 */
bool ndp_window_next(const struct ndp_window *w, int64_t at, int64_t *start,
                     int64_t *end);

/*
 * The first interval at or after 'at' during which both 'a' and 'b' are
 * open (spec §11: a window changed by the same apply counts only where the
 * old and the new one overlap); false when none within the horizon.
 */
bool ndp_window_next_common(const struct ndp_window *a,
                            const struct ndp_window *b, int64_t at,
                            int64_t *start, int64_t *end);

/* The window's fixed UTC offset in minutes (e.g. -300 for -05:00). */
int ndp_window_utc_offset_minutes(const struct ndp_window *w);

/* The settings of 'w', borrowed from it. */
const struct ndp_window_settings *
ndp_window_get_settings(const struct ndp_window *w);

/*
 * ARM's names, static strings: of weekday 'day' (0 = "Sunday"), of
 * weekIndex 'index' (1 = "First", NDP_WINDOW_WEEK_LAST = "Last"), of
 * schedule type 'kind' ("daily", ...) and of its interval member
 * ("intervalDays", ...).
 */
const char *ndp_window_weekday_name(unsigned day);
const char *ndp_window_week_index_name(unsigned index);
const char *ndp_window_schedule_name(enum ndp_window_schedule kind);
const char *ndp_window_interval_name(enum ndp_window_schedule kind);

/*
 * Additions.
 */

/*
 * True when the interval is above 1 and there is no startDate: AKS then
 * counts the interval from the configuration's creation date, which a plan
 * does not show.  ndp_window_is_open() answers false for such a window at
 * every instant (each instant is closed under some phase), and
 * ndp_window_next() gives the earliest opening any phase allows, which may
 * not be a real one.
 */
bool ndp_window_phase_unknown(const struct ndp_window *w);

/*
 * The same readers for a window some of whose values are known only
 * after apply: 'unknown' is the Terraform after_unknown mask of the window
 * object (or true for all of it; NULL for none), borrowed.  A field that
 * is absent and covered by the mask is neither missing nor invalid: the
 * known fields are judged, and the window is marked partly unknown.  'mw'
 * or 'block' may then be NULL when the whole window is unknown.
 */
struct ndp_window *ndp_window_from_arm_unknown(
    const struct json_object *mw, const struct json_object *unknown,
    struct ndp_buf *problems);
struct ndp_window *ndp_window_from_azurerm_unknown(
    const struct json_object *block, const struct json_object *unknown,
    struct ndp_buf *problems);

/* Some value of the window is known only after apply. */
bool ndp_window_partly_unknown(const struct ndp_window *w);

/*
 * An unknown value moves or blocks the window's openings (anything but
 * durationHours, whose unknown value is taken as the 4-hour minimum):
 * ndp_window_is_open() is then false at every instant, and
 * ndp_window_next() finds no opening, since none can be named.
 */
bool ndp_window_opening_unknown(const struct ndp_window *w);

/*
 * AKS refuses to set a window whose startDate is before the current date
 * (terraform-provider-azurerm#22762).  When the startDate of 'w' is before
 * the date of 'at' at the window's UTC offset, appends a problem saying so
 * to 'problems' and returns true.
 */
bool ndp_window_check_start_date(const struct ndp_window *w, int64_t at,
                                 struct ndp_buf *problems);

/*
 * The same for a window a PUT creates its configuration with
 * (put-time-limits PT-MW-05): whether AKS refuses a startDate already
 * past then is unconfirmed, and the problem appended says so.
 */
bool ndp_window_check_new_start_date(const struct ndp_window *w, int64_t at,
                                     struct ndp_buf *problems);

/*
 * The legacy hours form of the default maintenance configuration
 * (PT-MW-02, PT-MW-06): appends to 'out' ("; " between them) what AKS
 * refuses of 'time_in_week' (timeInWeek[]: a day Sunday..Saturday, hour
 * slots 0..23) and 'not_allowed_time' (notAllowedTime[]: start and end
 * date-times), either NULL when not sent.  'partial': a what-if delta
 * shows only what changes, so a member it leaves out is not known, not
 * missing.
 */
void ndp_window_legacy_problems(struct ndp_buf *out,
                                const struct json_object *time_in_week,
                                const struct json_object *not_allowed_time,
                                bool partial);

#endif

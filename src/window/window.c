/*
 * SPDX-License-Identifier: Apache-2.0
 * window.c - the maintenance window engine: reads an AKS MaintenanceWindow
 * (ARM JSON or the azurerm maintenance_window_node_os block) and answers,
 * for a given instant, whether AKS would be inside a window and when the
 * next one opens.
 *
 * The evaluator sits between the input readers and the rule engine: a
 * change gated by AllowDuringMaintenanceWindow is refused outside a window,
 * so every answer here leans the safe way.  Where the AKS documentation is
 * silent, the engine never claims open time that AKS might not grant:
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
 * A value Terraform knows only after apply (after_unknown) is not a
 * problem: what is known is judged, and an instant whose answer depends on
 * the unknown part is outside (is_open false, no next opening), except
 * that an unknown durationHours is read as 4 hours, the AKS minimum.
 *
 * Values AKS would refuse are reported as problems (window-invalid) and,
 * where a meaning remains, still evaluated on the safe side: a date-time
 * where ARM takes a date by its date part, an offset that is not a whole
 * quarter hour within 14 hours as written, durationHours above 24 as 24, a missing one as 4 (the AKS minimum), an unreadable
 * utcOffset as +00:00, an unreadable startDate as absent, a notAllowedDates
 * entry ending before it starts as blocking the dates between its ends.
 * No window is returned when nothing sensible can be evaluated: no schedule
 * type or more than one, an interval below 1, a day, week index or
 * startTime that cannot be read.
 *
 * Queries allocate nothing and loop over at most ten years of days.
 */
#include "common.h"
#include "window.h"
#include "buf.h"
#include "jsonutil.h"
#include "timeutil.h"

#include <stdarg.h>
#include <json-c/json.h>

#define SECONDS_PER_DAY 86400
#define SECONDS_PER_HOUR 3600
#define HORIZON_DAYS 3653        /* ten years, leap days included */
/* Every valid schedule occurs within 62 days of any date. */
#define ANCHOR_SEARCH_DAYS 400
#define MIN_DURATION_HOURS 4
#define MAX_DURATION_HOURS 24
/* Instants beyond about 34,000 years are refused, so no sum overflows. */
#define INSTANT_LIMIT ((int64_t)1 << 40)
/* Integral JSON doubles beyond this are not taken as integers. */
#define LARGEST_INTEGER 1e15
#define WEEK_INDEX_LAST 5
#define UTC_OFFSET_STEP_MINUTES 15
#define MAX_UTC_OFFSET_MINUTES (14 * 60)

enum schedule_kind {
    SCHEDULE_DAILY,
    SCHEDULE_WEEKLY,
    SCHEDULE_ABSOLUTE_MONTHLY,
    SCHEDULE_RELATIVE_MONTHLY,
    SCHEDULE_NONE
};

/* A notAllowedDates entry as written: local days, both inclusive. */
struct date_span {
    int64_t start;
    int64_t end;
};

/*
 * Parts of a window Terraform knows only after apply (after_unknown), or
 * that a what-if delta leaves out with nothing else to fill them in.
 */
enum unknown_part {
    UNKNOWN_SCHEDULE = 1 << 0,    /* type, interval, day or week index */
    UNKNOWN_DURATION = 1 << 1,
    UNKNOWN_START_TIME = 1 << 2,
    UNKNOWN_UTC_OFFSET = 1 << 3,
    UNKNOWN_START_DATE = 1 << 4,
    UNKNOWN_NOT_ALLOWED = 1 << 5
};

struct field_names;

struct ndp_window {
    const struct field_names *names; /* the notation it was read from */
    enum schedule_kind kind;
    long long interval;
    unsigned day_of_week;         /* 0 = Sunday */
    unsigned day_of_month;        /* 1-31 */
    unsigned week_index;          /* 1-4, or WEEK_INDEX_LAST */
    long long duration_hours;     /* as written; 4 when missing */
    bool duration_missing;
    int utc_offset_minutes;
    bool utc_offset_unreadable;   /* evaluated as +00:00 */
    int start_minute;             /* local minutes after midnight */
    bool has_start_date;
    int64_t start_date;           /* local day */
    bool has_anchor;
    int64_t anchor_day;           /* first occurrence on/after startDate */
    size_t n_spans;
    struct date_span *spans;
    unsigned unknown;             /* enum unknown_part bits */
    char *unknown_names;          /* their field names, ", "-separated */
};

/* Field names of one notation, for problem messages. */
struct field_names {
    const char *interval[4];      /* indexed by enum schedule_kind */
    const char *day_of_week;
    const char *day_of_month;
    const char *week_index;
    const char *duration;
    const char *start_time;
    const char *utc_offset;
    const char *start_date;
    const char *not_allowed;
    bool date_times;              /* dates may be written as RFC 3339 */
};

/* The JSON values a window is built from, whatever the notation. */
struct window_source {
    const struct field_names *names;
    const struct json_object *unknown; /* after_unknown mask, or NULL */
    char schedule_path[40];       /* mask path of the schedule's fields */
    bool kind_unknown;
    enum schedule_kind kind;
    const struct json_object *interval;
    const struct json_object *day_of_week;
    const struct json_object *day_of_month;
    const struct json_object *week_index;
    const struct json_object *duration;
    const struct json_object *start_time;
    const struct json_object *utc_offset;
    const struct json_object *start_date;
    const struct json_object *not_allowed;
};

enum field_status { FIELD_MISSING, FIELD_BAD, FIELD_OK };

static const struct field_names arm_names = {
    { "intervalDays", "intervalWeeks", "intervalMonths", "intervalMonths" },
    "dayOfWeek", "dayOfMonth", "weekIndex", "durationHours", "startTime",
    "utcOffset", "startDate", "notAllowedDates", false
};

static const struct field_names azurerm_names = {
    { "interval", "interval", "interval", "interval" },
    "day_of_week", "day_of_month", "week_index", "duration", "start_time",
    "utc_offset", "start_date", "not_allowed", true
};

static const char *const arm_schedule_keys[4] = {
    "daily", "weekly", "absoluteMonthly", "relativeMonthly"
};

static const char *const azurerm_frequencies[4] = {
    "Daily", "Weekly", "AbsoluteMonthly", "RelativeMonthly"
};

static const long long interval_max[4] = { 7, 4, 6, 6 };

static const char *const weekday_names[7] = {
    "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
    "Saturday"
};

/* Indexed by week_index; [0] unused. */
static const char *const week_index_names[6] = {
    "", "First", "Second", "Third", "Fourth", "Last"
};

static const char *const week_index_words[6] = {
    "", "first", "second", "third", "fourth", "last"
};

/* ------------------------------------------------------------------ */
/* Reading JSON                                                        */

static void add_problem(struct ndp_buf *problems, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void add_problem(struct ndp_buf *problems, const char *fmt, ...)
{
    va_list ap;

    if (!problems)
        return;
    if (problems->len > 0)
        ndp_buf_adds(problems, "; ");
    va_start(ap, fmt);
    ndp_buf_vaddf(problems, fmt, ap);
    va_end(ap);
}

/* Notes 'part' of 'w' as not known, by its field 'name'. */
static void mark_unknown(struct ndp_window *w, unsigned part,
                         const char *name)
{
    struct ndp_buf names = NDP_BUF_INIT;

    if (w->unknown_names) {
        ndp_buf_addf(&names, "%s, ", w->unknown_names);
        free(w->unknown_names);
    }
    ndp_buf_adds(&names, name);
    w->unknown_names = ndp_buf_detach(&names);
    w->unknown |= part;
}

/*
 * A value Terraform knows only after apply is absent from 'after' and
 * marked in after_unknown: absent here, and the mask covers 'path'.
 */
static bool unknown_value(const struct window_source *src,
                          const struct json_object *v, const char *path)
{
    return !v && src->unknown && ndp_json_mask_covers(src->unknown, path);
}

/* The same for a field of the schedule type; marks it when unknown. */
static bool unknown_schedule_field(struct ndp_window *w,
                                   const struct window_source *src,
                                   const struct json_object *v,
                                   const char *name)
{
    char path[96];

    snprintf(path, sizeof(path), "%s%s", src->schedule_path, name);
    if (!unknown_value(src, v, path))
        return false;
    mark_unknown(w, UNKNOWN_SCHEDULE, name);
    return true;
}

/*
 * The member 'key' of 'obj', or NULL when absent or JSON null (both mean
 * "not set" in ARM and in plan JSON).  ARM treats property names without
 * regard to case, so a differently cased key is accepted.
 */
static const struct json_object *member(const struct json_object *obj,
                                        const char *key)
{
    struct json_object *v = NULL;

    if (!json_object_is_type(obj, json_type_object))
        return NULL;
    if (json_object_object_get_ex(obj, key, &v))
        return v;
    json_object_object_foreach(obj, k, val) {
        if (ndp_strcasecmp(k, key) == 0)
            return val;
    }
    return NULL;
}

/* json-c 0.16 wants a non-const object here but does not modify it. */
static const char *string_of(const struct json_object *v)
{
    return json_object_get_string(ndp_json_unconst(v));
}

/* A string value; "" counts as missing (azurerm writes "" for unset). */
static enum field_status get_string(const struct json_object *v,
                                    const char **out)
{
    if (!v)
        return FIELD_MISSING;
    if (!json_object_is_type(v, json_type_string))
        return FIELD_BAD;
    *out = string_of(v);
    return **out ? FIELD_OK : FIELD_MISSING;
}

/* An integer value; an integral JSON double such as 4.0 is accepted. */
static enum field_status get_integer(const struct json_object *v,
                                     long long *out)
{
    double d;

    if (!v)
        return FIELD_MISSING;
    if (json_object_is_type(v, json_type_int)) {
        *out = (long long)json_object_get_int64(v);
        return FIELD_OK;
    }
    if (!json_object_is_type(v, json_type_double))
        return FIELD_BAD;
    d = json_object_get_double(v);
    if (d != d || d < -LARGEST_INTEGER || d > LARGEST_INTEGER
        || d != (double)(long long)d)
        return FIELD_BAD;
    *out = (long long)d;
    return FIELD_OK;
}

/* Index of 's' in 'names' ignoring case, or -1. */
static int lookup_name(const char *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        if (ndp_strcasecmp(s, names[i]) == 0)
            return i;
    }
    return -1;
}

/* "HH:mm", 00:00-23:59, into minutes; -1 when malformed. */
static int parse_clock(const char *s)
{
    int h;
    int m;

    if (strlen(s) != 5 || s[2] != ':')
        return -1;
    for (int i = 0; i < 5; i++) {
        if (i != 2 && (s[i] < '0' || s[i] > '9'))
            return -1;
    }
    h = (s[0] - '0') * 10 + (s[1] - '0');
    m = (s[3] - '0') * 10 + (s[4] - '0');
    if (h > 23 || m > 59)
        return -1;
    return h * 60 + m;
}

/* "+HH:MM" / "-HH:MM" into minutes east of UTC; false when malformed. */
static bool parse_utc_offset(const char *s, int *out)
{
    int magnitude;

    if ((s[0] != '+' && s[0] != '-') || (magnitude = parse_clock(s + 1)) < 0)
        return false;
    *out = s[0] == '-' ? -magnitude : magnitude;
    return true;
}

enum date_form { DATE_BAD, DATE_ONLY, DATE_TIME };

/*
 * A date as "YYYY-MM-DD", or the date part of an RFC 3339 date-time as
 * written (azurerm truncates "2026-04-21T00:00:00Z" to "2026-04-21" without
 * converting the zone).
 */
static enum date_form parse_date_text(const char *s, int64_t *days)
{
    char date[11];
    int64_t instant;

    if (ndp_date_parse(days, s) == 0)
        return DATE_ONLY;
    if (ndp_time_parse_rfc3339(&instant, s) < 0)
        return DATE_BAD;
    memcpy(date, s, 10);
    date[10] = '\0';
    return ndp_date_parse(days, date) == 0 ? DATE_TIME : DATE_BAD;
}

/*
 * The date 'label' holds.  azurerm cuts its RFC 3339 values to their date
 * before sending; an ARM body is sent as written, and AKS takes a date
 * only (format: date), so there a date-time is a problem.  Its date part
 * still has a meaning and is evaluated.
 */
static bool read_date_text(const struct field_names *names, const char *label,
                           const char *s, int64_t *days,
                           struct ndp_buf *problems)
{
    switch (parse_date_text(s, days)) {
    case DATE_ONLY:
        return true;
    case DATE_TIME:
        if (!names->date_times)
            add_problem(problems, "%s '%.40s' is a date-time; AKS takes a "
                        "date, YYYY-MM-DD", label, s);
        return true;
    case DATE_BAD:
        break;
    }
    add_problem(problems, "%s '%.40s' is not a valid date (YYYY-MM-DD%s)",
                label, s, names->date_times ? " or RFC 3339" : "");
    return false;
}

/* ------------------------------------------------------------------ */
/* Building a window from the values of either notation                */

/* A required string field; false, with a problem, when missing or not one. */
static bool required_string(const struct json_object *v, const char *name,
                            const char **out, struct ndp_buf *problems)
{
    switch (get_string(v, out)) {
    case FIELD_MISSING:
        add_problem(problems, "%s is missing", name);
        return false;
    case FIELD_BAD:
        add_problem(problems, "%s is not a string", name);
        return false;
    default:
        return true;
    }
}

/* The same for a required integer field. */
static bool required_integer(const struct json_object *v, const char *name,
                             long long *out, struct ndp_buf *problems)
{
    switch (get_integer(v, out)) {
    case FIELD_MISSING:
        add_problem(problems, "%s is missing", name);
        return false;
    case FIELD_BAD:
        add_problem(problems, "%s is not an integer", name);
        return false;
    default:
        return true;
    }
}

static bool read_interval(struct ndp_window *w,
                          const struct window_source *src,
                          struct ndp_buf *problems)
{
    const char *name = src->names->interval[src->kind];
    long long max = interval_max[src->kind];

    if (unknown_schedule_field(w, src, src->interval, name)) {
        w->interval = 1;
        return true;
    }
    if (!required_integer(src->interval, name, &w->interval, problems))
        return false;
    if (w->interval < 1 || w->interval > max)
        add_problem(problems, "%s %lld is outside the AKS range 1..%lld",
                    name, w->interval, max);
    /* Above the range still has a meaning; zero or less has none. */
    return w->interval >= 1;
}

static bool read_day_of_week(struct ndp_window *w,
                             const struct window_source *src,
                             struct ndp_buf *problems)
{
    const char *name = src->names->day_of_week;
    const char *s = NULL;
    int day;

    if (unknown_schedule_field(w, src, src->day_of_week, name))
        return true;
    if (!required_string(src->day_of_week, name, &s, problems))
        return false;
    day = lookup_name(s, weekday_names, 7);
    if (day < 0) {
        add_problem(problems, "%s '%.40s' is not a day of the week "
                    "(Sunday..Saturday)", name, s);
        return false;
    }
    w->day_of_week = (unsigned)day;
    return true;
}

static bool read_day_of_month(struct ndp_window *w,
                              const struct window_source *src,
                              struct ndp_buf *problems)
{
    const char *name = src->names->day_of_month;
    long long day = 0;

    if (unknown_schedule_field(w, src, src->day_of_month, name)) {
        w->day_of_month = 1;
        return true;
    }
    if (!required_integer(src->day_of_month, name, &day, problems))
        return false;
    if (day < 1 || day > 31) {
        add_problem(problems, "%s %lld is outside 1..31", name, day);
        return false;
    }
    w->day_of_month = (unsigned)day;
    return true;
}

static bool read_week_index(struct ndp_window *w,
                            const struct window_source *src,
                            struct ndp_buf *problems)
{
    const char *name = src->names->week_index;
    const char *s = NULL;
    int index;

    if (unknown_schedule_field(w, src, src->week_index, name)) {
        w->week_index = 1;
        return true;
    }
    if (!required_string(src->week_index, name, &s, problems))
        return false;
    index = lookup_name(s, week_index_names + 1, 5);
    if (index < 0) {
        add_problem(problems, "%s '%.40s' is not First, Second, Third, "
                    "Fourth or Last", name, s);
        return false;
    }
    w->week_index = (unsigned)index + 1;
    return true;
}

/* Reads the fields of the schedule type; false when it cannot be used. */
static bool read_schedule(struct ndp_window *w,
                          const struct window_source *src,
                          struct ndp_buf *problems)
{
    bool usable = true;

    w->kind = src->kind;
    w->interval = 1;
    if (src->kind_unknown) {
        mark_unknown(w, UNKNOWN_SCHEDULE, src->names == &arm_names
                                              ? "schedule" : "frequency");
        return true;
    }
    if (src->kind == SCHEDULE_NONE)
        return false;
    if (!read_interval(w, src, problems))
        usable = false;
    if ((src->kind == SCHEDULE_WEEKLY
         || src->kind == SCHEDULE_RELATIVE_MONTHLY)
        && !read_day_of_week(w, src, problems))
        usable = false;
    if (src->kind == SCHEDULE_ABSOLUTE_MONTHLY
        && !read_day_of_month(w, src, problems))
        usable = false;
    if (src->kind == SCHEDULE_RELATIVE_MONTHLY
        && !read_week_index(w, src, problems))
        usable = false;
    return usable;
}

/*
 * durationHours is required.  When it is missing or unreadable the window
 * is evaluated as 4 hours, the AKS minimum: the shortest window AKS could
 * apply, so no open time is invented.
 */
static void read_duration(struct ndp_window *w,
                          const struct window_source *src,
                          struct ndp_buf *problems)
{
    const char *name = src->names->duration;

    if (unknown_value(src, src->duration, name)) {
        /* Inside its first 4 hours is inside whatever it turns out to be. */
        mark_unknown(w, UNKNOWN_DURATION, name);
        w->duration_hours = MIN_DURATION_HOURS;
        return;
    }
    switch (get_integer(src->duration, &w->duration_hours)) {
    case FIELD_MISSING:
        add_problem(problems, "%s is missing", name);
        w->duration_hours = MIN_DURATION_HOURS;
        w->duration_missing = true;
        return;
    case FIELD_BAD:
        add_problem(problems, "%s is not an integer", name);
        w->duration_hours = MIN_DURATION_HOURS;
        w->duration_missing = true;
        return;
    case FIELD_OK:
        break;
    }
    if (w->duration_hours < MIN_DURATION_HOURS)
        add_problem(problems, "%s %lld is below the AKS minimum of %d",
                    name, w->duration_hours, MIN_DURATION_HOURS);
    else if (w->duration_hours > MAX_DURATION_HOURS)
        add_problem(problems, "%s %lld is above the AKS maximum of %d",
                    name, w->duration_hours, MAX_DURATION_HOURS);
}

static bool read_start_time(struct ndp_window *w,
                            const struct window_source *src,
                            struct ndp_buf *problems)
{
    const char *name = src->names->start_time;
    const char *s = NULL;

    if (unknown_value(src, src->start_time, name)) {
        mark_unknown(w, UNKNOWN_START_TIME, name);
        return true;
    }
    switch (get_string(src->start_time, &s)) {
    case FIELD_MISSING:
        add_problem(problems, "%s is missing", name);
        return false;
    case FIELD_BAD:
        add_problem(problems, "%s is not a string", name);
        return false;
    case FIELD_OK:
        break;
    }
    w->start_minute = parse_clock(s);
    if (w->start_minute < 0) {
        add_problem(problems, "%s '%.40s' is not HH:mm between 00:00 and "
                    "23:59", name, s);
        return false;
    }
    return true;
}

/*
 * Absent or "" means the AKS default +00:00.  The newest API (2026-08-02-
 * preview) takes whole quarter hours from -14:00 to +14:00; an offset
 * outside that is reported and still evaluated as written.
 */
static void read_utc_offset(struct ndp_window *w,
                            const struct window_source *src,
                            struct ndp_buf *problems)
{
    const char *name = src->names->utc_offset;
    const char *s = NULL;
    int magnitude;

    if (unknown_value(src, src->utc_offset, name)) {
        mark_unknown(w, UNKNOWN_UTC_OFFSET, name);
        return;
    }
    switch (get_string(src->utc_offset, &s)) {
    case FIELD_MISSING:
        return;
    case FIELD_BAD:
        add_problem(problems, "%s is not a string", name);
        w->utc_offset_unreadable = true;
        return;
    case FIELD_OK:
        break;
    }
    if (!parse_utc_offset(s, &w->utc_offset_minutes)) {
        add_problem(problems, "%s '%.40s' is not +HH:MM or -HH:MM", name, s);
        w->utc_offset_unreadable = true;
        w->utc_offset_minutes = 0;
        return;
    }
    magnitude = w->utc_offset_minutes < 0 ? -w->utc_offset_minutes
                                          : w->utc_offset_minutes;
    if (magnitude % UTC_OFFSET_STEP_MINUTES != 0 ||
        magnitude > MAX_UTC_OFFSET_MINUTES)
        add_problem(problems, "%s '%.40s' is not one AKS accepts: whole "
                    "quarter hours from -14:00 to +14:00", name, s);
}

/*
 * An unreadable startDate is reported and treated as absent; with an
 * interval above 1 that makes the phase unknown, which is the safe side.
 */
static void read_start_date(struct ndp_window *w,
                            const struct window_source *src,
                            struct ndp_buf *problems)
{
    const char *name = src->names->start_date;
    const char *s = NULL;

    if (unknown_value(src, src->start_date, name)) {
        mark_unknown(w, UNKNOWN_START_DATE, name);
        return;
    }
    switch (get_string(src->start_date, &s)) {
    case FIELD_MISSING:
        return;
    case FIELD_BAD:
        add_problem(problems, "%s is not a string", name);
        return;
    case FIELD_OK:
        break;
    }
    if (!read_date_text(src->names, name, s, &w->start_date, problems))
        return;
    w->has_start_date = true;
}

/* One date of a notAllowedDates entry; false (and a problem) if unusable. */
static bool read_span_date(const struct json_object *entry, const char *key,
                           const struct field_names *names, size_t i,
                           int64_t *days, struct ndp_buf *problems)
{
    const char *name = names->not_allowed;
    const char *s = NULL;
    char label[64];

    switch (get_string(member(entry, key), &s)) {
    case FIELD_MISSING:
        add_problem(problems, "%s[%zu].%s is missing", name, i, key);
        return false;
    case FIELD_BAD:
        add_problem(problems, "%s[%zu].%s is not a string", name, i, key);
        return false;
    case FIELD_OK:
        break;
    }
    snprintf(label, sizeof(label), "%s[%zu].%s", name, i, key);
    return read_date_text(names, label, s, days, problems);
}

/*
 * An entry whose dates cannot be read is reported and left out (its span
 * is unknown).  One that ends before it starts is reported and kept: it
 * then blocks the dates between its two ends, so no open time is claimed
 * on days the user evidently meant to block.
 */
static void read_not_allowed(struct ndp_window *w,
                             const struct window_source *src,
                             struct ndp_buf *problems)
{
    const char *name = src->names->not_allowed;
    const struct json_object *list = src->not_allowed;
    size_t n;

    /* A list with any unknown part blocks days nobody can name yet. */
    if (src->unknown && ndp_json_mask_covers(src->unknown, name)) {
        mark_unknown(w, UNKNOWN_NOT_ALLOWED, name);
        return;
    }
    if (!list)
        return;
    if (!json_object_is_type(list, json_type_array)) {
        add_problem(problems, "%s is not an array", name);
        return;
    }
    n = json_object_array_length(list);
    w->spans = ndp_xcalloc(n, sizeof(*w->spans));
    for (size_t i = 0; i < n; i++) {
        const struct json_object *entry = json_object_array_get_idx(list, i);
        struct date_span span;
        bool start_ok = read_span_date(entry, "start", src->names, i,
                                       &span.start, problems);
        bool end_ok = read_span_date(entry, "end", src->names, i, &span.end,
                                     problems);

        if (!start_ok || !end_ok)
            continue;
        if (span.end < span.start) {
            struct ndp_buf first = NDP_BUF_INIT;
            struct ndp_buf last = NDP_BUF_INIT;

            ndp_date_format(&first, span.start);
            ndp_date_format(&last, span.end);
            add_problem(problems, "%s[%zu] ends on %s, before it starts on "
                        "%s", name, i, last.buf, first.buf);
            ndp_buf_release(&first);
            ndp_buf_release(&last);
        }
        w->spans[w->n_spans++] = span;
    }
}

static void find_anchor(struct ndp_window *w);

static struct ndp_window *build_window(const struct window_source *src,
                                       struct ndp_buf *problems)
{
    struct ndp_window *w = ndp_xcalloc(1, sizeof(*w));
    bool usable = true;

    w->names = src->names;
    /* Every reader runs, so the caller sees all problems at once. */
    if (!read_schedule(w, src, problems))
        usable = false;
    read_duration(w, src, problems);
    if (!read_start_time(w, src, problems))
        usable = false;
    read_utc_offset(w, src, problems);
    read_start_date(w, src, problems);
    read_not_allowed(w, src, problems);
    if (!usable) {
        ndp_window_free(w);
        return NULL;
    }
    find_anchor(w);
    return w;
}

/* Finds the one non-null schedule variant of an ARM 'schedule' object. */
static void read_arm_schedule(struct window_source *src,
                              const struct json_object *mw,
                              struct ndp_buf *problems)
{
    const struct json_object *schedule = member(mw, "schedule");
    const struct json_object *variant = NULL;
    struct ndp_buf found = NDP_BUF_INIT;
    int count = 0;

    src->kind = SCHEDULE_NONE;
    if (unknown_value(src, schedule, "schedule")) {
        src->kind_unknown = true;
        return;
    }
    if (!schedule) {
        add_problem(problems, "schedule is missing");
        return;
    }
    if (!json_object_is_type(schedule, json_type_object)) {
        add_problem(problems, "schedule is not an object");
        return;
    }
    for (int k = 0; k < 4; k++) {
        const struct json_object *v = member(schedule, arm_schedule_keys[k]);

        /* az CLI writes the unused variants as null: not a second type. */
        if (!v)
            continue;
        ndp_buf_addf(&found, "%s%s", count ? ", " : "", arm_schedule_keys[k]);
        count++;
        src->kind = (enum schedule_kind)k;
        variant = v;
    }
    if (count == 0) {
        add_problem(problems, "schedule has no schedule type (daily, weekly, "
                    "absoluteMonthly or relativeMonthly)");
    } else if (count > 1) {
        add_problem(problems, "schedule has more than one schedule type (%s)",
                    found.buf);
        src->kind = SCHEDULE_NONE;
    } else if (!json_object_is_type(variant, json_type_object)) {
        add_problem(problems, "schedule.%s is not an object",
                    arm_schedule_keys[src->kind]);
        src->kind = SCHEDULE_NONE;
    } else {
        snprintf(src->schedule_path, sizeof(src->schedule_path),
                 "schedule.%s.", arm_schedule_keys[src->kind]);
        src->interval = member(variant, arm_names.interval[src->kind]);
        src->day_of_week = member(variant, "dayOfWeek");
        src->day_of_month = member(variant, "dayOfMonth");
        src->week_index = member(variant, "weekIndex");
    }
    ndp_buf_release(&found);
}

struct ndp_window *ndp_window_from_arm(const struct json_object *mw,
                                       struct ndp_buf *problems)
{
    return ndp_window_from_arm_unknown(mw, NULL, problems);
}

/* Nothing at all is known of a window whose whole value is unknown. */
static bool wholly_unknown(const struct json_object *v,
                           const struct json_object *unknown)
{
    return ndp_json_is_unset(v) && unknown && ndp_json_any_true(unknown);
}

struct ndp_window *ndp_window_from_arm_unknown(
    const struct json_object *mw, const struct json_object *unknown,
    struct ndp_buf *problems)
{
    struct window_source src = { .names = &arm_names, .unknown = unknown };

    if (wholly_unknown(mw, unknown))
        mw = NULL;
    else if (!json_object_is_type(mw, json_type_object)) {
        add_problem(problems, "maintenanceWindow is not an object");
        return NULL;
    }
    read_arm_schedule(&src, mw, problems);
    src.duration = member(mw, "durationHours");
    src.start_time = member(mw, "startTime");
    src.utc_offset = member(mw, "utcOffset");
    src.start_date = member(mw, "startDate");
    src.not_allowed = member(mw, "notAllowedDates");
    return build_window(&src, problems);
}

static void read_azurerm_frequency(struct window_source *src,
                                   const struct json_object *block,
                                   struct ndp_buf *problems)
{
    const char *s = NULL;
    int k;

    src->kind = SCHEDULE_NONE;
    if (unknown_value(src, member(block, "frequency"), "frequency")) {
        src->kind_unknown = true;
        return;
    }
    if (!required_string(member(block, "frequency"), "frequency", &s,
                         problems))
        return;
    k = lookup_name(s, azurerm_frequencies, 4);
    if (k < 0) {
        add_problem(problems, "frequency '%.40s' is not Daily, Weekly, "
                    "AbsoluteMonthly or RelativeMonthly", s);
        return;
    }
    src->kind = (enum schedule_kind)k;
}

struct ndp_window *ndp_window_from_azurerm(const struct json_object *block,
                                           struct ndp_buf *problems)
{
    return ndp_window_from_azurerm_unknown(block, NULL, problems);
}

struct ndp_window *ndp_window_from_azurerm_unknown(
    const struct json_object *block, const struct json_object *unknown,
    struct ndp_buf *problems)
{
    struct window_source src = { .names = &azurerm_names,
                                 .unknown = unknown };

    if (wholly_unknown(block, unknown))
        block = NULL;
    else if (!json_object_is_type(block, json_type_object)) {
        add_problem(problems, "maintenance_window_node_os is not an object");
        return NULL;
    }
    read_azurerm_frequency(&src, block, problems);
    src.interval = member(block, "interval");
    src.day_of_week = member(block, "day_of_week");
    src.day_of_month = member(block, "day_of_month");
    src.week_index = member(block, "week_index");
    src.duration = member(block, "duration");
    src.start_time = member(block, "start_time");
    src.utc_offset = member(block, "utc_offset");
    src.start_date = member(block, "start_date");
    src.not_allowed = member(block, "not_allowed");
    return build_window(&src, problems);
}

void ndp_window_free(struct ndp_window *w)
{
    if (!w)
        return;
    free(w->spans);
    free(w->unknown_names);
    free(w);
}

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
    if (w->week_index == WEEK_INDEX_LAST)
        return d + 7 > ndp_days_in_month(y, m);
    return (d - 1) / 7 + 1 == w->week_index;
}

/* Does 'day' fit the schedule's calendar rule, the interval aside? */
static bool matches_calendar(const struct ndp_window *w, int64_t day)
{
    int64_t y;
    unsigned m;
    unsigned d;

    switch (w->kind) {
    case SCHEDULE_DAILY:
        return true;
    case SCHEDULE_WEEKLY:
        return ndp_weekday_from_days(day) == w->day_of_week;
    case SCHEDULE_ABSOLUTE_MONTHLY:
        /* A month without this day has no window (see the top comment). */
        ndp_civil_from_days(day, &y, &m, &d);
        return d == w->day_of_month;
    case SCHEDULE_RELATIVE_MONTHLY:
        return ndp_weekday_from_days(day) == w->day_of_week
               && matches_week_index(w, day);
    case SCHEDULE_NONE:
        break;
    }
    return false;
}

/* Is 'day' a whole number of intervals after the anchor? */
static bool matches_interval(const struct ndp_window *w, int64_t day)
{
    int64_t since = day - w->anchor_day;

    switch (w->kind) {
    case SCHEDULE_DAILY:
        return ndp_floor_mod(since, w->interval) == 0;
    case SCHEDULE_WEEKLY:
        /* 'day' is on the anchor's weekday: 'since' is whole weeks. */
        return ndp_floor_mod(since / 7, w->interval) == 0;
    case SCHEDULE_ABSOLUTE_MONTHLY:
    case SCHEDULE_RELATIVE_MONTHLY:
        return ndp_floor_mod(month_number(day) - month_number(w->anchor_day),
                             w->interval) == 0;
    case SCHEDULE_NONE:
        break;
    }
    return false;
}

/*
 * The first occurrence on or after startDate starts the interval count.
 * If none is found (impossible for a schedule that passed validation) the
 * window never opens.
 */
static void find_anchor(struct ndp_window *w)
{
    if (!w->has_start_date)
        return;
    for (int64_t day = w->start_date;
         day < w->start_date + ANCHOR_SEARCH_DAYS; day++) {
        if (matches_calendar(w, day)) {
            w->anchor_day = day;
            w->has_anchor = true;
            return;
        }
    }
}

bool ndp_window_phase_unknown(const struct ndp_window *w)
{
    return w && !w->has_start_date && w->interval > 1
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
    return w && (w->unknown & ~(unsigned)UNKNOWN_DURATION) != 0;
}

bool ndp_window_partly_unknown(const struct ndp_window *w)
{
    return w && w->unknown != 0;
}

/*
 * Does the window that starts on local 'day' exist?  Without startDate
 * there is no anchor and the interval test is dropped: with interval 1 it
 * is moot, and with an unknown phase this answers "may exist", which is
 * what ndp_window_next() wants for the earliest possible opening.
 */
static bool is_occurrence(const struct ndp_window *w, int64_t day)
{
    if (!w->has_start_date)
        return matches_calendar(w, day);
    if (!w->has_anchor || day < w->anchor_day || !matches_calendar(w, day))
        return false;
    return w->interval == 1 || matches_interval(w, day);
}

/* ------------------------------------------------------------------ */
/* Instants                                                            */

/* The evaluated length: at most 24 hours (AKS refuses more), never < 0. */
static int64_t duration_seconds(const struct ndp_window *w)
{
    long long hours = w->duration_hours;

    if (hours < 0)
        hours = 0;
    if (hours > MAX_DURATION_HOURS)
        hours = MAX_DURATION_HOURS;
    return (int64_t)hours * SECONDS_PER_HOUR;
}

/* Seconds from UTC midnight of local 'day' to the window start. */
static int64_t start_shift(const struct ndp_window *w)
{
    return (int64_t)w->start_minute * 60
           - (int64_t)w->utc_offset_minutes * 60;
}

static int64_t window_start(const struct ndp_window *w, int64_t day)
{
    return day * SECONDS_PER_DAY + start_shift(w);
}

/* Does [start, end) touch any notAllowedDates span (local whole days)? */
static bool overlaps_not_allowed(const struct ndp_window *w, int64_t start,
                                 int64_t end)
{
    int64_t offset = (int64_t)w->utc_offset_minutes * 60;

    for (size_t i = 0; i < w->n_spans; i++) {
        const struct date_span *s = &w->spans[i];
        int64_t first = s->start < s->end ? s->start : s->end;
        int64_t last = s->start < s->end ? s->end : s->start;
        int64_t blocked_from = first * SECONDS_PER_DAY - offset;
        int64_t blocked_until = (last + 1) * SECONDS_PER_DAY - offset;

        if (start < blocked_until && blocked_from < end)
            return true;
    }
    return false;
}

static bool instant_in_range(int64_t at)
{
    return at > -INSTANT_LIMIT && at < INSTANT_LIMIT;
}

bool ndp_window_is_open(const struct ndp_window *w, int64_t at,
                        int64_t *closes_at)
{
    int64_t length;
    int64_t first_day;
    int64_t last_day;

    /* An unknown phase is closed at every instant: see the top comment. */
    if (!w || ndp_window_phase_unknown(w) || ndp_window_opening_unknown(w) ||
        !instant_in_range(at))
        return false;
    length = duration_seconds(w);
    if (length == 0)
        return false;
    /* Windows last at most a day, so at most two days can hold 'at'. */
    last_day = ndp_floor_div(at - start_shift(w), SECONDS_PER_DAY);
    first_day = ndp_floor_div(at - start_shift(w) - length, SECONDS_PER_DAY);
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

    if (!w || ndp_window_opening_unknown(w) || !instant_in_range(at))
        return false;
    length = duration_seconds(w);
    if (length == 0)
        return false;
    horizon = at + (int64_t)HORIZON_DAYS * SECONDS_PER_DAY;
    /* The first local day whose window starts at or after 'at'. */
    for (int64_t day = -ndp_floor_div(start_shift(w) - at, SECONDS_PER_DAY);
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
    return w ? w->utc_offset_minutes : 0;
}

/* ------------------------------------------------------------------ */
/* Text                                                                */

static void add_offset(struct ndp_buf *out, int minutes)
{
    int magnitude = minutes < 0 ? -minutes : minutes;

    ndp_buf_addf(out, "%c%02d:%02d", minutes < 0 ? '-' : '+',
                 magnitude / 60, magnitude % 60);
}

static void describe_schedule(struct ndp_buf *out, const struct ndp_window *w)
{
    long long n = w->interval;

    if (w->unknown & UNKNOWN_SCHEDULE) {
        ndp_buf_adds(out, w->kind == SCHEDULE_NONE
                              ? "an unknown schedule"
                              : "a partly unknown schedule");
        return;
    }
    switch (w->kind) {
    case SCHEDULE_DAILY:
        if (n == 1)
            ndp_buf_adds(out, "every day");
        else
            ndp_buf_addf(out, "every %lld days", n);
        break;
    case SCHEDULE_WEEKLY:
        if (n == 1)
            ndp_buf_adds(out, "weekly");
        else
            ndp_buf_addf(out, "every %lld weeks", n);
        ndp_buf_addf(out, " on %s", weekday_names[w->day_of_week]);
        break;
    case SCHEDULE_ABSOLUTE_MONTHLY:
    case SCHEDULE_RELATIVE_MONTHLY:
        if (n == 1)
            ndp_buf_adds(out, "monthly");
        else
            ndp_buf_addf(out, "every %lld months", n);
        if (w->kind == SCHEDULE_ABSOLUTE_MONTHLY)
            ndp_buf_addf(out, " on day %u", w->day_of_month);
        else
            ndp_buf_addf(out, " on the %s %s",
                         week_index_words[w->week_index],
                         weekday_names[w->day_of_week]);
        break;
    case SCHEDULE_NONE:
        break;
    }
}

static void describe_time(struct ndp_buf *out, const struct ndp_window *w)
{
    if (w->unknown & UNKNOWN_START_TIME)
        ndp_buf_adds(out, " at an unknown time");
    else
        ndp_buf_addf(out, " at %02d:%02d", w->start_minute / 60,
                     w->start_minute % 60);
    if (w->unknown & UNKNOWN_UTC_OFFSET)
        ndp_buf_adds(out, " at an unknown UTC offset");
    else
        ndp_buf_adds(out, " UTC");
    if (!(w->unknown & UNKNOWN_UTC_OFFSET) && w->utc_offset_minutes != 0)
        add_offset(out, w->utc_offset_minutes);
    if (w->unknown & UNKNOWN_DURATION)
        ndp_buf_adds(out, " for an unknown number of hours");
    else
        ndp_buf_addf(out, " for %lld hour%s", w->duration_hours,
                     w->duration_hours == 1 ? "" : "s");
}

static void describe_dates(struct ndp_buf *out, const struct ndp_window *w)
{
    if (w->has_start_date) {
        ndp_buf_adds(out, ", from ");
        ndp_date_format(out, w->start_date);
    }
    for (size_t i = 0; i < w->n_spans; i++) {
        ndp_buf_adds(out, i == 0 ? ", except " : ", ");
        ndp_date_format(out, w->spans[i].start);
        if (w->spans[i].end != w->spans[i].start) {
            ndp_buf_adds(out, "..");
            ndp_date_format(out, w->spans[i].end);
        }
    }
}

static void add_caveat(struct ndp_buf *out, int *count, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add_caveat(struct ndp_buf *out, int *count, const char *fmt, ...)
{
    va_list ap;

    ndp_buf_adds(out, *count == 0 ? " (" : "; ");
    (*count)++;
    va_start(ap, fmt);
    ndp_buf_vaddf(out, fmt, ap);
    va_end(ap);
}

static bool has_reversed_span(const struct ndp_window *w)
{
    for (size_t i = 0; i < w->n_spans; i++) {
        if (w->spans[i].end < w->spans[i].start)
            return true;
    }
    return false;
}

static void describe_duration_caveat(struct ndp_buf *out,
                                     const struct ndp_window *w, int *count)
{
    if (w->duration_missing)
        add_caveat(out, count, "durationHours is missing or unreadable and "
                   "is taken as %d hours, the AKS minimum",
                   MIN_DURATION_HOURS);
    else if (w->duration_hours > MAX_DURATION_HOURS)
        add_caveat(out, count, "durationHours %lld is evaluated as %d, "
                   "the AKS maximum", w->duration_hours, MAX_DURATION_HOURS);
    else if (w->duration_hours <= 0)
        add_caveat(out, count, "a window of %lld hours never opens",
                   w->duration_hours);
}

static void describe_unknown_caveat(struct ndp_buf *out,
                                    const struct ndp_window *w, int *count)
{
    if (!w->unknown)
        return;
    if (ndp_window_opening_unknown(w))
        add_caveat(out, count, "unknown: %s; the window "
                   "cannot be fully evaluated, and an instant that depends "
                   "on the unknown part is taken to be outside it",
                   w->unknown_names);
    else
        add_caveat(out, count, "unknown: %s; only its first "
                   "%d hours, the AKS minimum, are taken to be inside",
                   w->unknown_names, MIN_DURATION_HOURS);
}

static void describe_caveats(struct ndp_buf *out, const struct ndp_window *w)
{
    int count = 0;

    describe_unknown_caveat(out, w, &count);
    describe_duration_caveat(out, w, &count);
    if (w->utc_offset_unreadable)
        add_caveat(out, &count, "the unreadable utcOffset is taken as "
                   "+00:00");
    if (ndp_window_phase_unknown(w))
        add_caveat(out, &count, "without startDate AKS counts %s from "
                   "the configuration's creation date, which ndplint cannot "
                   "know: the window is never taken to be open, and the next "
                   "opening given is the earliest possible one",
                   arm_names.interval[w->kind]);
    if (w->kind == SCHEDULE_ABSOLUTE_MONTHLY && w->day_of_month >= 29)
        add_caveat(out, &count, "dayOfMonth %u is taken to have no window "
                   "in shorter months", w->day_of_month);
    if (w->has_start_date && w->interval > 1 && !ndp_window_opening_unknown(w))
        add_caveat(out, &count, "the interval is counted from the first "
                   "occurrence on or after startDate");
    if (w->n_spans > 0)
        add_caveat(out, &count, "a window that overlaps notAllowedDates is "
                   "skipped entirely");
    if (has_reversed_span(w))
        add_caveat(out, &count, "a notAllowedDates span that ends before it "
                   "starts blocks the dates between its ends");
    if (count > 0)
        ndp_buf_addch(out, ')');
}

void ndp_window_describe(struct ndp_buf *out, const struct ndp_window *w)
{
    describe_schedule(out, w);
    describe_time(out, w);
    describe_dates(out, w);
    describe_caveats(out, w);
}

static void schedule_to_json(struct ndp_buf *out, const struct ndp_window *w)
{
    ndp_buf_addf(out, "{\"%s\":{\"%s\":%lld", arm_schedule_keys[w->kind],
                 arm_names.interval[w->kind], w->interval);
    if (w->kind == SCHEDULE_ABSOLUTE_MONTHLY)
        ndp_buf_addf(out, ",\"dayOfMonth\":%u", w->day_of_month);
    if (w->kind == SCHEDULE_RELATIVE_MONTHLY) {
        ndp_buf_adds(out, ",\"weekIndex\":");
        ndp_buf_add_json_string(out, week_index_names[w->week_index]);
    }
    if (w->kind == SCHEDULE_WEEKLY || w->kind == SCHEDULE_RELATIVE_MONTHLY) {
        ndp_buf_adds(out, ",\"dayOfWeek\":");
        ndp_buf_add_json_string(out, weekday_names[w->day_of_week]);
    }
    ndp_buf_adds(out, "}}");
}

static void add_json_date(struct ndp_buf *out, int64_t days)
{
    struct ndp_buf date = NDP_BUF_INIT;

    ndp_date_format(&date, days);
    ndp_buf_add_json_string(out, date.buf);
    ndp_buf_release(&date);
}

/*
 * Appends 'key' (the member's name, its separator included), then null
 * when 'part' is unknown; true when the caller is to add the value.
 */
static bool add_member(struct ndp_buf *out, const struct ndp_window *w,
                       const char *key, unsigned part)
{
    ndp_buf_adds(out, key);
    if (!(w->unknown & part))
        return true;
    ndp_buf_adds(out, "null");
    return false;
}

static void not_allowed_to_json(struct ndp_buf *out,
                                const struct ndp_window *w)
{
    ndp_buf_addch(out, '[');
    for (size_t i = 0; i < w->n_spans; i++) {
        ndp_buf_adds(out, i ? ",{\"start\":" : "{\"start\":");
        add_json_date(out, w->spans[i].start);
        ndp_buf_adds(out, ",\"end\":");
        add_json_date(out, w->spans[i].end);
        ndp_buf_addch(out, '}');
    }
    ndp_buf_addch(out, ']');
}

/* "unknown": the unknown parts by their ARM names. */
static void unknown_to_json(struct ndp_buf *out, const struct ndp_window *w)
{
    static const char *const parts[] = { "schedule", "durationHours",
                                         "startTime", "utcOffset",
                                         "startDate", "notAllowedDates" };
    int n = 0;

    if (!w->unknown)
        return;
    ndp_buf_adds(out, ",\"unknown\":[");
    for (size_t i = 0; i < NDP_ARRAY_SIZE(parts); i++) {
        if (w->unknown & (1u << i))
            ndp_buf_addf(out, "%s\"%s\"", n++ ? "," : "", parts[i]);
    }
    ndp_buf_addch(out, ']');
}

void ndp_window_to_json(struct ndp_buf *out, const struct ndp_window *w)
{
    struct ndp_buf text = NDP_BUF_INIT;

    if (add_member(out, w, "{\"schedule\":", UNKNOWN_SCHEDULE))
        schedule_to_json(out, w);
    if (add_member(out, w, ",\"durationHours\":", UNKNOWN_DURATION))
        ndp_buf_addf(out, "%lld", w->duration_hours);
    if (add_member(out, w, ",\"utcOffset\":", UNKNOWN_UTC_OFFSET)) {
        add_offset(&text, w->utc_offset_minutes);
        ndp_buf_add_json_string(out, text.buf);
    }
    ndp_buf_reset(&text);
    ndp_buf_addf(&text, "%02d:%02d", w->start_minute / 60,
                 w->start_minute % 60);
    if (add_member(out, w, ",\"startTime\":", UNKNOWN_START_TIME))
        ndp_buf_add_json_string(out, text.buf);
    if (add_member(out, w, ",\"startDate\":", UNKNOWN_START_DATE)) {
        if (w->has_start_date)
            add_json_date(out, w->start_date);
        else
            ndp_buf_adds(out, "null");
    }
    if (add_member(out, w, ",\"notAllowedDates\":", UNKNOWN_NOT_ALLOWED))
        not_allowed_to_json(out, w);
    unknown_to_json(out, w);
    ndp_buf_addch(out, '}');
    ndp_buf_release(&text);
}

bool ndp_window_check_start_date(const struct ndp_window *w, int64_t at,
                                 struct ndp_buf *problems)
{
    struct ndp_buf first = NDP_BUF_INIT;
    struct ndp_buf today_text = NDP_BUF_INIT;
    int64_t today;

    if (!w || !w->has_start_date || !instant_in_range(at))
        return false;
    /* The date at the window's own offset, as every date of it is read. */
    today = ndp_floor_div(at + (int64_t)w->utc_offset_minutes * 60,
                          SECONDS_PER_DAY);
    if (w->start_date >= today)
        return false;
    ndp_date_format(&first, w->start_date);
    ndp_date_format(&today_text, today);
    add_problem(problems, "%s %s is before the current date (%s at the "
                "window's UTC offset), and AKS refuses to set a window "
                "that starts in the past (\"The input "
                "'maintenanceWindow.startDate' ... is before the current "
                "time\")", w->names->start_date, first.buf, today_text.buf);
    ndp_buf_release(&first);
    ndp_buf_release(&today_text);
    return true;
}

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

    while (t - at < (int64_t)HORIZON_DAYS * SECONDS_PER_DAY) {
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

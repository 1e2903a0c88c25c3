/*
 * SPDX-License-Identifier: Apache-2.0
 * window_parse.c - a maintenance window read and checked: an AKS
 * MaintenanceWindow (ARM JSON) or the azurerm maintenance_window_node_os
 * block turned into the struct ndp_window that window.c evaluates, with
 * every value AKS would refuse reported as a problem (window-invalid),
 * and a startDate checked against the instant of the run; and the legacy
 * hours form of the default configuration (timeInWeek, notAllowedTime)
 * checked the same way, though it is no window the policy reads.
 *
 * A value Terraform knows only after apply (after_unknown) is not a
 * problem: what is known is judged, and the window is marked partly
 * unknown; an unknown durationHours is read as 4 hours, the AKS minimum.
 *
 * Values AKS would refuse are reported as problems and, where a meaning
 * remains, still read on the safe side: a date-time where ARM takes a
 * date by its date part, an offset that is not a whole quarter hour
 * within 14 hours as written, a missing durationHours as 4 (the AKS
 * minimum), an unreadable utcOffset as +00:00, an unreadable startDate
 * as absent, a notAllowedDates entry ending before it starts as blocking
 * the dates between its ends (window.c evaluates durationHours above 24
 * as 24).  No window is returned when nothing sensible can be evaluated:
 * no schedule type or more than one, an interval below 1, a day, week
 * index or startTime that cannot be read.
 */
#include "common.h"
#include "window.h"
#include "window_internal.h"
#include "buf.h"
#include "jsonutil.h"
#include "timeutil.h"

#include <stdarg.h>
#include <json-c/json.h>

/* Integral JSON doubles beyond this are not taken as integers. */
#define LARGEST_INTEGER 1e15
#define UTC_OFFSET_STEP_MINUTES 15
#define MAX_UTC_OFFSET_MINUTES (14 * 60)

/* The JSON values a window is built from, whatever the notation. */
struct window_source {
    const struct ndp_window_names *names;
    const struct json_object *unknown; /* after_unknown mask, or NULL */
    char schedule_path[40];       /* mask path of the schedule's fields */
    bool kind_unknown;
    enum ndp_window_schedule kind;
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

static const struct ndp_window_names arm_names = {
    { "intervalDays", "intervalWeeks", "intervalMonths", "intervalMonths" },
    "dayOfWeek", "dayOfMonth", "weekIndex", "durationHours", "startTime",
    "utcOffset", "startDate", "notAllowedDates", false, false, false
};

static const struct ndp_window_names azurerm_names = {
    { "interval", "interval", "interval", "interval" },
    "day_of_week", "day_of_month", "week_index", "duration", "start_time",
    "utc_offset", "start_date", "not_allowed", true, true, true
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

    if (w->set.unknown_names) {
        ndp_buf_addf(&names, "%s, ", w->set.unknown_names);
        free(w->set.unknown_names);
    }
    ndp_buf_adds(&names, name);
    w->set.unknown_names = ndp_buf_detach(&names);
    w->set.unknown |= part;
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
    mark_unknown(w, NDP_WINDOW_UNKNOWN_SCHEDULE, name);
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
static bool read_date_text(const struct ndp_window_names *names,
                           const char *label, const char *s, int64_t *days,
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
        w->set.interval = 1;
        return true;
    }
    if (!required_integer(src->interval, name, &w->set.interval, problems))
        return false;
    if (w->set.interval < 1 || w->set.interval > max)
        add_problem(problems, "%s %lld is outside the AKS range 1..%lld",
                    name, w->set.interval, max);
    /* Above the range still has a meaning; zero or less has none. */
    return w->set.interval >= 1;
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
    w->set.day_of_week = (unsigned)day;
    return true;
}

static bool read_day_of_month(struct ndp_window *w,
                              const struct window_source *src,
                              struct ndp_buf *problems)
{
    const char *name = src->names->day_of_month;
    long long day = 0;

    if (unknown_schedule_field(w, src, src->day_of_month, name)) {
        w->set.day_of_month = 1;
        return true;
    }
    if (!required_integer(src->day_of_month, name, &day, problems))
        return false;
    if (day < 1 || day > 31) {
        add_problem(problems, "%s %lld is outside 1..31", name, day);
        return false;
    }
    w->set.day_of_month = (unsigned)day;
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
        w->set.week_index = 1;
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
    w->set.week_index = (unsigned)index + 1;
    return true;
}

/* Reads the fields of the schedule type; false when it cannot be used. */
static bool read_schedule(struct ndp_window *w,
                          const struct window_source *src,
                          struct ndp_buf *problems)
{
    bool usable = true;

    w->set.kind = src->kind;
    w->set.interval = 1;
    if (src->kind_unknown) {
        mark_unknown(w, NDP_WINDOW_UNKNOWN_SCHEDULE, src->names == &arm_names
                                              ? "schedule" : "frequency");
        return true;
    }
    if (src->kind == NDP_SCHEDULE_NONE)
        return false;
    if (!read_interval(w, src, problems))
        usable = false;
    if ((src->kind == NDP_SCHEDULE_WEEKLY
         || src->kind == NDP_SCHEDULE_RELATIVE_MONTHLY)
        && !read_day_of_week(w, src, problems))
        usable = false;
    if (src->kind == NDP_SCHEDULE_ABSOLUTE_MONTHLY
        && !read_day_of_month(w, src, problems))
        usable = false;
    if (src->kind == NDP_SCHEDULE_RELATIVE_MONTHLY
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
        mark_unknown(w, NDP_WINDOW_UNKNOWN_DURATION, name);
        w->set.duration_hours = NDP_WINDOW_MIN_HOURS;
        return;
    }
    switch (get_integer(src->duration, &w->set.duration_hours)) {
    case FIELD_MISSING:
        add_problem(problems, "%s is missing", name);
        w->set.duration_hours = NDP_WINDOW_MIN_HOURS;
        w->set.duration_missing = true;
        return;
    case FIELD_BAD:
        add_problem(problems, "%s is not an integer", name);
        w->set.duration_hours = NDP_WINDOW_MIN_HOURS;
        w->set.duration_missing = true;
        return;
    case FIELD_OK:
        break;
    }
    /* azurerm refuses these in terraform plan (put-time-limits PT-MW-02):
     * no plan of it holds one, and what a hand-made one says is read as
     * written. */
    if (src->names->provider_checks_duration)
        return;
    if (w->set.duration_hours < NDP_WINDOW_MIN_HOURS)
        add_problem(problems, "%s %lld is below the AKS minimum of %d",
                    name, w->set.duration_hours, NDP_WINDOW_MIN_HOURS);
    else if (w->set.duration_hours > NDP_WINDOW_MAX_HOURS)
        add_problem(problems, "%s %lld is above the AKS maximum of %d",
                    name, w->set.duration_hours, NDP_WINDOW_MAX_HOURS);
}

static bool read_start_time(struct ndp_window *w,
                            const struct window_source *src,
                            struct ndp_buf *problems)
{
    const char *name = src->names->start_time;
    const char *s = NULL;

    if (unknown_value(src, src->start_time, name)) {
        mark_unknown(w, NDP_WINDOW_UNKNOWN_START_TIME, name);
        return true;
    }
    switch (get_string(src->start_time, &s)) {
    case FIELD_MISSING:
        if (src->names->empty_start_time_sent)
            add_problem(problems, "%s is missing, and azurerm sends it as "
                        "\"\", which AKS refuses (inferred: startTime is "
                        "required, HH:mm)", name);
        else
            add_problem(problems, "%s is missing", name);
        return false;
    case FIELD_BAD:
        add_problem(problems, "%s is not a string", name);
        return false;
    case FIELD_OK:
        break;
    }
    w->set.start_minute = parse_clock(s);
    if (w->set.start_minute < 0) {
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
        mark_unknown(w, NDP_WINDOW_UNKNOWN_UTC_OFFSET, name);
        return;
    }
    switch (get_string(src->utc_offset, &s)) {
    case FIELD_MISSING:
        return;
    case FIELD_BAD:
        add_problem(problems, "%s is not a string", name);
        w->set.utc_offset_unreadable = true;
        return;
    case FIELD_OK:
        break;
    }
    if (!parse_utc_offset(s, &w->set.utc_offset_minutes)) {
        add_problem(problems, "%s '%.40s' is not +HH:MM or -HH:MM", name, s);
        w->set.utc_offset_unreadable = true;
        w->set.utc_offset_minutes = 0;
        return;
    }
    magnitude = w->set.utc_offset_minutes < 0 ? -w->set.utc_offset_minutes
                                              : w->set.utc_offset_minutes;
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
        mark_unknown(w, NDP_WINDOW_UNKNOWN_START_DATE, name);
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
    if (!read_date_text(src->names, name, s, &w->set.start_date, problems))
        return;
    w->set.has_start_date = true;
}

/* One date of a notAllowedDates entry; false (and a problem) if unusable. */
static bool read_span_date(const struct json_object *entry, const char *key,
                           const struct ndp_window_names *names, size_t i,
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
        mark_unknown(w, NDP_WINDOW_UNKNOWN_NOT_ALLOWED, name);
        return;
    }
    if (!list)
        return;
    if (!json_object_is_type(list, json_type_array)) {
        add_problem(problems, "%s is not an array", name);
        return;
    }
    n = json_object_array_length(list);
    w->set.spans = ndp_xcalloc(n, sizeof(*w->set.spans));
    for (size_t i = 0; i < n; i++) {
        const struct json_object *entry = json_object_array_get_idx(list, i);
        struct ndp_window_span span;
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
        w->set.spans[w->set.n_spans++] = span;
    }
}

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
    ndp_window_find_anchor(w);
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

    src->kind = NDP_SCHEDULE_NONE;
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
        src->kind = (enum ndp_window_schedule)k;
        variant = v;
    }
    if (count == 0) {
        add_problem(problems, "schedule has no schedule type (daily, weekly, "
                    "absoluteMonthly or relativeMonthly)");
    } else if (count > 1) {
        add_problem(problems, "schedule has more than one schedule type (%s)",
                    found.buf);
        src->kind = NDP_SCHEDULE_NONE;
    } else if (!json_object_is_type(variant, json_type_object)) {
        add_problem(problems, "schedule.%s is not an object",
                    arm_schedule_keys[src->kind]);
        src->kind = NDP_SCHEDULE_NONE;
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

    src->kind = NDP_SCHEDULE_NONE;
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
    src->kind = (enum ndp_window_schedule)k;
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
    free(w->set.spans);
    free(w->set.unknown_names);
    free(w);
}

const char *ndp_window_weekday_name(unsigned day)
{
    return day < NDP_ARRAY_SIZE(weekday_names) ? weekday_names[day] : "";
}

const char *ndp_window_week_index_name(unsigned index)
{
    return index < NDP_ARRAY_SIZE(week_index_names) ? week_index_names[index]
                                                    : "";
}

const char *ndp_window_schedule_name(enum ndp_window_schedule kind)
{
    return kind < NDP_SCHEDULE_NONE ? arm_schedule_keys[kind] : "";
}

const char *ndp_window_interval_name(enum ndp_window_schedule kind)
{
    return kind < NDP_SCHEDULE_NONE ? arm_names.interval[kind] : "";
}

/* ------------------------------------------------------------------ */
/* Checks against the instant                                          */

/* AKS's answer to a startDate in the past (azurerm#22762), quoted. */
#define PAST_START_DATE_ANSWER \
    "(\"The input 'maintenanceWindow.startDate' ... is before the current " \
    "time\")"

/*
 * When the startDate of 'w' is before the date of 'at' at the window's
 * UTC offset (as every date of it is read): both dates, written.
 */
static bool start_date_past(const struct ndp_window *w, int64_t at,
                            struct ndp_buf *first, struct ndp_buf *today_text)
{
    int64_t today;

    if (!w || !w->set.has_start_date || !ndp_window_instant_in_range(at))
        return false;
    today = ndp_floor_div(at + (int64_t)w->set.utc_offset_minutes * 60,
                          NDP_SECONDS_PER_DAY);
    if (w->set.start_date >= today)
        return false;
    ndp_date_format(first, w->set.start_date);
    ndp_date_format(today_text, today);
    return true;
}

/* Appends the problem of a startDate already past, then 'consequence'. */
static bool check_start_date(const struct ndp_window *w, int64_t at,
                             struct ndp_buf *problems, const char *consequence)
{
    struct ndp_buf first = NDP_BUF_INIT;
    struct ndp_buf today_text = NDP_BUF_INIT;
    bool past = start_date_past(w, at, &first, &today_text);

    if (past)
        add_problem(problems, "%s %s is before the current date (%s at the "
                    "window's UTC offset)%s", w->names->start_date,
                    first.buf, today_text.buf, consequence);
    ndp_buf_release(&first);
    ndp_buf_release(&today_text);
    return past;
}

bool ndp_window_check_start_date(const struct ndp_window *w, int64_t at,
                                 struct ndp_buf *problems)
{
    return check_start_date(w, at, problems,
                            ", and AKS refuses to set a window that starts "
                            "in the past " PAST_START_DATE_ANSWER);
}

bool ndp_window_check_new_start_date(const struct ndp_window *w, int64_t at,
                                     struct ndp_buf *problems)
{
    return check_start_date(w, at, problems,
                            ": AKS refuses to set a window that starts in "
                            "the past on a configuration that exists "
                            PAST_START_DATE_ANSWER ", and whether it refuses "
                            "one that creates the configuration is "
                            "unconfirmed");
}

/* ---- the legacy hours form of the default configuration ---- */

/* The most an hour slot of timeInWeek may be (PT-MW-02). */
#define LEGACY_HOUR_MAX 23

static bool is_weekday(const char *s)
{
    unsigned d;

    for (d = 0; d < 7; d++)
        if (ndp_strcasecmp(s, ndp_window_weekday_name(d)) == 0)
            return true;
    return false;
}

/* The problems of one timeInWeek entry, appended to 'out'. */
static void time_in_week_entry(struct ndp_buf *out,
                               const struct json_object *e, size_t i,
                               bool partial)
{
    const char *day = ndp_json_get_string(e, "day");
    const struct json_object *slots = ndp_json_get(e, "hourSlots");
    size_t k, n;

    if (day ? !is_weekday(day) : !partial)
        ndp_buf_addf(out, "%stimeInWeek[%zu].day is not a day of the week "
                     "(Sunday..Saturday)", out->len ? "; " : "", i);
    if (!slots)
        return;
    if (!json_object_is_type(slots, json_type_array)) {
        ndp_buf_addf(out, "%stimeInWeek[%zu].hourSlots is not an array",
                     out->len ? "; " : "", i);
        return;
    }
    n = json_object_array_length(slots);
    for (k = 0; k < n; k++) {
        const struct json_object *v = json_object_array_get_idx(slots, k);
        int64_t h = json_object_is_type(v, json_type_int)
                        ? json_object_get_int64(ndp_json_unconst(v)) : -1;
        if (h < 0 || h > LEGACY_HOUR_MAX) {
            ndp_buf_addf(out, "%stimeInWeek[%zu].hourSlots[%zu] is not an "
                         "hour 0..23", out->len ? "; " : "", i, k);
            return;
        }
    }
}

/* The problems of notAllowedTime[]: start and end date-times. */
static void not_allowed_time_entry(struct ndp_buf *out,
                                   const struct json_object *e, size_t i,
                                   bool partial)
{
    static const char *const keys[] = { "start", "end" };
    size_t k;

    for (k = 0; k < NDP_ARRAY_SIZE(keys); k++) {
        const char *s = ndp_json_get_string(e, keys[k]);
        int64_t at;
        if (s ? ndp_time_parse_rfc3339(&at, s) < 0 : !partial)
            ndp_buf_addf(out, "%snotAllowedTime[%zu].%s is not a date-time",
                         out->len ? "; " : "", i, keys[k]);
    }
}

/*
 * 'partial': a what-if delta shows only what changes, so a member it
 * leaves out of an entry is not known, not missing.
 */
static void list_problems(struct ndp_buf *out, const struct json_object *list,
                          const char *name, bool partial,
                          void (*entry)(struct ndp_buf *,
                                        const struct json_object *, size_t,
                                        bool))
{
    size_t i, n;

    if (ndp_json_is_unset(list))
        return;
    if (!json_object_is_type(list, json_type_array)) {
        ndp_buf_addf(out, "%s%s is not an array", out->len ? "; " : "", name);
        return;
    }
    n = json_object_array_length(list);
    for (i = 0; i < n; i++)
        entry(out, json_object_array_get_idx(list, i), i, partial);
}

void ndp_window_legacy_problems(struct ndp_buf *out,
                                const struct json_object *time_in_week,
                                const struct json_object *not_allowed_time,
                                bool partial)
{
    list_problems(out, time_in_week, "timeInWeek", partial,
                  time_in_week_entry);
    list_problems(out, not_allowed_time, "notAllowedTime", partial,
                  not_allowed_time_entry);
}

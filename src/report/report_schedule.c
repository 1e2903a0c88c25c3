/*
 * SPDX-License-Identifier: Apache-2.0
 * report_schedule.c - a maintenance window as the reporters write it
 * (report_window.h): its schedule in plain words, with the caveat of
 * every safe-side reading the engine makes of it, and in ARM JSON terms.
 * The window engine (src/window/) reads and evaluates windows and writes
 * nothing; this file formats what ndp_window_get_settings() gives it.
 */
#include "common.h"
#include "report_window.h"
#include "buf.h"
#include "timeutil.h"
#include "window.h"

#include <stdarg.h>

/* Indexed by week_index; [0] unused. */
static const char *const week_index_words[6] = {
    "", "first", "second", "third", "fourth", "last"
};

static void add_offset(struct ndp_buf *out, int minutes)
{
    int magnitude = minutes < 0 ? -minutes : minutes;

    ndp_buf_addf(out, "%c%02d:%02d", minutes < 0 ? '-' : '+',
                 magnitude / 60, magnitude % 60);
}

static void describe_schedule(struct ndp_buf *out,
                              const struct ndp_window_settings *w)
{
    long long n = w->interval;

    if (w->unknown & NDP_WINDOW_UNKNOWN_SCHEDULE) {
        ndp_buf_adds(out, w->kind == NDP_SCHEDULE_NONE
                              ? "an unknown schedule"
                              : "a partly unknown schedule");
        return;
    }
    switch (w->kind) {
    case NDP_SCHEDULE_DAILY:
        if (n == 1)
            ndp_buf_adds(out, "every day");
        else
            ndp_buf_addf(out, "every %lld days", n);
        break;
    case NDP_SCHEDULE_WEEKLY:
        if (n == 1)
            ndp_buf_adds(out, "weekly");
        else
            ndp_buf_addf(out, "every %lld weeks", n);
        ndp_buf_addf(out, " on %s", ndp_window_weekday_name(w->day_of_week));
        break;
    case NDP_SCHEDULE_ABSOLUTE_MONTHLY:
    case NDP_SCHEDULE_RELATIVE_MONTHLY:
        if (n == 1)
            ndp_buf_adds(out, "monthly");
        else
            ndp_buf_addf(out, "every %lld months", n);
        if (w->kind == NDP_SCHEDULE_ABSOLUTE_MONTHLY)
            ndp_buf_addf(out, " on day %u", w->day_of_month);
        else
            ndp_buf_addf(out, " on the %s %s",
                         week_index_words[w->week_index],
                         ndp_window_weekday_name(w->day_of_week));
        break;
    case NDP_SCHEDULE_NONE:
        break;
    }
}

static void describe_time(struct ndp_buf *out,
                          const struct ndp_window_settings *w)
{
    if (w->unknown & NDP_WINDOW_UNKNOWN_START_TIME)
        ndp_buf_adds(out, " at an unknown time");
    else
        ndp_buf_addf(out, " at %02d:%02d", w->start_minute / 60,
                     w->start_minute % 60);
    if (w->unknown & NDP_WINDOW_UNKNOWN_UTC_OFFSET)
        ndp_buf_adds(out, " at an unknown UTC offset");
    else
        ndp_buf_adds(out, " UTC");
    if (!(w->unknown & NDP_WINDOW_UNKNOWN_UTC_OFFSET) &&
        w->utc_offset_minutes != 0)
        add_offset(out, w->utc_offset_minutes);
    if (w->unknown & NDP_WINDOW_UNKNOWN_DURATION)
        ndp_buf_adds(out, " for an unknown number of hours");
    else
        ndp_buf_addf(out, " for %lld hour%s", w->duration_hours,
                     w->duration_hours == 1 ? "" : "s");
}

static void describe_dates(struct ndp_buf *out,
                           const struct ndp_window_settings *w)
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

static bool has_reversed_span(const struct ndp_window_settings *w)
{
    for (size_t i = 0; i < w->n_spans; i++) {
        if (w->spans[i].end < w->spans[i].start)
            return true;
    }
    return false;
}

static void describe_duration_caveat(struct ndp_buf *out,
                                     const struct ndp_window_settings *w,
                                         int *count)
{
    if (w->duration_missing)
        add_caveat(out, count, "durationHours is missing or unreadable and "
                   "is taken as %d hours, the AKS minimum",
                   NDP_WINDOW_MIN_HOURS);
    else if (w->duration_hours > NDP_WINDOW_MAX_HOURS)
        add_caveat(out, count, "durationHours %lld is evaluated as %d, "
                   "the AKS maximum", w->duration_hours, NDP_WINDOW_MAX_HOURS);
    else if (w->duration_hours <= 0)
        add_caveat(out, count, "a window of %lld hours never opens",
                   w->duration_hours);
}

static void describe_unknown_caveat(struct ndp_buf *out,
                                    const struct ndp_window *window,
                                    const struct ndp_window_settings *w,
                                    int *count)
{
    if (!w->unknown)
        return;
    if (ndp_window_opening_unknown(window))
        add_caveat(out, count, "unknown: %s; the window "
                   "cannot be fully evaluated, and an instant that depends "
                   "on the unknown part is taken to be outside it",
                   w->unknown_names);
    else
        add_caveat(out, count, "unknown: %s; only its first "
                   "%d hours, the AKS minimum, are taken to be inside",
                   w->unknown_names, NDP_WINDOW_MIN_HOURS);
}

static void describe_caveats(struct ndp_buf *out,
                             const struct ndp_window *window,
                             const struct ndp_window_settings *w)
{
    int count = 0;

    describe_unknown_caveat(out, window, w, &count);
    describe_duration_caveat(out, w, &count);
    if (w->utc_offset_unreadable)
        add_caveat(out, &count, "the unreadable utcOffset is taken as "
                   "+00:00");
    if (ndp_window_phase_unknown(window))
        add_caveat(out, &count, "without startDate AKS counts %s from "
                   "the configuration's creation date, which ndplint cannot "
                   "know: the window is never taken to be open, and the next "
                   "opening given is the earliest possible one",
                   ndp_window_interval_name(w->kind));
    if (w->kind == NDP_SCHEDULE_ABSOLUTE_MONTHLY && w->day_of_month >= 29)
        add_caveat(out, &count, "dayOfMonth %u is taken to have no window "
                   "in shorter months", w->day_of_month);
    if (w->has_start_date && w->interval > 1 &&
        !ndp_window_opening_unknown(window))
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

void ndp_report_schedule_words(struct ndp_buf *out,
                               const struct ndp_window *window)
{
    const struct ndp_window_settings *w = ndp_window_get_settings(window);

    describe_schedule(out, w);
    describe_time(out, w);
    describe_dates(out, w);
    describe_caveats(out, window, w);
}

static void schedule_to_json(struct ndp_buf *out,
                             const struct ndp_window_settings *w)
{
    ndp_buf_addf(out, "{\"%s\":{\"%s\":%lld", ndp_window_schedule_name(w->kind),
                 ndp_window_interval_name(w->kind), w->interval);
    if (w->kind == NDP_SCHEDULE_ABSOLUTE_MONTHLY)
        ndp_buf_addf(out, ",\"dayOfMonth\":%u", w->day_of_month);
    if (w->kind == NDP_SCHEDULE_RELATIVE_MONTHLY) {
        ndp_buf_adds(out, ",\"weekIndex\":");
        ndp_buf_add_json_string(out, ndp_window_week_index_name(w->week_index));
    }
    if (w->kind == NDP_SCHEDULE_WEEKLY ||
        w->kind == NDP_SCHEDULE_RELATIVE_MONTHLY) {
        ndp_buf_adds(out, ",\"dayOfWeek\":");
        ndp_buf_add_json_string(out, ndp_window_weekday_name(w->day_of_week));
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
static bool add_member(struct ndp_buf *out, const struct ndp_window_settings *w,
                       const char *key, unsigned part)
{
    ndp_buf_adds(out, key);
    if (!(w->unknown & part))
        return true;
    ndp_buf_adds(out, "null");
    return false;
}

static void not_allowed_to_json(struct ndp_buf *out,
                                const struct ndp_window_settings *w)
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
static void unknown_to_json(struct ndp_buf *out,
                            const struct ndp_window_settings *w)
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

void ndp_report_schedule_json(struct ndp_buf *out,
                              const struct ndp_window *window)
{
    const struct ndp_window_settings *w = ndp_window_get_settings(window);
    struct ndp_buf text = NDP_BUF_INIT;

    if (add_member(out, w, "{\"schedule\":", NDP_WINDOW_UNKNOWN_SCHEDULE))
        schedule_to_json(out, w);
    if (add_member(out, w, ",\"durationHours\":", NDP_WINDOW_UNKNOWN_DURATION))
        ndp_buf_addf(out, "%lld", w->duration_hours);
    if (add_member(out, w, ",\"utcOffset\":", NDP_WINDOW_UNKNOWN_UTC_OFFSET)) {
        add_offset(&text, w->utc_offset_minutes);
        ndp_buf_add_json_string(out, text.buf);
    }
    ndp_buf_reset(&text);
    ndp_buf_addf(&text, "%02d:%02d", w->start_minute / 60,
                 w->start_minute % 60);
    if (add_member(out, w, ",\"startTime\":", NDP_WINDOW_UNKNOWN_START_TIME))
        ndp_buf_add_json_string(out, text.buf);
    if (add_member(out, w, ",\"startDate\":", NDP_WINDOW_UNKNOWN_START_DATE)) {
        if (w->has_start_date)
            add_json_date(out, w->start_date);
        else
            ndp_buf_adds(out, "null");
    }
    if (add_member(out, w, ",\"notAllowedDates\":",
                   NDP_WINDOW_UNKNOWN_NOT_ALLOWED))
        not_allowed_to_json(out, w);
    unknown_to_json(out, w);
    ndp_buf_addch(out, '}');
    ndp_buf_release(&text);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * report_window.h - how every reporter words a cluster's resolution: its
 * maintenance window, the window's openings and where its profile came
 * from (report_window.c), and a window's schedule in words and JSON
 * (report_schedule.c).  Only files of src/report/ include it.
 *
 * Nothing read from a window under a sensitive mask is written:
 * ndp_report_window_words() and ndp_report_window_json() check
 * window_sensitive themselves.  The times (window_closes_at, an opening
 * through ndp_report_window_opening()) are still the caller's to
 * withhold: the text, JSON and Markdown reporters each check
 * window_sensitive before writing them.
 */
#ifndef NDP_REPORT_WINDOW_H
#define NDP_REPORT_WINDOW_H

#ifndef NDP_INSIDE_REPORT
#error "report_window.h is internal to src/report/ and its tests"
#endif

#include <stdint.h>

struct ndp_buf;
struct ndp_resolution;
struct ndp_window;

/*
 * Appends the schedule of 'w' in plain words, e.g. "weekly on Saturday at
 * 20:00 UTC-05:00 for 4 hours", plus any safe-reading caveat the engine
 * applies (e.g. "dayOfMonth 31 is taken to have no window in shorter
 * months") (report_schedule.c).
 */
void ndp_report_schedule_words(struct ndp_buf *out,
                               const struct ndp_window *w);

/*
 * Appends 'w' as a JSON object in ARM terms ({"schedule": {...},
 * "durationHours": 4, "utcOffset": "-05:00", "startTime": "20:00",
 * "startDate": null, "notAllowedDates": []}), compact, keys in that order
 * (report_schedule.c).
 */
void ndp_report_schedule_json(struct ndp_buf *out, const struct ndp_window *w);

/*
 * Appends the aksManagedNodeOSUpgradeSchedule window in plain words, and
 * the window this apply replaces it with; "(sensitive)" under a mask;
 * nothing when the cluster has no window.
 */
void ndp_report_window_words(struct ndp_buf *out,
                             const struct ndp_resolution *r);

/*
 * Appends the window as a JSON value in ARM terms: "(sensitive)" under a
 * mask, null when the cluster has no window.
 */
void ndp_report_window_json(struct ndp_buf *out,
                            const struct ndp_resolution *r);

/*
 * Appends the instant 'start' of an opening in UTC and, in parentheses,
 * in the window's own offset: "2026-12-06T02:00:00Z
 * (2026-12-06T03:00:00+01:00)".  The caller checks window_sensitive.
 */
void ndp_report_window_opening(struct ndp_buf *out,
                               const struct ndp_resolution *r, int64_t start);

/* Where the profile came from, in words ("declared in the input"). */
const char *ndp_report_profile_source_words(const char *source);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * window_internal.h - what the two files of the window engine share, and
 * nothing else sees (but their tests): the window itself, which
 * window_parse.c builds from JSON and checks, and window.c evaluates
 * against an instant.  The rest of the program holds a window as the
 * opaque struct ndp_window of window.h and reads its settings through
 * ndp_window_get_settings().
 */
#ifndef NDP_WINDOW_INTERNAL_H
#define NDP_WINDOW_INTERNAL_H

#ifndef NDP_INSIDE_WINDOW
#error "window_internal.h is internal to src/window/ and its tests"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "window.h"

/* Instants beyond about 34,000 years are refused, so no sum overflows. */
#define NDP_WINDOW_INSTANT_LIMIT ((int64_t)1 << 40)

struct ndp_window_names;

struct ndp_window {
    struct ndp_window_settings set; /* as read; owns 'spans' and
                                       'unknown_names' */
    const struct ndp_window_names *names; /* the notation it was read from */
    bool has_anchor;
    int64_t anchor_day;           /* first occurrence on/after startDate */
};

/* Field names of one notation, for problem messages. */
struct ndp_window_names {
    const char *interval[4];      /* indexed by enum ndp_window_schedule */
    const char *day_of_week;
    const char *day_of_month;
    const char *week_index;
    const char *duration;
    const char *start_time;
    const char *utc_offset;
    const char *start_date;
    const char *not_allowed;
    bool date_times;              /* dates may be written as RFC 3339 */
    bool provider_checks_duration; /* azurerm refuses a duration outside
                                      4..24 in terraform plan, so no plan
                                      of it holds one: not a problem */
    bool empty_start_time_sent;   /* an omitted start time is sent as "" */
};

static inline bool ndp_window_instant_in_range(int64_t at)
{
    return at > -NDP_WINDOW_INSTANT_LIMIT && at < NDP_WINDOW_INSTANT_LIMIT;
}

/*
 * Sets the anchor of a window just read (window.c): with startDate, the
 * first occurrence on or after it starts the interval count.
 */
void ndp_window_find_anchor(struct ndp_window *w);

#endif

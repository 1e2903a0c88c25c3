/*
 * SPDX-License-Identifier: Apache-2.0
 * apply_window.c - "when can this apply?" (apply_window.h).
 *
 * The search walks forward from the instant: every window gives the
 * opening in force at t, or its next one; when one of them starts later,
 * t moves to that start and every window is asked again.  t only grows,
 * so the walk ends at the first instant where all are open, or past the
 * horizon.  Openings that follow each other without a gap are then joined
 * into one stretch.
 */
#include "common.h"
#include "apply_window.h"
#include "window.h"

const char *ndp_apply_reason_name(enum ndp_apply_reason reason)
{
    switch (reason) {
    case NDP_APPLY_NOW:
        return "now";
    case NDP_APPLY_WINDOW:
        return "window";
    case NDP_APPLY_FROZEN:
        return "frozen";
    case NDP_APPLY_NEVER:
        return "never";
    case NDP_APPLY_UNKNOWN_VALUES:
        return "values-unknown";
    case NDP_APPLY_NO_COMMON:
    default:
        return "no-common-window";
    }
}

/* The opening of 'w' in force at 't', or the next one: [*start, *end). */
static bool opening(const struct ndp_window *w, int64_t t, int64_t *start,
                    int64_t *end)
{
    int64_t closes = 0;

    if (ndp_window_is_open(w, t, &closes)) {
        *start = t;
        *end = closes;
        return true;
    }
    if (!ndp_window_next(w, t, start, end))
        return false;
    if (*start <= t) /* a start the engine does not call open: step on */
        *start = t + 1;
    return true;
}

/* Are all windows open at 't'?  '*closes' gets the first to close. */
static bool all_open(const struct ndp_window *const *windows, size_t nr,
                     int64_t t, int64_t *closes)
{
    int64_t c = 0;
    size_t i;

    *closes = INT64_MAX;
    for (i = 0; i < nr; i++) {
        if (!ndp_window_is_open(windows[i], t, &c) || c <= t)
            return false;
        if (c < *closes)
            *closes = c;
    }
    return true;
}

bool ndp_apply_search(const struct ndp_window *const *windows, size_t nr,
                      int64_t at, int64_t *from, int64_t *until)
{
    int64_t limit = at + NDP_APPLY_HORIZON;
    int64_t t = at;
    int64_t closes, cap;
    size_t i;

    for (i = 0; i < nr; i++)
        if (ndp_window_phase_unknown(windows[i]))
            return false;
    while (t < limit) {
        int64_t latest = t;

        for (i = 0; i < nr; i++) {
            int64_t start, end;

            if (!opening(windows[i], t, &start, &end))
                return false;
            if (start > latest)
                latest = start;
        }
        if (latest == t)
            break;
        t = latest;
    }
    if (t >= limit)
        return false;
    cap = t + NDP_APPLY_HORIZON;
    *from = t;
    if (nr == 0) {
        *until = cap;
        return true;
    }
    /* All open at t: join the stretches that follow without a gap. */
    while (t < cap && all_open(windows, nr, t, &closes))
        t = closes < cap ? closes : cap;
    *until = t;
    return *until > *from;
}

static void set(struct ndp_apply_window *out, enum ndp_apply_reason reason,
                bool known, int64_t from, int64_t until)
{
    out->reason = reason;
    out->known = known;
    out->from = from;
    out->until = until;
}

void ndp_apply_window_cluster(struct ndp_apply_window *out,
                              const struct ndp_apply_cluster *cluster,
                              int64_t at)
{
    ndp_apply_window_plan(out, cluster, 1, at);
}

void ndp_apply_window_plan(struct ndp_apply_window *out,
                           const struct ndp_apply_cluster *clusters,
                           size_t nr, int64_t at)
{
    const struct ndp_window **all;
    size_t nr_all = 0, refused = 0, i, j;
    bool unknown = false;
    int64_t from, until;

    for (i = 0; i < nr; i++)
        if (clusters[i].gate == NDP_GATE_BROKEN) {
            set(out, NDP_APPLY_NEVER, false, 0, 0);
            return;
        }
    for (i = 0; i < nr; i++) {
        switch (clusters[i].gate) {
        case NDP_GATE_NONE:
        case NDP_GATE_BROKEN:
            break;
        case NDP_GATE_FROZEN:
            set(out, NDP_APPLY_FROZEN, false, 0, 0);
            return;
        case NDP_GATE_UNKNOWN:
            unknown = true;
            refused++;
            break;
        case NDP_GATE_WINDOWS:
            /* Never opening within the horizon is a freeze of its own. */
            if (!ndp_apply_search(clusters[i].windows,
                                  clusters[i].nr_windows, at, &from,
                                  &until)) {
                set(out, NDP_APPLY_FROZEN, false, 0, 0);
                return;
            }
            refused++;
            nr_all += clusters[i].nr_windows;
            break;
        }
    }
    if (refused == 0) {
        set(out, NDP_APPLY_NOW, true, at, 0);
        return;
    }
    if (unknown) {
        set(out, NDP_APPLY_WINDOW, false, 0, 0);
        return;
    }
    all = ndp_xcalloc(nr_all ? nr_all : 1, sizeof(*all));
    nr_all = 0;
    for (i = 0; i < nr; i++)
        if (clusters[i].gate == NDP_GATE_WINDOWS)
            for (j = 0; j < clusters[i].nr_windows; j++)
                all[nr_all++] = clusters[i].windows[j];
    if (ndp_apply_search(all, nr_all, at, &from, &until))
        set(out, NDP_APPLY_WINDOW, true, from, until);
    else
        set(out, refused > 1 ? NDP_APPLY_NO_COMMON : NDP_APPLY_FROZEN, false,
            0, 0);
    free(all);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * apply_window.h - "when can this apply?": a pure function of (schedules,
 * instant), built on the window engine (window.h).
 *
 * For one cluster, or for every cluster of a plan at once, the earliest
 * instant at or after the evaluation instant from which every change that
 * is refused now would be allowed, and until when.  A cluster is described
 * by what gates its refused changes: nothing (none refused), a freeze
 * (Block: no window ever lets them through), one window, or two windows
 * that must both be open (spec section 11: the apply also replaces the
 * window), or a window whose openings are not known.  No clock is read and
 * nothing is printed here.
 */
#ifndef NDP_APPLY_WINDOW_H
#define NDP_APPLY_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timeutil.h" /* NDP_SECONDS_PER_DAY */

struct ndp_window;

/* How far ahead a common window is searched for: 366 days. */
#define NDP_APPLY_HORIZON ((int64_t)366 * NDP_SECONDS_PER_DAY)

enum ndp_apply_reason {
    NDP_APPLY_NOW,              /* nothing refused: from = the instant */
    NDP_APPLY_WINDOW,           /* wait for [from, until) */
    NDP_APPLY_FROZEN,           /* no window lets it through */
    NDP_APPLY_NO_COMMON,        /* plan: clusters' windows never meet */
    NDP_APPLY_NEVER,            /* refused whatever the time: the change
                                   must be fixed first */
    NDP_APPLY_UNKNOWN_VALUES    /* nothing shown is refused, but a change
                                   depends on values known only after
                                   apply: no instant is promised */
};

enum ndp_apply_gate {
    NDP_GATE_NONE,              /* nothing refused now */
    NDP_GATE_FROZEN,            /* Block */
    NDP_GATE_WINDOWS,           /* allowed while every window is open */
    NDP_GATE_UNKNOWN,           /* refused by a window whose openings are
                                   not known (phase or settings unknown) */
    NDP_GATE_BROKEN             /* a change AKS or azurerm refuses whatever
                                   the time */
};

struct ndp_apply_cluster {
    enum ndp_apply_gate gate;
    const struct ndp_window *windows[2]; /* NDP_GATE_WINDOWS: 1 or 2 */
    size_t nr_windows;
};

/*
 * The answer.  'known' is false when the reason is NDP_APPLY_WINDOW but
 * no instant can be given (a window of unknown openings); from and until
 * are then meaningless.  For NDP_APPLY_WINDOW with 'known', [from, until)
 * is the whole stretch during which every window is open (openings that
 * follow each other without a gap are one stretch, capped at
 * from + NDP_APPLY_HORIZON).
 */
struct ndp_apply_window {
    enum ndp_apply_reason reason;
    bool known;
    int64_t from, until;
};

/* "now", "window", "frozen", "no-common-window" or "never". */
const char *ndp_apply_reason_name(enum ndp_apply_reason reason);

/*
 * The first stretch starting at or after 'at', and before
 * at + NDP_APPLY_HORIZON, during which all 'nr' windows are open.  False
 * when there is none (or a window's phase is unknown).  'nr' 0 is open
 * from 'at' for the whole horizon.
 */
bool ndp_apply_search(const struct ndp_window *const *windows, size_t nr,
                      int64_t at, int64_t *from, int64_t *until);

/* One cluster at instant 'at'. */
void ndp_apply_window_cluster(struct ndp_apply_window *out,
                              const struct ndp_apply_cluster *cluster,
                              int64_t at);

/*
 * Every cluster of a plan at once: never when one has a change refused
 * whatever the time, now when none has anything refused, frozen when one
 * is frozen (or its windows never open within the
 * horizon), unknown (window, not 'known') when one's openings are not
 * known, else the first common stretch of every window of every cluster
 * with refused changes, or no-common-window.
 */
void ndp_apply_window_plan(struct ndp_apply_window *out,
                           const struct ndp_apply_cluster *clusters,
                           size_t nr, int64_t at);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * report_window.c - the words every reporter uses for a cluster's window
 * and profile (report_window.h), and the --window-check report: for each
 * cluster, the aksManagedNodeOSUpgradeSchedule window in plain words,
 * whether --at is inside it, and the next three openings in UTC and in
 * the window's own offset, so a user can check the engine against their
 * own expectation; and how long the rolling rebuild of the pools the
 * input's reimaging changes touch can take, against the time left in the
 * window (or the length of the next one).
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "report_apply.h"
#include "report_window.h"
#include "buf.h"
#include "change.h"
#include "evaluate.h"
#include "impact.h"
#include "rollout.h"
#include "linker.h"
#include "safe.h"
#include "timeutil.h"
#include "window.h"

#define OPENINGS_SHOWN 3

void ndp_report_window_words(struct ndp_buf *out,
                             const struct ndp_resolution *r)
{
    if (!r->window)
        return;
    if (r->window_sensitive) {
        ndp_buf_adds(out, "(sensitive)");
        return;
    }
    ndp_report_schedule_words(out, r->window);
    if (r->new_window) {
        ndp_buf_adds(out, "; this apply replaces it with ");
        ndp_report_schedule_words(out, r->new_window);
        ndp_buf_adds(out, ", and only where both are open counts");
    }
}

void ndp_report_window_json(struct ndp_buf *out,
                            const struct ndp_resolution *r)
{
    if (!r->window)
        ndp_buf_adds(out, "null");
    else if (r->window_sensitive)
        ndp_buf_adds(out, "\"(sensitive)\"");
    else
        ndp_report_schedule_json(out, r->window);
}

void ndp_report_window_opening(struct ndp_buf *out,
                               const struct ndp_resolution *r, int64_t start)
{
    ndp_time_format_both(out, start, ndp_window_utc_offset_minutes(r->window));
}

const char *ndp_report_profile_source_words(const char *source)
{
    static const char *const sources[] = { "input", "state", "option",
                                           "config", "default" };
    static const char *const said[] = { "declared in the input",
                                        "from --cluster-state",
                                        "from --profile",
                                        "from the settings file",
                                        "AKS default; not declared" };
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(sources); i++)
        if (strcmp(source, sources[i]) == 0)
            return said[i];
    return source;
}

static void write_openings(struct ndp_buf *out,
                           const struct ndp_resolution *c, int64_t at)
{
    int64_t from = at, start, end;
    int i;

    if (ndp_window_opening_unknown(c->window)) {
        ndp_buf_adds(out, "    openings unknown: the window is not fully known\n");
        return;
    }
    for (i = 0; i < OPENINGS_SHOWN; i++) {
        if (!ndp_window_next(c->window, from, &start, &end)) {
            ndp_buf_adds(out, i ? "" : "    no window opens within ten "
                                       "years\n");
            return;
        }
        ndp_buf_addf(out, "    %s ", i ? "then      " : "next opens");
        ndp_report_window_opening(out, c, start);
        if (start > NDP_TIME_MAX) {
            ndp_buf_addch(out, '\n'); /* and so is every later one */
            return;
        }
        ndp_buf_adds(out, " until ");
        ndp_time_format_utc(out, end);
        ndp_buf_addch(out, '\n');
        from = start + 1;
    }
}

/* Appends 'before', 's' escaped for a log line (safe.h), and 'after'. */
static void add_safe(struct ndp_buf *out, const char *before, const char *s,
                     const char *after)
{
    ndp_buf_adds(out, before);
    ndp_safe_line(out, s);
    ndp_buf_adds(out, after);
}

static void write_window_words(struct ndp_buf *out,
                               const struct ndp_resolution *c)
{
    struct ndp_buf words = NDP_BUF_INIT;

    ndp_report_window_words(&words, c);
    add_safe(out, "  window: ", words.buf, "\n");
    ndp_buf_release(&words);
}

/*
 * "; it fits in the 4 h of the next window", or "; the window closes in
 * 2 h, so nodes may still be rebuilding after it": the worst case
 * 'minutes' against the 'room' minutes of a window.
 */
static void write_fit(struct ndp_buf *out, long minutes, long room,
                      const char *fits_in, const char *too_short,
                      const char *even)
{
    if (minutes <= room) {
        ndp_buf_adds(out, "; it fits in the ");
        ndp_rollout_duration_words(out, room);
        ndp_buf_addf(out, " %s", fits_in);
        return;
    }
    ndp_buf_addf(out, "; %s", too_short);
    ndp_rollout_duration_words(out, room);
    ndp_buf_addf(out, ", so nodes may still be rebuilding after it%s", even);
}

/*
 * The rebuild of the pools the input's reimaging changes touch (refused
 * now or not), against the time left in the window at 'at', or else the
 * length of the next one.  Nothing when no pool is touched.
 */
static void write_rollout(struct ndp_buf *out, const struct ndp_resolution *c,
                          const struct ndp_impact *impact, int64_t at)
{
    struct ndp_rollout r;
    int64_t closes = 0, start, end;

    ndp_rollout_size(&r, impact, true);
    if (!r.pools)
        return;
    ndp_buf_adds(out, "  rollout: ");
    ndp_rollout_words(out, &r);
    if (r.known && c->window && c->window_sensitive)
        ndp_buf_adds(out, "; not held against the window, whose times are "
                          "sensitive");
    else if (r.known && c->window && ndp_window_is_open(c->window, at, &closes))
        write_fit(out, r.minutes, (long)((closes - at) / 60),
                  "left in the window", "the window closes in ", "");
    else if (r.known && c->window &&
             ndp_window_next(c->window, at, &start, &end))
        write_fit(out, r.minutes, (long)((end - start) / 60),
                  "of the next window", "the next window lasts ",
                  ", even from its opening");
    ndp_buf_addch(out, '\n');
}

/*
 * "  at <instant>", the instant the cluster is judged at; with --at
 * next-window on a sensitive window that instant is the window's opening,
 * which would give the window away, so it is not shown.
 */
static void write_judged_at(struct ndp_buf *out,
                            const struct ndp_resolution *c, int64_t at)
{
    if (c->window_sensitive && c->judged == NDP_JUDGED_NEXT_WINDOW) {
        ndp_buf_adds(out, "  at its next opening (--at next-window; not "
                          "shown: sensitive)");
        return;
    }
    ndp_buf_adds(out, "  at ");
    ndp_time_format_utc(out, at);
}

static void write_cluster(struct ndp_buf *out,
                          const struct ndp_cluster *cluster,
                          const struct ndp_resolution *c,
                          const struct ndp_impact *impact, int64_t at)
{
    int64_t closes = 0;

    add_safe(out, "", cluster->id, "\n");
    ndp_buf_addf(out, "  profile %s (%s)\n", ndp_profile_name(c->profile),
                 c->profile_source);
    if (c->window_problems)
        add_safe(out, "  window problems: ", c->window_problems, "\n");
    if (!c->window) {
        ndp_buf_adds(out, "  no aksManagedNodeOSUpgradeSchedule window");
        if (c->other_windows)
            add_safe(out, " (not the node OS window: ", c->other_windows,
                     ")");
        ndp_buf_addch(out, '\n');
        write_rollout(out, c, impact, at);
        return;
    }
    write_window_words(out, c);
    add_safe(out, "  declared in: ", c->window_resource, ", ");
    add_safe(out, "", c->window_path,
             c->window_changes ? " (the input changes it; this is the "
                                 "window in force before the change)\n"
                               : "\n");
    if (ndp_window_is_open(c->window, at, &closes)) {
        write_judged_at(out, c, at);
        ndp_buf_adds(out, ": inside a window that closes ");
        if (c->window_sensitive)
            ndp_buf_adds(out, "at a time not shown");
        else
            ndp_time_format_utc(out, closes);
        ndp_buf_addch(out, '\n');
    } else {
        write_judged_at(out, c, at);
        ndp_buf_adds(out, ": outside any window\n");
    }
    if (c->window_sensitive)
        ndp_buf_adds(out, "    openings not shown: the window's settings "
                     "are sensitive\n");
    else
        write_openings(out, c, at);
    write_rollout(out, c, impact, at);
}

void ndp_report_window_check(struct ndp_buf *out, const struct ndp_report *r)
{
    size_t i, start = out->len;

    if (r->result->clusters.nr == 0)
        ndp_buf_adds(out, "no AKS cluster in the input\n");
    for (i = 0; i < r->result->clusters.nr; i++) {
        if (i)
            ndp_buf_addch(out, '\n');
        write_cluster(out, &r->result->clusters.items[i],
                      &r->result->resolved.items[i],
                      &r->result->impacts.items[i],
                      r->result->resolved.items[i].at);
    }
    if (r->result->clusters.nr) {
        ndp_buf_addch(out, '\n');
        ndp_report_apply_sentence(out, r, ndp_safe_line);
        ndp_buf_addch(out, '\n');
    }
    ndp_utf8_repair_tail(out, start, 0);
    ndp_safe_lines(out, start, NDP_CMDS_NONE, &ndp_defuse_text);
}

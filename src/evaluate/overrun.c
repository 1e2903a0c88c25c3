/*
 * SPDX-License-Identifier: Apache-2.0
 * overrun.c - will the rollout fit in the window?  After the impact is
 * sized: for each cluster whose reimaging changes go through because the
 * instant is inside its aksManagedNodeOSUpgradeSchedule window (allowed
 * under AllowDuringMaintenanceWindow), the worst-case rolling rebuild of
 * the pools they rebuild against the minutes left in that window (spec
 * §8: size windows to the operations they must hold).
 *
 * AKS checks the window once, when the change arrives; the rebuild then
 * goes on batch after batch whether the window has closed or not.  The
 * worst case (impact.h, struct ndp_rollout) counts every batch at its
 * pool's drain timeout plus its node soak time, autoscaled pools at their
 * maximum, and the pools one after another, as a cluster-level change
 * may rebuild them.  A rebuild that cannot be sized (a node count unknown
 * or sensitive) raises nothing: the impact says why.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "finding.h"
#include "impact.h"
#include "rollout.h"
#include "linker.h"
#include "policy.h"
#include "window.h"

/*
 * The close of the window 'c' is inside, joined with the openings that
 * start the instant the previous one closes (a daily 24-hour window never
 * closes).  Only for a window the input does not replace, whose openings
 * alone decide; a year of openings at most.
 */
static int64_t joined_close(const struct ndp_resolution *c)
{
    int64_t closes = c->window_closes_at, start, end;
    int openings;

    if (c->window_changes)
        return closes;
    for (openings = 0; openings < 366; openings++) {
        if (!ndp_window_next(c->window, closes, &start, &end) ||
            start != closes || end <= closes)
            break;
        closes = end;
    }
    return closes;
}

/* Minutes from 'at' to the close of the window 'c' is inside, or -1. */
static long minutes_left(const struct ndp_resolution *c, int64_t at)
{
    int64_t closes;

    if (c->profile != NDP_PROFILE_WINDOW || !c->window || c->in_window != 1 ||
        c->window_closes_at <= at)
        return -1;
    closes = joined_close(c);
    return (long)((closes - at) / 60);
}

/*
 * Per cluster: does a change go through because the policy lets it
 * (allowed while the window is open)?  One pass over the findings.  Freed
 * by the caller.
 */
static bool *allowed_in_window(const struct ndp_findings *findings,
                               size_t nr_clusters)
{
    bool *allowed = ndp_xcalloc(nr_clusters ? nr_clusters : 1,
                                sizeof(*allowed));
    size_t i;

    for (i = 0; i < findings->nr; i++)
        if (ndp_verdict_row(findings->items[i].verdict)->lets_through)
            allowed[findings->items[i].cluster_index] = true;
    return allowed;
}

static void overrun_message(struct ndp_buf *msg, const struct ndp_rollout *r,
                            const struct ndp_impact *impact)
{
    ndp_rollout_words(msg, r);
    if (impact->window_sensitive) {
        ndp_buf_adds(msg, "; the window closes before that (when is not "
                     "shown: its settings are sensitive)");
    } else {
        ndp_buf_adds(msg, "; the window closes in ");
        ndp_rollout_duration_words(msg, impact->window_minutes_left);
    }
    ndp_buf_adds(msg, ", so nodes may still be rebuilding after it");
}

/*
 * What to do: when a whole window (the next opening's length) holds the
 * rebuild, start it at the opening; otherwise the rebuild must shrink or
 * the window grow.  Under a sensitive window, which of the two is not
 * said (it would tell the window's length).
 */
static char *overrun_help(const struct ndp_window *w, bool sensitive,
                          int64_t at, long rebuild_minutes)
{
    int64_t start, end;

    if (sensitive)
        return ndp_xstrdup("start the apply when the window opens, raise "
                           "the pools' max surge, or lengthen the window "
                           "(durationHours)");
    if (w && ndp_window_next(w, at, &start, &end) &&
        (end - start) / 60 >= rebuild_minutes)
        return ndp_xstrdup("start the apply when the window opens (a whole "
                           "window holds the rebuild), or raise the pools' "
                           "max surge");
    return ndp_xstrdup("raise the pools' max surge, or lengthen the window "
                       "(durationHours): even a whole window is shorter "
                       "than the rebuild");
}

static void overrun_finding(const struct ndp_evaluator *ev, size_t index,
                            const struct ndp_impact *impact)
{
    const struct ndp_cluster *cluster = &ev->clusters->items[index];
    struct ndp_buf msg = NDP_BUF_INIT;
    struct ndp_finding_spec spec = {
        .verdict = NDP_VERDICT_WINDOW_OVERRUN,
        .scope = NDP_SCOPE_CLUSTER,
        .input = cluster->input,
        .cluster_index = index,
        .resource = cluster->id,
    };
    struct ndp_rollout r;
    char *help;

    ndp_rollout_size(&r, impact, false);
    if (!r.known || r.minutes <= impact->window_minutes_left)
        return;
    overrun_message(&msg, &r, impact);
    help = overrun_help(ev->resolved->items[index].window,
                        impact->window_sensitive,
                        ev->resolved->items[index].at, r.minutes);
    spec.message = msg.buf;
    spec.help = help;
    ndp_emit(ev, &spec);
    free(help);
    ndp_buf_release(&msg);
}

void ndp_overrun_findings(const struct ndp_evaluator *ev,
                          struct ndp_impacts *impacts)
{
    bool *allowed = allowed_in_window(ev->out, impacts->nr);
    size_t i;

    for (i = 0; i < impacts->nr; i++) {
        const struct ndp_resolution *c = &ev->resolved->items[i];
        struct ndp_impact *impact = &impacts->items[i];

        impact->window_minutes_left = minutes_left(c, c->at);
        impact->window_sensitive = c->window_sensitive;
        if (impact->rebuilds && impact->window_minutes_left >= 0 &&
            allowed[i])
            overrun_finding(ev, i, impact);
    }
    free(allowed);
}

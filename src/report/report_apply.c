/*
 * SPDX-License-Identifier: Apache-2.0
 * report_apply.c - "when can this apply?" for the reporters
 * (report_apply.h).  A cluster's refused changes are the findings the
 * evaluator marked refused_now, waived or not: a waiver silences ndplint,
 * not AKS.  A change AKS or azurerm refuses whatever the time (a verdict
 * that blocks the apply) leaves no instant at all.  What gates them: Block freezes them;
 * AllowDuringMaintenanceWindow lets them through while its window (and
 * the window this apply replaces it with, spec section 11) is open; a window that cannot be evaluated or
 * whose phase is unknown gives no instant.  A cluster --at next-window
 * judged at a later opening waits for its window with the reimaging
 * changes it lets through there.
 */
#include "common.h"
#include "report.h"
#include "run.h"
#include "apply_window.h"
#include "buf.h"
#include "evaluate.h"
#include "finding.h"
#include "linker.h"
#include "report_apply.h"
#include "timeutil.h"
#include "window.h"

#define EN_DASH "\xe2\x80\x93"

static const char *const weekday_abbr[7] = { "Sun", "Mon", "Tue", "Wed",
    "Thu", "Fri", "Sat" };

/*
 * A cluster --at next-window judged inside its window (at a later opening,
 * or now when the run is inside it) waits for that window with every
 * change it lets through that reimages: it was let through there, and an
 * apply later than the window's close would be refused.  Inside the window
 * now counts too, or the advice would name another cluster's later window
 * as if this one were open then, and change with the hour of the run.
 */
static bool waits_for_window(const struct ndp_resolution *c,
                             const struct ndp_finding *f, bool open_now)
{
    const struct ndp_verdict_row *row = ndp_verdict_row(f->verdict);
    bool inside = c->judged == NDP_JUDGED_NEXT_WINDOW ||
                  (open_now && c->profile == NDP_PROFILE_WINDOW &&
                   c->in_window == 1);

    return inside && row->lets_through && row->reimages;
}

/*
 * What gates cluster 'index's refused changes; with 'open_now', also the
 * reimaging changes its window lets through now: when another cluster
 * must wait for a later instant, this one's window must be open then too.
 */
static void gate_of(struct ndp_apply_cluster *g, const struct ndp_report *r,
                    size_t index, bool open_now)
{
    const struct ndp_resolution *c = &r->result->resolved.items[index];
    size_t i;

    memset(g, 0, sizeof(*g));
    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];
        if (f->cluster_index == index &&
            ndp_verdict_row(f->verdict)->blocks_apply) {
            g->gate = NDP_GATE_BROKEN;
            return;
        }
    }
    for (i = 0; i < r->result->findings.nr; i++)
        if (r->result->findings.items[i].cluster_index == index &&
            (r->result->findings.items[i].refused_now ||
             waits_for_window(c, &r->result->findings.items[i], open_now)))
            break;
    if (i == r->result->findings.nr)
        return;
    if (c->profile == NDP_PROFILE_BLOCK) {
        g->gate = NDP_GATE_FROZEN;
        return;
    }
    if (c->profile != NDP_PROFILE_WINDOW || !c->window ||
        ndp_window_phase_unknown(c->window) ||
        (c->new_window && ndp_window_phase_unknown(c->new_window)) ||
        ndp_window_opening_unknown(c->window) ||
        ndp_window_opening_unknown(c->new_window)) {
        g->gate = NDP_GATE_UNKNOWN;
        return;
    }
    g->gate = NDP_GATE_WINDOWS;
    g->windows[g->nr_windows++] = c->window;
    if (c->new_window)
        g->windows[g->nr_windows++] = c->new_window;
}

/*
 * How many findings of cluster 'index' (NDP_APPLY_PLAN: of every cluster)
 * depend on a value known only after apply.
 */
static size_t unknown_dependents(const struct ndp_report *r, size_t index)
{
    size_t i, n = 0;

    for (i = 0; i < r->result->findings.nr; i++) {
        const struct ndp_finding *f = &r->result->findings.items[i];
        if ((index == NDP_APPLY_PLAN || f->cluster_index == index) &&
            ndp_verdict_row(f->verdict)->depends_on_unknown)
            n++;
    }
    return n;
}

/*
 * "Apply now" is never promised while a change depends on a value known
 * only after apply (waived or not): whether AKS refuses it is not known.
 */
static void uncertain(struct ndp_apply_window *a, const struct ndp_report *r,
                      size_t index)
{
    if (a->reason == NDP_APPLY_NOW && unknown_dependents(r, index)) {
        a->reason = NDP_APPLY_UNKNOWN_VALUES;
        a->known = false;
    }
}

struct plan {
    struct ndp_apply_cluster *gates;    /* per cluster */
    struct ndp_apply_window *answers;   /* per cluster */
    struct ndp_apply_window answer;     /* the plan's */
    bool sensitive;                     /* a window of the answer is */
};

static void plan_start(struct plan *p, const struct ndp_report *r)
{
    size_t i, nr = r->result->clusters.nr;
    bool waiting = false;

    p->gates = ndp_xcalloc(nr ? nr : 1, sizeof(*p->gates));
    p->answers = ndp_xcalloc(nr ? nr : 1, sizeof(*p->answers));
    p->sensitive = false;
    for (i = 0; i < nr; i++) {
        gate_of(&p->gates[i], r, i, false);
        ndp_apply_window_cluster(&p->answers[i], &p->gates[i],
                                 r->result->at);
        waiting |= p->gates[i].gate != NDP_GATE_NONE;
    }
    /* Someone waits: a cluster open only now must be open then too. */
    for (i = 0; waiting && i < nr; i++)
        if (p->gates[i].gate == NDP_GATE_NONE) {
            gate_of(&p->gates[i], r, i, true);
            ndp_apply_window_cluster(&p->answers[i], &p->gates[i],
                                     r->result->at);
        }
    for (i = 0; i < nr; i++)
        if (p->gates[i].gate == NDP_GATE_WINDOWS &&
            r->result->resolved.items[i].window_sensitive)
            p->sensitive = true;
    ndp_apply_window_plan(&p->answer, p->gates, nr, r->result->at);
    uncertain(&p->answer, r, NDP_APPLY_PLAN);
}

static void plan_release(struct plan *p)
{
    free(p->gates);
    free(p->answers);
}

static void add_instant(struct ndp_buf *out, bool known, int64_t t)
{
    if (!known) {
        ndp_buf_adds(out, "null");
        return;
    }
    ndp_buf_addch(out, '"');
    ndp_time_format_utc(out, t);
    ndp_buf_addch(out, '"');
}

void ndp_report_apply_json(struct ndp_buf *out, const struct ndp_report *r,
                           size_t index)
{
    struct plan p = { NULL, NULL, { NDP_APPLY_NOW, false, 0, 0 }, false };
    struct ndp_apply_cluster gate;
    struct ndp_apply_window one;
    const struct ndp_apply_window *a;
    bool hidden;

    /* One cluster needs only its own search, not the whole plan's. */
    if (index == NDP_APPLY_PLAN) {
        plan_start(&p, r);
        a = &p.answer;
        hidden = p.sensitive;
    } else {
        gate_of(&gate, r, index, false);
        ndp_apply_window_cluster(&one, &gate, r->result->at);
        uncertain(&one, r, index);
        a = &one;
        hidden = r->result->resolved.items[index].window_sensitive;
    }
    hidden = hidden && a->reason == NDP_APPLY_WINDOW;
    ndp_buf_adds(out, "{\"from\": ");
    add_instant(out, a->known && !hidden, a->from);
    ndp_buf_adds(out, ", \"until\": ");
    add_instant(out, a->known && !hidden && a->reason == NDP_APPLY_WINDOW,
                 a->until);
    ndp_buf_adds(out, ", \"reason\": \"");
    ndp_buf_adds(out, ndp_apply_reason_name(a->reason));
    ndp_buf_adds(out, "\"}");
    plan_release(&p);
}

/* "HH:MM" of local seconds-of-day. */
static void add_clock(struct ndp_buf *out, int64_t local)
{
    int64_t s = ndp_floor_mod(local, NDP_SECONDS_PER_DAY);

    ndp_buf_addf(out, "%02d:%02d", (int)(s / 3600), (int)(s / 60 % 60));
}

/* "Sat 20:00–24:00 UTC-05:00" for [from, until) at 'offset' minutes. */
static void add_local_span(struct ndp_buf *out, int64_t from, int64_t until,
                           int offset)
{
    int64_t lf = from + (int64_t)offset * 60, lu = until + (int64_t)offset * 60;
    int64_t df = ndp_floor_div(lf, NDP_SECONDS_PER_DAY);
    int64_t du = ndp_floor_div(lu, NDP_SECONDS_PER_DAY);

    if (du - df >= 6) {
        ndp_date_format(out, df);
        ndp_buf_addch(out, ' ');
        add_clock(out, lf);
        ndp_buf_adds(out, EN_DASH);
        ndp_date_format(out, du);
        ndp_buf_addch(out, ' ');
        add_clock(out, lu);
    } else {
        ndp_buf_adds(out, weekday_abbr[ndp_weekday_from_days(df)]);
        ndp_buf_addch(out, ' ');
        add_clock(out, lf);
        ndp_buf_adds(out, EN_DASH);
        if (du == df + 1 && ndp_floor_mod(lu, NDP_SECONDS_PER_DAY) == 0) {
            ndp_buf_adds(out, "24:00");
        } else {
            if (du != df) {
                ndp_buf_adds(out, weekday_abbr[ndp_weekday_from_days(du)]);
                ndp_buf_addch(out, ' ');
            }
            add_clock(out, lu);
        }
    }
    if (offset == 0) {
        ndp_buf_adds(out, " UTC");
        return;
    }
    ndp_buf_addf(out, " UTC%c%02d:%02d", offset < 0 ? '-' : '+',
                 abs(offset) / 60, abs(offset) % 60);
}

/* "between A and B (Sat 20:00–24:00 UTC-05:00)"; "after the end of 9999
 * (...)" or "from A until after the end of 9999 (...)" past year 9999. */
static void add_between(struct ndp_buf *out, const struct ndp_apply_window *a,
                        const struct ndp_window *w)
{
    if (a->from > NDP_TIME_MAX) {
        ndp_time_format_utc(out, a->from);
    } else if (a->until > NDP_TIME_MAX) {
        ndp_buf_adds(out, "from ");
        ndp_time_format_utc(out, a->from);
        ndp_buf_adds(out, " until ");
        ndp_time_format_utc(out, a->until);
    } else {
        ndp_buf_adds(out, "between ");
        ndp_time_format_utc(out, a->from);
        ndp_buf_adds(out, " and ");
        ndp_time_format_utc(out, a->until);
    }
    ndp_buf_adds(out, " (");
    add_local_span(out, a->from, a->until,
                   ndp_window_utc_offset_minutes(w));
    ndp_buf_addch(out, ')');
}

typedef void (*add_name_fn)(struct ndp_buf *out, const char *s);

/* How the sentence names clusters: the reporter's escaping, and how many
 * names a list may hold. */
struct names {
    add_name_fn add;
    size_t max;
};

/* Whether cluster 'i' is in the list of 'gate' (and, for windows, whose
 * own answer is 'reason'). */
static bool listed(const struct plan *p, size_t i, enum ndp_apply_gate gate,
                   int reason)
{
    return p->gates[i].gate == gate &&
           (reason < 0 || (int)p->answers[i].reason == reason);
}

/* Appends the ids of clusters whose gate is 'gate' (and, for windows,
 * whose own answer is 'reason'), joined with ", " and "and", at most
 * 'names->max' of them and the others counted; returns how many there
 * are. */
static size_t add_names(struct ndp_buf *out, const struct ndp_report *r,
                        const struct plan *p, enum ndp_apply_gate gate,
                        int reason, const struct names *names)
{
    size_t i, n = 0, total = 0, shown;

    for (i = 0; i < r->result->clusters.nr; i++)
        total += listed(p, i, gate, reason);
    shown = total < names->max ? total : names->max;
    for (i = 0; i < r->result->clusters.nr && n < shown; i++) {
        if (!listed(p, i, gate, reason))
            continue;
        if (n++)
            ndp_buf_adds(out, n == total ? " and " : ", ");
        names->add(out, r->result->clusters.items[i].id);
    }
    if (shown < total)
        ndp_buf_addf(out, "%s%zu%s cluster%s", shown ? " and " : "",
                     total - shown, shown ? " more" : "",
                     total - shown == 1 ? "" : "s");
    return total;
}

static void frozen_sentence(struct ndp_buf *out, const struct ndp_report *r,
                            const struct plan *p, const struct names *names)
{
    size_t i, n, seen = 0;
    bool first = true;

    ndp_buf_adds(out, "Cannot apply: ");
    n = add_names(out, r, p, NDP_GATE_FROZEN, -1, names);
    if (n) {
        ndp_buf_addf(out, " %s frozen (node disruption policy Block", n == 1
                     ? "is" : "are");
        for (i = 0; i < r->result->clusters.nr; i++) {
            const struct ndp_resolution *c = &r->result->resolved.items[i];

            if (p->gates[i].gate != NDP_GATE_FROZEN)
                continue;
            /* Only a cluster the sentence names, or the only one. */
            if (seen++ >= names->max && n > 1)
                break;
            if (!c->has_freeze_until)
                continue;
            ndp_buf_adds(out, first ? "; " : ", ");
            if (n > 1) {
                names->add(out, r->result->clusters.items[i].id);
                ndp_buf_adds(out, ": ");
            }
            ndp_buf_adds(out, c->freeze_until < r->result->at
                                  ? "the settings file's freeze ended "
                                  : "the settings file's freeze ends ");
            ndp_date_format(out, ndp_floor_div(c->freeze_until,
                                               NDP_SECONDS_PER_DAY));
            first = false;
        }
        ndp_buf_adds(out, "); to apply, lift it for this change with "
                     "'az aks update --node-disruption-policy Allow', "
                     "then restore it");
        return;
    }
    /* Not Block: a window that does not open within the horizon. */
    ndp_buf_adds(out, "the maintenance window of ");
    n = add_names(out, r, p, NDP_GATE_WINDOWS, NDP_APPLY_FROZEN, names);
    ndp_buf_addf(out, " %s no opening within 366 days (notAllowedDates or "
                 "startDate); to apply, lift the policy for this change "
                 "with 'az aks update --node-disruption-policy Allow', then "
                 "restore it", n == 1 ? "has" : "each have");
}

static void never_sentence(struct ndp_buf *out, const struct ndp_report *r,
                           const struct plan *p, const struct names *names)
{
    size_t n;

    ndp_buf_adds(out, "Cannot apply as planned: ");
    n = add_names(out, r, p, NDP_GATE_BROKEN, -1, names);
    ndp_buf_addf(out, " %s a change AKS or azurerm refuses whatever the "
                 "time (the errors say what); fix the plan first",
                 n == 1 ? "has" : "each have");
}

/* The window of the first cluster whose windows gate the plan. */
static const struct ndp_window *first_window(const struct ndp_report *r,
                                             const struct plan *p)
{
    size_t i;

    for (i = 0; i < r->result->clusters.nr; i++)
        if (p->gates[i].gate == NDP_GATE_WINDOWS)
            return p->gates[i].windows[0];
    return NULL;
}

static void unknown_sentence(struct ndp_buf *out, const struct ndp_report *r,
                             const struct plan *p, const struct names *names)
{
    size_t n;

    ndp_buf_adds(out, "Apply inside the maintenance window of ");
    n = add_names(out, r, p, NDP_GATE_UNKNOWN, -1, names);
    ndp_buf_addf(out, ", but when %s is not known (a window that "
                 "cannot be evaluated, or an interval above 1 without "
                 "startDate)", n == 1 ? "it opens" : "they open");
}

static void no_common_sentence(struct ndp_buf *out,
                               const struct ndp_report *r,
                               const struct plan *p, const struct names *names)
{
    size_t i, n, seen = 0;
    bool first = true;

    ndp_buf_adds(out, "No common window within 366 days: apply ");
    n = add_names(out, r, p, NDP_GATE_WINDOWS, -1, names);
    ndp_buf_adds(out, " separately (");
    for (i = 0; i < r->result->clusters.nr; i++) {
        if (p->gates[i].gate != NDP_GATE_WINDOWS)
            continue;
        if (seen++ >= names->max) {
            if (first)
                ndp_buf_adds(out, "their windows not shown");
            else
                ndp_buf_addf(out, "; %zu more not shown", n - names->max);
            break;
        }
        if (!first)
            ndp_buf_adds(out, "; ");
        first = false;
        names->add(out, r->result->clusters.items[i].id);
        if (r->result->resolved.items[i].window_sensitive) {
            ndp_buf_adds(out, ": in its window, times not shown (sensitive)");
            continue;
        }
        ndp_buf_adds(out, ": ");
        add_between(out, &p->answers[i], p->gates[i].windows[0]);
    }
    ndp_buf_addch(out, ')');
}

bool ndp_report_apply_now(const struct ndp_report *r)
{
    struct plan p;
    bool now;

    plan_start(&p, r);
    now = p.answer.reason == NDP_APPLY_NOW;
    plan_release(&p);
    return now;
}

/*
 * "Apply now": the findings a baseline lists were left out before this
 * answer was made, so it promises nothing about them.
 */
static void now_sentence(struct ndp_buf *out, const struct ndp_report *r)
{
    size_t known = r->result->baseline_known;

    if (!known) {
        ndp_buf_adds(out, "Apply now: no change is refused at ");
        ndp_time_format_utc(out, r->result->at);
        return;
    }
    ndp_buf_adds(out, "Apply now as far as the new findings go: none is "
                      "refused at ");
    ndp_time_format_utc(out, r->result->at);
    ndp_buf_addf(out, "; the %zu finding%s the baseline lists %s not "
                 "judged here and may still be refused", known,
                 known == 1 ? "" : "s", known == 1 ? "is" : "are");
}

void ndp_report_apply_sentence(struct ndp_buf *out,
                               const struct ndp_report *r,
                               add_name_fn add_name)
{
    ndp_report_apply_sentence_names(out, r, add_name, SIZE_MAX);
}

void ndp_report_apply_sentence_names(struct ndp_buf *out,
                                     const struct ndp_report *r,
                                     add_name_fn add_name, size_t max_names)
{
    const struct names names = { add_name, max_names };
    struct plan p;
    size_t n;

    plan_start(&p, r);
    switch (p.answer.reason) {
    case NDP_APPLY_NOW:
        now_sentence(out, r);
        break;
    case NDP_APPLY_FROZEN:
        frozen_sentence(out, r, &p, &names);
        break;
    case NDP_APPLY_NEVER:
        never_sentence(out, r, &p, &names);
        break;
    case NDP_APPLY_UNKNOWN_VALUES:
        n = unknown_dependents(r, NDP_APPLY_PLAN);
        ndp_buf_addf(out, "No instant to promise: nothing the plan shows is "
                     "refused at ");
        ndp_time_format_utc(out, r->result->at);
        ndp_buf_addf(out, ", but %zu change%s depend%s on what is known "
                     "only after apply or what-if cannot show (may-reimage); "
                     "judge the plan again once %s known", n,
                     n == 1 ? "" : "s", n == 1 ? "s" : "",
                     n == 1 ? "it is" : "they are");
        break;
    case NDP_APPLY_NO_COMMON:
        no_common_sentence(out, r, &p, &names);
        break;
    case NDP_APPLY_WINDOW:
    default:
        if (!p.answer.known) {
            unknown_sentence(out, r, &p, &names);
        } else if (p.sensitive) {
            ndp_buf_adds(out, "Apply inside the maintenance window of ");
            add_names(out, r, &p, NDP_GATE_WINDOWS, -1, &names);
            ndp_buf_adds(out, " (its times are sensitive and not shown)");
        } else {
            ndp_buf_adds(out, "Apply ");
            add_between(out, &p.answer, first_window(r, &p));
        }
        break;
    }
    plan_release(&p);
}

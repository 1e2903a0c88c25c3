/*
 * SPDX-License-Identifier: Apache-2.0
 * resolve_window.c - the maintenance window in force for each cluster.
 *
 * Only aksManagedNodeOSUpgradeSchedule counts, as it stands before the
 * change when it exists already (that is what AKS checks when the change
 * arrives); the input declares it, else the live state, else the settings
 * file.  When the apply also replaces it, an instant is inside only where
 * the old and the new window are both open (spec §11).  Other maintenance
 * configurations are noted so that a report can say why they do not count.
 *
 * A value Terraform knows only after apply (after_unknown) leaves the
 * window partly unknown, not invalid (window.h).  A what-if change shown
 * only as a delta is laid over the window known from --cluster-state or
 * the settings file; with neither, what the delta does not show is
 * unknown.  A window this change sends to AKS with a startDate already
 * past at --at is refused by AKS when the PUT updates its configuration:
 * a problem like any other value AKS refuses.  A problem in a window the
 * change sends (creates, sets, or sends again in a whole azapi body)
 * makes the window-invalid finding a refusal (window_refused); one read
 * only from the plan's before side, the live state or the settings file
 * stays a warning, and so does a startDate already past in a PUT that
 * creates the configuration (a created or replaced resource, a block
 * azurerm adds): whether AKS refuses that is unconfirmed
 * (put-time-limits PT-MW-05), and the problem says so.  A startDate is
 * sent when the change creates the window, when it changes the
 * startDate, and on every update of an azapi resource, whose whole body
 * is sent again.
 *
 * The instant a cluster is judged at (evaluate.h, enum ndp_judged) is
 * chosen here, once its window is known; a startDate is still held
 * against the run's own instant, the date on which the plan is judged.
 */
#include "common.h"
#include "evaluate_internal.h"
#include "apply_window.h"
#include "buf.h"
#include "change.h"
#include "config.h"
#include "jsonutil.h"
#include "linker.h"
#include "policy.h"
#include "state.h"
#include "window.h"

static bool listed(const char *list, const char *name)
{
    size_t n = strlen(name);

    while (list && *list) {
        size_t len = strcspn(list, ",");
        if (len == n && strncmp(list, name, n) == 0)
            return true;
        list += len;
        list += strspn(list, ", ");
    }
    return false;
}

static void note_other_window(struct ndp_resolution *c, const char *name)
{
    struct ndp_buf b = NDP_BUF_INIT;

    if (listed(c->other_windows, name))
        return;
    if (c->other_windows) {
        ndp_buf_addf(&b, "%s, ", c->other_windows);
        free(c->other_windows);
    }
    ndp_buf_adds(&b, name);
    c->other_windows = ndp_buf_detach(&b);
}

/*
 * One declaration of the node OS window, before and after the change.
 * A side is there when its value is, or when after_unknown marks it (its
 * value is then known only after apply, in part or whole).
 */
struct window_decl {
    const char *resource;               /* its address */
    const char *path;                   /* printed path of the window */
    const struct json_object *in_force; /* the window the change meets */
    const struct json_object *in_force_unknown; /* its after_unknown mask */
    bool has_in_force;
    const struct json_object *planned;  /* the window it asks for, if new */
    const struct json_object *planned_unknown;
    bool has_planned;
    bool planned_start_date_sent;       /* AKS sees the planned startDate */
    bool created;                       /* the change sends in_force: it
                                           adds the window */
    bool new_config;                    /* its PUT creates the
                                           configuration: a created or
                                           replaced resource, a window
                                           added (not by a setter) */
    bool resent;                        /* the change sends in_force again
                                           unchanged (a whole ARM body) */
    bool arm;                           /* ARM MaintenanceWindow, else azurerm */
    bool sensitive;                     /* under a sensitive mask, either side */
    int64_t at;                         /* --at */
};

static struct ndp_window *read_window(const struct window_decl *d,
                                      const struct json_object *v,
                                      const struct json_object *unknown,
                                      struct ndp_buf *problems)
{
    return d->arm ? ndp_window_from_arm_unknown(v, unknown, problems)
                  : ndp_window_from_azurerm_unknown(v, unknown, problems);
}

/*
 * The startDate of 'w', which the change sends: already past, a problem
 * AKS refuses into 'problems', or into 'unconfirmed' when the PUT creates
 * the configuration (PT-MW-05).
 */
static void check_start_date(const struct window_decl *d,
                             const struct ndp_window *w,
                             struct ndp_buf *problems,
                             struct ndp_buf *unconfirmed)
{
    if (d->new_config)
        ndp_window_check_new_start_date(w, d->at, unconfirmed);
    else
        ndp_window_check_start_date(w, d->at, problems);
}

/* Appends 'part' to 'out' as "; <what>: <part>" when there is one. */
static void add_part(struct ndp_buf *out, const char *what,
                     const struct ndp_buf *part)
{
    if (part->len)
        ndp_buf_addf(out, "%s%s%s", out->len ? "; " : "", what, part->buf);
}

/*
 * The window the change sets, when it reads; its problems otherwise.  A
 * startDate already past in a configuration the PUT creates goes to
 * 'unconfirmed', and the window stays: AKS may well take it.
 */
static struct ndp_window *read_planned(const struct window_decl *d,
                                       struct ndp_buf *problems,
                                       struct ndp_buf *unconfirmed)
{
    struct ndp_buf planned = NDP_BUF_INIT, maybe = NDP_BUF_INIT;
    struct ndp_window *w;

    if (!d->has_planned || ndp_json_has_expression(d->planned))
        return NULL;
    w = read_window(d, d->planned, d->planned_unknown, &planned);
    if (d->planned_start_date_sent)
        check_start_date(d, w, &planned, &maybe);
    add_part(unconfirmed, "the window this change sets: ", &maybe);
    if (planned.len) {
        /* AKS refuses it, so the old window stays in force. */
        add_part(problems, "the window this change sets: ", &planned);
        ndp_window_free(w);
        w = NULL;
    }
    ndp_buf_release(&planned);
    ndp_buf_release(&maybe);
    return w;
}

/* The window in force, sent again as it is: AKS checks its startDate. */
static void check_resent(const struct window_decl *d,
                         const struct ndp_window *w, struct ndp_buf *problems,
                         struct ndp_buf *unconfirmed)
{
    struct ndp_buf resent = NDP_BUF_INIT, maybe = NDP_BUF_INIT;
    const char *what = "the window this change sends again unchanged: ";

    check_start_date(d, w, &resent, &maybe);
    add_part(problems, what, &resent);
    add_part(unconfirmed, what, &maybe);
    ndp_buf_release(&resent);
    ndp_buf_release(&maybe);
}

/*
 * A window under a sensitive mask is judged like any other, but nothing
 * read from it is printed: not its settings, not what is wrong with them,
 * not the times it opens and closes (reporters check window_sensitive).
 */
static void redact_window(struct ndp_resolution *c,
                          const struct ndp_buf *problems, bool unconfirmed)
{
    c->window_sensitive = true;
    if (problems->len)
        c->window_problems = ndp_xstrdup(
            unconfirmed ? "its settings are sensitive (not shown), and "
                          "whether AKS refuses them in the configuration "
                          "this change creates is unconfirmed"
                        : "its settings are sensitive (not shown), and AKS "
                          "would refuse them");
}

static void set_window(struct ndp_resolution *c, const struct window_decl *d)
{
    struct ndp_buf problems = NDP_BUF_INIT, unconfirmed = NDP_BUF_INIT;
    struct ndp_window *w = NULL;
    size_t sent_from;
    bool refused, only_unconfirmed;

    if (c->window || c->window_problems || c->window_expression)
        return;
    if (ndp_json_has_expression(d->in_force)) {
        /* Parameters decide it: neither invalid nor missing. */
        c->window_expression = true;
        return;
    }
    w = read_window(d, d->in_force, d->in_force_unknown, &problems);
    if (!w && !problems.len)
        ndp_buf_adds(&problems, "the window cannot be evaluated");
    if (d->created)
        check_start_date(d, w, &problems, &unconfirmed);
    /* What the change sends AKS refuses: the window it creates or sends
     * again (a whole azapi body), or the one it sets. */
    refused = problems.len && (d->created || d->resent);
    sent_from = problems.len;
    c->new_window = read_planned(d, &problems, &unconfirmed);
    if (d->resent)
        check_resent(d, w, &problems, &unconfirmed);
    c->window_refused = refused || problems.len > sent_from;
    /* Said, but no refusal: whether AKS refuses it is unconfirmed. */
    only_unconfirmed = !problems.len && unconfirmed.len;
    add_part(&problems, "", &unconfirmed);
    ndp_buf_release(&unconfirmed);
    c->window = w;
    c->window_resource = ndp_xstrdup(d->resource);
    c->window_path = ndp_xstrdup(d->path);
    c->window_changes = d->planned != NULL;
    if (d->sensitive)
        redact_window(c, &problems, only_unconfirmed);
    else if (problems.len)
        c->window_problems = ndp_buf_detach(&problems);
    ndp_buf_release(&problems);
}

/*
 * The window as it stands before the change when it exists (that is what
 * AKS checks when the change arrives), else as the change creates it; and
 * the new window when the change replaces it.
 */
static bool same_json(const struct json_object *a,
                      const struct json_object *b)
{
    char *acopy = ndp_xstrdup(json_object_to_json_string_ext(
        ndp_json_unconst(a), JSON_C_TO_STRING_PLAIN));
    bool same = strcmp(acopy, json_object_to_json_string_ext(
                                  ndp_json_unconst(b),
                                  JSON_C_TO_STRING_PLAIN)) == 0;

    free(acopy);
    return same;
}

/* Does the change send its 'after' to AKS? */
static bool sends(const struct ndp_change *ch)
{
    return ch->action == NDP_ACTION_CREATE ||
           ch->action == NDP_ACTION_UPDATE ||
           ch->action == NDP_ACTION_REPLACE;
}

/*
 * Does the change set a startDate it did not have?  What AKS sees of a
 * startDate: azurerm sends it only when it changes
 * (terraform-provider-azurerm#23985, the fix of #22762); azapi sends the
 * whole body on every update, the window with it, changed or not
 * (ch->facts.sends_whole_body); what-if's after is the resource as
 * predicted, not the request, so only a startDate it shows changing is
 * known to be sent.
 */
static bool start_date_changes(const struct ndp_window_facts *w,
                               const struct json_object *before,
                               const struct json_object *after)
{
    const char *b = ndp_json_get_string(before, w->start_date_key);
    const char *a = ndp_json_get_string(after, w->start_date_key);

    return a && *a && (!b || strcmp(a, b) != 0);
}

static void window_sides(struct window_decl *d, const struct ndp_change *ch,
                         const struct ndp_window_facts *w,
                         const struct json_object *before,
                         const struct json_object *after,
                         const struct json_object *after_unknown)
{
    bool had = !ndp_json_is_unset(before) && ch->action != NDP_ACTION_CREATE;
    bool unknown = ndp_json_any_true(after_unknown);
    bool has_after = !ndp_json_is_unset(after) || unknown;

    d->has_in_force = had || has_after;
    d->in_force = had ? before : after;
    d->in_force_unknown = had ? NULL : after_unknown;
    bool replace = ch->action == NDP_ACTION_REPLACE;

    d->created = !had && has_after && sends(ch);
    d->new_config = (d->created && !ch->setter) || replace;
    if (!had || !has_after || (ch->action != NDP_ACTION_UPDATE && !replace))
        return;
    /* A replacement creates the resource again: AKS sees the whole window. */
    if (unknown || !same_json(before, after)) {
        d->has_planned = true;
        d->planned = after;
        d->planned_unknown = after_unknown;
        d->planned_start_date_sent = replace ||
                                     ch->facts.sends_whole_body ||
                                     start_date_changes(w, before, after);
    } else {
        d->resent = replace || ch->facts.sends_whole_body;
    }
}

/* What every declaration of one cluster shares. */
struct window_context {
    int64_t at;                         /* --at */
    const struct json_object *known;    /* the live or declared window in
                                           ARM terms, for a what-if delta */
    const struct json_object *all;      /* a mask that marks everything */
};

/* The azurerm node OS block of a cluster, as its facts give it. */
static void azurerm_window(struct ndp_resolution *c,
                           const struct ndp_change *ch,
                           const struct ndp_window_facts *w,
                           const struct window_context *ctx)
{
    struct window_decl d = { .resource = ch->address, .path = w->path,
                             .sensitive = w->sensitive, .at = ctx->at };

    window_sides(&d, ch, w, w->before, w->after, w->after_unknown);
    if (d.has_in_force)
        set_window(c, &d);
}

/*
 * A what-if change shown only as a delta: its two sides laid over the
 * window known from elsewhere, or, with none, everything the delta does
 * not show marked unknown ('ctx->all').  A side the delta does not touch
 * is the window unchanged: the configuration exists (it is modified), and
 * its maintenanceWindow is required.  'b' and 'a' are replaced by new
 * values the caller frees.
 */
static const struct json_object *fill_delta(struct json_object **b,
                                            struct json_object **a,
                                            const struct window_context *ctx)
{
    struct json_object *before = *b, *after = *a;

    if (!ctx->known)
        return ctx->all;
    *b = ndp_json_overlay(ctx->known, before);
    *a = ndp_json_overlay(ctx->known, after);
    json_object_put(before);
    json_object_put(after);
    return NULL;
}

/* An ARM maintenance configuration that is the node OS window. */
static void arm_window(struct ndp_resolution *c, const struct ndp_change *ch,
                       const struct ndp_window_facts *w,
                       const struct window_context *ctx)
{
    struct window_decl d = { .resource = ch->address, .path = w->path,
                             .arm = true, .sensitive = w->sensitive,
                             .at = ctx->at };
    const struct json_object *mask = w->after_unknown;
    struct json_object *b = json_object_get(ndp_json_unconst(w->before));
    struct json_object *a = json_object_get(ndp_json_unconst(w->after));

    if (ch->delta_only)
        mask = fill_delta(&b, &a, ctx);
    window_sides(&d, ch, w, ndp_json_is_unset(b) ? NULL : b,
                 ndp_json_is_unset(a) ? NULL : a, mask);
    if (ch->delta_only && !ctx->known)
        d.in_force_unknown = mask;
    if (d.has_in_force)
        set_window(c, &d);
    json_object_put(b);
    json_object_put(a);
}

/*
 * The windows 'ch' declares: the node OS window judged, the others only
 * named, so that a report can say why they do not count.
 */
static void change_windows(struct ndp_resolution *c,
                           const struct ndp_change *ch,
                           const struct window_context *ctx)
{
    size_t i;

    /* A maintenance configuration what-if cannot show, that may be the
     * node OS window: its window is not known, and counts as closed. */
    if (ch->kind == NDP_KIND_MAINTENANCE && ch->action == NDP_ACTION_OTHER &&
        (!ch->name || ndp_strcasecmp(ch->name, NDP_NODE_OS_WINDOW) == 0)) {
        c->window_expression = true;
        return;
    }
    for (i = 0; i < ch->facts.nr_windows; i++) {
        const struct ndp_window_facts *w = &ch->facts.windows[i];
        if (!w->node_os)
            note_other_window(c, w->name);
        else if (w->arm)
            arm_window(c, ch, w, ctx);
        else
            azurerm_window(c, ch, w, ctx);
    }
}

/* The live window, when the input declares none. */
static void state_window(struct ndp_resolution *c)
{
    struct window_decl d = { .path = "maintenanceWindow", .arm = true };
    size_t i, n;

    if (!c->state || c->window || c->window_problems || c->window_expression)
        return;
    if (c->state->other_windows) {
        const char *list = c->state->other_windows;
        for (i = 0; list[i]; i += n) {
            char name[128];
            n = strcspn(list + i, ",");
            snprintf(name, sizeof(name), "%.*s", (int)n, list + i);
            note_other_window(c, name);
            n += strspn(list + i + n, ", ");
        }
    }
    if (!c->state->window)
        return;
    d.resource = c->state->sources;
    d.in_force = c->state->window;
    d.has_in_force = true;
    set_window(c, &d);
}

/* The window .ndplint.json declares for the cluster, or NULL. */
static const struct json_object *config_window_of(
    const struct ndp_resolution *c)
{
    return c->declared ? c->declared->window : NULL;
}

/* The window .ndplint.json declares, when neither input nor state does. */
static void config_window(const struct ndp_evaluator *ev,
                          struct ndp_resolution *c)
{
    struct window_decl d = { .path = "window", .arm = true };

    if (c->window || c->window_problems || c->window_expression)
        return;
    d.in_force = config_window_of(c);
    if (!d.in_force)
        return;
    d.resource = ev->opt->config->path;
    d.has_in_force = true;
    set_window(c, &d);
}

/*
 * Spec §11: the apply also replaces the window, and the order in which
 * Terraform applies the two is not known, so an instant counts as inside
 * only when the old and the new window are both open.
 */
static void judge_both_windows(struct ndp_resolution *c, int64_t at)
{
    int64_t start, end;

    c->in_window = 0;
    c->has_next_window = ndp_window_next_common(c->window, c->new_window, at,
                                                &start, &end);
    if (c->has_next_window && start == at) {
        c->in_window = 1;
        c->window_closes_at = end;
        c->has_next_window = ndp_window_next_common(c->window, c->new_window,
                                                    end, &start, &end);
    }
    c->next_window_start = start;
    c->next_window_end = end;
}

/* Can the openings of the windows in force be named? */
static bool openings_known(const struct ndp_resolution *c)
{
    return !ndp_window_opening_unknown(c->window) &&
           !ndp_window_phase_unknown(c->window) &&
           !(c->new_window && (ndp_window_opening_unknown(c->new_window) ||
                               ndp_window_phase_unknown(c->new_window)));
}

/*
 * --at next-window: the first instant at or after 'now' inside the window
 * in force and, when the apply replaces it, inside the new one too (spec
 * §11); an occurrence that touches a date of notAllowedDates does not
 * open, as ndp_window_is_open() reads it.  No instant to name leaves the
 * cluster judged now, and its report says so (NDP_JUDGED_NO_OPENING);
 * so does an opening more than NDP_APPLY_HORIZON (366 days) away, the
 * horizon of the closing advice.
 */
static void move_to_next_window(struct ndp_resolution *c, int64_t now)
{
    int64_t start = now, end;
    bool found;

    if (!openings_known(c)) {
        c->judged = NDP_JUDGED_NO_OPENING;
        return;
    }
    if (c->new_window)
        found = ndp_window_next_common(c->window, c->new_window, now,
                                       &start, &end);
    else
        found = ndp_window_is_open(c->window, now, NULL) ||
                ndp_window_next(c->window, now, &start, &end);
    /* An opening beyond the closing advice's horizon is no answer for a
     * pull request: it would pass a change that cannot apply for years. */
    if (!found || start - now > NDP_APPLY_HORIZON) {
        c->judged = NDP_JUDGED_NO_OPENING;
        return;
    }
    c->at = start;
    c->judged = NDP_JUDGED_NEXT_WINDOW;
}

void ndp_resolve_window(const struct ndp_evaluator *ev, size_t index)
{
    struct ndp_resolution *c = &ev->resolved->items[index];
    struct window_context ctx = { ev->opt->at, NULL, NULL };
    struct json_object *all = json_object_new_boolean(1);
    const struct ndp_change *ch;
    int64_t closes = 0;
    size_t i;

    c->at = ev->opt->at;
    c->judged = ev->opt->next_window ? NDP_JUDGED_NO_WINDOW
                                     : NDP_JUDGED_GIVEN;
    ctx.all = all;
    ctx.known = c->state && c->state->window
                    ? c->state->window
                    : config_window_of(c);
    for (i = 0; (ch = ndp_evaluator_change(ev, index, i)) != NULL; i++)
        change_windows(c, ch, &ctx);
    json_object_put(all);
    state_window(c);
    config_window(ev, c);
    if (c->profile != NDP_PROFILE_WINDOW || !c->window)
        return;
    if (ev->opt->next_window)
        move_to_next_window(c, ev->opt->at);
    if (c->new_window) {
        judge_both_windows(c, c->at);
        return;
    }
    c->in_window = ndp_window_is_open(c->window, c->at, &closes);
    c->window_closes_at = closes;
    c->has_next_window = ndp_window_next(c->window, c->at,
                                         &c->next_window_start,
                                         &c->next_window_end);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * check_maintenance.c - the evaluator's checks of maintenance
 * configurations and of the node OS upgrade channel (put-time-limits
 * PT-MW-01..06, PT-OS, PT-K8S-09 rule 6), after the verdicts.
 *
 * Maintenance configurations (rules/maintenance-configuration.json): a
 * configuration AKS refuses fails the apply at its PUT, whatever the
 * policy and the time, so what the change sends is judged: the name of an
 * ARM configuration (NDP801), the default and aksManagedAutoUpgradeSchedule
 * windows with the window parser (NDP802), the schedule the default
 * configuration takes (NDP803) and its legacy hours (NDP804, NDP805).
 * The aksManagedNodeOSUpgradeSchedule window is resolve_window.c's: its
 * problems are NDP002, a refusal when the change sends the window.  What
 * the change does not send (an unchanged azurerm block, a deleted one, the
 * plan's before side) is not judged here.
 *
 * A configuration is a resource of its own, PUT after the cluster's: the
 * messages say the apply fails at that PUT, with the cluster's own
 * changes already made, never at the cluster's.  A startDate already past
 * is refused when the PUT updates a configuration (PT-MW-05); when it
 * creates one, the refusal is unconfirmed (may-refuse).
 *
 * Node OS channel (rules/node-os-channel.json): notes on what AKS will do
 * (NDP820-822), one per cluster and only where the plan creates the
 * cluster, changes its node OS channel or touches its node OS window (else
 * every plan of every cluster would carry them); and the azurerm refusal
 * of a node OS channel other than NodeImage with the cluster channel
 * node-image (NDP823).
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "jsonutil.h"
#include "linker.h"
#include "policy.h"
#include "rules.h"
#include "state.h"
#include "timeutil.h"
#include "window.h"

#include <json-c/json.h>


static const char *const config_names[] = {
    "default", "aksManagedAutoUpgradeSchedule", NDP_NODE_OS_WINDOW
};

static bool is_default(const struct ndp_window_facts *w)
{
    return w->config && ndp_strcasecmp(w->config, "default") == 0;
}

/* Does the change send its 'after' to AKS? */
static bool sends(const struct ndp_change *ch)
{
    return ch->action == NDP_ACTION_CREATE ||
           ch->action == NDP_ACTION_UPDATE ||
           ch->action == NDP_ACTION_REPLACE;
}

static bool same_json(const struct json_object *a,
                      const struct json_object *b)
{
    return json_object_equal(ndp_json_unconst(a), ndp_json_unconst(b)) != 0;
}

/*
 * Is a value the change leaves in 'after' sent to AKS?  A created or
 * replaced resource sends everything; azapi and templates send the whole
 * body on every update (facts.sends_whole_body); azurerm and what-if only
 * what changes.
 */
static bool value_sent(const struct ndp_change *ch,
                       const struct json_object *before,
                       const struct json_object *after, bool after_unknown)
{
    if (!sends(ch) || (ndp_json_is_unset(after) && !after_unknown))
        return false;
    if (ch->action != NDP_ACTION_UPDATE || ndp_json_is_unset(before) ||
        ch->facts.sends_whole_body)
        return true;
    return after_unknown || !same_json(before, after);
}

/*
 * Does AKS see the window's startDate?  As resolve_window.c reads it:
 * azurerm sends it only when it changes (terraform-provider-azurerm
 * #23985), azapi and templates with the whole body, a new or replaced
 * configuration always.
 */
static bool start_date_sent(const struct ndp_change *ch,
                            const struct ndp_window_facts *w)
{
    const char *b, *a;

    if (ch->action != NDP_ACTION_UPDATE || ndp_json_is_unset(w->before) ||
        ch->facts.sends_whole_body)
        return true;
    b = ndp_json_get_string(w->before, w->start_date_key);
    a = ndp_json_get_string(w->after, w->start_date_key);
    return a && *a && (!b || strcmp(a, b) != 0);
}

/*
 * Does the PUT of the configuration of 'w' create it (PT-MW-05)?  A
 * created or replaced resource does, and so does a window its resource
 * did not declare (azurerm adds a maintenance_window* block with a PUT of
 * a configuration that did not exist).  A setter's PUT, and a what-if
 * delta's, update one that exists.
 */
static bool creates_configuration(const struct ndp_change *ch,
                                  const struct ndp_window_facts *w)
{
    if (ch->setter)
        return false;
    return ch->action == NDP_ACTION_CREATE ||
           ch->action == NDP_ACTION_REPLACE ||
           (!ch->delta_only && ndp_json_is_unset(w->before));
}

/*
 * Where the apply stops when AKS refuses what 'ch' sends of a maintenance
 * configuration: a configuration is a resource of its own, PUT after the
 * cluster's.  azurerm sends each maintenance_window* block of a cluster
 * in a PUT of its own once it has created or updated the cluster and its
 * default node pool; an ARM configuration names the cluster as its parent
 * and goes after it.
 */
static void where_it_fails(struct ndp_buf *msg, const struct ndp_change *ch)
{
    if (ch->kind == NDP_KIND_CLUSTER)
        ndp_buf_addf(msg, "the apply of %s fails at that PUT, which azurerm "
                     "sends after it has %s, the cluster's own changes "
                     "already made", ch->address,
                     ch->action == NDP_ACTION_UPDATE
                         ? "updated the cluster and its default node pool"
                         : "created the cluster");
    else
        ndp_buf_addf(msg, "the apply fails at %s, a resource of its own that "
                     "goes after the cluster, whose changes are then already "
                     "made", ch->address);
}

/*
 * A finding about change 'ch' of the check rule 'id' at 'path' (skipped
 * when the rule set lacks it); 'before' and 'after' are values as
 * declared, shown under 'sensitive' (NULL, NULL: none).
 */
static void add_finding(const struct ndp_evaluator *ev,
                        const struct ndp_change *ch, const char *id,
                        enum ndp_verdict verdict, const char *path,
                        const char *message)
{
    struct ndp_check_finding f;

    if (!ndp_check_begin(&f, ev, id, ch))
        return;
    f.verdict = verdict;
    ndp_buf_adds(&f.path, path);
    ndp_buf_adds(&f.msg, message);
    ndp_check_emit(&f, ev);
}

/* The same with the values of a channel setting 's'. */
static void add_setting_finding(const struct ndp_evaluator *ev,
                                const struct ndp_change *ch, const char *id,
                                enum ndp_verdict verdict,
                                const struct ndp_setting_facts *s,
                                const char *message)
{
    struct ndp_check_finding f;

    if (!ndp_check_begin(&f, ev, id, ch))
        return;
    f.verdict = verdict;
    ndp_buf_adds(&f.path, s->path);
    ndp_emit_text(&f.before, s->before, s->sensitive, f.rule);
    ndp_emit_text(&f.after, s->after, s->sensitive, f.rule);
    ndp_buf_adds(&f.msg, message);
    ndp_check_emit(&f, ev);
}

/* ---- maintenance configurations ---- */

/* PT-MW-01: only three names; AKS answers InvalidParameter. */
static void check_name(const struct ndp_evaluator *ev,
                       const struct ndp_change *ch,
                       const struct ndp_window_facts *w)
{
    struct ndp_buf msg = NDP_BUF_INIT;
    size_t i;

    if (!w->arm || !w->config || !sends(ch) ||
        ndp_json_has_expression(ch->after))
        return;
    for (i = 0; i < NDP_ARRAY_SIZE(config_names); i++)
        if (ndp_strcasecmp(w->config, config_names[i]) == 0)
            return;
    ndp_buf_addf(&msg, "maintenance configuration '%s': AKS refuses the name "
                 "(InvalidParameter: \"Only 'default', "
                 "'aksManagedAutoUpgradeSchedule' and "
                 "'aksManagedNodeOSUpgradeSchedule' are allowed configNames "
                 "for maintenance configuration.\") in its PUT, so ", w->config);
    where_it_fails(&msg, ch);
    ndp_buf_adds(&msg, "; use one of those three names");
    add_finding(ev, ch, "NDP801", NDP_VERDICT_REFUSED, "", msg.buf);
    ndp_buf_release(&msg);
}

/*
 * PT-MW-03: the default configuration takes a weekly schedule only (the
 * AKS documents' table), every week since API version 2025-03-01
 * (azure-cli#33431).  An interval outside 1..4 is NDP802's.
 */
static void check_default_schedule(const struct ndp_evaluator *ev,
                                   const struct ndp_change *ch,
                                   const struct ndp_window_facts *w,
                                   const struct ndp_window *win)
{
    const struct ndp_window_settings *s = ndp_window_get_settings(win);
    struct ndp_buf msg = NDP_BUF_INIT;

    /* An unknown type or interval is read as none, or as 1. */
    if (s->kind == NDP_SCHEDULE_NONE)
        return;
    if (s->kind != NDP_SCHEDULE_WEEKLY)
        ndp_buf_addf(&msg, "the default maintenance configuration takes a "
                     "weekly schedule only, not %s: AKS refuses its PUT, so ",
                     ndp_window_schedule_name(s->kind));
    else if (s->interval > 1 && s->interval <= 4)
        ndp_buf_addf(&msg, "the default maintenance configuration takes "
                     "intervalWeeks 1 only (API version 2025-03-01 and "
                     "later, azure-cli#33431), not %lld: AKS refuses its "
                     "PUT, so ", s->interval);
    if (!msg.len)
        goto out;
    where_it_fails(&msg, ch);
    ndp_buf_adds(&msg, s->kind != NDP_SCHEDULE_WEEKLY
                           ? "; use schedule.weekly with intervalWeeks 1, or "
                             "move the schedule to "
                             "aksManagedAutoUpgradeSchedule"
                           : "; set intervalWeeks 1");
    add_finding(ev, ch, "NDP803", NDP_VERDICT_REFUSED, w->path, msg.buf);
out:
    ndp_buf_release(&msg);
}

/*
 * NDP802 from what is wrong with window 'w': 'refused' (AKS refuses
 * it: an error) and 'unconfirmed' (a startDate already past in a
 * configuration the PUT creates: may-refuse, PT-MW-05), either empty.
 */
static void window_finding(const struct ndp_evaluator *ev,
                           const struct ndp_change *ch,
                           const struct ndp_window_facts *w,
                           const struct ndp_buf *refused,
                           const struct ndp_buf *unconfirmed)
{
    const char *name = w->config ? w->config : w->name;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (refused->len) {
        ndp_buf_addf(&msg, "the %s maintenance window this change sends is "
                     "outside AKS limits: %s%s%s; AKS refuses its PUT, so ",
                     name, w->sensitive ? "its settings are sensitive (not "
                                          "shown)" : refused->buf,
                     unconfirmed->len && !w->sensitive ? "; " : "",
                     w->sensitive ? "" : unconfirmed->buf);
        where_it_fails(&msg, ch);
        ndp_buf_adds(&msg, "; change each value named to one within the "
                     "limit it names");
    } else {
        ndp_buf_addf(&msg, "the %s maintenance window this change creates "
                     "may be refused: %s; if AKS refuses it, ", name,
                     w->sensitive ? "its settings are sensitive (not "
                                    "shown), and whether AKS refuses them "
                                    "in a configuration it creates is "
                                    "unconfirmed"
                                  : unconfirmed->buf);
        where_it_fails(&msg, ch);
        ndp_buf_addf(&msg, "; set %s to today or later, or leave it out (the "
                     "window is then active right away)", w->start_date_key);
    }
    add_finding(ev, ch, "NDP802",
                refused->len ? NDP_VERDICT_REFUSED : NDP_VERDICT_MAY_REFUSE,
                w->path, msg.buf);
    ndp_buf_release(&msg);
}

/* PT-MW-02..05 for the default and auto-upgrade windows the change sends. */
static void check_window(const struct ndp_evaluator *ev,
                         const struct ndp_change *ch,
                         const struct ndp_window_facts *w)
{
    bool unknown = ndp_json_any_true(w->after_unknown);
    struct json_object *all = NULL;
    const struct json_object *mask = w->after_unknown;
    struct ndp_buf problems = NDP_BUF_INIT;
    struct ndp_buf unconfirmed = NDP_BUF_INIT;
    struct ndp_window *win;

    if (w->node_os || w->legacy ||
        !value_sent(ch, w->before, w->after, unknown) ||
        ndp_json_has_expression(w->after))
        return;
    if (ch->delta_only) {
        /* A delta shows what changes: the rest is not known here. */
        all = json_object_new_boolean(1);
        mask = all;
    }
    win = w->arm ? ndp_window_from_arm_unknown(w->after, mask, &problems)
                 : ndp_window_from_azurerm_unknown(w->after, mask, &problems);
    if (win && start_date_sent(ch, w)) {
        if (creates_configuration(ch, w))
            ndp_window_check_new_start_date(win, ev->opt->at, &unconfirmed);
        else
            ndp_window_check_start_date(win, ev->opt->at, &problems);
    }
    if (problems.len || unconfirmed.len)
        window_finding(ev, ch, w, &problems, &unconfirmed);
    if (win && w->arm && is_default(w) && !w->sensitive)
        check_default_schedule(ev, ch, w, win);
    ndp_window_free(win);
    json_object_put(all);
    ndp_buf_release(&problems);
    ndp_buf_release(&unconfirmed);
}

/*
 * The legacy hours form of an ARM configuration (PT-MW-02, PT-MW-06):
 * only the default configuration has it (its hour slots 0..23); on the
 * aksManaged names whether AKS refuses it is unconfirmed.  azurerm's
 * maintenance_window checks its hours in terraform plan.
 */
static void check_legacy(const struct ndp_evaluator *ev,
                         const struct ndp_change *ch,
                         const struct ndp_window_facts *w)
{
    bool week = value_sent(ch, w->time_in_week_before, w->time_in_week_after,
                           false);
    bool times = value_sent(ch, w->not_allowed_time_before,
                            w->not_allowed_time_after, false);
    struct ndp_buf problems = NDP_BUF_INIT;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (!w->arm || !w->config || (!week && !times) ||
        ndp_json_has_expression(ch->after))
        return;
    if (!is_default(w)) {
        if (ndp_strcasecmp(w->config, "aksManagedAutoUpgradeSchedule") &&
            ndp_strcasecmp(w->config, NDP_NODE_OS_WINDOW))
            return;
        ndp_buf_addf(&msg, "%s takes only a maintenanceWindow, and this "
                     "change sends it %s: the legacy form belongs to the "
                     "default configuration, it does not schedule anything "
                     "there, and whether AKS refuses it is unconfirmed (if "
                     "it does, ", w->config,
                     week && times ? "timeInWeek and notAllowedTime"
                     : week ? "timeInWeek" : "notAllowedTime");
        where_it_fails(&msg, ch);
        ndp_buf_adds(&msg, "); use maintenanceWindow instead");
        add_finding(ev, ch, "NDP805", NDP_VERDICT_MAY_REFUSE,
                    week ? w->time_in_week_path : w->not_allowed_time_path,
                    msg.buf);
        ndp_buf_release(&msg);
        return;
    }
    ndp_window_legacy_problems(&problems,
                               week ? w->time_in_week_after : NULL,
                               times ? w->not_allowed_time_after : NULL,
                               ch->delta_only);
    if (problems.len) {
        ndp_buf_addf(&msg, "the default maintenance configuration this "
                     "change sends is outside AKS limits: %s; AKS refuses "
                     "its PUT, so ",
                     w->sensitive ? "its settings are sensitive (not shown)"
                                  : problems.buf);
        where_it_fails(&msg, ch);
        ndp_buf_adds(&msg, "; give each entry named a day Sunday..Saturday, "
                     "hour slots 0..23 and date-times as the API writes "
                     "them");
        add_finding(ev, ch, "NDP804", NDP_VERDICT_REFUSED,
                    week ? w->time_in_week_path : w->not_allowed_time_path,
                    msg.buf);
    }
    ndp_buf_release(&problems);
    ndp_buf_release(&msg);
}

static void check_configurations(const struct ndp_evaluator *ev,
                                 const struct ndp_change *ch)
{
    size_t i;

    for (i = 0; i < ch->facts.nr_windows; i++) {
        const struct ndp_window_facts *w = &ch->facts.windows[i];
        if (ch->kind == NDP_KIND_MAINTENANCE)
            check_name(ev, ch, w);
        check_window(ev, ch, w);
        check_legacy(ev, ch, w);
    }
}

/* ---- node OS channel ---- */

static bool channel_is(const char *v, const char *name)
{
    return v && ndp_strcasecmp(v, name) == 0;
}

/*
 * PT-K8S-09 rule 6, PT-OS-04: with the cluster channel node-image,
 * azurerm refuses a node OS channel other than NodeImage on create and
 * when the node OS channel changes ("`node_os_upgrade_channel` must be set
 * to `NodeImage` if `automatic_upgrade_channel` is set to `node-image`");
 * AKS documents that the node OS channel cannot change then.
 */
static void check_node_image_pair(const struct ndp_evaluator *ev,
                                  const struct ndp_change *ch)
{
    const struct ndp_setting_facts *os = &ch->facts.node_os_channel;
    const struct ndp_setting_facts *up = &ch->facts.upgrade_channel;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (!sends(ch) || !channel_is(up->after, "node-image") || !os->after ||
        channel_is(os->after, "NodeImage"))
        return;
    if (ch->action == NDP_ACTION_UPDATE && os->before &&
        ndp_strcasecmp(os->before, os->after) == 0)
        return;
    ndp_buf_addf(&msg, "%s '%s' is not NodeImage while %s is node-image: ",
                 os->path, os->sensitive ? "(sensitive)" : os->after,
                 up->path);
    if (ch->notation == NDP_NOTATION_AZURERM)
        ndp_buf_addf(&msg, "azurerm refuses it during apply, before it %s "
                     "(\"`%s` must be set to `NodeImage` if `%s` is set to "
                     "`node-image`\")",
                     ch->action == NDP_ACTION_UPDATE
                         ? "sends the cluster's update"
                         : "creates the cluster",
                     os->path, up->path);
    else
        ndp_buf_addf(&msg, "AKS does not let the node OS channel change from "
                     "NodeImage with the node-image cluster channel (\"You "
                     "can't change the node OS autoupgrade channel value if "
                     "your cluster autoupgrade channel is node-image\"), so "
                     "the apply fails at %s", ch->address);
    ndp_buf_adds(&msg, "; set the node OS channel to NodeImage, or choose "
                 "another cluster channel");
    add_setting_finding(ev, ch, "NDP823", NDP_VERDICT_REFUSED, os, msg.buf);
    ndp_buf_release(&msg);
}

/* What one cluster's changes say of its channel, window and pools. */
struct channel_view {
    const struct ndp_change *channel_change; /* declares the channel */
    const char *channel;                     /* after the apply, or NULL */
    bool channel_sensitive;
    bool channel_moves;       /* created, or the value changes */
    const struct ndp_change *window_change;  /* touches the node OS window */
    const char *window_path;
    bool window_declared, window_after;
    const struct ndp_change *windows_pool_change; /* creates a Windows pool */
    bool windows_pools;
};

static void view_change(struct channel_view *v, const struct ndp_change *ch)
{
    const struct ndp_setting_facts *os = &ch->facts.node_os_channel;
    size_t i;

    if (os->after && !os->after_unknown) {
        v->channel_change = ch;
        v->channel = os->after;
        v->channel_sensitive = os->sensitive;
        v->channel_moves = ch->action == NDP_ACTION_CREATE ||
                           ch->action == NDP_ACTION_REPLACE ||
                           !os->before ||
                           ndp_strcasecmp(os->before, os->after) != 0;
    }
    for (i = 0; i < ch->facts.nr_windows; i++) {
        const struct ndp_window_facts *w = &ch->facts.windows[i];
        bool before = !ndp_json_is_unset(w->before) &&
                      ch->action != NDP_ACTION_CREATE;
        bool after = (!ndp_json_is_unset(w->after) ||
                      ndp_json_any_true(w->after_unknown)) &&
                     ch->action != NDP_ACTION_DELETE;
        if (!w->node_os)
            continue;
        v->window_declared = true;
        v->window_after = after;
        if (before != after || (before && after &&
                                !same_json(w->before, w->after))) {
            v->window_change = ch;
            v->window_path = w->path;
        }
    }
    for (i = 0; i < ch->facts.nr_pools; i++) {
        const struct ndp_pool_facts *p = &ch->facts.pools[i];
        if (p->deleted || !channel_is(p->os_type, "Windows"))
            continue;
        v->windows_pools = true;
        if (p->created || ch->action == NDP_ACTION_CREATE)
            v->windows_pool_change = ch;
    }
}

static void note(const struct ndp_evaluator *ev, const struct channel_view *v,
                 const struct ndp_change *at, const char *id,
                 const char *message)
{
    const struct ndp_setting_facts *os = &at->facts.node_os_channel;

    if (at == v->channel_change)
        add_setting_finding(ev, at, id, NDP_VERDICT_ADVISORY, os, message);
    else
        add_finding(ev, at, id, NDP_VERDICT_ADVISORY, v->window_path,
                    message);
}

static void channel_notes(const struct ndp_evaluator *ev, size_t index)
{
    const struct ndp_resolution *c = &ev->resolved->items[index];
    struct channel_view v = { 0 };
    const struct ndp_change *ch, *at;
    const char *channel;
    bool window;
    size_t i;

    for (i = 0; (ch = ndp_evaluator_change(ev, index, i)) != NULL; i++)
        view_change(&v, ch);
    channel = v.channel ? v.channel
                        : c->state ? c->state->node_os_channel : NULL;
    window = v.window_declared
                 ? v.window_after
                 : (c->window || c->window_problems || c->window_expression);
    if (c->state)
        for (i = 0; i < c->state->nr_pools; i++)
            if (channel_is(c->state->pools[i].os_type, "Windows"))
                v.windows_pools = true;
    at = v.channel_moves ? v.channel_change : v.window_change;
    if (!channel || v.channel_sensitive)
        return;
    if (at && channel_is(channel, "Unmanaged") && window)
        note(ev, &v, at, "NDP820", "the node OS upgrade channel is "
             "Unmanaged, so the aksManagedNodeOSUpgradeSchedule window no "
             "longer governs OS updates: the nodes apply OS updates "
             "themselves, nightly, and reboots are yours (kured); use "
             "NodeImage or SecurityPatch for updates inside the window");
    if (channel_is(channel, "Unmanaged") && v.windows_pools &&
        (at || v.windows_pool_change))
        note(ev, &v, at ? at : v.windows_pool_change, "NDP821",
             "the node OS upgrade channel is Unmanaged and the cluster has "
             "Windows node pools: Windows nodes apply no security patches "
             "by themselves, so under Unmanaged they get none (as under "
             "None); use NodeImage, or SecurityPatch for Linux pools only");
    if (at && !window && (channel_is(channel, "NodeImage") ||
                          channel_is(channel, "SecurityPatch")))
        note(ev, &v, at, "NDP822", channel_is(channel, "NodeImage")
             ? "the node OS upgrade channel is NodeImage and there is no "
               "aksManagedNodeOSUpgradeSchedule window: AKS rolls new node "
               "images onto every pool at any time, about weekly (older "
               "pages: every two weeks); add the window to choose when"
             : "the node OS upgrade channel is SecurityPatch and there is no "
               "aksManagedNodeOSUpgradeSchedule window: AKS applies security "
               "patches at any time, typically more often than new node "
               "images arrive (about weekly; older pages: every two weeks); "
               "add the window to choose when");
}

void ndp_check_maintenance(const struct ndp_evaluator *ev)
{
    size_t i;

    for (i = 0; i < ev->set->nr; i++) {
        check_configurations(ev, ev->set->items[i]);
        check_node_image_pair(ev, ev->set->items[i]);
    }
    for (i = 0; i < ev->clusters->nr; i++)
        channel_notes(ev, i);
}

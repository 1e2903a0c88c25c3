/*
 * SPDX-License-Identifier: Apache-2.0
 * verdict.c - the findings: a verdict for every rule hit under the
 * profile, window and version resolved for its cluster, and the findings
 * about clusters and changes themselves (replaced, unseen, an invalid
 * window, a gate left open, a freeze without an end, a profile nothing
 * declares).  Severity follows intent (architecture §5): what disrupts
 * nodes while the cluster is frozen now is an error.
 *
 * Bypass: a covered change is not gated when the same resource change
 * also upgrades Kubernetes (cluster) or the pool's orchestrator version or
 * node image: that is the same configuration change (spec §5).
 */
#include "common.h"
#include "evaluate_internal.h"
#include "buf.h"
#include "change.h"
#include "config.h"
#include "engine.h"
#include "finding.h"
#include "jsonutil.h"
#include "k8s_version.h"
#include "linker.h"
#include "policy.h"
#include "rules.h"
#include "state.h"
#include "timeutil.h"
#include "window.h"

static const struct ndp_state_pool *state_pool(const struct ndp_state_cluster *st,
                                               const char *name)
{
    size_t i;

    for (i = 0; st && name && i < st->nr_pools; i++)
        if (ndp_strcasecmp(st->pools[i].name, name) == 0)
            return &st->pools[i];
    return NULL;
}

static const char *state_pool_version(const struct ndp_state_cluster *st,
                                      const char *name)
{
    const struct ndp_state_pool *p = state_pool(st, name);

    return p ? p->version : NULL;
}

/* Live state says the cluster has node pools and none of them is Windows. */
static bool state_has_no_windows_pool(const struct ndp_state_cluster *st)
{
    size_t i;

    if (!st || !st->has_pools)
        return false;
    for (i = 0; i < st->nr_pools; i++)
        if (st->pools[i].os_type &&
            ndp_strcasecmp(st->pools[i].os_type, "Windows") == 0)
            return false;
    return true;
}

/*
 * The version that decides a §4 change: a pool resource's own orchestrator
 * version, else the cluster's (pools inside a cluster body are taken to run
 * the cluster's version).
 */
static const char *hit_version(const struct ndp_evaluator *ev,
                               const struct ndp_hit *h, bool *sensitive)
{
    const struct ndp_change *ch = ev->set->items[h->change];
    const struct ndp_resolution *c = &ev->resolved->items[ch->cluster];
    const char *v = NULL;

    *sensitive = false;
    if (h->rule->scope == NDP_SCOPE_NODEPOOL && ch->kind == NDP_KIND_NODEPOOL)
        v = ndp_resolve_change_version(ch, sensitive);
    if (!v && h->pool)
        v = state_pool_version(c->state, h->pool);
    if (!v)
        *sensitive = c->version_sensitive;
    return v ? v : c->version;
}

/* ---- findings ---- */

/*
 * Architecture §5: a cluster is frozen now when its profile is Block, or
 * AllowDuringMaintenanceWindow with the instant outside the window.  A
 * window that cannot be evaluated counts as closed, as gated_verdict()
 * reads it; no window at all leaves the gate open, which is no freeze.
 */
static bool frozen_now(const struct ndp_resolution *c)
{
    if (c->profile == NDP_PROFILE_BLOCK)
        return true;
    if (c->profile != NDP_PROFILE_WINDOW)
        return false;
    if (!c->window)
        return c->window_problems || c->window_expression;
    return c->in_window != 1;
}

/* "; the cluster is frozen now (...)" after a change the policy never sees. */
static void describe_freeze(struct ndp_buf *msg, const struct ndp_resolution *c)
{
    if (!c->frozen_now)
        return;
    if (c->profile == NDP_PROFILE_BLOCK)
        ndp_buf_adds(msg, "; the cluster is frozen now (node disruption "
                     "policy Block), and nothing but this check stops it");
    else
        ndp_buf_adds(msg, "; the cluster is frozen now (outside the "
                     "aksManagedNodeOSUpgradeSchedule window of "
                     "AllowDuringMaintenanceWindow), and nothing but this "
                     "check stops it");
}

/* A finding about cluster 'index' as a whole: 'resource' at 'path'. */
static void meta_finding(const struct ndp_evaluator *ev,
                         enum ndp_verdict verdict, size_t index,
                         const char *resource, const char *path,
                         const char *message)
{
    struct ndp_finding_spec spec = {
        .verdict = verdict,
        .scope = NDP_SCOPE_CLUSTER,
        .input = ev->clusters->items[index].input,
        .cluster_index = index,
        .resource = resource,
        .path = path,
        .message = message,
    };

    ndp_emit(ev, &spec);
}

/* A Block in .ndplint.json needs an end: the docs say never to freeze for good. */
static void freeze_finding(const struct ndp_evaluator *ev, size_t index)
{
    const struct ndp_resolution *r = &ev->resolved->items[index];
    const struct ndp_config_cluster *e;
    struct ndp_buf msg = NDP_BUF_INIT;

    if (!ev->opt->config || strcmp(r->profile_source, "config") != 0 ||
        r->profile != NDP_PROFILE_BLOCK)
        return;
    e = r->declared;
    if (e && e->has_until && e->until >= r->at)
        return;
    if (e && e->has_until)
        ndp_buf_addf(&msg, "the freeze (Block) that %s declares for this "
                     "cluster ended on %s; it still applies it",
                     ev->opt->config->path, e->until_text);
    else
        ndp_buf_addf(&msg, "%s declares a freeze (Block) for this cluster "
                     "without an end date ('until'); freezes are meant to "
                     "be short", ev->opt->config->path);
    meta_finding(ev, NDP_VERDICT_FREEZE_WITHOUT_END, index,
                 ev->opt->config->path, NULL, msg.buf);
    ndp_buf_release(&msg);
}

/*
 * NDP002.  A window the change sends that AKS refuses fails the apply at
 * that PUT whatever the time, a maintenance configuration's own, after the
 * cluster's (put-time-limits PT-MW): the finding's verdict is then refused
 * (put-time-limits, settled readings: maintenance configurations); one
 * read only from the before side, live state or settings stays a warning.
 */
static void window_invalid_finding(const struct ndp_evaluator *ev,
                                   size_t index)
{
    const struct ndp_resolution *c = &ev->resolved->items[index];
    struct ndp_buf msg = NDP_BUF_INIT;
    struct ndp_finding_spec spec = {
        .verdict = NDP_VERDICT_WINDOW_INVALID,
        .scope = NDP_SCOPE_CLUSTER,
        .input = ev->clusters->items[index].input,
        .cluster_index = index,
        .resource = c->window_resource,
        .path = c->window_path,
    };

    ndp_buf_addf(&msg, "the aksManagedNodeOSUpgradeSchedule window is "
                 "invalid: %s", c->window_problems);
    /* The refusal needs the rule itself (a rule set without it gets the
     * verdict table's NDP002, which only window-invalid names). */
    spec.rule = ndp_verdict_meta_rule(ev->rs, spec.verdict);
    if (c->window_refused && spec.rule) {
        spec.verdict = NDP_VERDICT_REFUSED;
        ndp_buf_adds(&msg, "; this change sends it, and AKS refuses the "
                     "PUT of that maintenance configuration, a request of "
                     "its own after the cluster's (azurerm sends a "
                     "maintenance_window_node_os block once it has created "
                     "or updated the cluster and its default node pool): "
                     "the apply fails there, the cluster's own changes "
                     "already made");
    }
    spec.message = msg.buf;
    ndp_emit(ev, &spec);
    ndp_buf_release(&msg);
}

static void cluster_findings(const struct ndp_evaluator *ev, size_t index)
{
    const struct ndp_cluster *cluster = &ev->clusters->items[index];
    const struct ndp_resolution *c = &ev->resolved->items[index];
    struct ndp_buf msg = NDP_BUF_INIT;

    freeze_finding(ev, index);

    if (c->window_problems)
        window_invalid_finding(ev, index);
    if (c->profile == NDP_PROFILE_WINDOW && !c->window &&
        !c->window_problems && !c->window_expression) {
        ndp_buf_adds(&msg, "profile AllowDuringMaintenanceWindow but no "
                     "aksManagedNodeOSUpgradeSchedule maintenance window: "
                     "AKS lets every disruptive change through at any time");
        if (c->other_windows)
            ndp_buf_addf(&msg, " (not the node OS window: %s)",
                         c->other_windows);
        meta_finding(ev, NDP_VERDICT_GATE_OPEN, index, cluster->id, NULL,
                     msg.buf);
    }
    ndp_buf_release(&msg);
}

/* A finding about a whole cluster or pool resource, 'ch'. */
static void about_change(struct ndp_finding_spec *spec,
                         const struct ndp_change *ch)
{
    spec->scope = ch->kind == NDP_KIND_CLUSTER ? NDP_SCOPE_CLUSTER
                                               : NDP_SCOPE_NODEPOOL;
    spec->input = ch->input;
    spec->cluster_index = ch->cluster;
    spec->resource = ch->address;
    spec->line = ch->line;
    spec->pool = ch->kind == NDP_KIND_NODEPOOL ? ch->name : NULL;
}

/*
 * put-time-limits PT-UPG-04/06: azurerm cannot unset a pool's drain
 * timeout or undrainable node behaviour once set, so a plan that unsets
 * one replaces the resource: the whole cluster for its default pool.
 * Names each such attribute the facts show.
 */
static void describe_unset_settings(struct ndp_buf *msg,
                                    const struct ndp_change *ch)
{
    struct ndp_buf paths = NDP_BUF_INIT;
    size_t i, n = 0;
    bool drain = false, undrainable = false;

    if (ch->notation != NDP_NOTATION_AZURERM)
        return;
    for (i = 0; i < ch->facts.nr_pools; i++) {
        const struct ndp_pool_facts *p = &ch->facts.pools[i];
        if (p->drain_minutes_before > 0 && p->drain_minutes <= 0) {
            ndp_buf_adds(&paths, n++ ? " and " : "");
            ndp_pool_field_path(&paths, p, NDP_POOL_DRAIN_TIMEOUT);
            drain = true;
        }
        if (p->undrainable_before && !p->undrainable) {
            ndp_buf_adds(&paths, n++ ? " and " : "");
            ndp_pool_field_path(&paths, p, NDP_POOL_UNDRAINABLE);
            undrainable = true;
        }
    }
    if (n)
        ndp_buf_addf(msg, "; azurerm cannot unset %s once set, so unsetting "
                     "%s replaces the %s (keep a value instead: the AKS "
                     "default is %s)", paths.buf, n == 1 ? "it" : "them",
                     ch->kind == NDP_KIND_CLUSTER
                         ? "whole cluster, not only its default node pool"
                         : "node pool",
                     drain && undrainable ? "30 minutes and Schedule"
                     : drain              ? "30 minutes"
                                          : "Schedule");
    ndp_buf_release(&paths);
}

static void replace_finding(const struct ndp_evaluator *ev,
                            const struct ndp_change *ch)
{
    struct ndp_buf msg = NDP_BUF_INIT;
    struct ndp_finding_spec spec = { .verdict = NDP_VERDICT_REPLACE };

    if (ch->action != NDP_ACTION_REPLACE ||
        (ch->kind != NDP_KIND_CLUSTER && ch->kind != NDP_KIND_NODEPOOL))
        return;
    ndp_buf_addf(&msg, "the %s is destroyed and recreated%s%s%s: every node "
                 "and all node-local data are lost, and the node disruption "
                 "policy does not gate it",
                 ch->kind == NDP_KIND_CLUSTER ? "cluster" : "node pool",
                 ch->replace_paths ? " (because of " : "",
                 ch->replace_paths ? ch->replace_paths : "",
                 ch->replace_paths ? ")" : "");
    describe_unset_settings(&msg, ch);
    describe_freeze(&msg, &ev->resolved->items[ch->cluster]);
    ndp_emit_deferred(&msg, ch);
    about_change(&spec, ch);
    spec.pools = ch->kind == NDP_KIND_CLUSTER ? NDP_POOLS_ALL
                                              : NDP_POOLS_NAMED;
    spec.path = ch->replace_paths;
    spec.message = msg.buf;
    ndp_emit(ev, &spec);
    ndp_buf_release(&msg);
}

/* A what-if change shown without properties (Deploy, Unsupported). */
static void unseen_finding(const struct ndp_evaluator *ev,
                           const struct ndp_change *ch)
{
    /* Which pools it rebuilds is not known: it marks none. */
    struct ndp_finding_spec spec = {
        .verdict = NDP_VERDICT_MAY_REIMAGE,
        .pools = NDP_POOLS_NONE,
        .message = "what-if cannot show the properties of this change "
                   "(changeType Deploy or Unsupported), so it may reimage "
                   "nodes unseen; review it by hand",
    };

    if (ch->action != NDP_ACTION_OTHER ||
        (ch->kind != NDP_KIND_CLUSTER && ch->kind != NDP_KIND_NODEPOOL))
        return;
    about_change(&spec, ch);
    spec.pool = NULL;
    ndp_emit(ev, &spec);
}

/*
 * Does the same resource change also upgrade Kubernetes or a node image?
 * Spec §5: a covered change in the same configuration change as a
 * cluster or node pool version upgrade is not controlled by the policy.
 */
static const struct ndp_hit *bundled_upgrade(const struct ndp_evaluator *ev,
                                            const struct ndp_hit *h)
{
    return ev->upgrades[h->change];
}

/* "kubernetes_version "1.36" -> "1.37"" for a message. */
static void describe_upgrade(struct ndp_buf *msg, const struct ndp_hit *u)
{
    char *before = ndp_emit_json_value(u->before, u->before_sensitive, false, u->rule);
    char *after = ndp_emit_json_value(u->after, u->after_sensitive, false, u->rule);

    ndp_buf_addf(msg, "%s %s -> %s", u->path, before, after);
    free(before);
    free(after);
}

/* The hit's pool name as printed: never one under a sensitive mask. */
static const char *shown_pool(const struct ndp_evaluator *ev,
                              const struct ndp_hit *h)
{
    if (h->pool && ev->pools_masked[h->change])
        return "(sensitive)";
    return h->pool;
}

static void describe_target(const struct ndp_evaluator *ev, struct ndp_buf *msg,
                            const struct ndp_hit *h)
{
    if (h->rule->class_ == NDP_CLASS_UPGRADE)
        ndp_buf_adds(msg, "is an upgrade, which rolls the nodes of the pools "
                     "it moves");
    else if (h->rule->target)
        ndp_buf_addf(msg, "reimages %s", h->rule->target);
    else if (h->rule->scope == NDP_SCOPE_CLUSTER)
        ndp_buf_adds(msg, "reimages every node pool of the cluster");
    else if (h->pool)
        ndp_buf_addf(msg, "reimages node pool '%s'", shown_pool(ev, h));
    else
        ndp_buf_adds(msg, "reimages the node pool");
}

static void describe_next_window(struct ndp_buf *msg,
                                 const struct ndp_resolution *c)
{
    int offset;

    if (c->window_sensitive) {
        ndp_buf_adds(msg, "when the window opens is not shown: its settings "
                     "are sensitive");
        return;
    }
    if (ndp_window_opening_unknown(c->window) ||
        ndp_window_opening_unknown(c->new_window)) {
        ndp_buf_adds(msg, "when the window opens is unknown");
        return;
    }
    if (!c->has_next_window) {
        ndp_buf_adds(msg, "no window opens within ten years");
        return;
    }
    offset = ndp_window_utc_offset_minutes(c->window);
    /* Without startDate an interval above 1 has an unknown phase. */
    ndp_buf_adds(msg, ndp_window_phase_unknown(c->window)
                          ? "the next window may open "
                          : "the next window opens ");
    ndp_time_format_both(msg, c->next_window_start, offset);
    ndp_buf_addf(msg, " for %lld hours",
                 (long long)((c->next_window_end - c->next_window_start) /
                             3600));
}

/* " at <instant> (its next window)" when --at next-window moved it there. */
static void describe_judged_at(struct ndp_buf *msg,
                               const struct ndp_resolution *c)
{
    if (c->judged != NDP_JUDGED_NEXT_WINDOW)
        return;
    if (c->window_sensitive) {
        ndp_buf_adds(msg, " at its next opening (--at next-window; the time "
                     "is not shown: its settings are sensitive)");
        return;
    }
    ndp_buf_adds(msg, " at ");
    ndp_time_format_utc(msg, c->at);
    ndp_buf_adds(msg, " (--at next-window)");
}

static void note_both_windows(struct ndp_buf *msg,
                              const struct ndp_resolution *c)
{
    if (c->new_window)
        ndp_buf_adds(msg, " (this apply also replaces the window, so only "
                     "an instant inside both the old and the new one "
                     "counts)");
}

/* Verdict of a change the policy gates, under the cluster's profile. */
static enum ndp_verdict gated_verdict(const struct ndp_resolution *c,
                                      struct ndp_buf *msg)
{
    switch (c->profile) {
    case NDP_PROFILE_BLOCK:
        ndp_buf_adds(msg, "; the node disruption policy Block refuses it");
        return NDP_VERDICT_REJECTED;
    case NDP_PROFILE_WINDOW:
        if (!c->window && (c->window_problems || c->window_expression)) {
            /* Configured but not evaluable: never claim an opening. */
            ndp_buf_adds(msg, "; the aksManagedNodeOSUpgradeSchedule window "
                         "cannot be evaluated, so it is treated as closed");
            return NDP_VERDICT_OUTSIDE_WINDOW;
        }
        if (!c->window) {
            ndp_buf_adds(msg, "; allowed at any time: "
                         "AllowDuringMaintenanceWindow without an "
                         "aksManagedNodeOSUpgradeSchedule window");
            return NDP_VERDICT_ALLOWED;
        }
        if (c->in_window == 1) {
            ndp_buf_adds(msg, "; inside the maintenance window");
            describe_judged_at(msg, c);
            ndp_buf_adds(msg, ", which closes ");
            if (c->window_sensitive)
                ndp_buf_adds(msg, "at a time not shown (sensitive)");
            else
                ndp_time_format_utc(msg, c->window_closes_at);
            note_both_windows(msg, c);
            return NDP_VERDICT_ALLOWED;
        }
        ndp_buf_adds(msg, "; outside the aksManagedNodeOSUpgradeSchedule "
                     "window, so AKS refuses it; ");
        describe_next_window(msg, c);
        note_both_windows(msg, c);
        if (c->judged == NDP_JUDGED_NO_OPENING)
            ndp_buf_adds(msg, c->has_next_window &&
                                  !ndp_window_phase_unknown(c->window)
                              ? "; --at next-window judges only at an "
                                "opening within 366 days, so it is judged "
                                "now"
                              : "; --at next-window has no opening to "
                                "judge it at, so it is judged now");
        return NDP_VERDICT_OUTSIDE_WINDOW;
    case NDP_PROFILE_ALLOW:
    default:
        ndp_buf_adds(msg, "; the profile Allow lets it through");
        return NDP_VERDICT_ALLOWED;
    }
}

/*
 * Spec §5 and §11: a covered change in the same resource change as an
 * upgrade is not gated.  That matters only where the policy would have
 * refused it (bypassed); where it would have let it through, it is
 * allowed, and the message names the upgrade either way.
 */
static enum ndp_verdict bundled_verdict(const struct ndp_evaluator *ev,
                                        const struct ndp_hit *h,
                                        const struct ndp_resolution *c,
                                        struct ndp_buf *msg)
{
    struct ndp_buf gate = NDP_BUF_INIT;
    enum ndp_verdict gated = gated_verdict(c, &gate);

    ndp_buf_release(&gate);
    ndp_buf_adds(msg, "; bundled with an upgrade in the same change (");
    describe_upgrade(msg, bundled_upgrade(ev, h));
    if (gated == NDP_VERDICT_ALLOWED) {
        ndp_buf_addf(msg, "), which the node disruption policy (%s) would "
                     "have let through anyway", ndp_profile_name(c->profile));
        return NDP_VERDICT_ALLOWED;
    }
    ndp_buf_addf(msg, "), so the node disruption policy (%s) does not gate "
                 "it", ndp_profile_name(c->profile));
    return NDP_VERDICT_BYPASSED;
}

/* A change that reimages only if what the input does not show allows. */
static enum ndp_verdict may_reimage(const struct ndp_evaluator *ev,
                                    struct ndp_buf *msg,
                                    const struct ndp_hit *h,
                                    const char *why)
{
    const struct ndp_change *ch = ev->set->items[h->change];

    ndp_buf_adds(msg, why);
    describe_target(ev, msg, h);
    if (ev->resolved->items[ch->cluster].frozen_now)
        ndp_buf_adds(msg, "; the cluster is frozen now, so AKS refuses the "
                     "update if the value turns out to change");
    return NDP_VERDICT_MAY_REIMAGE;
}

/*
 * Does the cluster's own Kubernetes version change 'ch' makes roll pools?
 * azurerm sends kubernetes_version alone, a control-plane-only upgrade
 * (put-time-limits PT-K8S-06); an ARM body moves every pool whose
 * orchestratorVersion it leaves out (or that lists none).
 */
static bool cluster_upgrade_rolls_pools(const struct ndp_change *ch)
{
    size_t i, named = 0;

    if (ch->notation == NDP_NOTATION_AZURERM)
        return false;
    for (i = 0; i < ch->facts.nr_pools; i++) {
        const struct ndp_pool_facts *p = &ch->facts.pools[i];
        /* A what-if delta's unnamed element says nothing of the rest. */
        if (!p->name)
            continue;
        named++;
        if (!p->deleted && !p->version_pinned)
            return true;
    }
    return named == 0;
}

/*
 * An upgrade: never gated, it rolls the nodes of the pools it moves
 * (spec: put-time-limits, settled readings); the impact sizes the
 * rollout.  A cluster's version alone may move the control plane only.
 */
/*
 * What is not known of an upgrade: its new version (known only after
 * apply) or the one it replaces (a setter's first apply), or NULL.  Either
 * way it is an upgrade if anything, never a reimage the policy gates.
 */
static const char *upgrade_unknown(const struct ndp_evaluator *ev,
                                   const struct ndp_hit *h)
{
    if (h->after_unknown)
        return "the new version is known only after apply; if it differs, "
               "this is ";
    if (h->before_unknown)
        return ev->set->items[h->change]->kind == NDP_KIND_NODEPOOL
                   ? "this setter is applied for the first time and the "
                     "pool's current version is not in the input; if it "
                     "differs, this is "
                   : "this setter is applied for the first time and the "
                     "cluster's current version is not in the input; if it "
                     "differs, this is ";
    return NULL;
}

static enum ndp_verdict rollout_verdict(const struct ndp_evaluator *ev,
                                        const struct ndp_hit *h,
                                        const struct ndp_resolution *c,
                                        struct ndp_buf *msg)
{
    const struct ndp_change *ch = ev->set->items[h->change];
    const char *unknown = upgrade_unknown(ev, h);

    if (unknown)
        ndp_buf_adds(msg, unknown);
    ndp_buf_adds(msg, "an upgrade, which the node disruption policy never "
                 "gates: ");
    if (h->rule->scope == NDP_SCOPE_NODEPOOL && h->pool)
        ndp_buf_addf(msg, "AKS rolls every node of node pool '%s', one "
                     "surge batch at a time", shown_pool(ev, h));
    else if (h->rule->scope == NDP_SCOPE_NODEPOOL)
        ndp_buf_adds(msg, "AKS rolls every node of the node pool, one surge "
                     "batch at a time");
    else if (ch->notation == NDP_NOTATION_AZURERM)
        ndp_buf_adds(msg, "azurerm sends kubernetes_version alone, so AKS "
                     "upgrades the control plane only; a pool's nodes roll "
                     "when its orchestrator_version changes");
    else if (cluster_upgrade_rolls_pools(ch))
        ndp_buf_adds(msg, "AKS upgrades the control plane, then rolls every "
                     "node of the pools whose orchestratorVersion the body "
                     "leaves out, one surge batch at a time");
    else
        ndp_buf_adds(msg, "AKS upgrades the control plane; every pool of "
                     "the body names its orchestratorVersion, and a pool's "
                     "nodes roll only when that changes");
    describe_freeze(msg, c);
    return NDP_VERDICT_ROLLOUT;
}

static enum ndp_verdict hit_verdict(const struct ndp_evaluator *ev,
                                    const struct ndp_hit *h,
                                    const struct ndp_resolution *c,
                                    struct ndp_buf *msg)
{
    int minor = -1;
    const char *version = NULL;
    bool version_sensitive = false;
    enum ndp_verdict verdict;

    ndp_buf_addf(msg, "%s: ", h->rule->title);
    if (h->rule->class_ == NDP_CLASS_ROTATE) {
        ndp_buf_addf(msg, "azurerm replaces every node of %s%s%s through "
                     "temporary_name_for_rotation (according to its "
                     "documentation without cordon and drain); the node "
                     "disruption policy never sees it",
                     h->pool ? "node pool '" : "the node pool",
                     h->pool ? shown_pool(ev, h) : "", h->pool ? "'" : "");
        if (h->after_unknown)
            return NDP_VERDICT_MAY_REIMAGE;
        describe_freeze(msg, c);
        return NDP_VERDICT_ROTATE;
    }
    if (h->rule->class_ == NDP_CLASS_VERSION_GATED) {
        version = hit_version(ev, h, &version_sensitive);
        minor = ndp_k8s_minor(version);
    }
    /* An upgrade is never gated, known or not (settled reading). */
    if (h->rule->class_ == NDP_CLASS_UPGRADE)
        return rollout_verdict(ev, h, c, msg);
    if (h->after_unknown)
        return may_reimage(ev, msg, h, "the new value is known only after "
                           "apply; if it changes this way, it ");
    if (h->context_unseen)
        return may_reimage(ev, msg, h, "what-if shows only the delta of "
                           "this change, without the unchanged properties "
                           "this rule depends on; if they are what it "
                           "needs, the change ");
    if (h->before_unknown)
        return may_reimage(ev, msg, h,
                           ev->set->items[h->change]->kind ==
                                   NDP_KIND_NODEPOOL
                               ? "this setter is applied for the first time "
                                 "and the pool's current value is not in the "
                                 "input; if it differs, the change "
                               : "this setter is applied for the first time "
                                 "and the cluster's current value is not in "
                                 "the input; if it differs, the change ");
    describe_target(ev, msg, h);
    if (bundled_upgrade(ev, h))
        return bundled_verdict(ev, h, c, msg);
    if (h->rule->class_ == NDP_CLASS_VERSION_GATED && minor >= 0 &&
        minor < NDP_FIRST_GATED_MINOR) {
        ndp_buf_addf(msg, "; on Kubernetes %s it is not gated and takes "
                     "effect only after 'az aks nodepool upgrade "
                     "--node-image-only', which the policy does not gate "
                     "(from 1.37 the policy gates it)",
                     version_sensitive ? "1.36 or earlier (the version is "
                                         "sensitive)" : version);
        return NDP_VERDICT_MANUAL_UPGRADE;
    }
    if (h->rule->class_ == NDP_CLASS_VERSION_GATED && minor < 0)
        /* Unknown version: judge it as 1.37+ would, and say so. */
        ndp_buf_adds(msg, "; the Kubernetes version is not in the input, so "
                     "it is judged as on 1.37 and later, where the policy "
                     "gates it (on 1.36 and earlier it would need "
                     "'az aks nodepool upgrade --node-image-only')");
    verdict = gated_verdict(c, msg);
    if (c->profile_note)
        ndp_buf_addf(msg, " (%s)", c->profile_note);
    return verdict;
}

/*
 * The pools a hit rebuilds: its own pool for a pool setting, every pool
 * for a cluster setting, the Windows pools for a category whose rule file
 * says so ("pools": "windows", as gMSA's); a cluster's
 * upgrade, the pools it moves (none for the control plane alone).
 */
static enum ndp_finding_pools hit_pools(const struct ndp_evaluator *ev,
                                        const struct ndp_hit *h)
{
    const struct ndp_rule *rule = h->rule;

    if (rule->pools == NDP_RULE_POOLS_WINDOWS)
        return NDP_POOLS_WINDOWS;
    if (rule->scope == NDP_SCOPE_NODEPOOL)
        return NDP_POOLS_NAMED;
    if (rule->class_ == NDP_CLASS_UPGRADE &&
        !cluster_upgrade_rolls_pools(ev->set->items[h->change]))
        return NDP_POOLS_NONE;
    return NDP_POOLS_ALL;
}

/*
 * The version live state says the upgrade's cluster (its pool, for a
 * pool's) runs, or NULL.
 */
static const char *state_version(const struct ndp_state_cluster *st,
                                 const struct ndp_hit *h)
{
    size_t i;

    if (!st)
        return NULL;
    if (h->rule->scope != NDP_SCOPE_NODEPOOL)
        return st->version;
    for (i = 0; h->pool && i < st->nr_pools; i++)
        if (st->pools[i].name &&
            ndp_strcasecmp(st->pools[i].name, h->pool) == 0)
            return st->pools[i].version;
    return NULL;
}

/*
 * A setter's first apply whose old version is not in the input, sending
 * the version live state says runs (or its minor's alias): no upgrade at
 * all (PT-K8S-02), so no finding.
 */
static bool upgrade_already_running(const struct ndp_hit *h,
                                    const struct ndp_resolution *c)
{
    struct ndp_k8s_version sent, running;
    enum ndp_k8s_order order;

    if (h->rule->class_ != NDP_CLASS_UPGRADE || !h->before_unknown ||
        h->after_unknown || h->after_sensitive || !h->after ||
        !json_object_is_type(h->after, json_type_string) ||
        !ndp_k8s_version_parse(&sent, json_object_get_string(
                                          ndp_json_unconst(h->after))) ||
        !ndp_k8s_version_parse(&running, state_version(c->state, h)))
        return false;
    order = ndp_k8s_version_order(&sent, &running);
    return order == NDP_K8S_SAME ||
           (order == NDP_K8S_SAME_MINOR && sent.patch < 0);
}

static void hit_finding(const struct ndp_evaluator *ev, const struct ndp_hit *h)
{
    const struct ndp_change *ch = ev->set->items[h->change];
    const struct ndp_resolution *c = &ev->resolved->items[ch->cluster];
    struct ndp_buf msg = NDP_BUF_INIT;
    struct ndp_finding_spec spec = {
        .rule = h->rule,
        .scope = h->rule->scope,
        .pools = hit_pools(ev, h),
        .input = ch->input,
        .cluster_index = ch->cluster,
        .resource = ch->address,
        .path = h->path,
        .pool = h->pool,
        .line = ch->line,
    };
    char *before, *after;

    if (!ndp_rule_class_watches(h->rule->class_) ||
        upgrade_already_running(h, c))
        return;
    /* gMSA reimages Windows pools only: none, nothing is rebuilt. */
    if (spec.pools == NDP_POOLS_WINDOWS && state_has_no_windows_pool(c->state))
        return;
    spec.verdict = hit_verdict(ev, h, c, &msg);
    ndp_emit_deferred(&msg, ch);
    before = h->before_unknown
                 ? ndp_xstrdup("\"(current value not in the input)\"")
                 : ndp_emit_json_value(h->before, h->before_sensitive, false, h->rule);
    after = ndp_emit_json_value(h->after, h->after_sensitive, h->after_unknown,
                       h->rule);
    spec.before = before;
    spec.after = after;
    spec.message = msg.buf;
    ndp_emit(ev, &spec);
    free(before);
    free(after);
    ndp_buf_release(&msg);
}

/*
 * A cluster whose reimaging changes were judged under the AKS default
 * only because nothing declared its profile gets one note saying so, and
 * how to declare it: without it, a freeze is invisible to ndplint.
 */
static void undeclared_findings(const struct ndp_evaluator *ev)
{
    size_t nr = ev->out->nr, i, k, *counts;
    struct ndp_buf msg = NDP_BUF_INIT;

    counts = ndp_xcalloc(ev->clusters->nr ? ev->clusters->nr : 1,
                         sizeof(*counts));
    for (i = 0; i < nr; i++)
        if (ndp_verdict_row(ev->out->items[i].verdict)->reimages)
            counts[ev->out->items[i].cluster_index]++;
    for (k = 0; k < ev->clusters->nr; k++) {
        const struct ndp_cluster *c = &ev->clusters->items[k];
        const struct ndp_resolution *r = &ev->resolved->items[k];
        struct ndp_finding_spec spec = {
            .verdict = NDP_VERDICT_PROFILE_UNDECLARED,
            .scope = NDP_SCOPE_CLUSTER,
            .input = c->input,
            .cluster_index = k,
            .resource = c->id,
        };

        if (!counts[k] || strcmp(r->profile_source, "default") != 0)
            continue;
        if (c->change < ev->set->nr)
            spec.line = ev->set->items[c->change]->line;
        ndp_buf_reset(&msg);
        ndp_buf_addf(&msg, "nothing declares this cluster's node disruption "
                     "policy, so its %zu reimaging change%s %s judged under "
                     "the AKS default, %s, which refuses nothing; declare "
                     "the profile in force in the settings file (\"profile\", "
                     "or a clusters[] entry matching the cluster), with "
                     "--profile, with --cluster-state (az aks show), or in "
                     "the plan with an azapi_update_resource that sets "
                     "properties.nodeDisruptionProfile.nodeDisruptionPolicy",
                     counts[k], counts[k] == 1 ? "" : "s",
                     counts[k] == 1 ? "is" : "are",
                     ndp_profile_name(r->profile));
        spec.message = msg.buf;
        ndp_emit(ev, &spec);
    }
    ndp_buf_release(&msg);
    free(counts);
}

void ndp_verdicts_add(const struct ndp_evaluator *ev)
{
    size_t i;

    for (i = 0; i < ev->clusters->nr; i++) {
        ev->resolved->items[i].frozen_now =
            frozen_now(&ev->resolved->items[i]);
        cluster_findings(ev, i);
    }
    for (i = 0; i < ev->set->nr; i++) {
        replace_finding(ev, ev->set->items[i]);
        unseen_finding(ev, ev->set->items[i]);
    }
    for (i = 0; i < ev->hits->nr; i++)
        hit_finding(ev, &ev->hits->items[i]);
    undeclared_findings(ev);
}

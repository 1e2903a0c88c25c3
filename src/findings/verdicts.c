/*
 * SPDX-License-Identifier: Apache-2.0
 * verdicts.c - the verdict table (see verdicts.h) and the severity names.
 *
 * Architecture §5 in rows: a change that disrupts nodes whatever the
 * policy says (bypassed, rotate, replace) is an error while the cluster is
 * frozen now and a warning otherwise; the rest keep one severity.
 */
#include "common.h"
#include "verdicts.h"
#include "rules.h"

#define FROZEN_WORDS                                                          \
    "an error while the cluster is frozen now (Block, or "                    \
    "AllowDuringMaintenanceWindow outside the window), a warning otherwise"

#define POLICY_FOR_CHANGE                                                     \
    "change the policy for the change ('az aks update "                       \
    "--node-disruption-policy Allow', apply, then restore)"

static const struct ndp_verdict_row rows[NDP_VERDICT_COUNT] = {
    [NDP_VERDICT_REJECTED] = {
        .name = "rejected",
        .severity = NDP_SEVERITY_ERROR,
        .frozen_severity = NDP_SEVERITY_ERROR,
        .refused = true,
        .classes = NDP_CLASS_BIT(NDP_CLASS_COVERED),
        .class_words = "rejected (error) under Block",
        .means = "a change that reimages nodes, on a cluster whose node "
                 "disruption policy is Block: AKS refuses the update and the "
                 "apply fails.",
        .when_frozen = "error",
        .otherwise = "does not arise (Block is always frozen)",
        .todo = "Leave the change out of this apply, or " POLICY_FOR_CHANGE
                "; plan for every affected node to be drained and rebuilt.",
    },
    [NDP_VERDICT_OUTSIDE_WINDOW] = {
        .name = "outside-window",
        .severity = NDP_SEVERITY_ERROR,
        .frozen_severity = NDP_SEVERITY_ERROR,
        .refused = true,
        .classes = NDP_CLASS_BIT(NDP_CLASS_COVERED),
        .class_words = "outside-window (error) under "
                       "AllowDuringMaintenanceWindow outside the "
                       "aksManagedNodeOSUpgradeSchedule window",
        .means = "a change that reimages nodes, under "
                 "AllowDuringMaintenanceWindow while the "
                 "aksManagedNodeOSUpgradeSchedule window is closed: AKS "
                 "refuses the update and the apply fails.",
        .when_frozen = "error",
        .otherwise = "does not arise (inside the window the change is "
                     "allowed)",
        .todo = "Apply it inside the next window (the report names when it "
                "opens), or " POLICY_FOR_CHANGE "; plan for every affected "
                "node to be drained and rebuilt.",
    },
    [NDP_VERDICT_ALLOWED] = {
        .name = "allowed",
        .severity = NDP_SEVERITY_NOTE,
        .frozen_severity = NDP_SEVERITY_NOTE,
        .reimages = true,
        .rebuilds_now = true,
        .lets_through = true,
        .classes = NDP_CLASS_BIT(NDP_CLASS_COVERED),
        .class_words = "allowed (note) otherwise",
        .means = "a change that reimages nodes and that the policy lets "
                 "through (Allow, or inside the window): the apply rebuilds "
                 "the affected node pools.",
        .when_frozen = "does not arise (a frozen cluster refuses it)",
        .otherwise = "note",
        .todo = "Nothing blocks it; expect a rolling rebuild of the affected "
                "pools, one surge batch at a time, and the loss of "
                "node-local data (emptyDir, hostPath).",
    },
    [NDP_VERDICT_BYPASSED] = {
        .name = "bypassed",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_ERROR,
        .reimages = true,
        .rebuilds_now = true,
        .refused_when_frozen = true,
        .classes = NDP_CLASS_BIT(NDP_CLASS_COVERED),
        .class_words = "bypassed (error) when the policy would refuse it but "
                       "the same change upgrades Kubernetes or the node "
                       "image",
        .means = "a change the policy would refuse, bundled with a "
                 "Kubernetes version or node image upgrade in the same "
                 "resource change: the upgrade is not gated, so the nodes "
                 "are rebuilt anyway, freeze or not.",
        .when_frozen = "error",
        .otherwise = "does not arise (the change is allowed)",
        .todo = "Split the change from the upgrade and apply it when the "
                "policy allows it, or accept that the frozen cluster's nodes "
                "are rebuilt now.",
    },
    [NDP_VERDICT_MAY_REIMAGE] = {
        .name = "may-reimage",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_ERROR,
        .reimages = true,
        .rebuilds_now = true,
        .refused_when_frozen = true,
        .depends_on_unknown = true,
        .classes = NDP_CLASS_BIT(NDP_CLASS_COVERED),
        .class_words = "may-reimage (warning) when the new value is known "
                       "only after apply",
        .meta_category = "unseen-change",
        .meta_id = "NDP004",
        .means = "the new value is known only after apply and the old one "
                 "can start a reimaging change; or what-if did not show the "
                 "change's properties.",
        .when_frozen = "error (AKS refuses it if the value turns out to "
                       "change, and an unknown value is the cheapest way to "
                       "hide one)",
        .otherwise = "warning",
        .todo = "Find out the value the apply will set (or run what-if with "
                "full properties) and run ndplint again.",
    },
    [NDP_VERDICT_MANUAL_UPGRADE] = {
        .name = "manual-upgrade",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_WARNING,
        .reimages = true,
        .classes = NDP_CLASS_BIT(NDP_CLASS_VERSION_GATED),
        .class_words = "manual-upgrade (warning) on Kubernetes 1.36 and "
                       "earlier",
        .means = "a change that on Kubernetes 1.36 and earlier takes effect "
                 "only at the next node-image upgrade, which the policy does "
                 "not gate.",
        .when_frozen = "warning",
        .otherwise = "warning",
        .todo = "Schedule the node-image upgrade ('az aks nodepool upgrade "
                "--node-image-only') for when the rebuild is acceptable.",
    },
    [NDP_VERDICT_REPLACE] = {
        .name = "replace",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_ERROR,
        .reimages = true,
        .refused_when_frozen = true,
        .meta_category = "replace",
        .meta_id = "NDP003",
        .rule_words = "Verdict: replace, which the node disruption policy "
                      "never gates: " FROZEN_WORDS ".",
    },
    [NDP_VERDICT_ROTATE] = {
        .name = "rotate",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_ERROR,
        .reimages = true,
        .rebuilds_now = true,
        .recreates_pools = true,
        .refused_when_frozen = true,
        .classes = NDP_CLASS_BIT(NDP_CLASS_ROTATE),
        .class_words = "rotate, which the node disruption policy never "
                       "gates: " FROZEN_WORDS,
    },
    [NDP_VERDICT_GATE_OPEN] = {
        .name = "gate-open",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_WARNING,
        .meta_category = "gate-open",
        .meta_id = "NDP001",
    },
    [NDP_VERDICT_WINDOW_INVALID] = {
        .name = "window-invalid",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_WARNING,
        .meta_category = "window-invalid",
        .meta_id = "NDP002",
        .rule_words = "Verdict: window-invalid (warning) for a window read "
                      "from the plan's before side, live state or the "
                      "settings file; refused (error) when the change sends "
                      "the window (creates it, sets it, or sends it again in "
                      "a whole azapi body): AKS refuses that PUT.",
    },
    [NDP_VERDICT_FREEZE_WITHOUT_END] = {
        .name = "freeze-without-end",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_WARNING,
        .meta_category = "freeze-without-end",
        .meta_id = "NDP006",
    },
    [NDP_VERDICT_WAIVER_EXPIRED] = {
        .name = "waiver-expired",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_WARNING,
        .meta_category = "waiver-expired",
        .meta_id = "NDP005",
    },
    [NDP_VERDICT_PROFILE_UNDECLARED] = {
        .name = "profile-undeclared",
        .severity = NDP_SEVERITY_NOTE,
        .frozen_severity = NDP_SEVERITY_NOTE,
        .meta_category = "profile-undeclared",
        .meta_id = "NDP007",
        .rule_words = "Verdict: profile-undeclared (note), once for each "
                      "cluster whose reimaging changes are judged under the "
                      "AKS default because nothing declares its profile.",
    },
    [NDP_VERDICT_IGNORE_WITHOUT_REASON] = {
        .name = "ignore-without-reason",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_WARNING,
        .meta_category = "ignore-without-reason",
        .meta_id = "NDP008",
    },
    [NDP_VERDICT_WINDOW_OVERRUN] = {
        .name = "window-overrun",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_WARNING,
        .meta_category = "window-overrun",
        .meta_id = "NDP009",
        .rule_words = "Verdict: window-overrun (warning), once for each "
                      "cluster whose reimaging changes go through inside its "
                      "aksManagedNodeOSUpgradeSchedule window (allowed under "
                      "AllowDuringMaintenanceWindow) when their worst-case "
                      "rebuild is longer than the time left in the window at "
                      "--at: per pool ceil(nodes / surge nodes) batches (an "
                      "autoscaled pool at its maximum), each up to the drain "
                      "timeout (default 30 minutes) plus the node soak time "
                      "(default 0), the pools one after another.",
    },
    [NDP_VERDICT_ROLLOUT] = {
        .name = "rollout",
        .severity = NDP_SEVERITY_NOTE,
        .frozen_severity = NDP_SEVERITY_WARNING,
        .reimages = true,
        .rebuilds_now = true,
        .lets_through = true,
        .upgrade = true,
        .means = "a Kubernetes version or node image upgrade of a cluster "
                 "or pool: the node disruption policy does not gate it, and "
                 "AKS rolls every node of the pools it upgrades, one surge "
                 "batch at a time.",
        .when_frozen = "warning (the operator froze the cluster, and "
                       "nothing but this check stops the upgrade)",
        .otherwise = "note",
        .todo = "Apply it when a rolling rebuild of the pools is acceptable "
                "(inside the maintenance window, with the surge settings "
                "sized for it), or leave the version unchanged.",
        .classes = NDP_CLASS_BIT(NDP_CLASS_UPGRADE),
        .class_words = "rollout, which the node disruption policy never "
                       "gates: a note, a warning while the cluster is frozen "
                       "now (Block, or AllowDuringMaintenanceWindow outside "
                       "the window); covered changes in the same resource "
                       "change are bypassed",
    },
    [NDP_VERDICT_REFUSED] = {
        .name = "refused",
        .severity = NDP_SEVERITY_ERROR,
        .frozen_severity = NDP_SEVERITY_ERROR,
        .blocks_apply = true,
        .classes = NDP_CLASS_BIT(NDP_CLASS_CHECK),
        .class_words = "refused (error) when AKS or azurerm refuses the "
                       "change as the apply sends it, whatever the policy "
                       "and the time",
        .means = "a change AKS or azurerm refuses when the apply sends it "
                 "(a version path, an upgrade setting, a maintenance "
                 "configuration, a rotation without its temporary name), "
                 "whatever the node disruption policy and the time: the "
                 "apply fails at that resource, possibly after earlier "
                 "calls of the same resource went through.",
        .when_frozen = "error",
        .otherwise = "error",
        .todo = "Change the plan as the message says (for example upgrade "
                "one minor version at a time, set temporary_name_for_"
                "rotation, widen the window) and run ndplint again.",
    },
    [NDP_VERDICT_MAY_REFUSE] = {
        .name = "may-refuse",
        .severity = NDP_SEVERITY_WARNING,
        .frozen_severity = NDP_SEVERITY_WARNING,
        .classes = NDP_CLASS_BIT(NDP_CLASS_CHECK),
        .class_words = "may-refuse (warning) where the refusal is inferred "
                       "or unconfirmed",
        .means = "a change AKS probably refuses when the apply sends it, "
                 "where the refusal is inferred or unconfirmed (the "
                 "message says which).",
        .when_frozen = "warning",
        .otherwise = "warning",
        .todo = "Check the change against what the message names (az aks "
                "get-upgrades, the AKS documents it cites), or change it as "
                "it says.",
    },
    [NDP_VERDICT_ADVISORY] = {
        .name = "advisory",
        .severity = NDP_SEVERITY_NOTE,
        .frozen_severity = NDP_SEVERITY_NOTE,
        .classes = NDP_CLASS_BIT(NDP_CLASS_CHECK),
        .class_words = "advisory (note) where it only says what AKS will do",
        .means = "AKS accepts the change, but it does something a platform "
                 "team may not expect (a window that no longer governs "
                 "updates, an update cadence); nothing is refused.",
        .when_frozen = "note",
        .otherwise = "note",
        .todo = "Read the message and decide whether the behaviour it "
                "describes is the one you want.",
    },
};

const struct ndp_verdict_row *ndp_verdict_row(enum ndp_verdict verdict)
{
    if ((unsigned)verdict >= NDP_VERDICT_COUNT)
        NDP_BUG("no such verdict");
    return &rows[verdict];
}

const char *ndp_verdict_name(enum ndp_verdict verdict)
{
    return ndp_verdict_row(verdict)->name;
}

const char *ndp_verdict_choice(size_t i)
{
    return i < NDP_ARRAY_SIZE(rows) ? rows[i].name : NULL;
}

int ndp_verdict_parse(const char *name)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++)
        if (strcmp(name, rows[i].name) == 0)
            return (int)i;
    return -1;
}

enum ndp_severity ndp_verdict_severity(enum ndp_verdict verdict,
                                       bool frozen_now)
{
    const struct ndp_verdict_row *row = ndp_verdict_row(verdict);

    return frozen_now ? row->frozen_severity : row->severity;
}

bool ndp_verdict_refused_now(enum ndp_verdict verdict, bool frozen_now)
{
    const struct ndp_verdict_row *row = ndp_verdict_row(verdict);

    return row->refused || (frozen_now && row->refused_when_frozen);
}

int ndp_verdict_of_meta(const char *category)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++)
        if (rows[i].meta_category &&
            strcmp(category, rows[i].meta_category) == 0)
            return (int)i;
    return -1;
}

const struct ndp_rule *ndp_verdict_meta_rule(const struct ndp_ruleset *rs,
                                             enum ndp_verdict verdict)
{
    const char *category = ndp_verdict_row(verdict)->meta_category;

    return rs && category ? ndp_ruleset_meta(rs, category) : NULL;
}

static const char *const severity_names[] = { "error", "warning", "note",
                                              "never" };

const char *ndp_severity_name(enum ndp_severity severity)
{
    return severity_names[severity];
}

const char *ndp_severity_choice(size_t i)
{
    return i < NDP_ARRAY_SIZE(severity_names) ? severity_names[i] : NULL;
}

int ndp_severity_parse(const char *name)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(severity_names); i++)
        if (strcmp(name, severity_names[i]) == 0)
            return (int)i;
    return -1;
}

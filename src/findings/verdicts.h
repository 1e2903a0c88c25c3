/*
 * SPDX-License-Identifier: Apache-2.0
 * verdicts.h - the verdict table (architecture §5): one row per verdict
 * with everything the rest of the program knows about it, its name, its
 * severities, what applying a change with that verdict does to nodes, the
 * meta rule its findings come from and its --explain words.
 *
 * Every predicate about a verdict reads its row, so adding a verdict is
 * one row in verdicts.c plus its tests and docs; no other file names a
 * verdict to ask what it means.  The evaluator (src/evaluate/) decides
 * which verdict a change gets; everything after it reads the flags.
 */
#ifndef NDP_VERDICTS_H
#define NDP_VERDICTS_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h" /* enum ndp_rule_class */

enum ndp_verdict {
    NDP_VERDICT_REJECTED,
    NDP_VERDICT_OUTSIDE_WINDOW,
    NDP_VERDICT_ALLOWED,
    NDP_VERDICT_BYPASSED,
    NDP_VERDICT_MAY_REIMAGE,
    NDP_VERDICT_MANUAL_UPGRADE,
    NDP_VERDICT_REPLACE,
    NDP_VERDICT_ROTATE,
    NDP_VERDICT_GATE_OPEN,
    NDP_VERDICT_WINDOW_INVALID,
    NDP_VERDICT_FREEZE_WITHOUT_END,
    NDP_VERDICT_WAIVER_EXPIRED,
    NDP_VERDICT_PROFILE_UNDECLARED,
    NDP_VERDICT_IGNORE_WITHOUT_REASON,
    NDP_VERDICT_WINDOW_OVERRUN,
    NDP_VERDICT_ROLLOUT,
    NDP_VERDICT_REFUSED,
    NDP_VERDICT_MAY_REFUSE,
    NDP_VERDICT_ADVISORY,
    NDP_VERDICT_COUNT /* not a verdict: the number of rows */
};

/* A class of rule (enum ndp_rule_class) as a bit of a row's 'classes'. */
#define NDP_CLASS_BIT(class_) (1u << (unsigned)(class_))

/* Ordered from most to least severe. */
enum ndp_severity {
    NDP_SEVERITY_ERROR,
    NDP_SEVERITY_WARNING,
    NDP_SEVERITY_NOTE,
    NDP_SEVERITY_NEVER /* only as a --fail-on threshold */
};

/*
 * One verdict.  Rows are static; every string is a literal.
 *
 * A cluster is frozen now when its profile is Block, or
 * AllowDuringMaintenanceWindow outside its window (architecture §5): the
 * operator has said "no node disruption now".
 */
struct ndp_verdict_row {
    const char *name;                  /* as every report prints it */
    enum ndp_severity severity;        /* while the cluster is not frozen */
    enum ndp_severity frozen_severity; /* while it is frozen now */
    /* Applying the change rebuilds or may rebuild nodes, now or at the
     * next node-image upgrade (what the profile-undeclared note counts,
     * and what a SARIF result attaches its cluster's impact to). */
    bool reimages;
    /* Applying it rebuilds the pools the finding names: the impact marks
     * them rebuilt and sizes the rollout. */
    bool rebuilds_now;
    /* Applying it creates the pools it names anew at full size beside
     * the old ones (an azurerm rotation): the impact counts each whole
     * pool as extra nodes at the peak, and no surge batches. */
    bool recreates_pools;
    /* AKS refuses the apply: nothing is rebuilt now, but the pools it
     * would rebuild are marked touched (what --window-check sizes). */
    bool refused;
    /* Nothing refuses it, but it disrupts nodes the operator froze: it
     * counts as refused while the cluster is frozen now. */
    bool refused_when_frozen;
    /* It goes through now: the node disruption policy lets it (inside the
     * window, or under Allow), or does not gate it (an upgrade):
     * window-overrun holds its rollout against the window. */
    bool lets_through;
    /* AKS or azurerm refuses the apply at this change whatever the time:
     * no window helps, the plan must change. */
    bool blocks_apply;
    /* It depends on a value known only after apply (or a change what-if
     * does not show): whether it reimages is not known before the apply,
     * so no "apply now" is promised while it stands. */
    bool depends_on_unknown;
    /* It is an upgrade the policy never gates, a node rollout of its own
     * (what the Markdown report counts as rollouts). */
    bool upgrade;
    /* The classes of rule (NDP_CLASS_BIT()) whose hits the evaluator
     * gives this verdict, and the verdict's clause in what --explain says
     * of such a rule ("rejected (error) under Block"): "Verdicts: " and
     * the clauses of the class's rows in table order, joined by "; ", or
     * "Verdict: " and the one. */
    unsigned classes;
    const char *class_words;
    /* The meta rule whose findings carry this verdict (its category, and
     * its id for a rule set that lacks it), or NULL. */
    const char *meta_category, *meta_id;
    /* --explain VERDICT: what it means, its severity in words while frozen
     * now and otherwise, what to do; NULL when the verdict is explained
     * with its category. */
    const char *means, *when_frozen, *otherwise, *todo;
    /* --explain of the meta rule whose findings carry this verdict: the
     * verdict in one paragraph, or NULL for the words every meta rule
     * without its own gets. */
    const char *rule_words;
};

/* The row of 'verdict' (a valid enum value); static. */
const struct ndp_verdict_row *ndp_verdict_row(enum ndp_verdict verdict);
const char *ndp_verdict_name(enum ndp_verdict verdict);
/* Parses a verdict name ("may-reimage"); -1 if unknown. */
int ndp_verdict_parse(const char *name);
/*
 * The name of the 'i'th verdict in table order, or NULL past the last: for
 * messages that list every verdict (ndp_buf_add_names()).
 */
const char *ndp_verdict_choice(size_t i);

/* The severity of 'verdict' on a cluster frozen now or not. */
enum ndp_severity ndp_verdict_severity(enum ndp_verdict verdict,
                                       bool frozen_now);

/*
 * Refused now: AKS refuses it, or it disrupts the nodes of a cluster that
 * is frozen now (bypassed, rotate, replace while frozen).  What "when can
 * this apply?" waits for, and what the evaluator gives advice for.
 */
bool ndp_verdict_refused_now(enum ndp_verdict verdict, bool frozen_now);

/*
 * The verdict the findings of meta rule category 'category' carry, or -1
 * when no row names it.
 */
int ndp_verdict_of_meta(const char *category);

/*
 * The meta rule of 'verdict' in 'rs' (borrowed), or NULL when the verdict
 * has none or 'rs' (may be NULL) lacks it.
 */
const struct ndp_rule *ndp_verdict_meta_rule(const struct ndp_ruleset *rs,
                                             enum ndp_verdict verdict);

const char *ndp_severity_name(enum ndp_severity severity);
/* Parses "error", "warning", "note", "never"; -1 if unknown. */
int ndp_severity_parse(const char *name);
/*
 * The 'i'th --fail-on level, from "error" to "never", or NULL past the
 * last: for help texts and error messages that list the choices.
 */
const char *ndp_severity_choice(size_t i);

#endif

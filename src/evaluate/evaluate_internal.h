/*
 * SPDX-License-Identifier: Apache-2.0
 * evaluate_internal.h - what the evaluator's stages share (evaluate.c,
 * resolve.c, resolve_window.c, verdict.c, overrun.c and the checks:
 * check_versions.c, check_upgrade.c, check_pools.c, check_maintenance.c);
 * no other file includes it.
 *
 * evaluate.c builds one struct ndp_evaluator per run and frees its
 * tables; the stages borrow it.  Every pointer in it is borrowed from the
 * caller of ndp_judge() except the tables, which live as long as the run.
 */
#ifndef NDP_EVALUATE_INTERNAL_H
#define NDP_EVALUATE_INTERNAL_H

#ifndef NDP_INSIDE_EVALUATE
#error "evaluate_internal.h is internal to src/evaluate/ and its tests"
#endif

#include <stdbool.h>
#include <stddef.h>

#include "change.h"
#include "evaluate.h"
#include "finding.h"

struct ndp_buf;
struct ndp_clusters;
struct ndp_findings;
struct ndp_hit;
struct ndp_hits;
struct ndp_impacts;
struct ndp_rule;
struct ndp_ruleset;

struct ndp_evaluator {
    struct ndp_findings *out;           /* verdict.c appends here */
    const struct ndp_clusters *clusters;
    struct ndp_resolutions *resolved;   /* resolve.c fills it */
    const struct ndp_changeset *set;
    const struct ndp_hits *hits;
    const struct ndp_ruleset *rs;
    const struct ndp_eval_options *opt;
    /* per change: its first known upgrade hit (a new version or node
     * image), or NULL */
    const struct ndp_hit **upgrades;
    /* the changes of cluster c: by_cluster[at[c]] .. by_cluster[at[c+1]-1] */
    size_t *by_cluster, *at;
    /* per change: its pools are under a sensitive mask (read once: a
     * mask can be as long as the input) */
    bool *pools_masked;
    /* the changes by input and address: the line of a finding's resource */
    struct ndp_change_index changes;
};

/* The 'k'th change of cluster 'c', or NULL past the last. */
static inline const struct ndp_change *
ndp_evaluator_change(const struct ndp_evaluator *ev, size_t c, size_t k)
{
    return ev->at[c] + k < ev->at[c + 1]
               ? ev->set->items[ev->by_cluster[ev->at[c] + k]] : NULL;
}

/*
 * resolve.c: fills ev->resolved (empty on entry) with one resolution per
 * cluster: live state, profile, window and version.
 */
void ndp_resolve_clusters(const struct ndp_evaluator *ev);

/*
 * The Kubernetes version 'ch' declares (a pool resource's orchestrator
 * version), before the change, else the one it asks for; NULL when none.
 * '*sensitive' says whether a mask covers it.  Borrowed from 'ch'.
 */
const char *ndp_resolve_change_version(const struct ndp_change *ch,
                                       bool *sensitive);

/* resolve_window.c: the window in force for cluster 'index'. */
void ndp_resolve_window(const struct ndp_evaluator *ev, size_t index);

/*
 * verdict.c: appends to ev->out the findings about each cluster, each
 * replaced or unseen change, and a verdict for every hit.
 */
void ndp_verdicts_add(const struct ndp_evaluator *ev);

/*
 * verdict.c: appends to ev->out the finding 'spec' describes.  The evaluator
 * fills in what it knows of cluster spec->cluster_index: its id, whether
 * it is frozen now, the meta rule of the verdict when 'rule' is NULL, the
 * line of the resource's change when 'line' is 0, and the advice for a
 * change refused now when 'help' is NULL.
 */
void ndp_evaluator_add(const struct ndp_evaluator *ev,
                       struct ndp_finding_spec *spec);

/*
 * check_maintenance.c: appends to ev->out the findings of the maintenance
 * configurations the changes send (NDP801-805) and of the node OS upgrade
 * channel (NDP820-823).
 */
void ndp_check_maintenance(const struct ndp_evaluator *ev);

/*
 * verdict.c: appends to 'msg' that Terraform deferred 'ch' to a later
 * round (spec §11), when it did: every finding about a deferred change
 * says so.
 */
void ndp_evaluator_add_deferred(struct ndp_buf *msg,
                                const struct ndp_change *ch);

/*
 * check_versions.c: appends to ev->out a finding for each Kubernetes
 * version the apply sends off AKS's paths (put-time-limits PT-K8S-01..09),
 * and the long-term support plan without Premium (PT-K8S-08): rules
 * NDP601..NDP612, each skipped when the rule set lacks it.
 */
void ndp_check_versions(const struct ndp_evaluator *ev);

/*
 * check_upgrade.c: appends to ev->out a finding for each upgrade setting
 * AKS refuses in a pool the apply sends, and for each azurerm rotation
 * without temporary_name_for_rotation (put-time-limits PT-UPG, PT-ROT-02).
 */
void ndp_check_upgrade(const struct ndp_evaluator *ev);

/*
 * check_pools.c: appends to ev->out a finding for each cluster the apply
 * leaves without a System pool (NDP714) and each pool a change upgrades
 * whose nodes and surge nodes come to more than 1000 (NDP715).
 */
void ndp_check_pools(const struct ndp_evaluator *ev);

/*
 * check_upgrade.c: appends to ev->out a finding for each subnet of the
 * input too small for the rebuild 'impacts' size (flat Azure CNI,
 * put-time-limits PT-CAP-02).
 */
void ndp_check_subnets(const struct ndp_evaluator *ev,
                       const struct ndp_impacts *impacts);

/*
 * overrun.c: sets in each impact of 'impacts' (sized from ev->out) the
 * minutes left of the window its changes go through in, and appends to
 * ev->out a window-overrun finding for each cluster whose rolling rebuild
 * can outlast that window.
 */
void ndp_overrun_findings(const struct ndp_evaluator *ev,
                          struct ndp_impacts *impacts);

#endif

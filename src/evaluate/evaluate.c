/*
 * SPDX-License-Identifier: Apache-2.0
 * evaluate.c - the evaluator, stage by stage, after the linker and the
 * rule engine (run.c calls them in turn): resolve what is in force for
 * each cluster (resolve.c, resolve_window.c), give every hit a verdict
 * (verdict.c), size each cluster's disruption (impact.c) and hold it
 * against the window it starts in (overrun.c).
 */
#include "common.h"
#include "evaluate.h"
#include "evaluate_internal.h"
#include "change.h"
#include "engine.h"
#include "finding.h"
#include "impact.h"
#include "linker.h"
#include "rules.h"

/*
 * Per change, its first upgrade hit known before apply: what bundles a
 * covered change with an upgrade (verdict.c).
 */
static const struct ndp_hit **find_upgrades(const struct ndp_changeset *set,
                                            const struct ndp_hits *hits)
{
    const struct ndp_hit **upgrades =
        ndp_xcalloc(set->nr ? set->nr : 1, sizeof(*upgrades));
    size_t i;

    for (i = 0; i < hits->nr; i++) {
        const struct ndp_hit *u = &hits->items[i];
        /* An upgrade known only after apply, or whose old version is
         * not in the input, is no proof of a bypass. */
        if (u->rule->class_ == NDP_CLASS_UPGRADE && !u->after_unknown &&
            !u->before_unknown && !upgrades[u->change])
            upgrades[u->change] = u;
    }
    return upgrades;
}

/*
 * The tables every stage reads by change: the changes of each cluster,
 * each change's upgrade hit, whether its pools are masked.
 */
static void index_changes(struct ndp_evaluator *ev)
{
    const struct ndp_changeset *set = ev->set;
    size_t i, *cluster_of = ndp_xcalloc(set->nr ? set->nr : 1,
                                        sizeof(*cluster_of));

    ev->pools_masked = ndp_xcalloc(set->nr ? set->nr : 1,
                                   sizeof(*ev->pools_masked));
    for (i = 0; i < set->nr; i++) {
        cluster_of[i] = set->items[i]->cluster;
        ev->pools_masked[i] = set->items[i]->facts.pools_sensitive;
    }
    ndp_group_indexes(&ev->by_cluster, &ev->at, ev->clusters->nr, set->nr,
                      cluster_of);
    free(cluster_of);
    ev->upgrades = find_upgrades(set, ev->hits);
    ndp_change_index_build(&ev->changes, set, true);
}

static void release_indexes(struct ndp_evaluator *ev)
{
    free(ev->upgrades);
    free(ev->by_cluster);
    free(ev->at);
    free(ev->pools_masked);
    ndp_change_index_release(&ev->changes);
}

/*
 * Each cluster's rebuilt pools, from its findings, its version and its
 * live state.
 */
static void size_impact(struct ndp_impacts *impacts,
                        const struct ndp_resolutions *resolved,
                        const struct ndp_changeset *set,
                        const struct ndp_findings *findings)
{
    const struct ndp_state_cluster **states =
        ndp_xcalloc(resolved->nr ? resolved->nr : 1, sizeof(*states));
    const char **versions =
        ndp_xcalloc(resolved->nr ? resolved->nr : 1, sizeof(*versions));
    size_t i;

    for (i = 0; i < resolved->nr; i++) {
        states[i] = resolved->items[i].state;
        /* A sensitive version is not even told apart from another. */
        versions[i] = resolved->items[i].version_sensitive
                          ? NULL : resolved->items[i].version;
    }
    ndp_impact_compute_all(impacts, resolved->nr, states, versions, set,
                           findings);
    free(states);
    free(versions);
}

void ndp_evaluate(struct ndp_findings *out, struct ndp_resolutions *resolved,
                  struct ndp_impacts *impacts,
                  const struct ndp_clusters *clusters,
                  const struct ndp_changeset *set,
                  const struct ndp_hits *hits, const struct ndp_ruleset *rs,
                  const struct ndp_eval_options *opt)
{
    struct ndp_evaluator ev;

    memset(&ev, 0, sizeof(ev));
    ev.out = out;
    ev.clusters = clusters;
    ev.resolved = resolved;
    ev.set = set;
    ev.hits = hits;
    ev.rs = rs;
    ev.opt = opt;
    index_changes(&ev);
    ndp_resolve_clusters(&ev);
    ndp_verdicts_add(&ev);
    ndp_check_maintenance(&ev);
    ndp_check_versions(&ev);
    ndp_check_upgrade(&ev);
    ndp_check_pools(&ev);
    ndp_check_concurrency(&ev);
    size_impact(impacts, resolved, set, out);
    ndp_check_drain(&ev, impacts);
    ndp_check_subnets(&ev, impacts);
    ndp_overrun_findings(&ev, impacts);
    release_indexes(&ev);
}

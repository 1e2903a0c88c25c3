/*
 * SPDX-License-Identifier: Apache-2.0
 * evaluate_internal.h - what the evaluator's stages share (evaluate.c,
 * resolve.c, resolve_window.c, verdict.c, overrun.c, emit.c and the
 * checks: check_versions.c, check_upgrade.c, check_pools.c,
 * check_maintenance.c, check_concurrency.c, check_drain.c,
 * drain_budgets.c, order_walk.c); no other file includes it.
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

#include "buf.h"
#include "change.h"
#include "evaluate.h"
#include "finding.h"

struct json_object;
struct ndp_clusters;
struct ndp_findings;
struct ndp_hit;
struct ndp_hits;
struct ndp_impacts;
struct ndp_rule;
struct ndp_ruleset;

struct ndp_evaluator {
    struct ndp_findings *out;           /* emit.c appends here */
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

/* ---- emit.c: the one way a finding is made ---- */

/*
 * Appends to ev->out the finding 'spec' describes.  Fills in what the
 * evaluator knows of cluster spec->cluster_index: its id, whether it is
 * frozen now, the meta rule of the verdict when 'rule' is NULL, the line
 * of the resource's change when 'line' is 0, a resource a moved block
 * renamed, and the advice for a change refused now when 'help' is NULL.
 */
void ndp_emit(const struct ndp_evaluator *ev, struct ndp_finding_spec *spec);

/*
 * Appends to 'msg' that Terraform deferred 'ch' to a later round (spec
 * §11), when it did: every finding about a deferred change says so.
 */
void ndp_emit_deferred(struct ndp_buf *msg, const struct ndp_change *ch);

/*
 * A value as a finding's JSON text: "(known after apply)" when 'unknown',
 * null when unset, "(sensitive)" under a mask or for a rule whose values
 * are secret, a proxy URL without its credentials for a rule that says
 * so.  The caller frees it.
 */
char *ndp_emit_json_value(const struct json_object *v, bool sensitive,
                          bool unknown, const struct ndp_rule *rule);

/* The same for a string 's' (NULL: null) of rule 'rule' (or NULL). */
void ndp_emit_text(struct ndp_buf *out, const char *s, bool sensitive,
                   const struct ndp_rule *rule);

/* The same for a number ('has': declared). */
void ndp_emit_number(struct ndp_buf *out, bool has, long n, bool sensitive);

/*
 * A check's finding, built in place: ndp_check_begin() (false when the
 * rule set lacks rule 'id': no check, nothing to release), then 'path',
 * 'before' and 'after' (JSON texts; empty: null), 'msg' and 'help'
 * filled in, 'verdict' (refused unless set) and 'pool' set, then
 * ndp_check_emit(), which appends it and releases the buffers.
 */
struct ndp_check_finding {
    const struct ndp_rule *rule;
    enum ndp_verdict verdict;
    const struct ndp_change *ch;    /* the change it is about, or NULL */
    const char *input, *resource;
    size_t cluster_index;
    long line;
    const char *pool;               /* a pool-level finding's, or NULL */
    struct ndp_buf path, before, after, msg, help;
};

/* Begins finding 'id' about change 'ch' (its resource and line). */
bool ndp_check_begin(struct ndp_check_finding *f,
                     const struct ndp_evaluator *ev, const char *id,
                     const struct ndp_change *ch);

/* Begins finding 'id' about cluster 'cluster' as a whole. */
bool ndp_check_begin_cluster(struct ndp_check_finding *f,
                             const struct ndp_evaluator *ev, const char *id,
                             size_t cluster);

/* Appends the finding (saying so when its change is deferred). */
void ndp_check_emit(struct ndp_check_finding *f,
                    const struct ndp_evaluator *ev);

/*
 * check_maintenance.c: appends to ev->out the findings of the maintenance
 * configurations the changes send (NDP801-805) and of the node OS upgrade
 * channel (NDP820-823).
 */
void ndp_check_maintenance(const struct ndp_evaluator *ev);

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
 * order_walk.c: walks of the order graph.  'up_at'/'up' are the reverse
 * edges (who waits for node i: up[up_at[i]] .. up[up_at[i + 1] - 1]);
 * ndp_order_walk_stamp() sets stamp[n] = w->gen for every node 'start'
 * reaches down (what it waits for) or up (what waits for it), not 'start'
 * itself unless a cycle leads back.  The caller owns 'stamp' (one entry a
 * node) and moves w->gen on between walks.
 */
struct ndp_order_walk {
    const struct ndp_changeset *set;
    size_t *up_at, *up;
    size_t *queue;
    unsigned gen;
};

void ndp_order_walk_init(struct ndp_order_walk *w,
                         const struct ndp_changeset *set);
void ndp_order_walk_release(struct ndp_order_walk *w);
void ndp_order_walk_stamp(struct ndp_order_walk *w, size_t start, bool down,
                          unsigned *stamp);

/*
 * check_concurrency.c: appends to ev->out a finding for each two changes
 * that PUT one cluster (or PUT it and change one of its pools) with no
 * order between them in the plan's configuration (NDP901, PT-CONC-01).
 */
void ndp_check_concurrency(const struct ndp_evaluator *ev);

/*
 * drain_budgets.c: the pod disruption budgets of the plans and the live
 * state, each placed in its cluster (NDP_UNKNOWN_CLUSTER: none known)
 * with what it blocks in its own state and the pods it holds.  '*out' is
 * returned owned, '*nr' long; the budgets are borrowed from the change
 * set and the states.
 */
#define NDP_UNKNOWN_CLUSTER SIZE_MAX

enum ndp_block {
    NDP_BLOCK_NONE,
    NDP_BLOCK_UNSATISFIABLE,  /* maxUnavailable 0: refused before it starts */
    NDP_BLOCK_NO_DISRUPTION   /* no eviction allowed for its pods */
};

struct ndp_kube_budget;
struct ndp_kube_workload;

struct ndp_blocker {
    const struct ndp_kube_budget *b;
    size_t cluster;
    enum ndp_block block;
    long pods;                          /* the pods it holds, -1: unknown */
    const struct ndp_kube_workload *workload; /* the first it selects */
    size_t workloads;                   /* how many it selects */
    bool both_sides;    /* one side of a change whose other side blocks
                           the same way: a drain meets a block either way */
};

void ndp_drain_blockers(struct ndp_blocker **out, size_t *nr,
                        const struct ndp_evaluator *ev);

/*
 * check_drain.c: appends to ev->out a finding for each change that drains
 * nodes (its findings so far rebuild pools now, or it lowers a node
 * count) while a pod disruption budget of its cluster allows no eviction
 * (NDP910 maxUnavailable 0, NDP911 no disruption for the replicas in the
 * input; put-time-limits PT-DRN-01/02).  'impacts' gives the drain
 * timeouts, and each cluster's impact gets the budgets that stop its
 * drains.
 */
void ndp_check_drain(const struct ndp_evaluator *ev,
                     struct ndp_impacts *impacts);

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

/*
 * SPDX-License-Identifier: Apache-2.0
 * impact.h - the extent of the disruption: which node pools a cluster's
 * findings rebuild and how the input and the live state describe them
 * (node counts, surge, drain and soak).  How long their rebuild takes is
 * rollout.h's to work out; the reports word it (report/report_impact.h).
 */
#ifndef NDP_IMPACT_H
#define NDP_IMPACT_H

#include <stdbool.h>
#include <stddef.h>

struct ndp_buf;
struct ndp_change;
struct ndp_changeset;
struct ndp_finding;
struct ndp_findings;
struct ndp_state_cluster;

/*
 * When the apply rebuilds a pool (put-time-limits PT-K8S-06, PT-CAP-01/02):
 * in the PUT of the cluster resource itself (azurerm's default_node_pool,
 * the agentPoolProfiles of an ARM managedClusters body or of a setter of
 * it), or in the PUTs of pool resources of their own
 * (azurerm_kubernetes_cluster_node_pool, agentPools children, azapi pool
 * setters), which reference the cluster and so run after it, in parallel
 * with each other.  The rebuilds of one phase run at the same time; those
 * of two phases do not.
 */
enum ndp_impact_phase {
    NDP_PHASE_CLUSTER,
    NDP_PHASE_POOLS,
    NDP_PHASES /* not a phase: their number */
};

#define NDP_PHASE_BIT(phase) (1u << (phase))

/*
 * A node pool of a cluster as the input (the changes' facts) and the live
 * state describe it.  'name' and 'because' are owned by the impact;
 * 'os_type' and 'surge' are borrowed from the change set or the cluster
 * state, which must outlive it.
 */
struct ndp_impact_pool {
    char *name;
    const char *os_type;    /* "Linux", "Windows", or NULL */
    long nodes, min_nodes, max_nodes; /* as declared; -1 when unknown */
    bool autoscale;
    const char *surge;      /* maxSurge as the apply sends it; NULL: the
                               AKS default for 'version' (rollout.h) */
    const char *unavailable; /* maxUnavailable as sent; NULL: 0 */
    const char *version;    /* the Kubernetes version the pool is on (its
                               own, else its cluster's, else the live
                               state's), or NULL when unknown or sensitive:
                               what the default maxSurge depends on */
    long drain_minutes;     /* drain timeout as declared; -1: the AKS
                               default (rollout.h) */
    long soak_minutes;      /* node soak time as declared; -1: none */
    bool spot;              /* a Spot pool: no surge nodes, no drain */
    size_t subnet;          /* its node subnet among the impact's
                               'subnets', or SIZE_MAX when none is known */
    bool pod_subnet;        /* its pods take addresses from a subnet of
                               their own */
    long max_pods;          /* as declared; -1: the default */
    bool rotated;           /* an azurerm rotation rebuilds it: the pool is
                               created anew beside the old one, the surge
                               and drain settings unused */
    bool created, deleted;  /* by this apply: never rebuilt */
    bool sensitive;         /* read under a sensitive mask: its name and
                               sizes are never printed */
    bool rebuilt;
    bool touched;           /* a reimaging change of the input would rebuild
                               it, whether the policy refuses it now or not
                               (what --window-check sizes) */
    /* The phases (NDP_PHASE_BIT()s) whose PUTs rebuild it, would rebuild
     * it, and rotate it: a pool rebuilt by the cluster's change and by its
     * own resource's is rolled twice.  0 beside 'rebuilt' or 'touched'
     * reads as the cluster's phase, 0 beside 'rotated' as every phase the
     * pool is rebuilt in (rollout.h). */
    unsigned rebuilt_in, touched_in, rotated_in;
    char *because;          /* ","-separated ids of the rules that rebuild
                               it, or NULL */
};

/*
 * The disruption of one cluster.  When none of its findings rebuilds
 * nodes, 'rebuilds' is false; when no reimaging change touches a pool
 * either ('touches' false), there are no pools.
 *
 * 'window_minutes_left' is not the impact's own reading: the evaluator
 * sets it, after sizing, to the minutes from the evaluation instant to the
 * close of the aksManagedNodeOSUpgradeSchedule window the changes go
 * through in (-1 when they go through in none), and 'window_sensitive'
 * when that window is under a sensitive mask (the minutes then say
 * something about its settings and are never printed).
 */
struct ndp_subnet;

/*
 * Where a cluster's pods take their addresses (put-time-limits PT-CAP-02),
 * as its own change declares the network plugin: from the node subnet
 * (Azure CNI without overlay: a node takes 1 + maxPods), or not (Azure
 * CNI Overlay, kubenet: a node takes 1); not known (no plugin declared,
 * or one such as "none" whose pods the spec does not place).
 */
enum ndp_addressing {
    NDP_ADDRESSING_UNKNOWN,
    NDP_ADDRESSING_NODE_AND_PODS,
    NDP_ADDRESSING_NODE_ONLY
};

/*
 * A pod disruption budget that stops the drain of this cluster's nodes
 * (the evaluator's drain check adds it, put-time-limits PT-DRN-01/02):
 * what the impact says of it.  'name' ("<ns>/<name>") is owned.
 */
struct ndp_impact_budget {
    char *name;
    long pods;              /* the pods it holds, -1 when not known */
    bool unsatisfiable;     /* maxUnavailable 0: AKS refuses at once */
    bool sure;              /* in the cluster when its drains start: not
                               changed by this apply, of a known cluster */
    bool bypassed;          /* force upgrade drains without regard to it */
    long drain_minutes;     /* the drain of a node with one of its pods
                               waits this long before it fails */
};

struct ndp_impact {
    bool rebuilds;
    bool touches;
    struct ndp_impact_pool *pools; /* in the order they were first read */
    size_t nr_pools;
    /* How its nodes and pods take addresses of its subnets; 'subnets'
     * are the subnets of the input its pools are in (owned array,
     * borrowed subnets), first named first. */
    enum ndp_addressing addressing;
    const struct ndp_subnet **subnets;
    size_t nr_subnets;
    long window_minutes_left;
    bool window_sensitive;
    struct ndp_impact_budget *budgets; /* owned; set by the evaluator */
    size_t nr_budgets, alloc_budgets;
    size_t more_budgets;    /* further budgets, not listed */
};

/* One impact per cluster, indexed like the linker's clusters. */
struct ndp_impacts {
    struct ndp_impact *items;
    size_t nr;
};

#define NDP_IMPACTS_INIT { NULL, 0 }

/*
 * Fills 'out' (empty on entry) with one impact for each of the
 * 'nr_clusters' clusters (indexed as the linker's), from its findings
 * whose verdict rebuilds now (verdicts.h: the pools they name are marked
 * rebuilt) or is refused (rebuilds nothing, but the pools it would
 * rebuild are marked 'touched'), and from the pools the input and the
 * cluster state describe.  A pool
 * this apply creates or deletes is never rebuilt nor counted.  Linear in
 * changes, findings and pools.  'states' holds each cluster's live state
 * from --cluster-state, or NULL; 'versions' each cluster's Kubernetes
 * version in force, or NULL (unknown or sensitive), for the pools that
 * declare none.  The pools of a finding whose verdict recreates them
 * (verdicts.h: an azurerm rotation) are marked 'rotated'.  Each mark
 * notes its phase: that of the PUT the finding's resource makes, a pool
 * resource's (NDP_PHASE_POOLS) or the cluster's.  'out' borrows from
 * 'set', 'versions' and the cluster states.
 */
void ndp_impact_compute_all(struct ndp_impacts *out, size_t nr_clusters,
                            const struct ndp_state_cluster *const *states,
                            const char *const *versions,
                            const struct ndp_changeset *set,
                            const struct ndp_findings *findings);

/* Adds to 'impact' a budget that stops its drains ('name' copied). */
void ndp_impact_add_budget(struct ndp_impact *impact, const char *name,
                           long pods, bool unsatisfiable, bool sure,
                           bool bypassed, long drain_minutes);

/* Frees every impact and leaves 'impacts' empty. */
void ndp_impacts_release(struct ndp_impacts *impacts);

/*
 * True when applying 'f' rebuilds nodes of pools it names: its verdict
 * reimages (verdicts.h) and it names pools (an unseen change names none);
 * what the SARIF report attaches its cluster's impact to.
 * ndp_impact_compute_all() marks the pools of those whose verdict
 * rebuilds now (not replace: its pools are created anew; not
 * manual-upgrade: rebuilt at the next node-image upgrade).
 */
bool ndp_impact_finding_rebuilds(const struct ndp_finding *f);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * state.h - live cluster state from the Azure CLI: what a plan cannot say.
 *
 * azurerm has no attribute for the node disruption policy, so most
 * Terraform users set it out of band; 'az aks show -o json', 'az aks
 * maintenanceconfiguration list|show -o json' and 'az aks nodepool list
 * -o json' saved next to the plan tell ndplint the profile and window in
 * force, the Kubernetes version and which pools run Windows.  Files are
 * recognised by shape and merged per cluster (by ARM id).  'kubectl get
 * pdb,deploy,statefulset -A -o json' tells the pod disruption budgets a
 * drain meets, when they come from Helm or GitOps rather than the plan.
 */
#ifndef NDP_STATE_H
#define NDP_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "kube.h"

struct json_object;
struct ndp_error;
struct ndp_states_index;

/*
 * The states own everything in them: every string, every pool, and one
 * json-c reference to each 'window'; ndp_states_release() frees it all.
 * Others borrow a cluster (the evaluator's resolutions, the impact) for
 * as long as the states live.  The one field another stage writes is
 * 'matched' (the evaluator, through its options).
 */
struct ndp_state_pool {
    char *name;
    char *os_type;          /* "Linux", "Windows", or NULL */
    char *mode;             /* "System", "User", or NULL */
    char *version;          /* orchestrator version, or NULL */
    long count, min_count, max_count; /* -1 when unknown */
    bool autoscale;
    char *max_surge;        /* "1", "33%", or NULL */
    long drain_minutes;     /* upgradeSettings.drainTimeoutInMinutes, -1
                               when not stated */
    long soak_minutes;      /* upgradeSettings.nodeSoakDurationInMinutes,
                               -1 when not stated */
};

struct ndp_state_cluster {
    char *id;               /* ARM id, as written */
    char *name;             /* last id segment */
    char *sources;          /* the files that described it, ", "-separated */
    int profile;            /* enum ndp_profile, or -1 when not stated */
    char *version;          /* Kubernetes version, or NULL */
    char *node_os_channel;  /* autoUpgradeProfile.nodeOSUpgradeChannel,
                               or NULL */
    bool has_pools;         /* agentPoolProfiles or a node pool list was read */
    bool pool_list;         /* ... a whole list of them ('az aks show', 'az
                               aks nodepool list'), not one pool alone
                               ('az aks nodepool show'): every pool the
                               cluster has */
    struct ndp_state_pool *pools;
    size_t nr_pools, alloc_pools;
    struct json_object *window; /* aksManagedNodeOSUpgradeSchedule, ARM terms */
    bool has_window_list;   /* a maintenance configuration list was read */
    char *other_windows;    /* configurations that do not count */
    bool matched;           /* set by the evaluator */
};

struct ndp_states {
    struct ndp_state_cluster *items;
    size_t nr, alloc;
    char **unmatched_files; /* files that named no cluster (empty lists) */
    size_t nr_unmatched, alloc_unmatched;
    struct ndp_states_index *index; /* the clusters by id and by name */
    /* Pod disruption budgets and workloads from 'kubectl get
     * pdb,deploy,statefulset -A -o json' (a List) or one such object:
     * they name no cluster. */
    struct ndp_kube_objects kube;
};

#define NDP_STATES_INIT { NULL, 0, 0, NULL, 0, 0, NULL, NDP_KUBE_OBJECTS_INIT }

/*
 * Reads one state file into 'states'.  Returns 0, or NDP_E* with 'err'
 * naming the file and saying what it is instead.
 */
int ndp_state_read(struct ndp_states *states, const char *path,
                   size_t max_bytes, struct ndp_error *err);
void ndp_states_release(struct ndp_states *states);

/* The state cluster with ARM id 'id' (case-insensitive), or NULL. */
struct ndp_state_cluster *ndp_states_find_id(const struct ndp_states *states,
                                             const char *id);
/*
 * The state cluster called 'name'; '*ambiguous' is set when several are.
 */
struct ndp_state_cluster *ndp_states_find_name(const struct ndp_states *states,
                                               const char *name,
                                               bool *ambiguous);

#endif

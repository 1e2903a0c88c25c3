/*
 * linker.h - the clusters of a change set, and which cluster every change
 * belongs to.
 *
 * Clusters come from cluster resources in the inputs; node pools, policy
 * setters and maintenance configurations are linked to them by ARM id
 * (case-insensitive) or by the Terraform address their configuration
 * refers to.  A change whose cluster is not in the input still gets a
 * cluster entry (named by the id it refers to), so nothing is dropped.
 * The evaluator fills the policy and window fields.
 */
#ifndef NDP_LINKER_H
#define NDP_LINKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "policy.h"

struct ndp_changeset;
struct ndp_state_cluster;
struct ndp_window;

struct ndp_cluster {
    char *id;               /* Terraform address, or ARM id when only that is known */
    char *arm_id;           /* ARM id when known, else NULL */
    const char *input;      /* borrowed from the change set */
    size_t change;          /* its own change in the set, or SIZE_MAX */
    /* Filled by the evaluator: */
    enum ndp_profile profile;
    const char *profile_source; /* "input", "option", "default" */
    char *profile_note;         /* e.g. "changes from Allow to Block in this plan" */
    struct ndp_window *window;  /* aksManagedNodeOSUpgradeSchedule, or NULL */
    char *window_json;          /* ARM-terms JSON text, or NULL */
    char *window_text;          /* plain words, or NULL */
    char *window_resource;      /* the resource that declares it */
    char *window_path;          /* its path in that resource */
    bool window_changes;        /* the input replaces it */
    struct ndp_window *new_window; /* what replaces it, when readable: a
                                      change is inside only where both are
                                      open (spec §11) */
    char *window_problems;      /* window-invalid reasons, or NULL */
    bool window_expression;     /* declared with template expressions: not known */
    bool window_sensitive;      /* under a sensitive mask: its text, problems
                                   and opening times are never printed */
    char *other_windows;        /* maintenance configurations that do not count */
    int in_window;              /* -1 not applicable, 0 no, 1 yes */
    bool has_next_window;
    int64_t next_window_start, next_window_end, window_closes_at;
    char *version;              /* Kubernetes version in force, or NULL */
    bool version_sensitive;     /* read under a sensitive mask: not printed */
    struct ndp_state_cluster *state; /* live state from --cluster-state (borrowed) */
    char *impact_json;          /* rebuilt pools as a JSON object, or NULL */
    char *impact_text;          /* the same in words, or NULL */
};

struct ndp_clusters {
    struct ndp_cluster *items;
    size_t nr, alloc;
};

#define NDP_CLUSTERS_INIT { NULL, 0, 0 }

/* Builds 'out' from 'set' and sets every change's 'cluster' index. */
void ndp_link(struct ndp_clusters *out, struct ndp_changeset *set);
void ndp_clusters_release(struct ndp_clusters *clusters);

#endif

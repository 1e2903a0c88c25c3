/*
 * SPDX-License-Identifier: Apache-2.0
 * linker.h - the clusters of a change set, and which cluster every change
 * belongs to.
 *
 * Clusters come from cluster resources in the inputs; node pools, policy
 * setters and maintenance configurations are linked to them by ARM id
 * (case-insensitive) or by the Terraform address their configuration
 * refers to.  A change whose cluster is not in the input still gets a
 * cluster entry (named by the id it refers to), so nothing is dropped.
 */
#ifndef NDP_LINKER_H
#define NDP_LINKER_H

#include <stdbool.h>
#include <stddef.h>

struct ndp_changeset;

/*
 * A cluster as the linker knows it.  The linker owns every entry and
 * frees it in ndp_clusters_release(); what later stages find out about a
 * cluster lives in their own structures, indexed like 'items'
 * (evaluate.h, impact.h).
 */
struct ndp_cluster {
    char *id;               /* Terraform address, or ARM id when only that is known */
    char *arm_id;           /* ARM id when known, else NULL */
    char *previous_id;      /* the address a moved block renamed it from,
                               or NULL */
    const char *input;      /* borrowed from the change set */
    size_t change;          /* its own change in the set, or SIZE_MAX */
    char *name;             /* its Azure name, or NULL when not known or
                               not to be printed (sensitive, unknown) */
    char *resource_group;   /* its resource group, the same way */
};

struct ndp_clusters {
    struct ndp_cluster *items;
    size_t nr, alloc;
};

#define NDP_CLUSTERS_INIT { NULL, 0, 0 }

/*
 * Builds 'out' from 'set' and sets every change's 'cluster' index.  The
 * clusters borrow their input names from 'set', which must outlive them.
 */
void ndp_link(struct ndp_clusters *out, struct ndp_changeset *set);
/* Frees every cluster and leaves 'clusters' empty. */
void ndp_clusters_release(struct ndp_clusters *clusters);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * kube.h - the Kubernetes objects that decide whether a node drain can
 * evict a pod (put-time-limits PT-DRN-01/02): pod disruption budgets and
 * the workloads (Deployment, StatefulSet, ReplicaSet) whose pods they
 * select.
 *
 * The input stage reads them from a plan's kubernetes provider resources
 * and kubernetes_manifest resources (src/input/input_kube.c), the live
 * state from 'kubectl get pdb,deploy,statefulset -A -o json'
 * (src/analysis/state.c); both keep them in a struct ndp_kube_objects,
 * which owns every string in it.  This file reads an object in the API's
 * shape (a manifest, a kubectl item), matches selectors and counts the
 * disruptions a budget allows, as the Kubernetes disruption controller
 * does.
 */
#ifndef NDP_KUBE_H
#define NDP_KUBE_H

#include <stdbool.h>
#include <stddef.h>

struct json_object;

/* Labels: owned key and value pairs. */
struct ndp_kube_labels {
    char **keys, **values;
    size_t nr, alloc;
};

enum ndp_kube_operator {
    NDP_KUBE_IN,
    NDP_KUBE_NOT_IN,
    NDP_KUBE_EXISTS,
    NDP_KUBE_DOES_NOT_EXIST
};

/* One matchExpressions requirement; 'values' owned. */
struct ndp_kube_requirement {
    char *key;
    enum ndp_kube_operator op;
    char **values;
    size_t nr_values;
};

/*
 * A label selector (policy/v1): a null one selects no pod, an empty one
 * ({}) every pod of the namespace.
 */
struct ndp_kube_selector {
    bool present;             /* declared, not null */
    bool unknown;             /* known only after apply, or not readable:
                                 what it selects is not known */
    struct ndp_kube_labels match_labels;
    struct ndp_kube_requirement *reqs;
    size_t nr_reqs, alloc_reqs;
};

/*
 * Which state of the object an entry is: the same before and after the
 * apply (a no-op resource, live state), or one side of a change the apply
 * makes (an update gives two entries, one a side; a create the side
 * after, a delete the side before).  Which side a drain meets depends on
 * the order of the two (check_drain.c).
 */
enum ndp_kube_side {
    NDP_KUBE_BOTH,
    NDP_KUBE_BEFORE,
    NDP_KUBE_AFTER
};

/* Where an object was read and what the apply does with it. */
struct ndp_kube_origin {
    const char *input;        /* the file, borrowed (outlives the objects) */
    char *address;            /* owned: the Terraform address, or NULL for
                                 a live object */
    char *cluster_ref;        /* owned: the Terraform address of the
                                 cluster its provider's host names, or
                                 NULL when it does not resolve */
    long line;                /* in the input, 0 when unknown */
    enum ndp_kube_side side;
    bool created, deleted;    /* by this apply */
    size_t order_node;        /* its node in the change set's order graph
                                 plus 1; 0: none known */
};

/* minAvailable or maxUnavailable: an integer or a percentage. */
struct ndp_kube_amount {
    bool set;                 /* declared */
    bool unknown;             /* known only after apply, or not readable */
    bool percent;
    long value;               /* >= 0, saturated */
};

struct ndp_kube_budget {
    char *ns, *name;          /* owned; 'name' "(sensitive)" or
                                 "(known after apply)" when it may not be
                                 printed or is not known */
    struct ndp_kube_origin origin;
    struct ndp_kube_amount min_available, max_unavailable;
    struct ndp_kube_selector selector;
};

struct ndp_kube_workload {
    const char *kind;         /* static: "Deployment", "StatefulSet",
                                 "ReplicaSet" */
    char *ns, *name;          /* owned */
    struct ndp_kube_origin origin;
    long replicas;            /* -1 when unknown (not declared: an HPA may
                                 own it) */
    struct ndp_kube_labels pod_labels; /* its pod template's labels */
    bool labels_unknown;
};

struct ndp_kube_objects {
    struct ndp_kube_budget *budgets;
    size_t nr_budgets, alloc_budgets;
    struct ndp_kube_workload *workloads;
    size_t nr_workloads, alloc_workloads;
};

#define NDP_KUBE_OBJECTS_INIT { NULL, 0, 0, NULL, 0, 0 }

/* Adds an empty budget or workload and returns it (owned by 'objs'). */
struct ndp_kube_budget *ndp_kube_add_budget(struct ndp_kube_objects *objs);
struct ndp_kube_workload *ndp_kube_add_workload(struct ndp_kube_objects *objs);

void ndp_kube_objects_release(struct ndp_kube_objects *objs);

/*
 * Reads 'o', an object in the API's shape (apiVersion, kind, metadata,
 * spec: a manifest, an item of kubectl's List) into 'objs' when it is a
 * PodDisruptionBudget or one of the workloads; 'unknown' is the mask of
 * values known only after apply below it (Terraform's after_unknown
 * shape, or NULL) and 'sensitive' its sensitive mask.  'origin' is taken
 * over (its strings owned by the new object); when 'o' is of another
 * kind, or a ReplicaSet a Deployment owns, they are freed.  True when an
 * object was added.
 */
bool ndp_kube_read_api_object(struct ndp_kube_objects *objs,
                              const struct json_object *o,
                              const struct json_object *unknown,
                              const struct json_object *sensitive,
                              struct ndp_kube_origin *origin);

/* Is 'kind' (a manifest's "kind") one this file reads? */
bool ndp_kube_kind_known(const char *kind);

/* Adds label 'key'='value' (copied) to 'labels'. */
void ndp_kube_labels_add(struct ndp_kube_labels *labels, const char *key,
                         const char *value);
/*
 * Reads a map of strings (labels, matchLabels) into 'labels', and a list
 * of matchExpressions elements ({key, operator, values}: the API's and
 * the kubernetes provider's shape alike) into 's'; false when one is not
 * of that shape (what was read stays), or holds more than 256 entries.
 * NULL and null read as empty.
 */
bool ndp_kube_read_labels(struct ndp_kube_labels *labels,
                          const struct json_object *map);
bool ndp_kube_read_requirements(struct ndp_kube_selector *s,
                                const struct json_object *exprs);

/*
 * Is the value at '.'-separated 'dotted' marked in Terraform's unknown or
 * sensitive mask (either may be NULL)?  A list on the way stands for its
 * first element (jsonutil.h, ndp_json_mask_covers_first()).
 */
bool ndp_kube_masked(const struct json_object *unknown,
                     const struct json_object *sensitive, const char *dotted);

/*
 * A string 'v' found at 'dotted' as it may be printed: "(sensitive)" or
 * "(known after apply)" under a mask, its text, or 'fallback' when it is
 * absent, empty or not a string.  Borrowed from 'v' or static.
 */
const char *ndp_kube_shown(const struct json_object *v,
                           const struct json_object *unknown,
                           const struct json_object *sensitive,
                           const char *dotted, const char *fallback);

/*
 * Reads an IntOrString (a JSON integer, a string of digits, or digits
 * and '%') into 'out'; anything else is 'unknown'.  NULL is not set.
 */
void ndp_kube_amount_read(struct ndp_kube_amount *out,
                          const struct json_object *v);
/* The same of member 'key' of 'spec', known to be set but not its value
 * when 'masked'. */
void ndp_kube_amount_read_at(struct ndp_kube_amount *out,
                             const struct json_object *spec, const char *key,
                             bool masked);

/* Does selector 's' select a pod with 'labels'?  (Not for 'unknown'.) */
bool ndp_kube_selects(const struct ndp_kube_selector *s,
                      const struct ndp_kube_labels *labels);

/*
 * The disruptions budget 'b' allows for 'pods' healthy pods of
 * controllers with 'pods' replicas, as the disruption controller counts
 * them: desired healthy = minAvailable (a percentage of the pods rounded
 * up), or the pods less maxUnavailable (a percentage rounded up), at
 * least 0; allowed = pods less desired healthy, at least 0.  -1 when
 * neither value is set and known.
 */
long ndp_kube_allowed_disruptions(const struct ndp_kube_budget *b, long pods);

/* maxUnavailable is 0 (or "0%"), known: AKS refuses an upgrade at once. */
bool ndp_kube_budget_unsatisfiable(const struct ndp_kube_budget *b);

#endif

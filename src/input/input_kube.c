/*
 * SPDX-License-Identifier: Apache-2.0
 * input_kube.c - the pod disruption budgets and workloads of a Terraform
 * plan (put-time-limits PT-DRN-01/02), into the change set's Kubernetes
 * objects (kube.h):
 *
 *   - kubernetes_pod_disruption_budget_v1 and _pod_disruption_budget,
 *     kubernetes_deployment(_v1) and kubernetes_stateful_set(_v1), in the
 *     provider's shape (metadata[0], spec[0], max_unavailable as a
 *     string, replicas as a string or a number);
 *   - kubernetes_manifest whose manifest is a PodDisruptionBudget,
 *     Deployment, StatefulSet or ReplicaSet, in the API's shape.
 *
 * Each state of an object is an entry (kube.h): a no-op one, each side
 * of a change (the side before of a delete, the side after of a create),
 * and for a change Terraform defers, the state it keeps in this round.
 * Which cluster each object belongs to the plan reader works out from
 * the configuration (input_tfplan.c).
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "change.h"
#include "jsonutil.h"
#include "kube.h"

#include <json-c/json.h>

static const char *const budget_types[] = {
    "kubernetes_pod_disruption_budget_v1", "kubernetes_pod_disruption_budget"
};
static const struct { const char *type, *kind; } workload_types[] = {
    { "kubernetes_deployment_v1", "Deployment" },
    { "kubernetes_deployment", "Deployment" },
    { "kubernetes_stateful_set_v1", "StatefulSet" },
    { "kubernetes_stateful_set", "StatefulSet" },
};

static bool is_budget_type(const char *type)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(budget_types); i++)
        if (strcmp(type, budget_types[i]) == 0)
            return true;
    return false;
}

static const char *workload_kind(const char *type)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(workload_types); i++)
        if (strcmp(type, workload_types[i].type) == 0)
            return workload_types[i].kind;
    return NULL;
}

bool ndp_kube_plan_type(const char *type)
{
    return is_budget_type(type) || workload_kind(type) ||
           strcmp(type, "kubernetes_manifest") == 0;
}

/* ---- the provider's shape ------------------------------------------------ */

/* The first element of block 'key' of 'o' (a list of one object). */
static const struct json_object *block(const struct json_object *o,
                                       const char *key)
{
    const struct json_object *list = ndp_json_get(o, key);

    if (json_object_is_type(list, json_type_array))
        return ndp_json_index(list, 0);
    return json_object_is_type(list, json_type_object) ? list : NULL;
}

/* The namespace and name in metadata[0], owned, as they may be printed. */
static void read_names(char **ns, char **name, const struct json_object *doc,
                       const struct json_object *unknown,
                       const struct json_object *sensitive)
{
    const struct json_object *meta = block(doc, "metadata");

    *ns = ndp_xstrdup(ndp_kube_shown(ndp_json_get(meta, "namespace"),
                                     unknown, sensitive, "metadata.namespace",
                                     "default"));
    *name = ndp_xstrdup(ndp_kube_shown(ndp_json_get(meta, "name"), unknown,
                                       sensitive, "metadata.name",
                                       "(unnamed)"));
}

static void read_provider_budget(struct ndp_kube_budget *b,
                                 const struct json_object *doc,
                                 const struct json_object *unknown,
                                 const struct json_object *sensitive)
{
    const struct json_object *spec = block(doc, "spec");
    const struct json_object *sel = ndp_json_get(spec, "selector");
    const struct json_object *sel0 = block(spec, "selector");

    ndp_kube_amount_read_at(&b->min_available, spec, "min_available",
                            ndp_kube_masked(unknown, sensitive,
                                            "spec.min_available"));
    ndp_kube_amount_read_at(&b->max_unavailable, spec, "max_unavailable",
                            ndp_kube_masked(unknown, sensitive,
                                            "spec.max_unavailable"));
    b->selector.present = sel0 != NULL;
    if (ndp_kube_masked(unknown, sensitive, "spec.selector")) {
        b->selector.present = b->selector.unknown = true;
        return;
    }
    if (!ndp_json_is_unset(sel) && !sel0 &&
        !json_object_is_type(sel, json_type_array))
        b->selector.unknown = true;
    else if (sel0)
        b->selector.unknown =
            !ndp_kube_read_labels(&b->selector.match_labels,
                                  ndp_json_get(sel0, "match_labels")) ||
            !ndp_kube_read_requirements(&b->selector,
                                        ndp_json_get(sel0,
                                                     "match_expressions"));
}

/* replicas: a string of digits (the provider's), or a number. */
static long provider_replicas(const struct json_object *v)
{
    struct ndp_kube_amount a;

    ndp_kube_amount_read(&a, v);
    return a.set && !a.unknown && !a.percent ? a.value : -1;
}

static void read_provider_workload(struct ndp_kube_workload *w,
                                   const struct json_object *doc,
                                   const struct json_object *unknown,
                                   const struct json_object *sensitive)
{
    const struct json_object *spec = block(doc, "spec");
    const struct json_object *meta = block(block(spec, "template"),
                                           "metadata");

    if (!ndp_kube_masked(unknown, sensitive, "spec.replicas"))
        w->replicas = provider_replicas(ndp_json_get(spec, "replicas"));
    w->labels_unknown =
        ndp_kube_masked(unknown, sensitive, "spec.template") ||
        !ndp_kube_read_labels(&w->pod_labels, ndp_json_get(meta, "labels"));
}

/* ---- reading one resource ------------------------------------------------ */

/* One side of the resource ('doc', its masks) as an entry of 'side'. */
static void read_side(struct ndp_changeset *set, const char *type,
                      const struct json_object *doc,
                      const struct json_object *unknown,
                      const struct json_object *sensitive,
                      struct ndp_kube_origin *origin)
{
    const char *kind;

    if (strcmp(type, "kubernetes_manifest") == 0) {
        ndp_kube_read_api_object(&set->kube, ndp_json_get(doc, "manifest"),
                                 ndp_json_get(unknown, "manifest"),
                                 ndp_json_get(sensitive, "manifest"), origin);
    } else if (is_budget_type(type)) {
        struct ndp_kube_budget *b = ndp_kube_add_budget(&set->kube);
        read_names(&b->ns, &b->name, doc, unknown, sensitive);
        b->origin = *origin;
        read_provider_budget(b, doc, unknown, sensitive);
    } else if ((kind = workload_kind(type)) != NULL) {
        struct ndp_kube_workload *w = ndp_kube_add_workload(&set->kube);
        w->kind = kind;
        read_names(&w->ns, &w->name, doc, unknown, sensitive);
        w->origin = *origin;
        read_provider_workload(w, doc, unknown, sensitive);
    } else {
        free(origin->address);
        free(origin->cluster_ref);
    }
    memset(origin, 0, sizeof(*origin));
}

void ndp_tfplan_read_kube(struct ndp_changeset *set, const char *input,
                          const char *type, const char *address,
                          const struct json_object *change,
                          enum ndp_action action, bool deferred, long line,
                          char *cluster_ref)
{
    const struct json_object *before = ndp_json_get(change, "before");
    const struct json_object *after = ndp_json_get(change, "after");
    bool has_before = json_object_is_type(before, json_type_object) &&
                      action != NDP_ACTION_CREATE;
    bool has_after = json_object_is_type(after, json_type_object) &&
                     action != NDP_ACTION_DELETE;
    struct ndp_kube_origin origin;

    memset(&origin, 0, sizeof(origin));
    origin.input = input;
    origin.line = line;
    if (deferred) {
        /* Applied in a later round: this round meets it as it is. */
        if (has_before) {
            origin.address = ndp_xstrdup(address);
            origin.cluster_ref = cluster_ref;
            read_side(set, type, before, NULL,
                      ndp_json_get(change, "before_sensitive"), &origin);
        } else {
            free(cluster_ref);
        }
        return;
    }
    origin.created = action == NDP_ACTION_CREATE;
    origin.deleted = action == NDP_ACTION_DELETE;
    /* A no-op (or a read) is one state; a change has a side each. */
    if (action != NDP_ACTION_CREATE && action != NDP_ACTION_DELETE &&
        action != NDP_ACTION_UPDATE && action != NDP_ACTION_REPLACE) {
        has_before = false;
    }
    if (has_before) {
        origin.side = NDP_KUBE_BEFORE;
        origin.address = ndp_xstrdup(address);
        origin.cluster_ref = cluster_ref ? ndp_xstrdup(cluster_ref) : NULL;
        read_side(set, type, before, NULL,
                  ndp_json_get(change, "before_sensitive"), &origin);
    }
    if (has_after) {
        origin.input = input;
        origin.line = line;
        origin.created = action == NDP_ACTION_CREATE;
        origin.side = has_before || action == NDP_ACTION_CREATE
                          ? NDP_KUBE_AFTER : NDP_KUBE_BOTH;
        origin.address = ndp_xstrdup(address);
        origin.cluster_ref = cluster_ref;
        cluster_ref = NULL;
        read_side(set, type, after, ndp_json_get(change, "after_unknown"),
                  ndp_json_get(change, "after_sensitive"), &origin);
    }
    free(cluster_ref);
}

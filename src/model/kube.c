/*
 * SPDX-License-Identifier: Apache-2.0
 * kube.c - pod disruption budgets and workloads (kube.h): the objects,
 * an object read in the API's shape, selector matching and the
 * disruption controller's arithmetic (pkg/controller/disruption:
 * getExpectedPodCount, with intstr.GetScaledValueFromIntOrPercent
 * rounding percentages up).
 */
#include "common.h"
#include "kube.h"
#include "jsonutil.h"

#include <limits.h>

#include <json-c/json.h>

/* The most replicas or pods counted: sums saturate here. */
#define KUBE_MAX_COUNT (LONG_MAX / 200)
/* The most labels, matchLabels or matchExpressions read of one object;
 * more (no real object has them) read as not known. */
#define KUBE_MAX_LABELS 256

struct ndp_kube_budget *ndp_kube_add_budget(struct ndp_kube_objects *objs)
{
    struct ndp_kube_budget *b;

    NDP_GROW(objs->budgets, objs->alloc_budgets, objs->nr_budgets + 1);
    b = &objs->budgets[objs->nr_budgets++];
    memset(b, 0, sizeof(*b));
    return b;
}

struct ndp_kube_workload *ndp_kube_add_workload(struct ndp_kube_objects *objs)
{
    struct ndp_kube_workload *w;

    NDP_GROW(objs->workloads, objs->alloc_workloads, objs->nr_workloads + 1);
    w = &objs->workloads[objs->nr_workloads++];
    memset(w, 0, sizeof(*w));
    w->replicas = -1;
    return w;
}

static void labels_release(struct ndp_kube_labels *l)
{
    size_t i;

    for (i = 0; i < l->nr; i++) {
        free(l->keys[i]);
        free(l->values[i]);
    }
    free(l->keys);
    free(l->values);
    memset(l, 0, sizeof(*l));
}

static void selector_release(struct ndp_kube_selector *s)
{
    size_t i, j;

    labels_release(&s->match_labels);
    for (i = 0; i < s->nr_reqs; i++) {
        free(s->reqs[i].key);
        for (j = 0; j < s->reqs[i].nr_values; j++)
            free(s->reqs[i].values[j]);
        free(s->reqs[i].values);
    }
    free(s->reqs);
}

static void origin_release(struct ndp_kube_origin *o)
{
    free(o->address);
    free(o->cluster_ref);
    o->address = o->cluster_ref = NULL;
}

void ndp_kube_objects_release(struct ndp_kube_objects *objs)
{
    size_t i;

    for (i = 0; i < objs->nr_budgets; i++) {
        free(objs->budgets[i].ns);
        free(objs->budgets[i].name);
        origin_release(&objs->budgets[i].origin);
        selector_release(&objs->budgets[i].selector);
    }
    for (i = 0; i < objs->nr_workloads; i++) {
        free(objs->workloads[i].ns);
        free(objs->workloads[i].name);
        origin_release(&objs->workloads[i].origin);
        labels_release(&objs->workloads[i].pod_labels);
    }
    free(objs->budgets);
    free(objs->workloads);
    memset(objs, 0, sizeof(*objs));
}

void ndp_kube_labels_add(struct ndp_kube_labels *labels, const char *key,
                         const char *value)
{
    size_t alloc = labels->alloc;

    NDP_GROW(labels->keys, alloc, labels->nr + 1);
    NDP_GROW(labels->values, labels->alloc, labels->nr + 1);
    labels->keys[labels->nr] = ndp_xstrdup(key);
    labels->values[labels->nr++] = ndp_xstrdup(value);
}

static struct ndp_kube_requirement *selector_add(struct ndp_kube_selector *s,
                                                 const char *key,
                                                 enum ndp_kube_operator op)
{
    struct ndp_kube_requirement *r;

    NDP_GROW(s->reqs, s->alloc_reqs, s->nr_reqs + 1);
    r = &s->reqs[s->nr_reqs++];
    memset(r, 0, sizeof(*r));
    r->key = ndp_xstrdup(key);
    r->op = op;
    return r;
}

static void requirement_add_value(struct ndp_kube_requirement *r,
                                  const char *value)
{
    r->values = ndp_xrealloc(r->values,
                             (r->nr_values + 1) * sizeof(*r->values));
    r->values[r->nr_values++] = ndp_xstrdup(value);
}

static bool operator_parse(const char *name, enum ndp_kube_operator *op)
{
    static const struct { const char *name; enum ndp_kube_operator op; }
    ops[] = {
        { "In", NDP_KUBE_IN }, { "NotIn", NDP_KUBE_NOT_IN },
        { "Exists", NDP_KUBE_EXISTS },
        { "DoesNotExist", NDP_KUBE_DOES_NOT_EXIST }
    };
    size_t i;

    for (i = 0; name && i < NDP_ARRAY_SIZE(ops); i++)
        if (strcmp(name, ops[i].name) == 0) {
            *op = ops[i].op;
            return true;
        }
    return false;
}

/* Digits alone (at most 9: an int32 and more is not a count we judge). */
static bool read_digits(const char *s, size_t len, long *out)
{
    size_t i;
    long n = 0;

    if (len == 0 || len > 9)
        return false;
    for (i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        n = n * 10 + (s[i] - '0');
    }
    *out = n;
    return true;
}

void ndp_kube_amount_read(struct ndp_kube_amount *out,
                          const struct json_object *v)
{
    memset(out, 0, sizeof(*out));
    if (ndp_json_is_unset(v))
        return;
    out->set = true;
    if (json_object_is_type(v, json_type_int)) {
        int64_t n = json_object_get_int64(v);
        out->unknown = n < 0;
        out->value = n < 0 ? 0 : n > KUBE_MAX_COUNT ? KUBE_MAX_COUNT : (long)n;
        return;
    }
    if (json_object_is_type(v, json_type_string)) {
        const char *s = json_object_get_string(ndp_json_unconst(v));
        size_t len = strlen(s);
        out->percent = len > 0 && s[len - 1] == '%';
        if (read_digits(s, out->percent ? len - 1 : len, &out->value) &&
            (!out->percent || out->value <= 100))
            return;
    }
    out->unknown = true;
    out->value = 0;
}

bool ndp_kube_kind_known(const char *kind)
{
    return kind && (strcmp(kind, "PodDisruptionBudget") == 0 ||
                    strcmp(kind, "Deployment") == 0 ||
                    strcmp(kind, "StatefulSet") == 0 ||
                    strcmp(kind, "ReplicaSet") == 0);
}

/* A string the object declares under 'dotted', unless masked. */
bool ndp_kube_masked(const struct json_object *unknown,
                     const struct json_object *sensitive, const char *dotted)
{
    return ndp_json_mask_covers_first(unknown, dotted) ||
           ndp_json_mask_covers_first(sensitive, dotted);
}

const char *ndp_kube_shown(const struct json_object *v,
                           const struct json_object *unknown,
                           const struct json_object *sensitive,
                           const char *dotted, const char *fallback)
{
    const char *s = json_object_is_type(v, json_type_string)
                        ? json_object_get_string(ndp_json_unconst(v)) : NULL;

    if (ndp_json_mask_covers_first(sensitive, dotted))
        return "(sensitive)";
    if (ndp_json_mask_covers_first(unknown, dotted))
        return "(known after apply)";
    return s && *s ? s : fallback;
}

bool ndp_kube_read_labels(struct ndp_kube_labels *labels,
                          const struct json_object *map)
{
    if (ndp_json_is_unset(map))
        return true;
    /* Each label is matched by a scan of the others: keep that short. */
    if (!json_object_is_type(map, json_type_object) ||
        json_object_object_length(ndp_json_unconst(map)) > KUBE_MAX_LABELS)
        return false;
    json_object_object_foreach(ndp_json_unconst(map), key, value) {
        if (!json_object_is_type(value, json_type_string))
            return false;
        ndp_kube_labels_add(labels, key, json_object_get_string(value));
    }
    return true;
}

/* One matchExpressions element of the API's shape. */
static bool read_requirement(struct ndp_kube_selector *s,
                             const struct json_object *e)
{
    const char *key = ndp_json_get_string(e, "key");
    const struct json_object *values = ndp_json_get(e, "values");
    enum ndp_kube_operator op;
    struct ndp_kube_requirement *r;
    size_t i, n;

    if (!key || !operator_parse(ndp_json_get_string(e, "operator"),
                                         &op))
        return false;
    r = selector_add(s, key, op);
    if (ndp_json_is_unset(values))
        return true;
    if (!json_object_is_type(values, json_type_array))
        return false;
    n = json_object_array_length(values);
    for (i = 0; i < n; i++) {
        const struct json_object *v = ndp_json_index(values, i);
        if (!json_object_is_type(v, json_type_string))
            return false;
        requirement_add_value(
            r, json_object_get_string(ndp_json_unconst(v)));
    }
    return true;
}

bool ndp_kube_read_requirements(struct ndp_kube_selector *s,
                                const struct json_object *exprs)
{
    size_t i, n;

    if (ndp_json_is_unset(exprs))
        return true;
    if (!json_object_is_type(exprs, json_type_array) ||
        json_object_array_length(exprs) > KUBE_MAX_LABELS)
        return false;
    n = json_object_array_length(exprs);
    for (i = 0; i < n; i++)
        if (!read_requirement(s, ndp_json_index(exprs, i)))
            return false;
    return true;
}

static void read_api_selector(struct ndp_kube_selector *s,
                              const struct json_object *sel, bool masked)
{
    const struct json_object *exprs = ndp_json_get(sel, "matchExpressions");

    /* {} is a selector (every pod of the namespace), null none. */
    s->present = sel && !json_object_is_type(sel, json_type_null);
    if (masked) {
        s->unknown = true;
        return;
    }
    if (!s->present)
        return;
    if (!json_object_is_type(sel, json_type_object) ||
        !ndp_kube_read_labels(&s->match_labels, ndp_json_get(sel, "matchLabels"))) {
        s->unknown = true;
        return;
    }
    s->unknown = !ndp_kube_read_requirements(s, exprs);
}

void ndp_kube_amount_read_at(struct ndp_kube_amount *out,
                             const struct json_object *spec, const char *key,
                             bool masked)
{
    ndp_kube_amount_read(out, ndp_json_get(spec, key));
    if (masked)
        out->set = out->unknown = true;
}

static bool owned_by_deployment(const struct json_object *o)
{
    const struct json_object *refs = ndp_json_path(o,
                                                   "metadata.ownerReferences");
    size_t i, n = refs && json_object_is_type(refs, json_type_array)
                      ? json_object_array_length(refs) : 0;

    for (i = 0; i < n; i++) {
        const char *kind = ndp_json_get_string(ndp_json_index(refs, i),
                                               "kind");
        if (kind && strcmp(kind, "Deployment") == 0)
            return true;
    }
    return false;
}

static void read_api_budget(struct ndp_kube_budget *b,
                            const struct json_object *spec,
                            const struct json_object *unknown,
                            const struct json_object *sensitive)
{
    ndp_kube_amount_read_at(&b->min_available, spec, "minAvailable",
                            ndp_kube_masked(unknown, sensitive,
                                            "spec.minAvailable"));
    ndp_kube_amount_read_at(&b->max_unavailable, spec, "maxUnavailable",
                            ndp_kube_masked(unknown, sensitive,
                                            "spec.maxUnavailable"));
    read_api_selector(&b->selector, ndp_json_get(spec, "selector"),
                      ndp_kube_masked(unknown, sensitive, "spec.selector"));
}

static void read_api_workload(struct ndp_kube_workload *w,
                              const struct json_object *spec,
                              const struct json_object *unknown,
                              const struct json_object *sensitive)
{
    const struct json_object *replicas = ndp_json_get(spec, "replicas");

    if (json_object_is_type(replicas, json_type_int) &&
        json_object_get_int64(replicas) >= 0 &&
        !ndp_kube_masked(unknown, sensitive, "spec.replicas")) {
        int64_t n = json_object_get_int64(replicas);
        w->replicas = n > KUBE_MAX_COUNT ? KUBE_MAX_COUNT : (long)n;
    }
    w->labels_unknown =
        ndp_kube_masked(unknown, sensitive, "spec.template.metadata.labels") ||
        !ndp_kube_read_labels(&w->pod_labels,
                              ndp_json_path(spec, "template.metadata.labels"));
}

static const char *static_kind(const char *kind)
{
    static const char *const kinds[] = {
        "Deployment", "StatefulSet", "ReplicaSet"
    };
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(kinds); i++)
        if (strcmp(kind, kinds[i]) == 0)
            return kinds[i];
    return NULL;
}

bool ndp_kube_read_api_object(struct ndp_kube_objects *objs,
                              const struct json_object *o,
                              const struct json_object *unknown,
                              const struct json_object *sensitive,
                              struct ndp_kube_origin *origin)
{
    const char *kind = ndp_json_get_string(o, "kind");
    const struct json_object *spec = ndp_json_get(o, "spec");
    const char *ns = ndp_kube_shown(ndp_json_path(o, "metadata.namespace"),
                                    unknown, sensitive, "metadata.namespace",
                                    "default");
    const char *name = ndp_kube_shown(ndp_json_path(o, "metadata.name"),
                                      unknown, sensitive, "metadata.name",
                                      "(unnamed)");

    if (!ndp_kube_kind_known(kind) ||
        (strcmp(kind, "ReplicaSet") == 0 && owned_by_deployment(o))) {
        origin_release(origin);
        return false;
    }
    if (strcmp(kind, "PodDisruptionBudget") == 0) {
        struct ndp_kube_budget *b = ndp_kube_add_budget(objs);
        b->ns = ndp_xstrdup(ns);
        b->name = ndp_xstrdup(name);
        b->origin = *origin;
        read_api_budget(b, spec, unknown, sensitive);
    } else {
        struct ndp_kube_workload *w = ndp_kube_add_workload(objs);
        w->kind = static_kind(kind);
        w->ns = ndp_xstrdup(ns);
        w->name = ndp_xstrdup(name);
        w->origin = *origin;
        read_api_workload(w, spec, unknown, sensitive);
    }
    memset(origin, 0, sizeof(*origin));
    return true;
}

static const char *label_value(const struct ndp_kube_labels *labels,
                               const char *key)
{
    size_t i;

    for (i = 0; i < labels->nr; i++)
        if (strcmp(labels->keys[i], key) == 0)
            return labels->values[i];
    return NULL;
}

static bool requirement_holds(const struct ndp_kube_requirement *r,
                              const struct ndp_kube_labels *labels)
{
    const char *v = label_value(labels, r->key);
    bool listed = false;
    size_t i;

    for (i = 0; v && i < r->nr_values && !listed; i++)
        listed = strcmp(r->values[i], v) == 0;
    switch (r->op) {
    case NDP_KUBE_IN: return listed;
    case NDP_KUBE_NOT_IN: return !listed;
    case NDP_KUBE_EXISTS: return v != NULL;
    case NDP_KUBE_DOES_NOT_EXIST: return v == NULL;
    }
    return false;
}

bool ndp_kube_selects(const struct ndp_kube_selector *s,
                      const struct ndp_kube_labels *labels)
{
    size_t i;

    if (!s->present || s->unknown)
        return false;
    for (i = 0; i < s->match_labels.nr; i++) {
        const char *v = label_value(labels, s->match_labels.keys[i]);
        if (!v || strcmp(v, s->match_labels.values[i]) != 0)
            return false;
    }
    for (i = 0; i < s->nr_reqs; i++)
        if (!requirement_holds(&s->reqs[i], labels))
            return false;
    return true;
}

/* 'a' of 'pods', a percentage rounded up, or the count itself. */
static long scaled(const struct ndp_kube_amount *a, long pods)
{
    if (!a->percent)
        return a->value;
    /* pods <= KUBE_MAX_COUNT and value <= 100: no overflow. */
    return (a->value * pods + 99) / 100;
}

long ndp_kube_allowed_disruptions(const struct ndp_kube_budget *b, long pods)
{
    const struct ndp_kube_amount *max = &b->max_unavailable;
    const struct ndp_kube_amount *min = &b->min_available;
    long desired, allowed;

    if (pods > KUBE_MAX_COUNT)
        pods = KUBE_MAX_COUNT;
    if (max->set && !max->unknown) {
        desired = pods - scaled(max, pods);
        if (desired < 0)
            desired = 0;
    } else if (!max->set && min->set && !min->unknown) {
        desired = scaled(min, pods);
    } else {
        return -1;
    }
    allowed = pods - desired;
    return allowed > 0 ? allowed : 0;
}

bool ndp_kube_budget_unsatisfiable(const struct ndp_kube_budget *b)
{
    return b->max_unavailable.set && !b->max_unavailable.unknown &&
           b->max_unavailable.value == 0;
}

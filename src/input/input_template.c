/*
 * SPDX-License-Identifier: Apache-2.0
 * input_template.c - reader for ARM templates (compiled Bicep, classic
 * 'resources' arrays and languageVersion 2.0 symbolic-name objects,
 * nested child resources and nested deployments).
 *
 * A template is desired state, not a change: nothing in it reimages.
 * What it can show is the node disruption policy and the
 * aksManagedNodeOSUpgradeSchedule window it declares, so each AKS resource
 * becomes a 'create' change whose 'after' is the resource as written, and
 * the evaluator reports gate-open and window-invalid problems.  Values that
 * are template expressions ("[parameters('x')]") are not known here: they
 * are never read as a profile or as a malformed window.
 *
 * The order ARM deploys the kept resources in (put-time-limits
 * PT-CONC-01: resources without a dependency are deployed in parallel)
 * goes into the change set's order graph, a node for every resource of
 * the template: a nested child waits for its parent, and each
 * 'dependsOn' entry that names a resource (its symbolic name, its name,
 * or a resourceId() of a type only one resource has) is an edge.  An entry that names anything else, and
 * every resource of a nested deployment, waits for an opaque node: its
 * order is not known, so no two changes are said to be unordered
 * through it.
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "change.h"
#include "error.h"
#include "jsonutil.h"
#include "policy.h"

/* A resource of the template, for its order: borrowed from the document. */
struct kept {
    size_t change;                  /* index into the change set, SIZE_MAX:
                                       not an AKS resource (not kept) */
    const char *symbol, *name;      /* symbolic name (or NULL), name
                                       (or NULL) */
    const char *type;               /* its type (a nested child's: as
                                       written, relative) */
    const struct json_object *depends_on;
    size_t parent;                  /* index into 'kept', SIZE_MAX: none */
    bool in_deployment;             /* inside a nested deployment */
};

struct template_reader {
    struct ndp_changeset *set;
    size_t input_index;
    const struct ndp_document *doc;
    size_t first_change;
    struct ndp_locator locator;
    struct kept *kept;
    size_t nr_kept, alloc_kept;
};

static void read_resources(struct template_reader *r,
                           const struct json_object *resources,
                           const char *parent_type, size_t parent,
                           bool in_deployment);


/* The maintenance configuration's name, when the template spells it out. */
static char *configuration_name(const char *name)
{
    static const char *const known[] = {
        NDP_NODE_OS_WINDOW, "aksManagedAutoUpgradeSchedule", "default"
    };
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(known); i++) {
        const char *p = name;
        size_t n = strlen(known[i]);
        for (; *p; p++)
            if (ndp_strncasecmp(p, known[i], n) == 0)
                return ndp_xstrdup(known[i]);
    }
    return ndp_xstrdup(name);
}

/* Notes a resource for its order; returns its index in r->kept. */
static size_t note_resource(struct template_reader *r,
                            const struct json_object *res, const char *symbol,
                            size_t change)
{
    struct kept *k;

    NDP_GROW(r->kept, r->alloc_kept, r->nr_kept + 1);
    k = &r->kept[r->nr_kept];
    k->change = change;
    k->symbol = symbol;
    k->name = ndp_json_get_string(res, "name");
    k->type = NULL;
    k->depends_on = ndp_json_get(res, "dependsOn");
    k->parent = SIZE_MAX;
    k->in_deployment = false;
    return r->nr_kept++;
}

/* Keeps an AKS resource; returns its change index, or SIZE_MAX. */
static size_t keep_resource(struct template_reader *r,
                            const struct json_object *res, const char *type,
                            const char *symbol)
{
    const char *name = ndp_json_get_string(res, "name");
    struct ndp_change *c;
    enum ndp_kind kind;
    struct ndp_buf address = NDP_BUF_INIT;

    if (!ndp_arm_type_kind(type, &kind) || !name)
        return SIZE_MAX;
    c = ndp_changeset_add(r->set, r->input_index);
    ndp_buf_addf(&address, "%s '%s'", type, symbol ? symbol : name);
    c->address = ndp_buf_detach(&address);
    c->resource_type = ndp_xstrdup(type);
    c->name = kind == NDP_KIND_MAINTENANCE ? configuration_name(name)
                                           : ndp_xstrdup(name);
    c->kind = kind;
    c->notation = NDP_NOTATION_ARM;
    c->action = NDP_ACTION_CREATE;
    c->line = ndp_document_locate(r->doc, &r->locator, NULL, "name",
                                  name);
    json_object_deep_copy(ndp_json_unconst(res), &c->after,
                          NULL);
    return r->set->nr - 1;
}

static void read_one(struct template_reader *r, const struct json_object *res,
                     const char *parent_type, const char *symbol,
                     size_t parent, bool in_deployment)
{
    const char *type = ndp_json_get_string(res, "type");
    const struct json_object *nested;
    struct ndp_buf full = NDP_BUF_INIT;
    size_t self;

    r->set->inputs[r->input_index].resources_seen++;
    if (!type || ndp_json_is_true(ndp_json_get(res, "existing")))
        return;
    /* A child resource written inside its parent has a relative type. */
    if (parent_type && !strchr(type, '.'))
        ndp_buf_addf(&full, "%s/%s", parent_type, type);
    else
        ndp_buf_adds(&full, type);
    self = note_resource(r, res, symbol,
                         keep_resource(r, res, full.buf, symbol));
    r->kept[self].parent = parent;
    r->kept[self].in_deployment = in_deployment;
    r->kept[self].type = r->kept[self].change != SIZE_MAX
        ? r->set->items[r->kept[self].change]->resource_type : type;
    read_resources(r, ndp_json_get(res, "resources"), full.buf, self,
                   in_deployment);
    nested = ndp_json_path(res, "properties.template");
    if (nested && ndp_strcasecmp(type, "Microsoft.Resources/deployments") == 0)
        read_resources(r, ndp_json_get(nested, "resources"), NULL,
                       SIZE_MAX, true);
    ndp_buf_release(&full);
}

static void read_resources(struct template_reader *r,
                           const struct json_object *resources,
                           const char *parent_type, size_t parent,
                           bool in_deployment)
{
    size_t i, n;

    if (!resources)
        return;
    if (json_object_is_type(resources, json_type_object)) {
        json_object_object_foreach(ndp_json_unconst(resources),
                                   symbol, res)
            read_one(r, res, parent_type, symbol, parent, in_deployment);
        return;
    }
    if (!json_object_is_type(resources, json_type_array))
        return;
    n = json_object_array_length(resources);
    for (i = 0; i < n; i++)
        read_one(r, json_object_array_get_idx(resources, i), parent_type,
                 NULL, parent, in_deployment);
}

/*
 * Template names are expressions more often than not, so ids cannot link
 * resources; with a single cluster in the template everything belongs to
 * it.  With several, each keeps a cluster entry of its own.
 */
static void link_to_single_cluster(struct template_reader *r)
{
    const struct ndp_change *cluster = NULL;
    size_t i, clusters = 0;

    for (i = r->first_change; i < r->set->nr; i++)
        if (r->set->items[i]->kind == NDP_KIND_CLUSTER) {
            cluster = r->set->items[i];
            clusters++;
        }
    if (clusters != 1)
        return;
    for (i = r->first_change; i < r->set->nr; i++)
        if (r->set->items[i]->kind != NDP_KIND_CLUSTER)
            r->set->items[i]->parent_ref = ndp_xstrdup(cluster->address);
}

/* ---- the order ARM deploys them in ---------------------------------- */

/* "[resourceId('Microsoft.X/y', ...)]" -> "Microsoft.X/y" into 'type'. */
static bool resource_id_type(const char *entry, struct ndp_buf *type)
{
    const char *p = strstr(entry, "resourceId(");
    const char *q;

    if (!p)
        return false;
    p = strchr(p, '\'');
    q = p ? strchr(p + 1, '\'') : NULL;
    if (!q)
        return false;
    ndp_buf_reset(type);
    ndp_buf_add(type, p + 1, (size_t)(q - p - 1));
    return true;
}

/* The kept resource a dependsOn entry names, or SIZE_MAX. */
static size_t depended_on(const struct template_reader *r, const char *entry)
{
    struct ndp_buf type = NDP_BUF_INIT;
    size_t i, found = SIZE_MAX, matches = 0;
    bool by_type = entry[0] == '[' && resource_id_type(entry, &type);

    for (i = 0; i < r->nr_kept; i++) {
        const struct kept *k = &r->kept[i];
        bool hit = by_type
            ? k->type && ndp_strcasecmp(k->type, type.buf) == 0
            : (k->symbol && strcmp(k->symbol, entry) == 0) ||
              (k->name && strcmp(k->name, entry) == 0);
        if (hit) {
            found = i;
            matches++;
        }
    }
    ndp_buf_release(&type);
    return matches == 1 ? found : SIZE_MAX;
}

static void read_template_order(struct template_reader *r)
{
    size_t i, j, n, base = r->set->nr_order, opaque = SIZE_MAX;

    for (i = 0; i < r->nr_kept; i++) {
        ndp_changeset_add_order(r->set);
        if (r->kept[i].change != SIZE_MAX)
            r->set->items[r->kept[i].change]->order_node = base + i + 1;
    }
    for (i = 0; i < r->nr_kept; i++) {
        const struct kept *k = &r->kept[i];
        const struct json_object *deps = k->depends_on;
        bool unknown = k->in_deployment;
        if (k->parent != SIZE_MAX)
            ndp_changeset_add_order_dep(r->set, base + i, base + k->parent);
        n = json_object_is_type(deps, json_type_array)
                ? json_object_array_length(deps) : 0;
        for (j = 0; j < n; j++) {
            const char *entry = json_object_get_string(
                ndp_json_unconst(ndp_json_index(deps, j)));
            size_t to = entry ? depended_on(r, entry) : SIZE_MAX;
            if (to != SIZE_MAX)
                ndp_changeset_add_order_dep(r->set, base + i, base + to);
            else
                unknown = true;
        }
        if (!unknown)
            continue;
        if (opaque == SIZE_MAX) {
            opaque = ndp_changeset_add_order(r->set);
            r->set->order[opaque].opaque = true;
        }
        ndp_changeset_add_order_dep(r->set, base + i, opaque);
    }
}

int ndp_template_read(struct ndp_changeset *set, size_t input_index,
                      const struct ndp_document *doc, struct ndp_error *err)
{
    struct template_reader r = { set, input_index, doc, set->nr,
                                 NDP_LOCATOR_INIT, NULL, 0, 0 };
    const struct json_object *resources = ndp_json_get(doc->root,
                                                       "resources");

    if (!resources || (!json_object_is_type(resources, json_type_array) &&
                       !json_object_is_type(resources, json_type_object)))
        return ndp_error_set(err, NDP_ESCHEMA,
                             "'%s' is an ARM template without a "
                             "'resources' array or object", doc->path);
    read_resources(&r, resources, NULL, SIZE_MAX, false);
    link_to_single_cluster(&r);
    read_template_order(&r);
    free(r.kept);
    return 0;
}

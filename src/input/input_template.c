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
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "change.h"
#include "error.h"
#include "jsonutil.h"
#include "policy.h"

struct template_reader {
    struct ndp_changeset *set;
    size_t input_index;
    const struct ndp_document *doc;
    size_t first_change;
    struct ndp_locator locator;
};

static void read_resources(struct template_reader *r,
                           const struct json_object *resources,
                           const char *parent_type);


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

static void keep_resource(struct template_reader *r,
                          const struct json_object *res, const char *type,
                          const char *symbol)
{
    const char *name = ndp_json_get_string(res, "name");
    struct ndp_change *c;
    enum ndp_kind kind;
    struct ndp_buf address = NDP_BUF_INIT;

    if (!ndp_arm_type_kind(type, &kind) || !name)
        return;
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
}

static void read_one(struct template_reader *r, const struct json_object *res,
                     const char *parent_type, const char *symbol)
{
    const char *type = ndp_json_get_string(res, "type");
    const struct json_object *nested;
    struct ndp_buf full = NDP_BUF_INIT;

    r->set->inputs[r->input_index].resources_seen++;
    if (!type || ndp_json_is_true(ndp_json_get(res, "existing")))
        return;
    /* A child resource written inside its parent has a relative type. */
    if (parent_type && !strchr(type, '.'))
        ndp_buf_addf(&full, "%s/%s", parent_type, type);
    else
        ndp_buf_adds(&full, type);
    keep_resource(r, res, full.buf, symbol);
    read_resources(r, ndp_json_get(res, "resources"), full.buf);
    nested = ndp_json_path(res, "properties.template");
    if (nested && ndp_strcasecmp(type, "Microsoft.Resources/deployments") == 0)
        read_resources(r, ndp_json_get(nested, "resources"), NULL);
    ndp_buf_release(&full);
}

static void read_resources(struct template_reader *r,
                           const struct json_object *resources,
                           const char *parent_type)
{
    size_t i, n;

    if (!resources)
        return;
    if (json_object_is_type(resources, json_type_object)) {
        json_object_object_foreach(ndp_json_unconst(resources),
                                   symbol, res)
            read_one(r, res, parent_type, symbol);
        return;
    }
    if (!json_object_is_type(resources, json_type_array))
        return;
    n = json_object_array_length(resources);
    for (i = 0; i < n; i++)
        read_one(r, json_object_array_get_idx(resources, i), parent_type,
                 NULL);
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

int ndp_template_read(struct ndp_changeset *set, size_t input_index,
                      const struct ndp_document *doc, struct ndp_error *err)
{
    struct template_reader r = { set, input_index, doc, set->nr,
                                 NDP_LOCATOR_INIT };
    const struct json_object *resources = ndp_json_get(doc->root,
                                                       "resources");

    if (!resources || (!json_object_is_type(resources, json_type_array) &&
                       !json_object_is_type(resources, json_type_object)))
        return ndp_error_set(err, NDP_ESCHEMA,
                             "'%s' is an ARM template without a "
                             "'resources' array or object", doc->path);
    read_resources(&r, resources, NULL);
    link_to_single_cluster(&r);
    return 0;
}

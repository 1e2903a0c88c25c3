/*
 * SPDX-License-Identifier: Apache-2.0
 * input_tfplan.c - reader for Terraform / OpenTofu plan JSON
 * ('terraform show -json PLANFILE', format_version 0.x and 1.x).
 *
 * Keeps azurerm_kubernetes_cluster, azurerm_kubernetes_cluster_node_pool
 * and azapi_resource / azapi_update_resource of a
 * Microsoft.ContainerService/managedClusters type (any child type, any
 * api-version), and turns each into a struct ndp_change; of an
 * azurerm_subnet it keeps the id and the addresses its prefixes leave
 * usable (struct ndp_subnet), for the pools in it.  For azapi the
 * change's documents are the ARM request body (decoded first when azapi
 * <= 1.15 stored it as a JSON string), so the ARM-notation rules apply.
 * Changes Terraform deferred to a later round (deferred_changes) are read
 * the same way and keep their reason.  Links to the owning cluster are
 * recorded both as ARM ids from the values and as Terraform addresses from
 * the plan's 'configuration' section.
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "change.h"
#include "error.h"
#include "jsonutil.h"
#include "strmap.h"

#include <ctype.h>
#include <limits.h>

#define MANAGED_CLUSTERS "Microsoft.ContainerService/managedClusters"

/*
 * The configuration's resources by module and address ("module.a.|
 * type.name", instance keys left out), built once when first asked:
 * linking each change and each Kubernetes object costs one lookup, not a
 * scan of its module.
 */
struct config_index {
    bool built;
    struct ndp_strmap map;
    char **keys;                             /* owned, the map's keys */
    const struct json_object **resources;    /* borrowed, by value */
    size_t nr, alloc_keys, alloc_resources;
};

struct plan_reader {
    struct ndp_changeset *set;
    size_t input_index;
    const struct ndp_document *doc;
    struct ndp_error *err;
    struct ndp_locator locator; /* lines of resources, in one pass */
    struct config_index config;
};

static int check_format_version(const struct plan_reader *r)
{
    const char *fv = ndp_json_get_string(r->doc->root, "format_version");

    if (!fv)
        return ndp_error_set(r->err, NDP_ESCHEMA,
                             "'%s' has no 'format_version'; expected "
                             "'terraform show -json PLANFILE' output",
                             r->doc->path);
    if (!(fv[0] == '0' || fv[0] == '1') || fv[1] != '.')
        return ndp_error_set(r->err, NDP_ESCHEMA,
                             "'%s' has plan format_version '%s'; this "
                             "ndplint reads format versions 0.x and 1.x",
                             r->doc->path, fv);
    return 0;
}

static bool module_has_resources(const struct json_object *module)
{
    struct json_object *children = ndp_json_get(module, "child_modules");
    size_t i, n;

    if (!ndp_json_is_unset(ndp_json_get(module, "resources")))
        return true;
    n = children && json_object_is_type(children, json_type_array)
            ? json_object_array_length(children) : 0;
    for (i = 0; i < n; i++)
        if (module_has_resources(json_object_array_get_idx(children, i)))
            return true;
    return false;
}

/* A plan with nothing in resource_changes must really be an empty plan. */
static int check_empty_plan(const struct plan_reader *r)
{
    const struct json_object *root = r->doc->root;
    struct json_object *planned = ndp_json_get(root, "planned_values");

    if (!planned && ndp_json_get(root, "values"))
        return ndp_error_set(r->err, NDP_ESCHEMA,
                             "'%s' is a Terraform state, not a plan (it has "
                             "'values' and no 'resource_changes'); run "
                             "'terraform show -json PLANFILE'", r->doc->path);
    if (planned && module_has_resources(ndp_json_get(planned, "root_module")))
        return ndp_error_set(r->err, NDP_ESCHEMA,
                             "'%s' lists resources in 'planned_values' but "
                             "has no 'resource_changes'; the file is "
                             "incomplete, so no change can be judged",
                             r->doc->path);
    return 0;
}

static enum ndp_action parse_actions(const struct json_object *actions)
{
    size_t n = actions && json_object_is_type(actions, json_type_array)
                   ? json_object_array_length(actions) : 0;
    const char *a0, *a1;

    if (n == 0)
        return NDP_ACTION_OTHER;
    a0 = json_object_get_string(json_object_array_get_idx(actions, 0));
    a1 = n > 1 ? json_object_get_string(json_object_array_get_idx(actions, 1))
               : NULL;
    if (!a0)
        return NDP_ACTION_OTHER;
    if (a1 && ((strcmp(a0, "delete") == 0 && strcmp(a1, "create") == 0) ||
               (strcmp(a0, "create") == 0 && strcmp(a1, "delete") == 0)))
        return NDP_ACTION_REPLACE;
    if (strcmp(a0, "no-op") == 0)
        return NDP_ACTION_NOOP;
    if (strcmp(a0, "create") == 0)
        return NDP_ACTION_CREATE;
    if (strcmp(a0, "update") == 0)
        return NDP_ACTION_UPDATE;
    if (strcmp(a0, "delete") == 0)
        return NDP_ACTION_DELETE;
    if (strcmp(a0, "read") == 0)
        return NDP_ACTION_READ;
    return NDP_ACTION_OTHER;
}

/* The value of 'key' in after, else in before (strings only). */
static const char *after_or_before(const struct json_object *change,
                                   const char *key)
{
    const char *v = ndp_json_get_string(ndp_json_get(change, "after"), key);

    if (!v || !*v)
        v = ndp_json_get_string(ndp_json_get(change, "before"), key);
    return v && *v ? v : NULL;
}

/*
 * after_or_before() for a value that may be printed: NULL when it is
 * unknown after apply or sensitive on either side it is read from.
 */
static const char *shown_attribute(const struct json_object *change,
                                   const char *key)
{
    const char *v;

    if (ndp_json_mask_covers(ndp_json_get(change, "after_unknown"), key) ||
        ndp_json_mask_covers(ndp_json_get(change, "after_sensitive"), key))
        return NULL;
    v = ndp_json_get_string(ndp_json_get(change, "after"), key);
    if (v && *v)
        return v;
    if (ndp_json_mask_covers(ndp_json_get(change, "before_sensitive"), key))
        return NULL;
    v = ndp_json_get_string(ndp_json_get(change, "before"), key);
    return v && *v ? v : NULL;
}

/*
 * A cluster's Azure name and resource group for the report: azurerm's
 * name and resource_group_name, azapi's name and the resource group its
 * parent_id names.
 */
static void fill_shown_names(struct ndp_change *c,
                             const struct json_object *change, bool azapi)
{
    const char *name = shown_attribute(change, "name");
    const char *group = shown_attribute(change, azapi ? "parent_id"
                                                      : "resource_group_name");

    if (c->kind != NDP_KIND_CLUSTER)
        return;
    c->shown_name = name ? ndp_xstrdup(name) : NULL;
    if (group)
        c->shown_group = azapi ? ndp_arm_id_segment(group, "resourceGroups")
                               : ndp_xstrdup(group);
}

/* "Microsoft.ContainerService/managedClusters/agentPools@2025-01-01" -> kind. */
static bool classify_azapi(const char *type, bool is_update,
                           enum ndp_kind *kind, char **arm_type)
{
    char *bare = ndp_xstrndup(type, strcspn(type, "@"));

    if (!ndp_arm_type_kind(bare, kind)) {
        free(bare);
        return false;
    }
    /* azapi_update_resource on a cluster sets part of it. */
    if (*kind == NDP_KIND_CLUSTER && is_update)
        *kind = NDP_KIND_SETTER;
    *arm_type = bare;
    return true;
}

/* azapi <= 1.15 may hold the body as a JSON string: decode it. */
static struct json_object *decode_body(const struct json_object *body,
                                       const struct plan_reader *r,
                                       const char *address, int *rc)
{
    const char *s;
    struct json_object *parsed;

    if (!body || json_object_is_type(body, json_type_null))
        return NULL;
    if (!json_object_is_type(body, json_type_string))
        return json_object_get(ndp_json_unconst(body));
    s = json_object_get_string(ndp_json_unconst(body));
    if (!*s)
        return NULL;
    parsed = json_tokener_parse(s);
    if (!parsed)
        *rc = ndp_error_set(r->err, NDP_ESCHEMA,
                            "'%s': %s: 'body' is a string that is not valid "
                            "JSON", r->doc->path, address);
    return parsed;
}

static struct json_object *take(const struct json_object *v)
{
    return v ? json_object_get(ndp_json_unconst(v)) : NULL;
}

/*
 * The part of mask 'name' that covers 'body': its "body" member, or the
 * mask itself when it is a boolean (true marks the whole resource).
 */
static struct json_object *body_mask(const struct json_object *change,
                                     const char *name)
{
    const struct json_object *mask = ndp_json_get(change, name);

    if (mask && json_object_is_type(mask, json_type_boolean))
        return take(mask);
    return take(ndp_json_get(mask, "body"));
}

/*
 * An azapi_update_resource of an agent pool has no 'name' or 'parent_id':
 * its resource_id ("<cluster id>/agentPools/<name>") gives both, as a
 * what-if resourceId does.
 */
static void pool_from_resource_id(struct ndp_change *c, const char *id)
{
    static const char segment[] = "/agentPools/";
    char *name = ndp_arm_id_segment(id, "agentPools");
    size_t len = strlen(id), tail = name ? strlen(name) + strlen(segment) : 0;

    if (name && len > tail && strcmp(id + len - strlen(name), name) == 0 &&
        ndp_strncasecmp(id + len - tail, segment, strlen(segment)) == 0) {
        c->parent_id = ndp_xstrndup(id, len - tail);
        if (!c->name)
            c->name = ndp_xstrdup(name);
    }
    free(name);
}

static int fill_azapi(struct ndp_change *c, const struct json_object *change,
                      const struct plan_reader *r)
{
    int rc = 0;
    const char *self_id = after_or_before(change, "id");
    const char *parent = after_or_before(change, "parent_id");
    const char *target = after_or_before(change, "resource_id");

    c->notation = NDP_NOTATION_ARM;
    c->before = decode_body(ndp_json_get(ndp_json_get(change, "before"),
                                         "body"), r, c->address, &rc);
    if (!rc)
        c->after = decode_body(ndp_json_get(ndp_json_get(change, "after"),
                                            "body"), r, c->address, &rc);
    c->after_unknown = body_mask(change, "after_unknown");
    c->before_sensitive = body_mask(change, "before_sensitive");
    c->after_sensitive = body_mask(change, "after_sensitive");
    if (after_or_before(change, "name"))
        c->name = ndp_xstrdup(after_or_before(change, "name"));
    else if (c->kind == NDP_KIND_NODEPOOL && target)
        /* azapi_update_resource names a pool by its resource_id. */
        c->name = ndp_arm_id_segment(target, "agentPools");
    if (c->kind == NDP_KIND_SETTER) {
        /* azapi_update_resource targets the cluster itself: resource_id,
         * or parent_id + name. */
        if (target) {
            c->parent_id = ndp_xstrdup(target);
        } else if (parent && c->name) {
            struct ndp_buf id = NDP_BUF_INIT;
            ndp_buf_addf(&id, "%s/providers/%s/%s", parent, MANAGED_CLUSTERS,
                         c->name);
            c->parent_id = ndp_buf_detach(&id);
        }
    } else {
        if (self_id)
            c->self_id = ndp_xstrdup(self_id);
        if (parent && c->kind != NDP_KIND_CLUSTER)
            c->parent_id = ndp_xstrdup(parent);
        else if (target && c->kind == NDP_KIND_NODEPOOL)
            pool_from_resource_id(c, target);
    }
    return rc;
}

static void fill_azurerm(struct ndp_change *c, const struct json_object *change)
{
    const char *self_id = after_or_before(change, "id");
    const char *cluster_id = after_or_before(change, "kubernetes_cluster_id");

    c->notation = NDP_NOTATION_AZURERM;
    c->before = take(ndp_json_get(change, "before"));
    c->after = take(ndp_json_get(change, "after"));
    c->after_unknown = take(ndp_json_get(change, "after_unknown"));
    c->before_sensitive = take(ndp_json_get(change, "before_sensitive"));
    c->after_sensitive = take(ndp_json_get(change, "after_sensitive"));
    if (self_id)
        c->self_id = ndp_xstrdup(self_id);
    if (cluster_id)
        c->parent_id = ndp_xstrdup(cluster_id);
    if (after_or_before(change, "name"))
        c->name = ndp_xstrdup(after_or_before(change, "name"));
}

static void print_replace_paths(struct ndp_change *c,
                                const struct json_object *change)
{
    struct json_object *paths = ndp_json_get(change, "replace_paths");
    struct ndp_buf out = NDP_BUF_INIT;
    size_t i, j, n;

    n = paths && json_object_is_type(paths, json_type_array)
            ? json_object_array_length(paths) : 0;
    for (i = 0; i < n; i++) {
        struct json_object *p = json_object_array_get_idx(paths, i);
        size_t m = json_object_is_type(p, json_type_array)
                       ? json_object_array_length(p) : 0;

        if (out.len)
            ndp_buf_adds(&out, ", ");
        for (j = 0; j < m; j++) {
            struct json_object *step = json_object_array_get_idx(p, j);
            if (json_object_is_type(step, json_type_int))
                ndp_buf_addf(&out, "[%lld]",
                             (long long)json_object_get_int64(step));
            else
                ndp_buf_addf(&out, "%s%s", j ? "." : "",
                             json_object_get_string(step));
        }
    }
    c->replace_paths = out.len ? ndp_buf_detach(&out) : NULL;
    ndp_buf_release(&out);
}

/*
 * One resource change: an entry of resource_changes, or the resource_change
 * of a deferred_changes entry ('deferred': its reason; NULL for the
 * former).  'located' is the list entry, whose offset the pruned reader
 * recorded.
 */
/* Is [s, end) an IPv4 address, four numbers of 0-255 between dots? */
static bool is_ipv4(const char *s, const char *end)
{
    int parts;

    for (parts = 0; parts < 4; parts++) {
        long v = 0;
        const char *start = s;
        while (s < end && isdigit((unsigned char)*s) && s - start < 3)
            v = v * 10 + (*s++ - '0');
        if (s == start || v > 255 || (parts < 3 && (s >= end || *s++ != '.')))
            return false;
    }
    return s == end;
}

/* The addresses of IPv4 prefix "a.b.c.d/n" Azure leaves usable, or -1. */
static long usable_addresses(const char *prefix)
{
    const char *slash = strchr(prefix, '/');
    char *end;
    long bits;
    int64_t size;

    if (!slash || !is_ipv4(prefix, slash) ||
        !isdigit((unsigned char)slash[1]))
        return -1;
    bits = strtol(slash + 1, &end, 10);
    if (end == slash + 1 || *end || bits < 0 || bits > 32)
        return -1;
    /* Azure keeps the first four addresses and the last one. */
    size = ((int64_t)1 << (32 - bits)) - 5;
    return size < 0 ? 0 : size > LONG_MAX ? LONG_MAX : (long)size;
}

/*
 * An azurerm_subnet: its id and the addresses its IPv4 prefixes leave
 * usable, for the pools the plan puts in it (put-time-limits PT-CAP-02).
 * A subnet the plan deletes, or whose id is not known, is not kept.
 */
static void read_subnet(struct plan_reader *r, const char *address,
                        const struct json_object *change)
{
    const struct json_object *side = ndp_json_get(change, "after");
    const struct json_object *list, *mask;
    const char *id = after_or_before(change, "id");
    struct ndp_buf text = NDP_BUF_INIT;
    struct ndp_subnet *sn;
    size_t i, n;
    long total = -1;

    if (ndp_json_is_unset(side))
        return;
    list = ndp_json_get(side, "address_prefixes");
    n = list && json_object_is_type(list, json_type_array)
            ? json_object_array_length(list) : 0;
    for (i = 0; i < n; i++) {
        const struct json_object *e = json_object_array_get_idx(list, i);
        const char *p = json_object_is_type(e, json_type_string)
                            ? json_object_get_string(ndp_json_unconst(e))
                            : NULL;
        long u = p ? usable_addresses(p) : -1;
        if (u < 0)
            continue;
        total = total < 0 ? u : total > LONG_MAX - u ? LONG_MAX : total + u;
        ndp_buf_addf(&text, "%s%s", text.len ? ", " : "", p);
    }
    if (!id || total < 0) {
        ndp_buf_release(&text);
        return;
    }
    sn = ndp_changeset_add_subnet(r->set);
    sn->id = ndp_xstrdup(id);
    sn->address = ndp_xstrdup(address ? address : "azurerm_subnet");
    sn->prefixes = ndp_buf_detach(&text);
    sn->usable = total;
    mask = ndp_json_get(change, "after_sensitive");
    sn->sensitive = ndp_json_mask_covers(mask, "address_prefixes");
}

static void read_kube(struct plan_reader *r, const char *type,
                      const char *address, const struct json_object *change,
                      const struct json_object *located, bool deferred);

static int read_resource(struct plan_reader *r,
                         const struct json_object *rc_entry,
                         const struct json_object *located,
                         const char *deferred)
{
    const char *type = ndp_json_get_string(rc_entry, "type");
    const char *address = ndp_json_get_string(rc_entry, "address");
    const char *mode = ndp_json_get_string(rc_entry, "mode");
    const char *previous;
    struct json_object *change = ndp_json_get(rc_entry, "change");
    enum ndp_kind kind = NDP_KIND_CLUSTER;
    char *arm_type = NULL;
    struct ndp_change *c;
    int rc = 0;

    r->set->inputs[r->input_index].resources_seen++;
    if (!type || !change || !json_object_is_type(change, json_type_object))
        return ndp_error_set(r->err, NDP_ESCHEMA,
                             "'%s': %s entry %s has no 'type' or 'change'",
                             r->doc->path, deferred ? "deferred_changes"
                                                    : "resource_changes",
                             address ? address : "(without address)");
    if (mode && strcmp(mode, "managed") != 0)
        return 0;
    if (strcmp(type, "azurerm_subnet") == 0) {
        read_subnet(r, address, change);
        return 0;
    }
    if (ndp_kube_plan_type(type)) {
        read_kube(r, type, address, change, located, deferred != NULL);
        return 0;
    }
    if (strcmp(type, "azurerm_kubernetes_cluster") == 0) {
        kind = NDP_KIND_CLUSTER;
    } else if (strcmp(type, "azurerm_kubernetes_cluster_node_pool") == 0) {
        kind = NDP_KIND_NODEPOOL;
    } else if (strcmp(type, "azapi_resource") == 0 ||
               strcmp(type, "azapi_update_resource") == 0) {
        const char *azapi_type = after_or_before(change, "type");
        if (!azapi_type ||
            !classify_azapi(azapi_type, type[6] == 'u', &kind, &arm_type))
            return 0;
    } else {
        return 0;
    }
    c = ndp_changeset_add(r->set, r->input_index);
    c->address = ndp_xstrdup(address ? address : type);
    previous = ndp_json_get_string(rc_entry, "previous_address");
    if (previous && *previous && strcmp(previous, c->address) != 0)
        c->previous_address = ndp_xstrdup(previous);
    c->kind = kind;
    c->setter = strcmp(type, "azapi_update_resource") == 0;
    c->action = parse_actions(ndp_json_get(change, "actions"));
    c->resource_type = arm_type ? arm_type : ndp_xstrdup(type);
    c->line = ndp_document_locate(r->doc, &r->locator, located, "address",
                                  c->address);
    c->deferred_reason = deferred ? ndp_xstrdup(deferred) : NULL;
    print_replace_paths(c, change);
    if (arm_type)
        rc = fill_azapi(c, change, r);
    else
        fill_azurerm(c, change);
    fill_shown_names(c, change, arm_type != NULL);
    return rc;
}

/* ---- configuration: which cluster a pool or azapi resource refers to ---- */

static const char *const link_attributes[] = {
    "kubernetes_cluster_id", "parent_id", "resource_id"
};

/* The first reference of one of 'attributes' that begins with 'prefix'. */
static const char *reference_to(const struct json_object *expressions,
                                const char *const *attributes, size_t nr,
                                const char *const *prefixes)
{
    size_t i, j, k, n;

    for (i = 0; i < nr; i++) {
        struct json_object *refs = ndp_json_get(
            ndp_json_get(expressions, attributes[i]), "references");
        n = refs && json_object_is_type(refs, json_type_array)
                ? json_object_array_length(refs) : 0;
        for (j = 0; j < n; j++) {
            const char *ref = json_object_get_string(
                json_object_array_get_idx(refs, j));
            for (k = 0; ref && prefixes[k]; k++)
                if (strncmp(ref, prefixes[k], strlen(prefixes[k])) == 0)
                    return ref;
        }
    }
    return NULL;
}

static const char *cluster_reference(const struct json_object *expressions)
{
    static const char *const prefixes[] = {
        "azurerm_kubernetes_cluster.", "azapi_resource.", NULL
    };

    return reference_to(expressions, link_attributes,
                        NDP_ARRAY_SIZE(link_attributes), prefixes);
}

/* The azurerm pool resource a setter's resource_id names, or NULL. */
static const char *pool_reference(const struct json_object *expressions)
{
    static const char *const attribute[] = { "resource_id" };
    static const char *const prefixes[] = {
        "azurerm_kubernetes_cluster_node_pool.", NULL
    };

    return reference_to(expressions, attribute, 1, prefixes);
}

/* 'prefix' then 'ref' without a trailing ".id": an address. */
static char *referenced_address(const char *prefix, const char *ref)
{
    struct ndp_buf full = NDP_BUF_INIT;
    size_t len = strlen(ref);

    if (len > 3 && strcmp(ref + len - 3, ".id") == 0)
        len -= 3;
    ndp_buf_adds(&full, prefix);
    ndp_buf_add(&full, ref, len);
    return ndp_buf_detach(&full);
}

/*
 * Length of one "module.NAME" or "module.NAME[KEY]" step at 'p', without
 * the dot that follows; 0 when 'p' is not a module step.  A for_each key is
 * a quoted string that may itself hold '.' or ']'.
 */
static size_t module_step(const char *p, size_t *name_len)
{
    const char *q = p + 7;

    if (strncmp(p, "module.", 7) != 0)
        return 0;
    q += strcspn(q, ".[");
    *name_len = (size_t)(q - (p + 7));
    q = ndp_address_skip_key(q);
    return *q == '.' ? (size_t)(q - p) : 0;
}

/*
 * "module.a["x"].module.b.type.name[0]" -> prefix "module.a["x"].module.b."
 * (instance keys kept, so a reference resolves inside the same module
 * instance) and local "type.name".
 */
static void split_address(const char *address, struct ndp_buf *prefix,
                          struct ndp_buf *local)
{
    const char *p = address;
    size_t step, name_len;

    while ((step = module_step(p, &name_len)) != 0) {
        ndp_buf_add(prefix, p, step + 1);
        p += step + 1;
    }
    ndp_buf_add(local, p, strcspn(p, "["));
}

/*
 * The directory of the module holding 'address', from the module calls'
 * local "source" paths ("./modules/aks"); NULL for a registry or git module.
 */
static char *module_dir(const struct json_object *root, const char *address)
{
    const struct json_object *m = ndp_json_get(ndp_json_get(root,
                                                 "configuration"),
                                               "root_module");
    struct ndp_buf dir = NDP_BUF_INIT;
    const char *p = address;
    char name[256];
    size_t step, name_len;

    while (m && (step = module_step(p, &name_len)) != 0) {
        const struct json_object *call;
        const char *source;
        if (name_len >= sizeof(name))
            goto unknown;
        memcpy(name, p + 7, name_len);
        name[name_len] = '\0';
        call = ndp_json_get(ndp_json_get(m, "module_calls"), name);
        source = ndp_json_get_string(call, "source");
        if (!source || (strncmp(source, "./", 2) != 0 &&
                        strncmp(source, "../", 3) != 0))
            goto unknown;
        /* "./modules/aks" -> "modules/aks": paths stay tidy in reports. */
        ndp_buf_addf(&dir, "%s%s", dir.len ? "/" : "",
                     strncmp(source, "./", 2) == 0 ? source + 2 : source);
        m = ndp_json_get(call, "module");
        p += step + 1;
    }
    return ndp_buf_detach(&dir);
unknown:
    ndp_buf_release(&dir);
    return NULL;
}

/* ---- a Kubernetes object's cluster: its provider's host ---------------- */

static void index_module(struct config_index *ix,
                         const struct json_object *module,
                         struct ndp_buf *path, unsigned depth)
{
    const struct json_object *res = ndp_json_get(module, "resources");
    const struct json_object *calls = ndp_json_get(module, "module_calls");
    size_t i, n = res && json_object_is_type(res, json_type_array)
                      ? json_object_array_length(res) : 0, at = path->len;

    for (i = 0; i < n; i++) {
        const struct json_object *r = ndp_json_index(res, i);
        const char *addr = ndp_json_get_string(r, "address");
        if (!addr)
            continue;
        ndp_buf_addf(path, "|%s", addr);
        NDP_GROW(ix->keys, ix->alloc_keys, ix->nr + 1);
        NDP_GROW(ix->resources, ix->alloc_resources, ix->nr + 1);
        ix->keys[ix->nr] = ndp_xstrdup(path->buf);
        ix->resources[ix->nr] = r;
        if (ndp_strmap_add(&ix->map, ix->keys[ix->nr], ix->nr) == ix->nr)
            ix->nr++;
        else
            free(ix->keys[ix->nr]);
        ndp_buf_setlen(path, at);
    }
    /* Module calls nest as deep as the document; json-c bounds that. */
    if (!calls || !json_object_is_type(calls, json_type_object) ||
        depth > 64)
        return;
    json_object_object_foreach(ndp_json_unconst(calls), name, call) {
        ndp_buf_addf(path, "module.%s.", name);
        index_module(ix, ndp_json_get(call, "module"), path, depth + 1);
        ndp_buf_setlen(path, at);
    }
}

/*
 * The configuration resource of the change at 'address' ("module.a["x"].
 * t.n[0]"), or NULL.
 */
static const struct json_object *config_resource(struct plan_reader *r,
                                                 const char *address)
{
    struct config_index *ix = &r->config;
    struct ndp_buf key = NDP_BUF_INIT;
    const char *p = address, *last = address;
    size_t at;

    if (!ix->built) {
        struct ndp_buf path = NDP_BUF_INIT;
        ix->built = true;
        index_module(ix, ndp_json_get(ndp_json_get(r->doc->root,
                                                   "configuration"),
                                      "root_module"), &path, 0);
        ndp_buf_release(&path);
    }
    /* The module path without instance keys, then '|' and the local
     * address without its key. */
    while (strncmp(p, "module.", 7) == 0) {
        const char *q = ndp_address_skip_key(p + 7 + strcspn(p + 7, ".["));
        if (*q != '.')
            break;
        ndp_buf_add(&key, p, (size_t)(p + 7 + strcspn(p + 7, ".[") - p));
        ndp_buf_addch(&key, '.');
        p = last = q + 1;
    }
    ndp_buf_addch(&key, '|');
    ndp_buf_add(&key, last, strcspn(last, "["));
    at = ndp_strmap_find(&ix->map, key.buf);
    ndp_buf_release(&key);
    return at == SIZE_MAX ? NULL : ix->resources[at];
}

static void config_index_release(struct config_index *ix)
{
    size_t i;

    for (i = 0; i < ix->nr; i++)
        free(ix->keys[i]);
    free(ix->keys);
    free(ix->resources);
    ndp_strmap_release(&ix->map);
}

/*
 * "azurerm_kubernetes_cluster.aks.kube_config[0].host" -> the length of
 * "azurerm_kubernetes_cluster.aks" (with an instance key when one
 * follows the name), the same for "azapi_resource.aks.output..."; 0 when
 * 'ref' names neither.
 */
static size_t cluster_in_reference(const char *ref)
{
    /* An azapi_resource is a cluster when the change set says so. */
    static const char *const types[] = {
        "azurerm_kubernetes_cluster.", "azapi_resource."
    };
    const char *p = NULL, *name;
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(types) && !p; i++)
        if (strncmp(ref, types[i], strlen(types[i])) == 0)
            p = ref + strlen(types[i]);
    if (!p)
        return 0;
    name = p;
    p += strcspn(p, ".[");
    if (p == name)
        return 0;
    return (size_t)(ndp_address_skip_key(p) - ref);
}

static char *host_cluster(const struct json_object *root, const char *key,
                          const char *prefix)
{
    const struct json_object *cfg = ndp_json_get(
        ndp_json_get(ndp_json_get(root, "configuration"), "provider_config"),
        key);
    const struct json_object *refs = ndp_json_path(cfg, "expressions.host."
                                                        "references");
    size_t i, n = refs && json_object_is_type(refs, json_type_array)
                      ? json_object_array_length(refs) : 0;

    for (i = 0; i < n; i++) {
        const char *ref = json_object_get_string(
            ndp_json_unconst(ndp_json_index(refs, i)));
        size_t len = ref ? cluster_in_reference(ref) : 0;
        if (len) {
            struct ndp_buf out = NDP_BUF_INIT;
            ndp_buf_addf(&out, "%s%.*s", prefix, (int)len, ref);
            return ndp_buf_detach(&out);
        }
    }
    return NULL;
}

/*
 * The Terraform address of the cluster the provider of 'address' takes
 * its host from, or NULL.  A provider of the root module ("kubernetes")
 * names root resources, one of a module ("module.a:kubernetes") those of
 * that module; a module that inherits its provider names the root's.
 */
/*
 * The part of 'prefix' (a resource's module path, instance keys kept:
 * "module.x[\"a\"].module.y.") that is the module of provider config key
 * 'key' ("module.x:kubernetes": one step; "kubernetes": none): a module
 * inherits its parent's provider, whose references are the parent's.
 */
static size_t provider_module_len(const char *prefix, const char *key)
{
    const char *colon = strrchr(key, ':'), *p = prefix;
    size_t steps = 0, name_len;

    for (; colon && key < colon; key++)
        steps += strncmp(key, "module.", 7) == 0;
    while (steps-- > 0) {
        size_t step = module_step(p, &name_len);
        if (!step)
            break;
        p += step + 1;
    }
    return (size_t)(p - prefix);
}

static char *kube_cluster_of(struct plan_reader *r, const char *address)
{
    struct ndp_buf prefix = NDP_BUF_INIT, local = NDP_BUF_INIT;
    const char *key;
    char *out = NULL;

    split_address(address, &prefix, &local);
    key = ndp_json_get_string(config_resource(r, address),
                              "provider_config_key");
    if (key) {
        ndp_buf_setlen(&prefix, provider_module_len(prefix.buf, key));
        out = host_cluster(r->doc->root, key, prefix.buf);
    }
    ndp_buf_release(&prefix);
    ndp_buf_release(&local);
    return out;
}

/* A pod disruption budget or a workload (input_kube.c). */
static void read_kube(struct plan_reader *r, const char *type,
                      const char *address, const struct json_object *change,
                      const struct json_object *located, bool deferred)
{
    long line = address ? ndp_document_locate(r->doc, &r->locator, located,
                                              "address", address)
                        : 0;

    ndp_tfplan_read_kube(r->set, r->set->inputs[r->input_index].path, type,
                         address ? address : type, change,
                         parse_actions(ndp_json_get(change, "actions")),
                         deferred, line,
                         kube_cluster_of(r, address ? address : type));
}

static void link_by_configuration(struct plan_reader *r,
                                  struct ndp_change *c)
{
    struct ndp_buf prefix = NDP_BUF_INIT, local = NDP_BUF_INIT;
    const struct json_object *res = config_resource(r, c->address);
    const char *ref;

    split_address(c->address, &prefix, &local);
    if (!res)
        ;
    else if ((ref = cluster_reference(ndp_json_get(res, "expressions"))))
        c->parent_ref = referenced_address(prefix.buf, ref);
    else if (c->setter && c->kind == NDP_KIND_NODEPOOL &&
             (ref = pool_reference(ndp_json_get(res, "expressions"))))
        c->pool_ref = referenced_address(prefix.buf, ref);
    ndp_buf_release(&prefix);
    ndp_buf_release(&local);
}

/* A top-level list of the plan, or NULL; '*n': its length. */
static int plan_list(struct json_object **out, size_t *n,
                     const struct plan_reader *r, const char *key)
{
    struct json_object *list = ndp_json_get(r->doc->root, key);

    *out = NULL;
    *n = 0;
    if (!list)
        return 0;
    if (!json_object_is_type(list, json_type_array))
        return ndp_error_set(r->err, NDP_ESCHEMA, "'%s': '%s' is not an "
                             "array", r->doc->path, key);
    *out = list;
    *n = json_object_array_length(list);
    return 0;
}

/*
 * deferred_changes (Terraform 1.10 and later, "complete": false): changes
 * Terraform will plan and apply in a later round.  They are judged like
 * resource changes (spec 11), and each keeps its reason.
 */
static int read_deferred(struct plan_reader *r, const struct json_object *d)
{
    struct json_object *change = ndp_json_get(d, "resource_change");
    const char *reason = ndp_json_get_string(d, "reason");

    if (!change || !json_object_is_type(change, json_type_object)) {
        r->set->inputs[r->input_index].resources_seen++;
        return ndp_error_set(r->err, NDP_ESCHEMA, "'%s': deferred_changes "
                             "entry without a 'resource_change' object",
                             r->doc->path);
    }
    return read_resource(r, change, d, reason ? reason : "");
}

int ndp_tfplan_read(struct ndp_changeset *set, size_t input_index,
                    const struct ndp_document *doc, struct ndp_error *err)
{
    struct plan_reader r = { set, input_index, doc, err, NDP_LOCATOR_INIT,
                             { false, NDP_STRMAP_INIT(false), NULL, NULL, 0,
                               0, 0 } };
    struct ndp_locator later = NDP_LOCATOR_INIT;
    struct json_object *changes, *deferred;
    size_t i, n, nd, first = set->nr, first_budget = set->kube.nr_budgets;
    int rc;

    rc = check_format_version(&r);
    if (rc)
        return rc;
    if (ndp_json_is_true(ndp_json_get(doc->root, "errored")))
        return ndp_error_set(err, NDP_ESCHEMA,
                             "'%s' is the plan of a failed 'terraform plan' "
                             "(\"errored\": true); fix the plan errors first",
                             doc->path);
    rc = plan_list(&changes, &n, &r, "resource_changes");
    if (!rc)
        rc = plan_list(&deferred, &nd, &r, "deferred_changes");
    if (rc)
        return rc;
    /* Pruned to nothing is not empty: the plan has only other resources. */
    if (n + nd == 0 && (doc->entries == 0 || doc->entries == SIZE_MAX))
        return check_empty_plan(&r);
    /* planned_values, earlier in the file, lists the same addresses. */
    r.locator.section = "\"resource_changes\"";
    for (i = 0; i < n && !rc; i++) {
        struct json_object *entry = json_object_array_get_idx(changes, i);
        rc = read_resource(&r, entry, entry, NULL);
    }
    later.section = "\"deferred_changes\"";
    r.locator = later;
    for (i = 0; i < nd && !rc; i++)
        rc = read_deferred(&r, json_object_array_get_idx(deferred, i));
    for (i = first; i < set->nr && !rc; i++) {
        if (set->items[i]->kind != NDP_KIND_CLUSTER)
            link_by_configuration(&r, set->items[i]);
        set->items[i]->source_dir = module_dir(doc->root,
                                               set->items[i]->address);
    }
    if (!rc)
        ndp_tfplan_read_order(set, first, first_budget, doc->root);
    config_index_release(&r.config);
    return rc;
}

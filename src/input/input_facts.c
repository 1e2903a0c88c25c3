/*
 * SPDX-License-Identifier: Apache-2.0
 * input_facts.c - what a change declares, read from its documents into
 * struct ndp_facts (change.h): its node pools and how they are sized, its
 * Kubernetes version (as declared and as reported, for the version
 * checks, with the auto-upgrade channel and the support plan), its node
 * disruption policy and its maintenance windows.  The last step of the
 * input stage: every reader's changes pass through ndp_facts_fill_all(),
 * and after it only the rule engine's walk reads a document by path.  A
 * provider or API that renames a key is a change of the tables below.
 *
 * Two notations: azurerm attributes (default_node_pool[0], node pool
 * resources, maintenance_window_* blocks) and ARM bodies (azapi, what-if
 * and templates: properties.agentPoolProfiles[], agentPools, the
 * maintenanceConfigurations child).
 */
#include "common.h"
#include "input.h"
#include "buf.h"
#include "change.h"
#include "jsonutil.h"
#include "policy.h"
#include "strmap.h"

#include <json-c/json.h>

/* Where a notation keeps each setting of a pool, below the pool's path. */
struct pool_layout {
    const char *count, *min_count, *max_count, *autoscale, *autoscale_old;
    const char *os_type, *mode, *priority;
    const char *upgrade;        /* the upgrade settings object */
    bool upgrade_is_block;      /* azurerm: a list of one block */
    const char *max_surge, *max_unavailable, *drain, *soak, *undrainable;
    const char *max_blocked;
    const char *rotation_name, *version, *current_version;
    const char *const *fields;  /* printed paths, by enum ndp_pool_field */
    const char *subnet, *pod_subnet, *max_pods;
};

static const char *const azurerm_fields[NDP_POOL_FIELDS] = {
    [NDP_POOL_COUNT] = "node_count",
    [NDP_POOL_MIN_COUNT] = "min_count",
    [NDP_POOL_MAX_COUNT] = "max_count",
    [NDP_POOL_MAX_SURGE] = "upgrade_settings[0].max_surge",
    [NDP_POOL_MAX_UNAVAILABLE] = "upgrade_settings[0].max_unavailable",
    [NDP_POOL_DRAIN_TIMEOUT] = "upgrade_settings[0].drain_timeout_in_minutes",
    [NDP_POOL_SOAK_DURATION] =
        "upgrade_settings[0].node_soak_duration_in_minutes",
    [NDP_POOL_UNDRAINABLE] = "upgrade_settings[0].undrainable_node_behavior",
    [NDP_POOL_ROTATION_NAME] = "temporary_name_for_rotation",
    [NDP_POOL_VERSION] = "orchestrator_version",
    [NDP_POOL_SUBNET] = "vnet_subnet_id",
    [NDP_POOL_MODE] = "mode",
    [NDP_POOL_MAX_BLOCKED] = NULL,
};

/* The default pool block has no mode: it is the cluster's System pool. */
static const char *const azurerm_default_fields[NDP_POOL_FIELDS] = {
    [NDP_POOL_COUNT] = "node_count",
    [NDP_POOL_MIN_COUNT] = "min_count",
    [NDP_POOL_MAX_COUNT] = "max_count",
    [NDP_POOL_MAX_SURGE] = "upgrade_settings[0].max_surge",
    [NDP_POOL_MAX_UNAVAILABLE] = "upgrade_settings[0].max_unavailable",
    [NDP_POOL_DRAIN_TIMEOUT] = "upgrade_settings[0].drain_timeout_in_minutes",
    [NDP_POOL_SOAK_DURATION] =
        "upgrade_settings[0].node_soak_duration_in_minutes",
    [NDP_POOL_UNDRAINABLE] = "upgrade_settings[0].undrainable_node_behavior",
    [NDP_POOL_ROTATION_NAME] = "temporary_name_for_rotation",
    [NDP_POOL_VERSION] = "orchestrator_version",
    [NDP_POOL_SUBNET] = "vnet_subnet_id",
    [NDP_POOL_MODE] = NULL,
    [NDP_POOL_MAX_BLOCKED] = NULL,
};

static const char *const arm_fields[NDP_POOL_FIELDS] = {
    [NDP_POOL_COUNT] = "count",
    [NDP_POOL_MIN_COUNT] = "minCount",
    [NDP_POOL_MAX_COUNT] = "maxCount",
    [NDP_POOL_MAX_SURGE] = "upgradeSettings.maxSurge",
    [NDP_POOL_MAX_UNAVAILABLE] = "upgradeSettings.maxUnavailable",
    [NDP_POOL_DRAIN_TIMEOUT] = "upgradeSettings.drainTimeoutInMinutes",
    [NDP_POOL_SOAK_DURATION] = "upgradeSettings.nodeSoakDurationInMinutes",
    [NDP_POOL_UNDRAINABLE] = "upgradeSettings.undrainableNodeBehavior",
    [NDP_POOL_ROTATION_NAME] = NULL,
    [NDP_POOL_VERSION] = "orchestratorVersion",
    [NDP_POOL_SUBNET] = "vnetSubnetID",
    [NDP_POOL_MODE] = "mode",
    [NDP_POOL_MAX_BLOCKED] = "upgradeSettings.maxBlockedNodes",
};

static const struct pool_layout azurerm_pool = {
    "node_count", "min_count", "max_count", "auto_scaling_enabled",
    "enable_auto_scaling", "os_type", "mode", "priority",
    "upgrade_settings", true, "max_surge", "max_unavailable",
    "drain_timeout_in_minutes", "node_soak_duration_in_minutes",
    "undrainable_node_behavior", NULL, "temporary_name_for_rotation",
    "orchestrator_version", "current_orchestrator_version", azurerm_fields,
    "vnet_subnet_id", "pod_subnet_id", "max_pods",
};

static const struct pool_layout arm_pool = {
    "count", "minCount", "maxCount", "enableAutoScaling", NULL, "osType",
    "mode", "scaleSetPriority", "upgradeSettings", false, "maxSurge",
    "maxUnavailable", "drainTimeoutInMinutes", "nodeSoakDurationInMinutes",
    "undrainableNodeBehavior", "maxBlockedNodes", NULL, "orchestratorVersion",
    "currentOrchestratorVersion", arm_fields, "vnetSubnetID", "podSubnetID",
    "maxPods",
};

/* What the masks may cover of a pool resource: its name and sizes. */
static const char *const azurerm_pool_masked[] = {
    "name", "node_count", "min_count", "max_count", "upgrade_settings",
    "os_type", "auto_scaling_enabled", "enable_auto_scaling"
};
static const char *const arm_pool_masked[] = {
    "properties.count", "properties.minCount", "properties.maxCount",
    "properties.upgradeSettings", "properties.osType",
    "properties.enableAutoScaling"
};

#define AZURERM_DEFAULT_POOL "default_node_pool"
#define ARM_POOL_LIST "agentPoolProfiles"
#define ARM_POLICY_PATH "properties.nodeDisruptionProfile.nodeDisruptionPolicy"

static long number(const struct json_object *o, const char *key)
{
    const struct json_object *v = key ? ndp_json_get(o, key) : NULL;

    return v && json_object_is_type(v, json_type_int)
               ? (long)json_object_get_int64(v) : -1;
}

static bool has_number(const struct json_object *o, const char *key)
{
    const struct json_object *v = key ? ndp_json_get(o, key) : NULL;

    return v && json_object_is_type(v, json_type_int);
}

/* A string value, "" read as not declared. */
static const char *string(const struct json_object *o, const char *key)
{
    const char *s = key ? ndp_json_get_string(o, key) : NULL;

    return s && *s ? s : NULL;
}

static bool is_true(const struct json_object *o, const char *key)
{
    return key && ndp_json_is_true(ndp_json_get(o, key));
}

/* A string at a '.'-separated path (or a key), "" read as not declared. */
static const char *path_string(const struct json_object *doc,
                               const char *path)
{
    const struct json_object *v = strchr(path, '.') ? ndp_json_path(doc, path)
                                                    : ndp_json_get(doc, path);
    const char *s = v && json_object_is_type(v, json_type_string)
                        ? json_object_get_string(ndp_json_unconst(v))
                        : NULL;

    return s && *s ? s : NULL;
}

static const struct json_object *current(const struct ndp_change *ch)
{
    return ch->after ? ch->after : ch->before;
}

static struct ndp_pool_facts *add_pool(struct ndp_facts *f, const char *name,
                                       const char *path)
{
    struct ndp_pool_facts *p;

    f->pools = ndp_xrealloc(f->pools, (f->nr_pools + 1) * sizeof(*f->pools));
    p = &f->pools[f->nr_pools++];
    memset(p, 0, sizeof(*p));
    p->name = name;
    p->path = ndp_xstrdup(path);
    return p;
}

/* A pool's upgrade settings object as 'l' lays it out, or NULL. */
static const struct json_object *upgrade_of(const struct json_object *o,
                                            const struct pool_layout *l)
{
    const struct json_object *up = ndp_json_get(o, l->upgrade);

    return l->upgrade_is_block ? ndp_json_index(up, 0) : up;
}

/* The settings of pool 'o' (its own properties) as 'l' lays them out. */
static void read_pool(struct ndp_pool_facts *p, const struct json_object *o,
                      const struct pool_layout *l)
{
    const struct json_object *up = upgrade_of(o, l);

    p->fields = l->fields;
    p->count = number(o, l->count);
    p->min_count = number(o, l->min_count);
    p->max_count = number(o, l->max_count);
    p->autoscale = is_true(o, l->autoscale) || is_true(o, l->autoscale_old);
    p->os_type = string(o, l->os_type);
    p->mode = string(o, l->mode);
    p->priority = string(o, l->priority);
    p->max_surge = string(up, l->max_surge);
    p->max_unavailable = string(up, l->max_unavailable);
    p->drain_minutes = number(up, l->drain);
    p->soak_minutes = number(up, l->soak);
    p->has_drain = has_number(up, l->drain);
    p->has_soak = has_number(up, l->soak);
    p->undrainable = string(up, l->undrainable);
    p->max_blocked = string(up, l->max_blocked);
    p->surge_sent = p->max_surge;
    p->unavailable_sent = p->max_unavailable;
    p->drain_minutes_before = p->soak_minutes_before = -1;
    p->rotation_name = string(o, l->rotation_name);
    p->subnet_id = string(o, l->subnet);
    p->pod_subnet_id = string(o, l->pod_subnet);
    p->max_pods = number(o, l->max_pods);
    p->version_pinned = string(o, l->version) != NULL;
}

/*
 * The orchestrator version of pool 'p' as declared and as reported, from
 * its properties before ('b') and after ('a'), either NULL.
 */
static void pool_versions(struct ndp_pool_facts *p,
                          const struct json_object *b,
                          const struct json_object *a,
                          const struct pool_layout *l)
{
    p->declared_version_before = string(b, l->version);
    p->declared_version_after = string(a, l->version);
    p->reported_version_before = string(b, l->current_version);
    p->reported_version_after = string(a, l->current_version);
}

/* The part of a mask at 'dotted'; a true on the way covers. */
static const struct json_object *mask_at(const struct json_object *mask,
                                         const char *dotted)
{
    char key[64];

    while (mask && *dotted && !json_object_is_type(mask, json_type_boolean)) {
        size_t len = strcspn(dotted, ".");
        snprintf(key, sizeof(key), "%.*s", (int)len, dotted);
        mask = ndp_json_get(mask, key);
        dotted += len + (dotted[len] == '.');
    }
    return mask;
}

/* The mask of a block's first element (a true covers the whole list). */
static const struct json_object *block_mask(const struct json_object *mask,
                                            const char *key)
{
    const struct json_object *m = ndp_json_get(mask, key);

    if (m && json_object_is_type(m, json_type_boolean))
        return m;
    return ndp_json_index(m, 0);
}

/* Are two sides of a value the same (both absent, too)? */
static bool same(const struct json_object *a, const struct json_object *b)
{
    if (!a || !b)
        return a == b;
    return json_object_equal(ndp_json_unconst(a), ndp_json_unconst(b)) != 0;
}

/* What pool 'b' (before the change, may be NULL) declared of its own. */
static void read_before(struct ndp_pool_facts *p, const struct json_object *b,
                        const struct pool_layout *l)
{
    const struct json_object *up = upgrade_of(b, l);

    p->surge_before = string(up, l->max_surge);
    p->unavailable_before = string(up, l->max_unavailable);
    p->undrainable_before = string(up, l->undrainable);
    p->max_blocked_before = string(up, l->max_blocked);
    p->drain_minutes_before = number(up, l->drain);
    p->soak_minutes_before = number(up, l->soak);
    p->has_drain_before = has_number(up, l->drain);
    p->has_soak_before = has_number(up, l->soak);
    p->mode_before = string(b, l->mode);
    p->count_before = number(b, l->count);
    p->min_count_before = number(b, l->min_count);
    p->autoscale_before = is_true(b, l->autoscale) ||
                          is_true(b, l->autoscale_old);
}

/*
 * azurerm's node pool resource sends maxUnavailable "0" beside a
 * max_surge and maxSurge "0" beside a max_unavailable (its expand of
 * upgrade_settings, put-time-limits PT-UPG-01).
 */
static void azurerm_fills_zero(struct ndp_pool_facts *p)
{
    if (p->max_surge && !p->max_unavailable)
        p->unavailable_sent = "0";
    else if (p->max_unavailable && !p->max_surge)
        p->surge_sent = "0";
}

/* A pool resource: its name is the change's; created or deleted with it. */
static void pool_resource(struct ndp_facts *f, const struct ndp_change *ch,
                          const struct json_object *o, const char *path,
                          const struct pool_layout *l,
                          const struct json_object *before_props,
                          const struct json_object *after_props)
{
    struct ndp_pool_facts *p;

    if (!o || !ch->name)
        return;
    p = add_pool(f, ch->name, path);
    read_pool(p, o, l);
    read_before(p, before_props, l);
    pool_versions(p, before_props, after_props, l);
    p->settings_before = before_props;
    /* A setter's first apply updates a pool that exists. */
    p->created = ch->action == NDP_ACTION_CREATE && !ch->setter;
    p->deleted = ch->action == NDP_ACTION_DELETE;
    if (l == &azurerm_pool) {
        azurerm_fills_zero(p);
        p->rotation_name_unknown =
            ndp_json_mask_covers(ch->after_unknown, l->rotation_name);
    }
}

/* The azurerm default pool block of a cluster (its OS is Linux). */
static void azurerm_default_pool(struct ndp_facts *f,
                                 const struct ndp_change *ch)
{
    const struct json_object *d =
        ndp_json_index(ndp_json_get(current(ch), AZURERM_DEFAULT_POOL), 0);
    const struct json_object *b =
        ndp_json_index(ndp_json_get(ch->before, AZURERM_DEFAULT_POOL), 0);
    const struct json_object *a =
        ndp_json_index(ndp_json_get(ch->after, AZURERM_DEFAULT_POOL), 0);
    const char *name = string(d, "name");
    struct ndp_pool_facts *p;

    if (!d || !name)
        return;
    p = add_pool(f, name, AZURERM_DEFAULT_POOL "[0]");
    read_pool(p, d, &azurerm_pool);
    p->settings_before = b;
    read_before(p, b, &azurerm_pool);
    /* The default pool is the cluster's System pool, and Linux. */
    p->fields = azurerm_default_fields;
    p->os_type = "Linux";
    p->mode = "System";
    p->mode_before = b ? "System" : NULL;
    pool_versions(p, b, a, &azurerm_pool);
    p->rotation_name_unknown = ndp_json_mask_covers(
        block_mask(ch->after_unknown, AZURERM_DEFAULT_POOL),
        azurerm_pool.rotation_name);
    /* azurerm sends the block only when it changes (and on create). */
    p->sent = !same(d, b);
}

static const struct json_object *pool_list(const struct json_object *doc)
{
    const struct json_object *list =
        ndp_json_path(doc, "properties." ARM_POOL_LIST);

    return list && json_object_is_type(list, json_type_array) ? list : NULL;
}

/* The names in a pool list, folded, into 'out' (keys borrowed from it). */
static void index_pool_names(struct ndp_strmap *out,
                             const struct json_object *list)
{
    size_t i, n = list ? json_object_array_length(list) : 0;

    for (i = 0; i < n; i++) {
        const char *name = string(json_object_array_get_idx(list, i), "name");
        if (name)
            ndp_strmap_add(out, name, i);
    }
}

static const struct json_object *element_named(const struct json_object *list,
                                               const struct ndp_strmap *names,
                                               const char *name)
{
    size_t i = ndp_strmap_find(names, name);

    return i == SIZE_MAX ? NULL : json_object_array_get_idx(list, i);
}

/*
 * Pool 'name' of a cluster body: 'e' its element in the list read (after,
 * or before for a pool the apply deletes), 'before' and 'after' its
 * element on each side (NULL where it is not listed).  A what-if
 * delta's element that does not name its pool has a NULL 'name' and
 * is printed by its 'index'.
 */
static struct ndp_pool_facts *arm_list_pool(struct ndp_facts *f,
                                            const struct json_object *e,
                                            const char *name, size_t index,
                                            const struct json_object *before,
                                            const struct json_object *after)
{
    struct ndp_buf path = NDP_BUF_INIT;
    struct ndp_pool_facts *p;

    if (name)
        ndp_buf_addf(&path, "properties." ARM_POOL_LIST "[name=%s]", name);
    else
        ndp_buf_addf(&path, "properties." ARM_POOL_LIST "[%zu]", index);
    p = add_pool(f, name, path.buf);
    ndp_buf_release(&path);
    read_pool(p, e, &arm_pool);
    read_before(p, before, &arm_pool);
    pool_versions(p, before, after, &arm_pool);
    p->settings_before = before;
    return p;
}

/*
 * The pools of an ARM cluster body (or of a setter's).  When both sides
 * list pools, a name
 * in after only is created by this apply and a name in before only is
 * deleted (spec §11); without a before list every pool counts as kept.
 */
static void arm_cluster_pools(struct ndp_facts *f, const struct ndp_change *ch)
{
    const struct json_object *before = pool_list(ch->before);
    const struct json_object *after = pool_list(ch->after);
    const struct json_object *list = ch->after ? after : before;
    struct ndp_strmap before_names = NDP_STRMAP_INIT(true);
    struct ndp_strmap after_names = NDP_STRMAP_INIT(true);
    size_t i, n = list ? json_object_array_length(list) : 0;

    index_pool_names(&before_names, before);
    index_pool_names(&after_names, after);
    for (i = 0; i < n; i++) {
        const struct json_object *e = json_object_array_get_idx(list, i);
        const char *name = string(e, "name");
        const struct json_object *b =
            name ? element_named(before, &before_names, name) : NULL;
        struct ndp_pool_facts *p;
        if (!name && ch->delta_only && e &&
            json_object_is_type(e, json_type_object)) {
            /* A delta lists a changed element by index, without its
             * name; the same index holds what it replaces. */
            arm_list_pool(f, e, NULL, i,
                          before ? json_object_array_get_idx(before, i)
                                 : NULL,
                          list == after ? e : NULL);
            continue;
        }
        if (!e || !name)
            continue;
        p = arm_list_pool(f, e, name, i, b, list == after ? e : NULL);
        if (list == after && before && !b)
            p->created = true;
    }
    n = before && after ? json_object_array_length(before) : 0;
    for (i = 0; i < n; i++) {
        const struct json_object *e = json_object_array_get_idx(before, i);
        const char *name = string(e, "name");
        if (name && !element_named(after, &after_names, name))
            arm_list_pool(f, e, name, i, e, NULL)->deleted = true;
    }
    ndp_strmap_release(&before_names);
    ndp_strmap_release(&after_names);
}

static bool masked(const struct ndp_change *ch, const char *path)
{
    return ndp_json_mask_covers(ch->before_sensitive, path) ||
           ndp_json_mask_covers(ch->after_sensitive, path);
}

/*
 * Coarse on purpose: any marked value in a pool block, in the
 * agentPoolProfiles of a cluster body, or in a pool resource's name,
 * sizes, surge or OS counts.
 */
static bool pools_masked(const struct ndp_change *ch)
{
    const char *const *fields = ch->notation == NDP_NOTATION_AZURERM
                                    ? azurerm_pool_masked : arm_pool_masked;
    size_t i, n = ch->notation == NDP_NOTATION_AZURERM
                      ? NDP_ARRAY_SIZE(azurerm_pool_masked)
                      : NDP_ARRAY_SIZE(arm_pool_masked);

    if (ch->kind == NDP_KIND_CLUSTER || ch->kind == NDP_KIND_SETTER)
        return masked(ch, ch->notation == NDP_NOTATION_AZURERM
                              ? AZURERM_DEFAULT_POOL
                              : "properties." ARM_POOL_LIST);
    if (ch->kind != NDP_KIND_NODEPOOL)
        return false;
    for (i = 0; i < n; i++)
        if (masked(ch, fields[i]))
            return true;
    return false;
}

/*
 * Whether a mask covers the pools' versions: the pools themselves, or
 * for a pool resource its version keys ("" or "properties." before them).
 */
static void pool_versions_masked(struct ndp_facts *f,
                                 const struct ndp_change *ch,
                                 const char *prefix,
                                 const struct pool_layout *l)
{
    struct ndp_buf key = NDP_BUF_INIT, current_key = NDP_BUF_INIT;
    bool covered = f->pools_sensitive;
    size_t i;

    if (!covered && ch->kind == NDP_KIND_NODEPOOL) {
        ndp_buf_addf(&key, "%s%s", prefix, l->version);
        ndp_buf_addf(&current_key, "%s%s", prefix, l->current_version);
        covered = masked(ch, key.buf) || masked(ch, current_key.buf);
    }
    for (i = 0; i < f->nr_pools; i++)
        f->pools[i].versions_sensitive = covered;
    ndp_buf_release(&key);
    ndp_buf_release(&current_key);
}

/*
 * Which pools the apply sends to AKS: every pool it creates, replaces or
 * updates, but a deleted one; an azurerm cluster update sends its
 * default pool only when the block changes (azurerm_default_pool()).
 */
static void pools_sent(struct ndp_facts *f, const struct ndp_change *ch)
{
    bool sends = ch->action == NDP_ACTION_CREATE ||
                 ch->action == NDP_ACTION_REPLACE ||
                 ch->action == NDP_ACTION_UPDATE;
    bool by_block = ch->notation == NDP_NOTATION_AZURERM &&
                    ch->kind == NDP_KIND_CLUSTER &&
                    ch->action == NDP_ACTION_UPDATE;
    size_t i;

    for (i = 0; i < f->nr_pools; i++) {
        struct ndp_pool_facts *p = &f->pools[i];
        if (!sends || p->deleted)
            p->sent = false;
        else if (!by_block)
            p->sent = true;
    }
}

static void pools(struct ndp_facts *f, const struct ndp_change *ch)
{
    f->pools_sensitive = pools_masked(ch);
    if (ch->notation == NDP_NOTATION_AZURERM) {
        if (ch->kind == NDP_KIND_CLUSTER)
            azurerm_default_pool(f, ch);
        else if (ch->kind == NDP_KIND_NODEPOOL)
            pool_resource(f, ch, current(ch), "", &azurerm_pool, ch->before,
                          ch->after);
        pool_versions_masked(f, ch, "", &azurerm_pool);
    } else {
        if (ch->kind == NDP_KIND_NODEPOOL)
            pool_resource(f, ch, ndp_json_get(current(ch), "properties"),
                          "properties", &arm_pool,
                          ndp_json_get(ch->before, "properties"),
                          ndp_json_get(ch->after, "properties"));
        else if (ch->kind == NDP_KIND_CLUSTER || ch->kind == NDP_KIND_SETTER)
            /* A setter's body is merged into the cluster and sent
             * whole: a pool list in it is the cluster's. */
            arm_cluster_pools(f, ch);
        pool_versions_masked(f, ch, "properties.", &arm_pool);
    }
    pools_sent(f, ch);
}

/* The cluster's version, or a pool resource's orchestrator version. */
static void version(struct ndp_facts *f, const struct ndp_change *ch)
{
    bool arm = ch->notation == NDP_NOTATION_ARM;
    bool pool = ch->kind == NDP_KIND_NODEPOOL;
    const char *key = arm ? (pool ? "properties.orchestratorVersion"
                                  : "properties.kubernetesVersion")
                          : (pool ? "orchestrator_version"
                                  : "kubernetes_version");
    const char *current_key =
        arm ? (pool ? "properties.currentOrchestratorVersion"
                    : "properties.currentKubernetesVersion")
            : (pool ? "current_orchestrator_version"
                    : "current_kubernetes_version");
    f->version_path = key;
    f->declared_version_before = path_string(ch->before, key);
    f->declared_version_after = path_string(ch->after, key);
    f->reported_version_before = path_string(ch->before, current_key);
    f->reported_version_after = path_string(ch->after, current_key);
    f->versions_sensitive = masked(ch, key) || masked(ch, current_key);
}

/*
 * The support plan a cluster body or setter declares after the change
 * (before it, without an after document), and whether the change turns
 * force upgrade on (put-time-limits PT-UPG-06: azurerm
 * upgrade_override[0].force_upgrade_enabled, ARM
 * upgradeSettings.overrideSettings.forceUpgrade, a boolean true).
 */
static void upgrade_profile(struct ndp_facts *f, const struct ndp_change *ch)
{
    bool arm = ch->notation == NDP_NOTATION_ARM;
    const struct json_object *doc = ch->after ? ch->after : ch->before;
    const struct json_object *override;

    if (ch->kind != NDP_KIND_CLUSTER && ch->kind != NDP_KIND_SETTER)
        return;
    f->support_plan =
        path_string(doc, arm ? "properties.supportPlan" : "support_plan");
    override = arm ? ndp_json_path(ch->after, "properties.upgradeSettings."
                                             "overrideSettings")
                   : ndp_json_index(ndp_json_get(ch->after,
                                                 "upgrade_override"), 0);
    f->force_upgrade = ndp_json_is_true(
        ndp_json_get(override, arm ? "forceUpgrade" : "force_upgrade_enabled"));
    f->force_upgrade_until =
        path_string(override, arm ? "until" : "effective_until");
}

/* A cluster's network plugin and its mode, as it is after the change. */
static void network(struct ndp_facts *f, const struct ndp_change *ch)
{
    const struct json_object *np;

    if (ch->kind != NDP_KIND_CLUSTER)
        return;
    if (ch->notation == NDP_NOTATION_AZURERM) {
        np = ndp_json_index(ndp_json_get(current(ch), "network_profile"), 0);
        f->network_plugin = string(np, "network_plugin");
        f->network_plugin_mode = string(np, "network_plugin_mode");
    } else {
        np = ndp_json_path(current(ch), "properties.networkProfile");
        f->network_plugin = string(np, "networkPlugin");
        f->network_plugin_mode = string(np, "networkPluginMode");
    }
}

/* The policy a cluster body or a setter (ARM only) declares. */
static void profile(struct ndp_facts *f, const struct ndp_change *ch)
{
    if (ch->notation != NDP_NOTATION_ARM ||
        (ch->kind != NDP_KIND_CLUSTER && ch->kind != NDP_KIND_SETTER))
        return;
    f->profile_before = ndp_json_path(ch->before, ARM_POLICY_PATH);
    f->profile_before_sensitive =
        ndp_json_mask_covers(ch->before_sensitive, ARM_POLICY_PATH);
    f->profile_after = ndp_json_path(ch->after, ARM_POLICY_PATH);
    f->profile_after_sensitive =
        ndp_json_mask_covers(ch->after_sensitive, ARM_POLICY_PATH);
}

static struct ndp_window_facts *add_window(struct ndp_facts *f)
{
    struct ndp_window_facts *w;

    f->windows = ndp_xrealloc(f->windows,
                              (f->nr_windows + 1) * sizeof(*f->windows));
    w = &f->windows[f->nr_windows++];
    memset(w, 0, sizeof(*w));
    return w;
}

static const struct json_object *first_block(const struct json_object *doc,
                                             const char *key)
{
    const struct json_object *b = ndp_json_index(ndp_json_get(doc, key), 0);

    return ndp_json_is_unset(b) ? NULL : b;
}

/* An azurerm maintenance block and the configuration it stands for. */
struct azurerm_block {
    const char *key, *path, *config;
    bool legacy;
};

static const struct azurerm_block azurerm_blocks[] = {
    { "maintenance_window_auto_upgrade", "maintenance_window_auto_upgrade[0]",
      "aksManagedAutoUpgradeSchedule", false },
    { "maintenance_window", "maintenance_window[0]", "default", true },
    { "maintenance_window_node_os", "maintenance_window_node_os[0]",
      NDP_NODE_OS_WINDOW, false },
};

/*
 * An azurerm cluster's maintenance blocks with their sides: the
 * auto-upgrade one, the legacy one (only when declared), then the node
 * OS window, always.
 */
static void azurerm_windows(struct ndp_facts *f, const struct ndp_change *ch)
{
    struct ndp_window_facts *w;
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(azurerm_blocks); i++) {
        const struct azurerm_block *b = &azurerm_blocks[i];
        bool node_os = i + 1 == NDP_ARRAY_SIZE(azurerm_blocks);
        const struct json_object *before = first_block(ch->before, b->key);
        const struct json_object *after = first_block(ch->after, b->key);
        const struct json_object *unknown =
            block_mask(ch->after_unknown, b->key);

        if (!node_os && !before && !after)
            continue;
        w = add_window(f);
        w->name = b->key;
        w->config = b->config;
        w->node_os = node_os;
        w->legacy = b->legacy;
        w->path = b->path;
        w->sensitive = masked(ch, b->key);
        w->before = before;
        w->after = after;
        w->after_unknown = unknown;
        w->start_date_key = b->legacy ? NULL : "start_date";
    }
}

/*
 * An ARM maintenance configuration: its properties.maintenanceWindow, and
 * the legacy properties beside it.  Its name as AKS gets it: the last
 * segment of a template's "cluster/name", none for an expression.
 */
static const char *config_of_id(const char *id)
{
    static const char segment[] = "/maintenanceConfigurations/";
    size_t n = sizeof(segment) - 1;

    for (; id && *id; id++)
        if (ndp_strncasecmp(id, segment, n) == 0)
            return strchr(id + n, '/') ? NULL : id + n;
    return NULL;
}

static void arm_window(struct ndp_facts *f, const struct ndp_change *ch)
{
    static const char path[] = "properties.maintenanceWindow";
    struct ndp_window_facts *w = add_window(f);
    const char *slash = ch->name ? strrchr(ch->name, '/') : NULL;

    w->name = ch->name ? ch->name : ch->address;
    /* azapi_update_resource names it only in its resource id. */
    w->config = slash ? slash + 1
                      : ch->name ? ch->name : config_of_id(ch->self_id);
    if (w->config && (w->config[0] == '[' || !w->config[0]))
        w->config = NULL;
    w->node_os = w->config &&
                 ndp_strcasecmp(w->config, NDP_NODE_OS_WINDOW) == 0;
    w->arm = true;
    w->path = path;
    w->sensitive = masked(ch, path);
    w->before = ndp_json_path(ch->before, path);
    w->after = ndp_json_path(ch->after, path);
    w->after_unknown = mask_at(ch->after_unknown, path);
    w->start_date_key = "startDate";
    w->time_in_week_path = "properties.timeInWeek";
    w->not_allowed_time_path = "properties.notAllowedTime";
    w->time_in_week_before = ndp_json_path(ch->before, w->time_in_week_path);
    w->time_in_week_after = ndp_json_path(ch->after, w->time_in_week_path);
    w->not_allowed_time_before = ndp_json_path(ch->before,
                                               w->not_allowed_time_path);
    w->not_allowed_time_after = ndp_json_path(ch->after,
                                              w->not_allowed_time_path);
}

/* Where each notation keeps the two channels of a cluster. */
static const char *const azurerm_os_channel[] = {
    "node_os_upgrade_channel", "node_os_channel_upgrade"
};
static const char *const azurerm_upgrade_channel[] = {
    "automatic_upgrade_channel", "automatic_channel_upgrade"
};
static const char *const arm_os_channel[] = {
    "properties.autoUpgradeProfile.nodeOSUpgradeChannel"
};
static const char *const arm_upgrade_channel[] = {
    "properties.autoUpgradeProfile.upgradeChannel"
};
static const char *const azurerm_plan[] = { "support_plan" };
static const char *const azurerm_tier[] = { "sku_tier" };
static const char *const arm_plan[] = { "properties.supportPlan" };
static const char *const arm_tier[] = { "sku.tier" };

static const char *string_at(const struct json_object *doc, const char *key)
{
    const struct json_object *v =
        strchr(key, '.') ? ndp_json_path(doc, key) : ndp_json_get(doc, key);

    return v && json_object_is_type(v, json_type_string)
               ? json_object_get_string(ndp_json_unconst(v)) : NULL;
}

/*
 * A channel under the first of its names ('keys', newest provider
 * generation first) that either side declares; an empty string is not
 * declared (azurerm writes "" for unset).
 */
static void setting(struct ndp_setting_facts *s, const struct ndp_change *ch,
                    const char *const *keys, size_t n)
{
    size_t i;

    s->path = keys[0];
    for (i = 0; i < n; i++) {
        const char *b = string_at(ch->before, keys[i]);
        const char *a = string_at(ch->after, keys[i]);
        bool unknown = ndp_json_mask_covers(ch->after_unknown, keys[i]);
        if (!(b && *b) && !(a && *a) && !unknown)
            continue;
        s->path = keys[i];
        s->before = b && *b ? b : NULL;
        s->after = a && *a ? a : NULL;
        s->after_unknown = unknown && !s->after;
        s->sensitive = masked(ch, keys[i]);
        return;
    }
}

static void channels(struct ndp_facts *f, const struct ndp_change *ch)
{
    bool arm = ch->notation == NDP_NOTATION_ARM;

    if (ch->kind != NDP_KIND_CLUSTER &&
        !(arm && ch->kind == NDP_KIND_SETTER))
        return;
    if (arm) {
        setting(&f->node_os_channel, ch, arm_os_channel, 1);
        setting(&f->upgrade_channel, ch, arm_upgrade_channel, 1);
        setting(&f->plan, ch, arm_plan, 1);
        setting(&f->tier, ch, arm_tier, 1);
    } else {
        setting(&f->node_os_channel, ch, azurerm_os_channel, 2);
        setting(&f->upgrade_channel, ch, azurerm_upgrade_channel, 2);
        setting(&f->plan, ch, azurerm_plan, 1);
        setting(&f->tier, ch, azurerm_tier, 1);
    }
}

static void fill(struct ndp_change *ch)
{
    struct ndp_facts *f = &ch->facts;

    ndp_facts_release(f);
    pools(f, ch);
    version(f, ch);
    upgrade_profile(f, ch);
    network(f, ch);
    profile(f, ch);
    channels(f, ch);
    if (ch->kind == NDP_KIND_CLUSTER && ch->notation == NDP_NOTATION_AZURERM)
        azurerm_windows(f, ch);
    else if (ch->kind == NDP_KIND_MAINTENANCE)
        arm_window(f, ch);
    /* azapi (a Terraform address, not an ARM id) sends the whole body. */
    f->sends_whole_body = ch->notation == NDP_NOTATION_ARM && ch->address &&
                          ch->address[0] != '/';
    f->pool_list_key = ch->notation == NDP_NOTATION_ARM ? ARM_POOL_LIST
                                                        : NULL;
    f->default_pool_key = ch->notation == NDP_NOTATION_AZURERM
                              ? AZURERM_DEFAULT_POOL : NULL;
}

void ndp_facts_fill_linked(struct ndp_changeset *set)
{
    size_t i;

    for (i = 0; i < set->nr; i++)
        if (set->items[i]->before_from_link)
            fill(set->items[i]);
}

void ndp_facts_fill_all(struct ndp_changeset *set, size_t from)
{
    size_t i;

    for (i = from; i < set->nr; i++)
        fill(set->items[i]);
}

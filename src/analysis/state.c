/*
 * SPDX-License-Identifier: Apache-2.0
 * state.c - reads Azure CLI output about live clusters (see state.h):
 * 'az aks show' (flattened, or the ARM shape with "properties"),
 * 'az aks maintenanceconfiguration list|show' and 'az aks nodepool
 * list|show', each recognised by its shape and merged per cluster id;
 * and kubectl's pod disruption budgets and workloads (a "List", or one
 * object), read by kube.h.
 */
#include "common.h"
#include "state.h"
#include "strmap.h"
#include "buf.h"
#include "error.h"
#include "policy.h"
#include "load.h"
#include "jsonutil.h"

enum state_kind { STATE_CLUSTER, STATE_WINDOW, STATE_POOL, STATE_UNKNOWN };

/* The resource's own properties: the ARM shape nests them, the CLI does not. */
static const struct json_object *props(const struct json_object *o)
{
    const struct json_object *p = ndp_json_get(o, "properties");

    return p && json_object_is_type(p, json_type_object) ? p : o;
}

static bool id_has(const struct json_object *o, const char *part)
{
    const char *id = ndp_json_get_string(o, "id");
    size_t n = strlen(part);

    for (; id && *id; id++)
        if (ndp_strncasecmp(id, part, n) == 0)
            return true;
    return false;
}

static enum state_kind classify(const struct json_object *o)
{
    const struct json_object *p = props(o);

    if (!json_object_is_type(o, json_type_object))
        return STATE_UNKNOWN;
    if (ndp_json_get(p, "maintenanceWindow") || ndp_json_get(p, "timeInWeek") ||
        id_has(o, "/maintenanceConfigurations/"))
        return STATE_WINDOW;
    if (id_has(o, "/agentPools/"))
        return STATE_POOL;
    if (ndp_json_get(p, "agentPoolProfiles") ||
        ndp_json_get(p, "nodeDisruptionProfile") ||
        (ndp_json_get(p, "kubernetesVersion") &&
         id_has(o, "/managedClusters/")))
        return STATE_CLUSTER;
    return STATE_UNKNOWN;
}

/* ".../managedClusters/aks/agentPools/np1" -> ".../managedClusters/aks" */
static char *cluster_id_of(const char *id, const char *child)
{
    const char *p = id, *cut = NULL;
    size_t n = strlen(child);

    for (; p && *p; p++)
        if (ndp_strncasecmp(p, child, n) == 0)
            cut = p;
    return cut ? ndp_xstrndup(id, (size_t)(cut - id)) : NULL;
}

/*
 * The clusters by ARM id and by name (both folded), so that reading and
 * matching cost one lookup per cluster, not a scan of the state.  Keys
 * are the clusters' own strings.
 */
struct ndp_states_index {
    struct ndp_strmap by_id, by_name;
    size_t *name_first, *name_count, nr_names, alloc_names;
};

static void index_cluster(struct ndp_states *st, size_t i)
{
    struct ndp_states_index *ix = st->index;
    size_t slot;

    if (!ix) {
        ix = st->index = ndp_xcalloc(1, sizeof(*ix));
        ix->by_id.fold_case = ix->by_name.fold_case = true;
    }
    ndp_strmap_add(&ix->by_id, st->items[i].id, i);
    slot = ndp_strmap_add(&ix->by_name, st->items[i].name, ix->nr_names);
    if (slot == ix->nr_names) {
        size_t had = ix->alloc_names;
        NDP_GROW(ix->name_first, ix->alloc_names, ix->nr_names + 1);
        if (ix->alloc_names != had)
            ix->name_count = ndp_xrealloc(ix->name_count, ix->alloc_names *
                                          sizeof(*ix->name_count));
        ix->name_first[slot] = i;
        ix->name_count[slot] = 0;
        ix->nr_names++;
    }
    ix->name_count[slot]++;
}

/*
 * Is 'item' one of the ", "-separated items of 'list' (NULL: none)?  The
 * whole item: a file "show.json" is not in "show.json.old".
 */
static bool listed(const char *list, const char *item)
{
    size_t n = strlen(item);

    while (list) {
        if (strncmp(list, item, n) == 0 &&
            (list[n] == '\0' || strncmp(list + n, ", ", 2) == 0))
            return true;
        list = strstr(list, ", ");
        if (list)
            list += 2;
    }
    return false;
}

/* Appends 'item' to the ", "-separated '*list' unless it is there. */
static void add_listed(char **list, const char *item)
{
    struct ndp_buf b = NDP_BUF_INIT;

    if (listed(*list, item))
        return;
    ndp_buf_addf(&b, "%s%s%s", *list ? *list : "", *list ? ", " : "", item);
    free(*list);
    *list = ndp_buf_detach(&b);
}

static struct ndp_state_cluster *cluster_for(struct ndp_states *st,
                                             const char *id,
                                             const char *path)
{
    struct ndp_state_cluster *c = ndp_states_find_id(st, id);
    const char *slash;

    if (!c) {
        NDP_GROW(st->items, st->alloc, st->nr + 1);
        c = &st->items[st->nr++];
        memset(c, 0, sizeof(*c));
        c->id = ndp_xstrdup(id);
        slash = strrchr(id, '/');
        c->name = ndp_xstrdup(slash ? slash + 1 : id);
        c->profile = -1;
        index_cluster(st, st->nr - 1);
    }
    add_listed(&c->sources, path);
    return c;
}

static char *dup_string(const struct json_object *o, const char *key)
{
    const char *s = ndp_json_get_string(o, key);

    return s && *s ? ndp_xstrdup(s) : NULL;
}

static long get_long(const struct json_object *o, const char *key)
{
    const struct json_object *v = ndp_json_get(o, key);

    return v && json_object_is_type(v, json_type_int)
               ? (long)json_object_get_int64(v) : -1;
}

static void add_pool(struct ndp_state_cluster *c, const struct json_object *o,
                     const char *name)
{
    const struct json_object *p = props(o);
    const struct json_object *surge = ndp_json_path(p, "upgradeSettings.maxSurge");
    struct ndp_state_pool *pool;

    NDP_GROW(c->pools, c->alloc_pools, c->nr_pools + 1);
    pool = &c->pools[c->nr_pools++];
    memset(pool, 0, sizeof(*pool));
    pool->name = ndp_xstrdup(name);
    pool->os_type = dup_string(p, "osType");
    pool->mode = dup_string(p, "mode");
    pool->version = dup_string(p, "currentOrchestratorVersion");
    if (!pool->version)
        pool->version = dup_string(p, "orchestratorVersion");
    pool->count = get_long(p, "count");
    pool->min_count = get_long(p, "minCount");
    pool->max_count = get_long(p, "maxCount");
    pool->autoscale = ndp_json_is_true(ndp_json_get(p, "enableAutoScaling"));
    pool->drain_minutes = get_long(ndp_json_get(p, "upgradeSettings"),
                                   "drainTimeoutInMinutes");
    pool->soak_minutes = get_long(ndp_json_get(p, "upgradeSettings"),
                                  "nodeSoakDurationInMinutes");
    pool->max_surge = surge && json_object_is_type(surge, json_type_string) &&
                              json_object_get_string_len(surge)
                          ? ndp_xstrdup(json_object_get_string(
                                ndp_json_unconst(surge)))
                          : NULL;
    c->has_pools = true;
}

static int read_cluster(struct ndp_states *st, const struct json_object *o,
                        const char *path, struct ndp_error *err)
{
    const char *id = ndp_json_get_string(o, "id");
    const struct json_object *p = props(o);
    const struct json_object *pools = ndp_json_get(p, "agentPoolProfiles");
    const char *policy = ndp_json_get_string(
        ndp_json_get(p, "nodeDisruptionProfile"), "nodeDisruptionPolicy");
    struct ndp_state_cluster *c;
    size_t i, n;

    if (!id)
        return ndp_error_set(err, NDP_ESCHEMA, "'%s' looks like 'az aks "
                             "show' output but has no 'id'", path);
    c = cluster_for(st, id, path);
    if (policy && *policy) {
        c->profile = ndp_profile_parse(policy);
        if (c->profile < 0)
            return ndp_error_set(err, NDP_ESCHEMA, "'%s': unknown "
                                 "nodeDisruptionPolicy '%s'", path, policy);
    }
    free(c->version);
    c->version = dup_string(p, "currentKubernetesVersion");
    if (!c->version)
        c->version = dup_string(p, "kubernetesVersion");
    free(c->node_os_channel);
    c->node_os_channel = dup_string(ndp_json_get(p, "autoUpgradeProfile"),
                                    "nodeOSUpgradeChannel");
    n = pools && json_object_is_type(pools, json_type_array)
            ? json_object_array_length(pools) : 0;
    for (i = 0; i < n; i++) {
        const struct json_object *e = json_object_array_get_idx(pools, i);
        const char *name = ndp_json_get_string(e, "name");
        if (name)
            add_pool(c, e, name);
    }
    c->pool_list = c->pool_list || n > 0;
    return 0;
}

static int read_window(struct ndp_states *st, const struct json_object *o,
                       const char *path, struct ndp_error *err)
{
    const char *id = ndp_json_get_string(o, "id");
    const char *name = ndp_json_get_string(o, "name");
    char *cluster_id = id ? cluster_id_of(id, "/maintenanceConfigurations/")
                          : NULL;
    const struct json_object *mw = ndp_json_get(props(o), "maintenanceWindow");
    struct ndp_state_cluster *c;

    if (!cluster_id || !name) {
        free(cluster_id);
        return ndp_error_set(err, NDP_ESCHEMA, "'%s': a maintenance "
                             "configuration without the 'id' of its cluster "
                             "or a 'name'", path);
    }
    c = cluster_for(st, cluster_id, path);
    free(cluster_id);
    c->has_window_list = true;
    if (ndp_strcasecmp(name, NDP_NODE_OS_WINDOW) != 0 || ndp_json_is_unset(mw)) {
        add_listed(&c->other_windows, name);
        return 0;
    }
    /* A later file replaces an earlier one's window.  deep_copy needs a
     * NULL destination, and leaves it NULL when it fails. */
    json_object_put(c->window);
    c->window = NULL;
    if (json_object_deep_copy(ndp_json_unconst(mw),
                              &c->window, NULL) != 0)
        c->window = NULL;
    return 0;
}

/* One pool of 'az aks nodepool list' ('listed') or 'show'. */
static int read_pool(struct ndp_states *st, const struct json_object *o,
                     const char *path, bool listed, struct ndp_error *err)
{
    const char *id = ndp_json_get_string(o, "id");
    const char *name = ndp_json_get_string(o, "name");
    char *cluster_id = id ? cluster_id_of(id, "/agentPools/") : NULL;
    struct ndp_state_cluster *c;

    if (!cluster_id || !name) {
        free(cluster_id);
        return ndp_error_set(err, NDP_ESCHEMA, "'%s': a node pool without "
                             "the 'id' of its cluster or a 'name'", path);
    }
    c = cluster_for(st, cluster_id, path);
    free(cluster_id);
    add_pool(c, o, name);
    c->pool_list = c->pool_list || listed;
    return 0;
}

/* A kubectl object: "apiVersion" and "kind" beside "metadata". */
static bool is_kube_object(const struct json_object *o)
{
    return ndp_json_get_string(o, "apiVersion") &&
           ndp_json_get_string(o, "kind") &&
           json_object_is_type(ndp_json_get(o, "metadata"), json_type_object);
}

static void read_kube_object(struct ndp_states *st,
                             const struct json_object *o, const char *path)
{
    struct ndp_kube_origin origin;

    memset(&origin, 0, sizeof(origin));
    origin.input = path;
    ndp_kube_read_api_object(&st->kube, o, NULL, NULL, &origin);
}

/*
 * 'kubectl get pdb,deploy,statefulset -A -o json': a List whose items of
 * other kinds are passed over (a wider 'kubectl get' works too).
 */
static int read_kube_list(struct ndp_states *st, const struct json_object *o,
                          const char *path, struct ndp_error *err)
{
    const struct json_object *items = ndp_json_get(o, "items");
    size_t i, n;

    if (!json_object_is_type(items, json_type_array))
        return ndp_error_set(err, NDP_ESCHEMA, "'%s': a kubectl List "
                             "without an 'items' array", path);
    n = json_object_array_length(items);
    for (i = 0; i < n; i++) {
        const struct json_object *item = ndp_json_index(items, i);
        if (!is_kube_object(item))
            return ndp_error_set(err, NDP_ESCHEMA, "'%s': item %zu of the "
                                 "kubectl List is not a Kubernetes object "
                                 "(no apiVersion, kind and metadata)",
                                 path, i);
        read_kube_object(st, item, path);
    }
    return 0;
}

static int read_item(struct ndp_states *st, const struct json_object *o,
                     const char *path, size_t index, struct ndp_error *err)
{
    const char *kind = ndp_json_get_string(o, "kind");

    /* "List", or a typed one ("PodDisruptionBudgetList", kubectl get
     * --raw): items either way. */
    if (index == SIZE_MAX && kind && strlen(kind) >= 4 &&
        strcmp(kind + strlen(kind) - 4, "List") == 0 &&
        ndp_json_get_string(o, "apiVersion"))
        return read_kube_list(st, o, path, err);
    if (index == SIZE_MAX && is_kube_object(o) && ndp_kube_kind_known(kind)) {
        read_kube_object(st, o, path);
        return 0;
    }
    switch (classify(o)) {
    case STATE_CLUSTER: return read_cluster(st, o, path, err);
    case STATE_WINDOW: return read_window(st, o, path, err);
    case STATE_POOL: return read_pool(st, o, path, index != SIZE_MAX, err);
    default:
        return ndp_error_set(err, NDP_ESCHEMA,
                             "'%s'%s is not 'az aks show', 'az aks "
                             "maintenanceconfiguration list|show', 'az aks "
                             "nodepool list|show' or 'kubectl get "
                             "pdb,deploy,statefulset -A -o json' output",
                             path, index == SIZE_MAX ? "" : " (an element)");
    }
}

/* What a cluster state file should be, for the messages on one that is
 * not JSON. */
#define EXPECT_STATE "'az aks show -o json', 'az aks " \
                     "maintenanceconfiguration list -o json', 'az aks " \
                     "nodepool list -o json' or 'kubectl get " \
                     "pdb,deploy,statefulset -A -o json' output"

int ndp_state_read(struct ndp_states *states, const char *path,
                   size_t max_bytes, struct ndp_error *err)
{
    struct json_object *root = NULL;
    size_t i, n;
    int rc = ndp_load_json(&root, path, max_bytes, EXPECT_STATE, err);

    if (rc)
        return rc;
    if (json_object_is_type(root, json_type_array)) {
        n = json_object_array_length(root);
        for (i = 0; i < n && !rc; i++)
            rc = read_item(states, json_object_array_get_idx(root, i), path,
                           i, err);
        if (!rc && n == 0) {
            /* An empty list (no configurations) says nothing of a cluster. */
            NDP_GROW(states->unmatched_files, states->alloc_unmatched,
                     states->nr_unmatched + 1);
            states->unmatched_files[states->nr_unmatched++] =
                ndp_xstrdup(path);
        }
    } else {
        rc = read_item(states, root, path, SIZE_MAX, err);
    }
    json_object_put(root);
    return rc;
}

void ndp_states_release(struct ndp_states *st)
{
    size_t i, j;

    for (i = 0; i < st->nr; i++) {
        struct ndp_state_cluster *c = &st->items[i];
        for (j = 0; j < c->nr_pools; j++) {
            free(c->pools[j].name);
            free(c->pools[j].os_type);
            free(c->pools[j].mode);
            free(c->pools[j].version);
            free(c->pools[j].max_surge);
        }
        free(c->pools);
        free(c->id);
        free(c->name);
        free(c->sources);
        free(c->version);
        free(c->node_os_channel);
        free(c->other_windows);
        json_object_put(c->window);
    }
    free(st->items);
    for (i = 0; i < st->nr_unmatched; i++)
        free(st->unmatched_files[i]);
    free(st->unmatched_files);
    ndp_kube_objects_release(&st->kube);
    if (st->index) {
        ndp_strmap_release(&st->index->by_id);
        ndp_strmap_release(&st->index->by_name);
        free(st->index->name_first);
        free(st->index->name_count);
        free(st->index);
    }
    memset(st, 0, sizeof(*st));
}

struct ndp_state_cluster *ndp_states_find_id(const struct ndp_states *st,
                                             const char *id)
{
    size_t i = id && st->index ? ndp_strmap_find(&st->index->by_id, id)
                               : SIZE_MAX;

    return i == SIZE_MAX ? NULL : &st->items[i];
}

struct ndp_state_cluster *ndp_states_find_name(const struct ndp_states *st,
                                               const char *name,
                                               bool *ambiguous)
{
    size_t slot = name && st->index
                      ? ndp_strmap_find(&st->index->by_name, name)
                      : SIZE_MAX;
    size_t n = slot == SIZE_MAX ? 0 : st->index->name_count[slot];

    *ambiguous = n > 1;
    return n == 1 ? &st->items[st->index->name_first[slot]] : NULL;
}

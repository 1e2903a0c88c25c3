/*
 * SPDX-License-Identifier: Apache-2.0
 * impact.c - what AKS itself never says: how big the disruption will be.
 *
 * Sits after the evaluator.  From the input (azurerm default_node_pool and
 * node pool resources, ARM agentPoolProfiles and agentPools) and the live
 * cluster state it knows each pool's node count, autoscaler bounds, OS and
 * maxSurge; from the findings it knows which pools are rebuilt: every pool
 * for a cluster-level change, the Windows pools for gMSA, the pool itself
 * for a pool-level one.  A rolling rebuild replaces 'surge' nodes at a
 * time, so a pool of N nodes takes ceil(N / surge) batches.
 *
 * A pool this apply creates (only in the after list of a cluster body, or
 * a node pool resource being created) starts on new nodes, and a pool it
 * deletes is gone: neither is rebuilt or counted.  Created pools are named
 * in the impact ("created" in JSON) so that a reader does not look for
 * them among the rebuilt ones.
 *
 * Cost: pools are found by name through a keyed hash map, the pool lists
 * of a cluster body are compared through maps too, a cluster-level rule
 * marks the pools once however many findings it has, and changes and
 * findings are sorted into their clusters once: linear in the input
 * (bench/scaling.sh 'pools', 'armpools' and 'clusters').
 */
#include "common.h"
#include "impact.h"
#include "buf.h"
#include "change.h"
#include "finding.h"
#include "jsonutil.h"
#include "state.h"
#include "strmap.h"

#include <limits.h>

/* The pools of one cluster while they are read and marked. */
struct inventory {
    struct ndp_impact_pool *items;
    size_t nr, alloc;
    struct ndp_strmap by_name;  /* folded name -> index in 'items' */
    struct ndp_strmap applied;  /* cluster-level rule ids already marked */
    struct ndp_strmap touched;  /* ... and already touched */
    bool reading_sensitive;     /* the change being read masks its pools */
};

static long number(const struct json_object *o, const char *key)
{
    const struct json_object *v = ndp_json_get(o, key);

    return v && json_object_is_type(v, json_type_int)
               ? (long)json_object_get_int64(v) : -1;
}

static const char *string(const struct json_object *o, const char *key)
{
    const char *s = ndp_json_get_string(o, key);

    return s && *s ? s : NULL;
}

static struct ndp_impact_pool *find_pool(struct inventory *inv,
                                         const char *name)
{
    size_t i = name ? ndp_strmap_find(&inv->by_name, name) : SIZE_MAX;

    return i == SIZE_MAX ? NULL : &inv->items[i];
}

static struct ndp_impact_pool *add_pool(struct inventory *inv, const char *name)
{
    struct ndp_impact_pool *p = find_pool(inv, name);

    if (p) {
        p->sensitive |= inv->reading_sensitive;
        return p;
    }
    NDP_GROW(inv->items, inv->alloc, inv->nr + 1);
    p = &inv->items[inv->nr++];
    memset(p, 0, sizeof(*p));
    p->name = ndp_xstrdup(name);
    ndp_strmap_add(&inv->by_name, p->name, inv->nr - 1);
    p->sensitive = inv->reading_sensitive;
    p->nodes = p->min_nodes = p->max_nodes = -1;
    p->drain_minutes = p->soak_minutes = -1;
    return p;
}

/* An azurerm pool block or node pool resource. */
static struct ndp_impact_pool *azurerm_pool(struct inventory *inv,
                                            const struct json_object *o,
                                            const char *name,
                                            const char *os_type)
{
    struct ndp_impact_pool *p;
    const struct json_object *upgrade;

    if (!o || !name)
        return NULL;
    p = add_pool(inv, name);
    p->nodes = number(o, "node_count");
    p->min_nodes = number(o, "min_count");
    p->max_nodes = number(o, "max_count");
    p->autoscale = ndp_json_is_true(ndp_json_get(o, "auto_scaling_enabled")) ||
                   ndp_json_is_true(ndp_json_get(o, "enable_auto_scaling"));
    p->os_type = os_type ? os_type : string(o, "os_type");
    upgrade = ndp_json_index(ndp_json_get(o, "upgrade_settings"), 0);
    p->surge = string(upgrade, "max_surge");
    p->drain_minutes = number(upgrade, "drain_timeout_in_minutes");
    p->soak_minutes = number(upgrade, "node_soak_duration_in_minutes");
    return p;
}

/* An ARM agent pool: an agentPoolProfiles element or a child's properties. */
static struct ndp_impact_pool *arm_pool(struct inventory *inv,
                                        const struct json_object *o,
                                        const char *name)
{
    struct ndp_impact_pool *p;
    const struct json_object *upgrade;

    if (!o || !name)
        return NULL;
    p = add_pool(inv, name);
    p->nodes = number(o, "count");
    p->min_nodes = number(o, "minCount");
    p->max_nodes = number(o, "maxCount");
    p->autoscale = ndp_json_is_true(ndp_json_get(o, "enableAutoScaling"));
    p->os_type = string(o, "osType");
    upgrade = ndp_json_get(o, "upgradeSettings");
    p->surge = string(upgrade, "maxSurge");
    p->drain_minutes = number(upgrade, "drainTimeoutInMinutes");
    p->soak_minutes = number(upgrade, "nodeSoakDurationInMinutes");
    return p;
}

static const struct json_object *current(const struct ndp_change *ch)
{
    return ch->after ? ch->after : ch->before;
}

/* A node pool resource that this apply creates or deletes. */
static void mark_fate(struct ndp_impact_pool *p, const struct ndp_change *ch)
{
    if (p && ch->action == NDP_ACTION_CREATE)
        p->created = true;
    if (p && ch->action == NDP_ACTION_DELETE)
        p->deleted = true;
}

/* agentPoolProfiles of an ARM cluster body, or NULL when it has none. */
static const struct json_object *pool_list(const struct json_object *doc)
{
    const struct json_object *list =
        ndp_json_path(doc, "properties.agentPoolProfiles");

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

static bool lists_pool(const struct ndp_strmap *names, const char *name)
{
    return name && ndp_strmap_find(names, name) != SIZE_MAX;
}

/*
 * The pools of an ARM cluster body.  When both sides list pools, a name
 * in after only is created by this apply and a name in before only is
 * deleted (spec §11); without a before list every pool counts as kept.
 */
static void arm_cluster_pools(struct inventory *inv,
                              const struct ndp_change *ch)
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
        struct ndp_impact_pool *p = arm_pool(inv, e, string(e, "name"));
        if (p && list == after && before &&
            !lists_pool(&before_names, p->name))
            p->created = true;
    }
    n = before && after ? json_object_array_length(before) : 0;
    for (i = 0; i < n; i++) {
        const struct json_object *e = json_object_array_get_idx(before, i);
        const char *name = string(e, "name");
        if (name && !lists_pool(&after_names, name))
            arm_pool(inv, e, name)->deleted = true;
    }
    ndp_strmap_release(&before_names);
    ndp_strmap_release(&after_names);
}

static bool masked(const struct ndp_change *ch, const char *path)
{
    return ndp_json_mask_covers(ch->before_sensitive, path) ||
           ndp_json_mask_covers(ch->after_sensitive, path);
}

bool ndp_impact_pool_sensitive(const struct ndp_change *ch)
{
    static const char *const azurerm_fields[] = {
        "name", "node_count", "min_count", "max_count", "upgrade_settings",
        "os_type", "auto_scaling_enabled", "enable_auto_scaling"
    };
    static const char *const arm_fields[] = {
        "properties.count", "properties.minCount", "properties.maxCount",
        "properties.upgradeSettings", "properties.osType",
        "properties.enableAutoScaling"
    };
    size_t i;

    if (ch->kind == NDP_KIND_CLUSTER)
        return masked(ch, ch->notation == NDP_NOTATION_AZURERM
                              ? "default_node_pool"
                              : "properties.agentPoolProfiles");
    if (ch->kind != NDP_KIND_NODEPOOL)
        return false;
    if (ch->notation == NDP_NOTATION_AZURERM) {
        for (i = 0; i < NDP_ARRAY_SIZE(azurerm_fields); i++)
            if (masked(ch, azurerm_fields[i]))
                return true;
        return false;
    }
    for (i = 0; i < NDP_ARRAY_SIZE(arm_fields); i++)
        if (masked(ch, arm_fields[i]))
            return true;
    return false;
}

static void pools_of_change(struct inventory *inv, const struct ndp_change *ch)
{
    const struct json_object *doc = current(ch);

    if (ch->notation == NDP_NOTATION_AZURERM) {
        if (ch->kind == NDP_KIND_CLUSTER) {
            const struct json_object *d = ndp_json_index(
                ndp_json_get(doc, "default_node_pool"), 0);
            azurerm_pool(inv, d, string(d, "name"), "Linux");
        } else if (ch->kind == NDP_KIND_NODEPOOL) {
            mark_fate(azurerm_pool(inv, doc, ch->name, NULL), ch);
        }
        return;
    }
    if (ch->kind == NDP_KIND_NODEPOOL)
        mark_fate(arm_pool(inv, ndp_json_get(doc, "properties"), ch->name),
                  ch);
    else if (ch->kind == NDP_KIND_CLUSTER)
        arm_cluster_pools(inv, ch);
}

/* Pools the input does not describe, from 'az aks show' / nodepool list. */
static void pools_of_state(struct inventory *inv,
                           const struct ndp_state_cluster *st)
{
    size_t i;

    for (i = 0; st && i < st->nr_pools; i++) {
        const struct ndp_state_pool *s = &st->pools[i];
        struct ndp_impact_pool *p = find_pool(inv, s->name);
        if (p)
            continue;
        p = add_pool(inv, s->name);
        p->nodes = s->count;
        p->min_nodes = s->min_count;
        p->max_nodes = s->max_count;
        p->autoscale = s->autoscale;
        p->os_type = s->os_type;
        p->surge = s->max_surge;
        p->drain_minutes = s->drain_minutes;
        p->soak_minutes = s->soak_minutes;
    }
}

/* The findings whose rebuild the pools count (see impact.h). */
static bool rebuilds_now(const struct ndp_finding *f)
{
    return ndp_verdict_row(f->verdict)->rebuilds_now &&
           f->pools != NDP_POOLS_NONE;
}

bool ndp_impact_finding_rebuilds(const struct ndp_finding *f)
{
    return ndp_verdict_row(f->verdict)->reimages && f->pools != NDP_POOLS_NONE;
}

/*
 * A refused change rebuilds nothing now, but --window-check sizes the
 * rebuild it would start inside the window.
 */
static bool refused(const struct ndp_finding *f)
{
    return ndp_verdict_row(f->verdict)->refused && f->pools != NDP_POOLS_NONE;
}

/* Like mark(), but 'because' lists only the rules that rebuild now. */
static void touch(struct ndp_impact_pool *p, const char *rule)
{
    (void)rule;
    if (!p->created && !p->deleted)
        p->touched = true;
}

static void mark(struct ndp_impact_pool *p, const char *rule)
{
    const char *b = p->because;
    struct ndp_buf list = NDP_BUF_INIT;
    size_t n = strlen(rule);

    if (p->created || p->deleted)
        return;
    p->rebuilt = p->touched = true;
    while (b && (b = strstr(b, rule)) != NULL) {
        if (b[n] == '\0' || b[n] == ',')
            return;
        b += n;
    }
    if (p->because)
        ndp_buf_addf(&list, "%s,", p->because);
    ndp_buf_adds(&list, rule);
    free(p->because);
    p->because = ndp_buf_detach(&list);
}

static bool is_windows(const struct ndp_impact_pool *p)
{
    return p->os_type && ndp_strcasecmp(p->os_type, "Windows") == 0;
}

/*
 * Marks the pools 'f' rebuilds with 'how' (mark or touch); 'applied'
 * holds the cluster-level rules that have already marked them that way.
 */
static void mark_pools(struct inventory *inv, const struct ndp_finding *f,
                       struct ndp_strmap *applied,
                       void (*how)(struct ndp_impact_pool *, const char *))
{
    bool windows = f->pools == NDP_POOLS_WINDOWS;
    size_t i, seen;

    if (f->pools == NDP_POOLS_NONE)
        return;
    if (f->pools == NDP_POOLS_NAMED) {
        struct ndp_impact_pool *p = f->pool ? find_pool(inv, f->pool) : NULL;
        if (!p && f->pool)
            p = add_pool(inv, f->pool);
        if (p)
            how(p, f->rule_id);
        return;
    }
    /* Marking is idempotent: each rule marks the pools once. */
    seen = applied->nr;
    ndp_strmap_add(applied, f->rule_id, seen);
    if (applied->nr == seen)
        return;
    for (i = 0; i < inv->nr; i++)
        if (!windows || is_windows(&inv->items[i]))
            how(&inv->items[i], f->rule_id);
}

/*
 * ceil(nodes * percent / 100) without the product, which overflows for a
 * node count near 2^63 (both come from the input): nodes = 100q + r.
 * A percentage of 100 or more is every node.
 */
static long percent_of(long nodes, long percent)
{
    if (percent >= 100)
        return nodes;
    return nodes / 100 * percent + (nodes % 100 * percent + 99) / 100;
}

long ndp_impact_surge_nodes(const char *surge, long nodes)
{
    long s = 1;
    char *end;

    if (surge && *surge) {
        long v = strtol(surge, &end, 10);
        if (end != surge && *end == '%' && v > 0 && nodes > 0)
            s = percent_of(nodes, v);
        else if (end != surge && *end == '\0' && v > 0)
            s = v;
    }
    if (s < 1)
        s = 1;
    if (nodes > 0 && s > nodes)
        s = nodes;
    return s;
}

long ndp_impact_batches(long nodes, long surge)
{
    if (nodes <= 0 || surge <= 0)
        return -1;
    return nodes / surge + (nodes % surge != 0);
}

/* Nodes the rebuild goes through: the autoscaler's maximum at worst. */
static long pool_nodes(const struct ndp_impact_pool *p)
{
    if (p->autoscale && p->max_nodes > 0)
        return p->max_nodes > p->nodes ? p->max_nodes : p->nodes;
    return p->nodes;
}

/* Saturating, for counts that come from the input (never negative). */
static long add_sat(long a, long b)
{
    return a > LONG_MAX - b ? LONG_MAX : a + b;
}

static long mul_sat(long a, long b)
{
    return a && b > LONG_MAX / a ? LONG_MAX : a * b;
}

/*
 * The drain timeout of 'p' in minutes.  azurerm writes an unset one as 0,
 * which AKS would refuse (it takes 1-1440), so 0 reads as the default.
 */
static long drain_minutes(const struct ndp_impact_pool *p)
{
    return p->drain_minutes > 0 ? p->drain_minutes
                                : NDP_IMPACT_DEFAULT_DRAIN_MINUTES;
}

static long soak_minutes(const struct ndp_impact_pool *p)
{
    return p->soak_minutes >= 0 ? p->soak_minutes
                                : NDP_IMPACT_DEFAULT_SOAK_MINUTES;
}

/* The longest one batch of 'p' can take: drained, then soaked. */
static long batch_minutes(const struct ndp_impact_pool *p)
{
    return add_sat(drain_minutes(p), soak_minutes(p));
}

static void count_pool(struct ndp_rollout *out, const struct ndp_impact_pool *p)
{
    long nodes = pool_nodes(p);
    /* A pool scaled to zero has nothing to rebuild: no batch, not unknown. */
    long batches = nodes == 0 ? 0
                   : ndp_impact_batches(nodes,
                                        ndp_impact_surge_nodes(p->surge,
                                                               nodes));
    long each = batch_minutes(p);

    out->pools++;
    if (p->sensitive || batches < 0)
        out->known = false;
    if (!out->known)
        return;
    out->batches = add_sat(out->batches, batches);
    out->minutes = add_sat(out->minutes, mul_sat(batches, each));
    if (!batches)
        return;
    if (!out->batch_max || each < out->batch_min)
        out->batch_min = each;
    if (each > out->batch_max)
        out->batch_max = each;
}

void ndp_impact_rollout(struct ndp_rollout *out,
                        const struct ndp_impact *impact, bool touched)
{
    size_t i;

    memset(out, 0, sizeof(*out));
    out->known = true;
    for (i = 0; i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        if (touched ? p->touched : p->rebuilt)
            count_pool(out, p);
    }
    if (!out->known || !out->pools)
        out->batches = out->minutes = -1;
    out->known = out->known && out->pools;
}

void ndp_impact_duration_words(struct ndp_buf *out, long minutes)
{
    if (minutes >= 60)
        ndp_buf_addf(out, "%ld h", minutes / 60);
    if (minutes >= 60 && minutes % 60)
        ndp_buf_addch(out, ' ');
    if (minutes < 60 || minutes % 60)
        ndp_buf_addf(out, "%ld min", minutes % 60);
}

void ndp_impact_rollout_words(struct ndp_buf *out, const struct ndp_rollout *r)
{
    ndp_buf_addf(out, "the rebuild of %zu pool%s ", r->pools,
                 r->pools == 1 ? "" : "s");
    if (!r->known) {
        ndp_buf_adds(out, "cannot be sized: a node count is unknown or "
                          "sensitive (--cluster-state gives the counts)");
        return;
    }
    ndp_buf_adds(out, "can take up to ");
    ndp_impact_duration_words(out, r->minutes);
    ndp_buf_addf(out, " (%ld batch%s ", r->batches,
                 r->batches == 1 ? "" : "es");
    if (r->batch_min == r->batch_max) {
        ndp_buf_adds(out, "\xc3\x97 ");
        ndp_impact_duration_words(out, r->batch_max);
    } else {
        ndp_buf_addf(out, "of %ld to %ld min", r->batch_min, r->batch_max);
    }
    ndp_buf_adds(out, r->pools > 1 ? ", the pools one after another: a "
                                     "worst case)"
                                   : ")");
}

static void add_number(struct ndp_buf *out, long v)
{
    if (v < 0)
        ndp_buf_adds(out, "null");
    else
        ndp_buf_addf(out, "%ld", v);
}

/* A pool under a sensitive mask: its rule ids, nothing read from it. */
static void sensitive_pool_json(struct ndp_buf *out,
                                const struct ndp_impact_pool *p)
{
    const char *r = p->because ? p->because : "";
    bool first = true;

    ndp_buf_adds(out, "{\"name\":\"(sensitive)\",\"os_type\":null,"
                      "\"nodes\":null,\"min_nodes\":null,\"max_nodes\":null,"
                      "\"max_surge\":\"(sensitive)\",\"surge_nodes\":null,"
                      "\"batches\":null,\"drain_timeout_minutes\":null,"
                      "\"node_soak_minutes\":null,\"because\":[");
    while (*r) {
        size_t n = strcspn(r, ",");
        ndp_buf_addf(out, "%s\"%.*s\"", first ? "" : ",", (int)n, r);
        first = false;
        r += n + (r[n] == ',');
    }
    ndp_buf_adds(out, "]}");
}

static void pool_json(struct ndp_buf *out, const struct ndp_impact_pool *p)
{
    long nodes = pool_nodes(p);
    long surge = ndp_impact_surge_nodes(p->surge, nodes);

    if (p->sensitive) {
        sensitive_pool_json(out, p);
        return;
    }
    ndp_buf_adds(out, "{\"name\":");
    ndp_buf_add_json_string(out, p->name);
    ndp_buf_adds(out, ",\"os_type\":");
    if (p->os_type)
        ndp_buf_add_json_string(out, p->os_type);
    else
        ndp_buf_adds(out, "null");
    ndp_buf_adds(out, ",\"nodes\":");
    add_number(out, p->nodes);
    ndp_buf_adds(out, ",\"min_nodes\":");
    add_number(out, p->autoscale ? p->min_nodes : -1);
    ndp_buf_adds(out, ",\"max_nodes\":");
    add_number(out, p->autoscale ? p->max_nodes : -1);
    ndp_buf_adds(out, ",\"max_surge\":");
    ndp_buf_add_json_string(out, p->surge ? p->surge : "1");
    ndp_buf_addf(out, ",\"surge_nodes\":%ld,\"batches\":", surge);
    add_number(out, ndp_impact_batches(nodes, surge));
    ndp_buf_addf(out, ",\"drain_timeout_minutes\":%ld,"
                      "\"node_soak_minutes\":%ld",
                 drain_minutes(p), soak_minutes(p));
    ndp_buf_adds(out, ",\"because\":[");
    {
        const char *r = p->because ? p->because : "";
        bool first = true;
        while (*r) {
            size_t n = strcspn(r, ",");
            char id[32];
            snprintf(id, sizeof(id), "%.*s", (int)n, r);
            ndp_buf_addf(out, "%s", first ? "" : ",");
            ndp_buf_add_json_string(out, id);
            first = false;
            r += n + (r[n] == ',');
        }
    }
    ndp_buf_adds(out, "]}");
}

static void pool_text(struct ndp_buf *out, const struct ndp_impact_pool *p)
{
    long nodes = pool_nodes(p);
    long surge = ndp_impact_surge_nodes(p->surge, nodes);

    if (p->sensitive) {
        ndp_buf_adds(out, "a pool whose name and size are sensitive (not "
                          "shown)");
        return;
    }
    ndp_buf_addf(out, "%s (", p->name);
    if (nodes < 0)
        ndp_buf_adds(out, "node count unknown");
    else if (p->autoscale && p->max_nodes > 0)
        ndp_buf_addf(out, "%ld-%ld nodes", p->min_nodes > 0 ? p->min_nodes
                                                           : p->nodes,
                     nodes);
    else
        ndp_buf_addf(out, "%ld node%s", nodes, nodes == 1 ? "" : "s");
    ndp_buf_addf(out, ", max surge %s = %ld at a time", p->surge ? p->surge
                                                                 : "1",
                 surge);
    if (nodes > 0)
        ndp_buf_addf(out, ", %ld batch%s", ndp_impact_batches(nodes, surge),
                     ndp_impact_batches(nodes, surge) == 1 ? "" : "es");
    ndp_buf_addch(out, ')');
}

static size_t count_created(const struct ndp_impact *impact)
{
    size_t i, nr = 0;

    for (i = 0; i < impact->nr_pools; i++)
        nr += impact->pools[i].created;
    return nr;
}

/*
 * The pools this apply creates, after the rebuilt ones: JSON ',"created":
 * [names]' and text "; pool 'x' is created (not rebuilt)"; nothing when
 * none is created, so such impacts read as they always did.
 */
static void describe_created(struct ndp_buf *json, struct ndp_buf *text,
                             const struct ndp_impact *impact)
{
    size_t i, seen = 0, nr = count_created(impact);

    if (!nr)
        return;
    ndp_buf_adds(json, ",\"created\":[");
    ndp_buf_adds(text, nr == 1 ? "; pool " : "; pools ");
    for (i = 0; i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        if (!p->created)
            continue;
        ndp_buf_adds(json, seen ? "," : "");
        ndp_buf_add_json_string(json, p->sensitive ? "(sensitive)" : p->name);
        ndp_buf_addf(text, "%s'%s'", seen ? ", " : "",
                     p->sensitive ? "(sensitive)" : p->name);
        seen++;
    }
    ndp_buf_adds(json, "]");
    ndp_buf_adds(text, nr == 1 ? " is created (not rebuilt)"
                               : " are created (not rebuilt)");
}

/*
 * ',"worst_case_minutes":N,"window_remaining_minutes":N': null when not
 * known, and when the changes go through in no window; the minutes left
 * of a sensitive window are "(sensitive)".
 */
static void rollout_json(struct ndp_buf *json, const struct ndp_impact *impact)
{
    struct ndp_rollout r;

    ndp_impact_rollout(&r, impact, false);
    ndp_buf_adds(json, ",\"worst_case_minutes\":");
    add_number(json, r.minutes);
    ndp_buf_adds(json, ",\"window_remaining_minutes\":");
    if (impact->window_sensitive && impact->window_minutes_left >= 0)
        ndp_buf_adds(json, "\"(sensitive)\"");
    else
        add_number(json, impact->window_minutes_left);
}

/* Both descriptions of an impact, written side by side in one pass. */
static void describe(struct ndp_buf *json, struct ndp_buf *text,
                     const struct ndp_impact *impact)
{
    long total = 0;
    bool known = true, first = true;
    size_t i;

    ndp_buf_adds(json, "{\"pools\":[");
    ndp_buf_adds(text, "rebuilds ");
    for (i = 0; i < impact->nr_pools; i++) {
        const struct ndp_impact_pool *p = &impact->pools[i];
        if (!p->rebuilt)
            continue;
        ndp_buf_adds(json, first ? "" : ",");
        ndp_buf_adds(text, first ? "" : ", ");
        pool_json(json, p);
        pool_text(text, p);
        if (pool_nodes(p) < 0 || p->sensitive)
            known = false;
        else /* saturates: counts near 2^63 come from the input */
            total = pool_nodes(p) > LONG_MAX - total ? LONG_MAX
                                                     : total + pool_nodes(p);
        first = false;
    }
    if (first) {
        /* Rebuilds, but the input describes no pool of the cluster. */
        ndp_buf_adds(text, "every affected pool (the input describes none; "
                            "pass --cluster-state for counts)");
        known = false;
    }
    ndp_buf_adds(json, "],\"nodes\":");
    add_number(json, known ? total : -1);
    describe_created(json, text, impact);
    rollout_json(json, impact);
    ndp_buf_adds(json, ",\"note\":\"node-local ephemeral storage (emptyDir, "
                        "hostPath) on these nodes is lost\"}");
    ndp_buf_adds(text, "; node-local ephemeral storage (emptyDir, "
                        "hostPath) is lost");
}

void ndp_impact_to_json(struct ndp_buf *out, const struct ndp_impact *impact)
{
    struct ndp_buf text = NDP_BUF_INIT;

    if (impact->rebuilds)
        describe(out, &text, impact);
    else
        ndp_buf_adds(out, "null");
    ndp_buf_release(&text);
}

void ndp_impact_describe(struct ndp_buf *out, const struct ndp_impact *impact)
{
    struct ndp_buf json = NDP_BUF_INIT;

    if (impact->rebuilds)
        describe(&json, out, impact);
    ndp_buf_release(&json);
}

/* The pools of a cluster's impact, and nothing once released. */
static void release_pools(struct ndp_impact *impact)
{
    size_t i;

    for (i = 0; i < impact->nr_pools; i++) {
        free(impact->pools[i].name);
        free(impact->pools[i].because);
    }
    free(impact->pools);
    impact->pools = NULL;
    impact->nr_pools = 0;
}

/*
 * One cluster: its changes are the listed indexes, its findings those
 * listed, in report order (the order 'because' lists their rules in, and
 * pools that only a finding names are added in).
 */
static void compute_one(struct ndp_impact *out,
                        const struct ndp_state_cluster *state,
                        const struct ndp_changeset *set,
                        const size_t *changes, size_t nr_changes,
                        const struct ndp_finding *const *found,
                        size_t nr_found)
{
    struct inventory inv;
    size_t i;

    memset(&inv, 0, sizeof(inv));
    inv.by_name.fold_case = true;
    for (i = 0; i < nr_changes; i++) {
        const struct ndp_change *ch = set->items[changes[i]];
        inv.reading_sensitive = ndp_impact_pool_sensitive(ch);
        pools_of_change(&inv, ch);
    }
    inv.reading_sensitive = false;
    pools_of_state(&inv, state);
    for (i = 0; i < nr_found; i++) {
        const struct ndp_finding *f = found[i];
        if (rebuilds_now(f)) {
            mark_pools(&inv, f, &inv.applied, mark);
            out->rebuilds = out->touches = true;
        } else if (refused(f)) {
            mark_pools(&inv, f, &inv.touched, touch);
            out->touches = true;
        }
    }
    out->pools = inv.items;
    out->nr_pools = inv.nr;
    out->window_minutes_left = -1;
    if (!out->touches)
        release_pools(out);
    ndp_strmap_release(&inv.by_name);
    ndp_strmap_release(&inv.applied);
    ndp_strmap_release(&inv.touched);
}

static int compare_finding_pointers(const void *a, const void *b)
{
    return ndp_finding_compare(*(const struct ndp_finding *const *)a,
                               *(const struct ndp_finding *const *)b);
}

/*
 * The findings of each cluster in report order, whatever order they
 * were made in: those of cluster c are (*out)[at[c]] .. (*out)[at[c+1]-1].
 */
static void findings_by_cluster(const struct ndp_finding ***out,
                                const size_t *found, const size_t *at,
                                size_t nr_clusters,
                                const struct ndp_findings *findings)
{
    const struct ndp_finding **order =
        ndp_xcalloc(findings->nr ? findings->nr : 1, sizeof(*order));
    size_t c, i;

    for (i = 0; i < at[nr_clusters]; i++)
        order[i] = &findings->items[found[i]];
    for (c = 0; c < nr_clusters; c++)
        qsort(order + at[c], at[c + 1] - at[c], sizeof(*order),
              compare_finding_pointers);
    *out = order;
}

void ndp_impact_compute_all(struct ndp_impacts *out, size_t nr_clusters,
                            const struct ndp_state_cluster *const *states,
                            const struct ndp_changeset *set,
                            const struct ndp_findings *findings)
{
    size_t n = set->nr > findings->nr ? set->nr : findings->nr;
    size_t *of = ndp_xcalloc(n ? n : 1, sizeof(*of));
    size_t *changes, *change_at, *found, *found_at, i;
    const struct ndp_finding **order;

    out->items = ndp_xcalloc(nr_clusters ? nr_clusters : 1,
                             sizeof(*out->items));
    out->nr = nr_clusters;
    for (i = 0; i < set->nr; i++)
        of[i] = set->items[i]->cluster;
    ndp_group_indexes(&changes, &change_at, nr_clusters, set->nr, of);
    for (i = 0; i < findings->nr; i++)
        of[i] = findings->items[i].cluster_index;
    ndp_group_indexes(&found, &found_at, nr_clusters, findings->nr, of);
    findings_by_cluster(&order, found, found_at, nr_clusters, findings);
    for (i = 0; i < nr_clusters; i++)
        compute_one(&out->items[i], states[i], set, changes + change_at[i],
                    change_at[i + 1] - change_at[i], order + found_at[i],
                    found_at[i + 1] - found_at[i]);
    free(order);
    free(of);
    free(changes);
    free(change_at);
    free(found);
    free(found_at);
}

void ndp_impacts_release(struct ndp_impacts *impacts)
{
    size_t i;

    for (i = 0; i < impacts->nr; i++)
        release_pools(&impacts->items[i]);
    free(impacts->items);
    memset(impacts, 0, sizeof(*impacts));
}

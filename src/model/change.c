/*
 * SPDX-License-Identifier: Apache-2.0
 * change.c - ownership of the normalised change set (see change.h).
 */
#include "common.h"
#include "change.h"
#include "buf.h"
#include "policy.h"
#include "strmap.h"

#include <json-c/json.h>

size_t ndp_changeset_add_input(struct ndp_changeset *set, const char *path)
{
    struct ndp_input_info *in;

    NDP_GROW(set->inputs, set->alloc_inputs, set->nr_inputs + 1);
    in = &set->inputs[set->nr_inputs];
    memset(in, 0, sizeof(*in));
    in->path = ndp_xstrdup(path);
    return set->nr_inputs++;
}

struct ndp_change *ndp_changeset_add(struct ndp_changeset *set,
                                     size_t input_index)
{
    struct ndp_change *c = ndp_xcalloc(1, sizeof(*c));

    c->input = set->inputs[input_index].path;
    NDP_GROW(set->items, set->alloc, set->nr + 1);
    set->items[set->nr++] = c;
    return c;
}

const char *ndp_address_skip_key(const char *p)
{
    bool quoted = false;

    if (*p != '[')
        return p;
    for (p++; *p && (quoted || *p != ']'); p++) {
        if (*p == '\\' && quoted && p[1])
            p++;
        else if (*p == '"')
            quoted = !quoted;
    }
    return *p ? p + 1 : p;
}

/* The first of 'declared', 'reported' that is a Kubernetes version. */
static const char *version_of(const char *declared, const char *reported)
{
    if (ndp_k8s_minor(declared) >= 0)
        return declared;
    return ndp_k8s_minor(reported) >= 0 ? reported : NULL;
}

const char *ndp_facts_version_before(const struct ndp_facts *f)
{
    return version_of(f->declared_version_before, f->reported_version_before);
}

const char *ndp_facts_version_after(const struct ndp_facts *f)
{
    return version_of(f->declared_version_after, f->reported_version_after);
}

const char *ndp_pool_version_before(const struct ndp_pool_facts *p)
{
    return version_of(p->declared_version_before, p->reported_version_before);
}

const char *ndp_pool_version_after(const struct ndp_pool_facts *p)
{
    return version_of(p->declared_version_after, p->reported_version_after);
}

void ndp_facts_release(struct ndp_facts *facts)
{
    size_t i;

    for (i = 0; i < facts->nr_pools; i++)
        free(facts->pools[i].path);
    free(facts->pools);
    free(facts->windows);
    memset(facts, 0, sizeof(*facts));
}

void ndp_pool_field_path(struct ndp_buf *out, const struct ndp_pool_facts *p,
                         enum ndp_pool_field field)
{
    if (*p->path)
        ndp_buf_addf(out, "%s.", p->path);
    ndp_buf_adds(out, p->fields && p->fields[field] ? p->fields[field] : "");
}

static void change_free(struct ndp_change *c)
{
    ndp_facts_release(&c->facts);
    free(c->address);
    free(c->previous_address);
    free(c->resource_type);
    free(c->name);
    free(c->shown_name);
    free(c->shown_group);
    json_object_put(c->before);
    json_object_put(c->after);
    json_object_put(c->after_unknown);
    json_object_put(c->before_sensitive);
    json_object_put(c->after_sensitive);
    free(c->replace_paths);
    free(c->self_id);
    free(c->parent_id);
    free(c->parent_ref);
    free(c->pool_ref);
    free(c->source_dir);
    free(c->deferred_reason);
    free(c);
}

void ndp_changeset_release(struct ndp_changeset *set)
{
    size_t i;

    for (i = 0; i < set->nr; i++)
        change_free(set->items[i]);
    free(set->items);
    for (i = 0; i < set->nr_inputs; i++)
        free(set->inputs[i].path);
    free(set->inputs);
    for (i = 0; i < set->nr_subnets; i++) {
        free(set->subnets[i].id);
        free(set->subnets[i].address);
        free(set->subnets[i].prefixes);
    }
    free(set->subnets);
    for (i = 0; i < set->nr_order; i++)
        free(set->order[i].deps);
    free(set->order);
    ndp_kube_objects_release(&set->kube);
    memset(set, 0, sizeof(*set));
}

size_t ndp_changeset_add_order(struct ndp_changeset *set)
{
    NDP_GROW(set->order, set->alloc_order, set->nr_order + 1);
    memset(&set->order[set->nr_order], 0, sizeof(set->order[0]));
    return set->nr_order++;
}

void ndp_changeset_add_order_dep(struct ndp_changeset *set, size_t from,
                                 size_t to)
{
    struct ndp_order_node *n = &set->order[from];

    if (from == to)
        return;
    NDP_GROW(n->deps, n->alloc, n->nr + 1);
    n->deps[n->nr++] = to;
}

struct ndp_subnet *ndp_changeset_add_subnet(struct ndp_changeset *set)
{
    struct ndp_subnet *s;

    NDP_GROW(set->subnets, set->alloc_subnets, set->nr_subnets + 1);
    s = &set->subnets[set->nr_subnets++];
    memset(s, 0, sizeof(*s));
    s->usable = -1;
    return s;
}

bool ndp_arm_type_kind(const char *type, enum ndp_kind *kind)
{
    static const char base[] = "Microsoft.ContainerService/managedClusters";
    size_t n = sizeof(base) - 1;

    if (ndp_strncasecmp(type, base, n) != 0)
        return false;
    if (type[n] == '\0')
        *kind = NDP_KIND_CLUSTER;
    else if (ndp_strcasecmp(type + n, "/agentPools") == 0)
        *kind = NDP_KIND_NODEPOOL;
    else if (ndp_strcasecmp(type + n, "/maintenanceConfigurations") == 0)
        *kind = NDP_KIND_MAINTENANCE;
    else
        return false;
    return true;
}

/* "LEN:INPUT" then the address: no two (input, address) pairs share it. */
static char *index_key(const char *input, const char *address)
{
    struct ndp_buf b = NDP_BUF_INIT;

    ndp_buf_addf(&b, "%zu:%s%s", strlen(input), input, address);
    return ndp_buf_detach(&b);
}

void ndp_change_index_build(struct ndp_change_index *out,
                            const struct ndp_changeset *set, bool with_line)
{
    size_t i;

    out->set = set;
    out->nr = 0;
    out->keys = ndp_xcalloc(set->nr ? set->nr : 1, sizeof(*out->keys));
    out->map = ndp_xcalloc(1, sizeof(*out->map));
    for (i = 0; i < set->nr; i++) {
        const struct ndp_change *ch = set->items[i];
        char *key;
        if (!ch->address || (with_line && ch->line <= 0))
            continue;
        key = index_key(ch->input, ch->address);
        if (ndp_strmap_add(out->map, key, i) == i)
            out->keys[out->nr++] = key;
        else
            free(key);
    }
}

const struct ndp_change *ndp_change_index_find(
    const struct ndp_change_index *ix, const char *input, const char *address)
{
    char *key = index_key(input, address);
    size_t i = ndp_strmap_find(ix->map, key);

    free(key);
    return i == SIZE_MAX ? NULL : ix->set->items[i];
}

void ndp_change_index_release(struct ndp_change_index *ix)
{
    size_t i;

    for (i = 0; i < ix->nr; i++)
        free(ix->keys[i]);
    free(ix->keys);
    if (ix->map)
        ndp_strmap_release(ix->map);
    free(ix->map);
    ix->keys = NULL;
    ix->map = NULL;
    ix->nr = 0;
}

/* A counting sort: linear in 'n' and 'clusters'. */
void ndp_group_indexes(size_t **out, size_t **start, size_t clusters,
                       size_t n, const size_t *cluster_of)
{
    size_t i, *at = ndp_xcalloc(clusters + 2, sizeof(*at));

    *out = ndp_xcalloc(n ? n : 1, sizeof(**out));
    for (i = 0; i < n; i++)
        if (cluster_of[i] < clusters)
            at[cluster_of[i] + 2]++;
    for (i = 2; i < clusters + 2; i++)
        at[i] += at[i - 1];
    for (i = 0; i < n; i++)
        if (cluster_of[i] < clusters)
            (*out)[at[cluster_of[i] + 1]++] = i;
    *start = at;
}


char *ndp_arm_id_segment(const char *id, const char *type)
{
    size_t tlen = strlen(type);
    const char *p = id;

    while (p && (p = strchr(p, '/')) != NULL) {
        p++;
        if (ndp_strncasecmp(p, type, tlen) == 0 && p[tlen] == '/') {
            const char *v = p + tlen + 1;
            size_t n = strcspn(v, "/");
            if (!n || *v == '[')
                return NULL;
            return ndp_xstrndup(v, n);
        }
    }
    return NULL;
}

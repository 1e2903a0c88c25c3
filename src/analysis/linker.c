/*
 * SPDX-License-Identifier: Apache-2.0
 * linker.c - second pipeline stage: changes grouped under their clusters.
 *
 * Matching order for a node pool, policy setter or maintenance
 * configuration: the ARM id it names (kubernetes_cluster_id, parent_id,
 * resource_id) against each cluster's own id; then the Terraform address
 * its configuration refers to, exactly or ignoring the count/for_each key
 * when that leaves a single candidate; else a cluster entry of its own,
 * named by the id it refers to (or by its own address).  Every match is
 * one lookup in an index of the clusters, so linking is linear in the
 * changes (bench/scaling.sh 'clusters').
 */
#include "common.h"
#include "linker.h"
#include "buf.h"
#include "change.h"
#include "input.h"
#include "jsonutil.h"
#include "strmap.h"

/*
 * The clusters by what changes name them, so that linking costs one
 * lookup per change, not a scan of the clusters (keyed hash maps: see
 * strmap.h).  Keys are "LEN:INPUT" then the id, folded where ids compare
 * case-insensitively.
 */
struct link_index {
    struct ndp_strmap arm;      /* ARM id, folded -> first cluster */
    struct ndp_strmap name;     /* cluster id, folded -> first cluster */
    struct ndp_strmap exact;    /* own cluster id -> first such cluster */
    struct ndp_strmap base;     /* id less its instance key -> slot */
    size_t *base_first, *base_count, nr_base, alloc_base;
    char **keys;
    size_t nr_keys, alloc_keys;
};

/* A key for a lookup only: freed by the caller. */
static char *lookup_key(const char *input, const char *id, size_t len,
                        bool fold)
{
    struct ndp_buf b = NDP_BUF_INIT;
    size_t i;

    ndp_buf_addf(&b, "%zu:%s", strlen(input), input);
    for (i = 0; i < len; i++)
        ndp_buf_addch(&b, fold && id[i] >= 'A' && id[i] <= 'Z'
                              ? (char)(id[i] + 32) : id[i]);
    return ndp_buf_detach(&b);
}

/* The same key, kept by the index until it is released. */
static const char *index_key(struct link_index *ix, const char *input,
                             const char *id, size_t len, bool fold)
{
    NDP_GROW(ix->keys, ix->alloc_keys, ix->nr_keys + 1);
    ix->keys[ix->nr_keys] = lookup_key(input, id, len, fold);
    return ix->keys[ix->nr_keys++];
}

static size_t lookup(const struct ndp_strmap *m, const char *input,
                     const char *id, size_t len, bool fold)
{
    char *key = lookup_key(input, id, len, fold);
    size_t i = ndp_strmap_find(m, key);

    free(key);
    return i;
}

static void release_index(struct link_index *ix)
{
    size_t i;

    for (i = 0; i < ix->nr_keys; i++)
        free(ix->keys[i]);
    free(ix->keys);
    free(ix->base_first);
    free(ix->base_count);
    ndp_strmap_release(&ix->arm);
    ndp_strmap_release(&ix->name);
    ndp_strmap_release(&ix->exact);
    ndp_strmap_release(&ix->base);
}

static size_t add_cluster(struct ndp_clusters *cl, struct link_index *ix,
                          const char *id, const char *arm_id,
                          const char *input, size_t change)
{
    struct ndp_cluster *c;

    NDP_GROW(cl->items, cl->alloc, cl->nr + 1);
    c = &cl->items[cl->nr];
    memset(c, 0, sizeof(*c));
    c->id = ndp_xstrdup(id);
    c->arm_id = arm_id ? ndp_xstrdup(arm_id) : NULL;
    c->input = input;
    c->change = change;
    /* A cluster known only by the id a change names (its printed id):
     * the names in it.  One with a change of its own takes them from that
     * change, where they may be sensitive (shown_names()). */
    if (arm_id && change == SIZE_MAX) {
        c->name = ndp_arm_id_segment(arm_id, "managedClusters");
        c->resource_group = ndp_arm_id_segment(arm_id, "resourceGroups");
    }
    if (arm_id)
        ndp_strmap_add(&ix->arm, index_key(ix, input, arm_id, strlen(arm_id),
                                           true), cl->nr);
    ndp_strmap_add(&ix->name, index_key(ix, input, id, strlen(id), true),
                   cl->nr);
    return cl->nr++;
}

static size_t find_by_arm_id(const struct link_index *ix,
                             const struct ndp_change *ch)
{
    if (!ch->parent_id)
        return SIZE_MAX;
    return lookup(&ix->arm, ch->input, ch->parent_id,
                  strlen(ch->parent_id), true);
}

/* Address without its trailing instance key: a.b["x"] -> a.b */
static size_t base_len(const char *address)
{
    size_t n = strlen(address);

    if (n && address[n - 1] == ']') {
        const char *open = strrchr(address, '[');
        if (open)
            return (size_t)(open - address);
    }
    return n;
}

/* The clusters the input declares, by id and by id less instance key. */
static void index_own_clusters(struct link_index *ix,
                               const struct ndp_clusters *cl)
{
    size_t i;

    for (i = 0; i < cl->nr; i++) {
        const struct ndp_cluster *c = &cl->items[i];
        size_t slot;
        ndp_strmap_add(&ix->exact, index_key(ix, c->input, c->id,
                                             strlen(c->id), false), i);
        slot = ndp_strmap_add(&ix->base, index_key(ix, c->input, c->id,
                                                   base_len(c->id), false),
                              ix->nr_base);
        if (slot == ix->nr_base) {
            size_t had = ix->alloc_base;
            NDP_GROW(ix->base_first, ix->alloc_base, ix->nr_base + 1);
            if (ix->alloc_base != had)
                ix->base_count = ndp_xrealloc(ix->base_count,
                                              ix->alloc_base *
                                                  sizeof(*ix->base_count));
            ix->base_first[slot] = i;
            ix->base_count[slot] = 0;
            ix->nr_base++;
        }
        ix->base_count[slot]++;
    }
}

/* Exactly the address referred to, else the one instance of it. */
static size_t find_by_reference(const struct link_index *ix,
                                const struct ndp_change *ch)
{
    size_t i, len;

    if (!ch->parent_ref)
        return SIZE_MAX;
    len = strlen(ch->parent_ref);
    i = lookup(&ix->exact, ch->input, ch->parent_ref, len, false);
    if (i != SIZE_MAX)
        return i;
    i = lookup(&ix->base, ch->input, ch->parent_ref, len, false);
    return i != SIZE_MAX && ix->base_count[i] == 1 ? ix->base_first[i]
                                                    : SIZE_MAX;
}

static size_t link_one(struct ndp_clusters *cl, struct link_index *ix,
                       const struct ndp_change *ch)
{
    size_t i = find_by_arm_id(ix, ch);
    const char *id;

    if (i == SIZE_MAX)
        i = find_by_reference(ix, ch);
    if (i != SIZE_MAX)
        return i;
    id = ch->parent_id ? ch->parent_id
         : ch->parent_ref ? ch->parent_ref : ch->address;
    i = lookup(&ix->name, ch->input, id, strlen(id), true);
    if (i == SIZE_MAX)
        i = add_cluster(cl, ix, id, ch->parent_id, ch->input, SIZE_MAX);
    return i;
}

/*
 * Spec §11: the first apply of an azapi_update_resource has no 'before'.
 * The cluster's current values are taken from the cluster resource in the
 * same input (ndp_input_setter_before(): what a reader tells of them);
 * without one, they are not known and the change may reimage.
 */
static void first_apply_of_setter(struct ndp_change *ch,
                                  const struct ndp_clusters *cl,
                                  const struct ndp_changeset *set)
{
    const struct ndp_cluster *c = &cl->items[ch->cluster];
    const struct ndp_change *own = c->change != SIZE_MAX
                                       ? set->items[c->change] : NULL;

    if (ch->kind != NDP_KIND_SETTER || ch->action != NDP_ACTION_CREATE ||
        ch->before)
        return;
    ndp_input_setter_before(ch, own);
}

/*
 * The pool setter 'setter' updates, as another change of the input
 * declares it: a pool resource, else an entry of the cluster's own change
 * 'own' (its default pool, its agentPoolProfiles); NULL when none does.
 * '*by' is that change.  'pools' indexes the pool resources by cluster
 * and folded name.
 */
static const struct ndp_pool_facts *pool_of(const struct ndp_change **by,
                                            const struct ndp_change *setter,
                                            const struct ndp_change *own,
                                            const struct ndp_strmap *pools,
                                            const struct ndp_changeset *set)
{
    struct ndp_buf key = NDP_BUF_INIT;
    size_t i;

    ndp_buf_addf(&key, "%zu\n%s", setter->cluster, setter->name);
    i = ndp_strmap_find(pools, key.buf);
    ndp_buf_release(&key);
    if (i != SIZE_MAX && set->items[i]->facts.nr_pools) {
        *by = set->items[i];
        return &set->items[i]->facts.pools[0];
    }
    for (i = 0; own && i < own->facts.nr_pools; i++)
        if (own->facts.pools[i].name &&
            ndp_strcasecmp(own->facts.pools[i].name, setter->name) == 0) {
            *by = own;
            return &own->facts.pools[i];
        }
    return NULL;
}

/*
 * The same for an azapi_update_resource on an agentPools resource: the
 * pool's current settings from the pool in the same input (all of them
 * for an existing ARM pool, the version alone otherwise); the values not
 * known stay unknown, and the change may reimage.
 */
static void first_apply_of_pool_setter(struct ndp_change *ch,
                                       const struct ndp_clusters *cl,
                                       const struct ndp_strmap *pools,
                                       const struct ndp_changeset *set)
{
    const struct ndp_cluster *c = &cl->items[ch->cluster];
    const struct ndp_change *own = c->change != SIZE_MAX
                                       ? set->items[c->change] : NULL;
    const struct ndp_change *by = NULL;
    const struct ndp_pool_facts *p;

    if (ch->kind != NDP_KIND_NODEPOOL || !ch->setter || !ch->name ||
        ch->action != NDP_ACTION_CREATE || ch->before)
        return;
    p = pool_of(&by, ch, own, pools, set);
    ndp_input_pool_setter_before(ch, by, p);
}

/* The pool resources that are not setters, by cluster and folded name. */
static void index_pools(struct ndp_strmap *out, char ***keys,
                        const struct ndp_changeset *set)
{
    size_t i, n = 0;

    *keys = ndp_xcalloc(set->nr ? set->nr : 1, sizeof(**keys));
    for (i = 0; i < set->nr; i++) {
        const struct ndp_change *ch = set->items[i];
        struct ndp_buf key = NDP_BUF_INIT;
        if (ch->kind != NDP_KIND_NODEPOOL || ch->setter || !ch->name)
            continue;
        ndp_buf_addf(&key, "%zu\n%s", ch->cluster, ch->name);
        (*keys)[n] = ndp_buf_detach(&key);
        ndp_strmap_add(out, (*keys)[n++], i);
    }
}

/* Spec §11 for every setter of 'set' applied for the first time. */
static void first_applies(const struct ndp_clusters *cl,
                          struct ndp_changeset *set)
{
    struct ndp_strmap pools = NDP_STRMAP_INIT(true);
    char **keys;
    size_t i;

    index_pools(&pools, &keys, set);
    for (i = 0; i < set->nr; i++) {
        first_apply_of_setter(set->items[i], cl, set);
        first_apply_of_pool_setter(set->items[i], cl, &pools, set);
    }
    for (i = 0; i < set->nr && keys[i]; i++)
        free(keys[i]);
    free(keys);
    ndp_strmap_release(&pools);
}

/*
 * The names the cluster's own change gives, as far as they may be
 * printed; an ARM input's address is the cluster's ARM id, printed as it
 * is, so its names come from there.
 */
static void shown_names(struct ndp_cluster *c, const struct ndp_change *ch)
{
    if (ch->shown_name)
        c->name = ndp_xstrdup(ch->shown_name);
    if (ch->shown_group)
        c->resource_group = ndp_xstrdup(ch->shown_group);
    if (!c->name && !c->resource_group && ch->address[0] == '/') {
        c->name = ndp_arm_id_segment(ch->address, "managedClusters");
        c->resource_group = ndp_arm_id_segment(ch->address, "resourceGroups");
    }
}

/*
 * Is 'ch' a pool setter that names its pool by reference alone (its
 * resource_id known only after apply)?  It is linked through the pool.
 */
static bool linked_through_pool(const struct link_index *ix,
                                const struct ndp_change *ch)
{
    return ch->pool_ref && find_by_arm_id(ix, ch) == SIZE_MAX;
}

/*
 * Each pool setter that names its pool resource by reference gets the
 * pool's cluster, and the pool's name when its own is not known; one
 * whose pool is not in the input is linked as any other change.
 */
static void link_pool_setters(struct ndp_clusters *cl, struct link_index *ix,
                              struct ndp_changeset *set)
{
    struct ndp_strmap by_address = NDP_STRMAP_INIT(false);
    size_t i, k;

    for (i = 0; i < set->nr; i++)
        if (set->items[i]->kind == NDP_KIND_NODEPOOL &&
            !set->items[i]->setter)
            ndp_strmap_add(&by_address, set->items[i]->address, i);
    for (i = 0; i < set->nr; i++) {
        struct ndp_change *ch = set->items[i];
        const struct ndp_change *pool;
        if (!linked_through_pool(ix, ch))
            continue;
        k = ndp_strmap_find(&by_address, ch->pool_ref);
        pool = k == SIZE_MAX ? NULL : set->items[k];
        if (!pool || strcmp(pool->input, ch->input) != 0) {
            ch->cluster = link_one(cl, ix, ch);
            continue;
        }
        ch->cluster = pool->cluster;
        if (!ch->name && pool->name)
            ch->name = ndp_xstrdup(pool->name);
    }
    ndp_strmap_release(&by_address);
}

void ndp_link(struct ndp_clusters *out, struct ndp_changeset *set)
{
    struct link_index ix;
    size_t i;

    memset(&ix, 0, sizeof(ix));
    ix.arm.fold_case = ix.name.fold_case = false; /* folded in the keys */
    for (i = 0; i < set->nr; i++) {
        struct ndp_change *ch = set->items[i];
        if (ch->kind == NDP_KIND_CLUSTER) {
            ch->cluster = add_cluster(out, &ix, ch->address, ch->self_id,
                                      ch->input, i);
            shown_names(&out->items[ch->cluster], ch);
            if (ch->previous_address)
                out->items[ch->cluster].previous_id =
                    ndp_xstrdup(ch->previous_address);
        }
    }
    index_own_clusters(&ix, out);
    for (i = 0; i < set->nr; i++) {
        struct ndp_change *ch = set->items[i];
        if (ch->kind != NDP_KIND_CLUSTER && !linked_through_pool(&ix, ch))
            ch->cluster = link_one(out, &ix, ch);
    }
    link_pool_setters(out, &ix, set);
    release_index(&ix);
    first_applies(out, set);
}

void ndp_clusters_release(struct ndp_clusters *clusters)
{
    size_t i;

    for (i = 0; i < clusters->nr; i++) {
        struct ndp_cluster *c = &clusters->items[i];
        free(c->id);
        free(c->arm_id);
        free(c->previous_id);
        free(c->name);
        free(c->resource_group);
    }
    free(clusters->items);
    memset(clusters, 0, sizeof(*clusters));
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * engine.c - the rule engine (engine.h): every changed attribute of every
 * updated resource matched to the rules, with the matchers of
 * rules_watch.c and rules_match.c.  The evaluator runs it once the
 * changes are linked to their clusters, and turns its hits into verdicts.
 *
 * The walk visits every node present in either document, so a block that
 * appears or disappears is seen attribute by attribute.  Unknown and
 * sensitive masks are carried alongside: a 'true' mask covers its subtree.
 */
#include "common.h"
#include "engine.h"
#include "buf.h"
#include "change.h"
#include "jsonutil.h"
#include "rules.h"

#include "rules_internal.h"

struct walker {
    struct ndp_hits *out;
    const struct ndp_change *change;
    size_t change_index;
    const struct ndp_rule **rules; /* rules that watch this resource type */
    uint32_t *watches;             /* ... and which of their watches apply */
    size_t nr_rules;
    size_t unnamed_pool_at;        /* where an "[N]" pool step starts in
                                      the path, or SIZE_MAX */
};

/* The masks and flags that travel with a node. */
struct node_masks {
    const struct json_object *unknown, *bsens, *asens;
    bool all_unknown, all_bsens, all_asens;
    const struct json_object *parent_before, *parent_after;
};

static struct ndp_hit *add_hit(struct walker *w, const struct ndp_rule *rule,
                    const char *path, const char *pool,
                    const struct json_object *before,
                    const struct json_object *after,
                    const struct node_masks *m, bool unknown)
{
    struct ndp_hit *h;

    NDP_GROW(w->out->items, w->out->alloc, w->out->nr + 1);
    h = &w->out->items[w->out->nr++];
    h->rule = rule;
    h->change = w->change_index;
    h->path = ndp_xstrdup(path);
    h->pool = pool ? ndp_xstrdup(pool) : NULL;
    h->before = before;
    h->after = unknown ? NULL : after;
    h->after_unknown = unknown;
    h->before_unknown = w->change->before_unknown &&
                        ndp_json_is_unset(before);
    h->before_sensitive = m->all_bsens || ndp_json_any_true(m->bsens);
    h->after_sensitive = m->all_asens || ndp_json_any_true(m->asens);
    h->context_unseen = false;
    return h;
}

/* Does 'rule' see a (possible) reimage in this node's change? */
static bool rule_fires(const struct walker *w, const struct ndp_rule *rule,
                       const struct json_object *before,
                       const struct json_object *after,
                       const struct node_masks *m, bool unknown)
{
    if (w->change->before_unknown && ndp_json_is_unset(before)) {
        /* Only what the setter sets, compared with nothing known; what
         * the linker found of the value before (the cluster's create in
         * the same plan, say) is compared as any value. */
        if (unknown)
            return true;
        return after && ndp_rule_may_reach(rule, after);
    }
    if (unknown)
        return ndp_rule_may_reimage(rule, before);
    return ndp_rule_reimages(rule, before, after, m->parent_before,
                             m->parent_after);
}

/*
 * A delta-only what-if change leaves unchanged properties out; a rule
 * that needs one of them (a sibling, a member) fires if it could hold.
 */
static bool rule_fires_unseen(const struct walker *w,
                              const struct ndp_rule *rule,
                              const struct json_object *before,
                              const struct json_object *after,
                              const struct node_masks *m, bool unknown)
{
    return w->change->delta_only && !unknown &&
           ndp_rule_reimages_unseen(rule, before, after, m->parent_before,
                                    m->parent_after);
}

/*
 * The path rules match: a pool element without a name, printed "[N]", is
 * matched as the "[name=...]" step the rules watch for pools.
 */
static const char *rule_path(const struct walker *w, const char *path,
                             struct ndp_buf *scratch)
{
    const char *close;

    if (w->unnamed_pool_at == SIZE_MAX)
        return path;
    close = strchr(path + w->unnamed_pool_at, ']');
    ndp_buf_add(scratch, path, w->unnamed_pool_at);
    ndp_buf_adds(scratch, "[name=?]");
    ndp_buf_adds(scratch, close ? close + 1 : "");
    return scratch->buf;
}

static void test_rules(struct walker *w, const char *path, const char *pool,
                       const struct json_object *before,
                       const struct json_object *after,
                       const struct node_masks *m)
{
    bool unknown = m->all_unknown || ndp_json_any_true(m->unknown);
    struct ndp_buf scratch = NDP_BUF_INIT;
    struct ndp_path_subject matched;
    size_t i;

    ndp_path_subject(&matched, rule_path(w, path, &scratch));
    for (i = 0; i < w->nr_rules; i++) {
        const struct ndp_rule *rule = w->rules[i];
        if (!ndp_rule_watches_subject(rule, w->watches[i], &matched))
            continue;
        if (rule_fires(w, rule, before, after, m, unknown))
            add_hit(w, rule, path, pool, before, after, m, unknown);
        else if (rule_fires_unseen(w, rule, before, after, m, unknown))
            add_hit(w, rule, path, pool, before, after, m, unknown)
                ->context_unseen = true;
    }
    ndp_buf_release(&scratch);
}

static void walk(struct walker *w, struct ndp_buf *path, const char *pool,
                 const struct json_object *before,
                 const struct json_object *after,
                 const struct node_masks *m);

static const struct json_object *child_mask(const struct json_object *mask,
                                            const char *key, size_t index,
                                            bool by_key)
{
    if (!mask)
        return NULL;
    return by_key ? ndp_json_get(mask, key) : ndp_json_index(mask, index);
}

static struct node_masks descend_masks(const struct node_masks *m,
                                       const char *key, size_t bi, size_t ai,
                                       bool by_key,
                                       const struct json_object *before,
                                       const struct json_object *after)
{
    struct node_masks c;

    c.parent_before = before;
    c.parent_after = after;
    c.unknown = child_mask(m->unknown, key, ai, by_key);
    c.bsens = child_mask(m->bsens, key, bi, by_key);
    c.asens = child_mask(m->asens, key, ai, by_key);
    c.all_unknown = m->all_unknown || ndp_json_is_true(m->unknown);
    c.all_bsens = m->all_bsens || ndp_json_is_true(m->bsens);
    c.all_asens = m->all_asens || ndp_json_is_true(m->asens);
    return c;
}

static void walk_object_key(struct walker *w, struct ndp_buf *path,
                            const char *pool, const char *key,
                            const struct json_object *before,
                            const struct json_object *after,
                            const struct node_masks *m)
{
    size_t len = path->len;
    struct node_masks cm = descend_masks(m, key, 0, 0, true, before, after);

    if (len)
        ndp_buf_addch(path, '.');
    ndp_buf_adds(path, key);
    walk(w, path, pool, ndp_json_get(before, key), ndp_json_get(after, key),
         &cm);
    ndp_buf_setlen(path, len);
}

/* True when object 'o' has member 'key', even one whose value is null. */
static bool has_key(const struct json_object *o, const char *key)
{
    return o && json_object_is_type(o, json_type_object) &&
           json_object_object_get_ex(o, key, NULL);
}

/*
 * Every key of either side once: before's keys, then after's keys that
 * before lacks.  Presence, not value, decides ("k": null is present), so a
 * null on one side does not walk the key a second time.
 */
static void walk_object(struct walker *w, struct ndp_buf *path,
                        const char *pool, const struct json_object *before,
                        const struct json_object *after,
                        const struct node_masks *m)
{
    if (before && json_object_is_type(before, json_type_object)) {
        json_object_object_foreach(ndp_json_unconst(before), key, v) {
            (void)v;
            walk_object_key(w, path, pool, key, before, after, m);
        }
    }
    if (after && json_object_is_type(after, json_type_object)) {
        json_object_object_foreach(ndp_json_unconst(after), key, v) {
            (void)v;
            if (!has_key(before, key))
                walk_object_key(w, path, pool, key, before, after, m);
        }
    }
    /* Terraform leaves an unknown value out of 'after' and marks it in
     * after_unknown: a key only the mask names is still a change. */
    if (m->unknown && json_object_is_type(m->unknown, json_type_object)) {
        json_object_object_foreach(ndp_json_unconst(m->unknown), key, v) {
            if (!has_key(before, key) && !has_key(after, key) &&
                (ndp_json_is_true(v) || ndp_json_any_true(v)))
                walk_object_key(w, path, pool, key, before, after, m);
        }
    }
}

static const char *element_name(const struct json_object *e)
{
    return ndp_json_get_string(e, "name");
}

static size_t array_len(const struct json_object *a)
{
    return a && json_object_is_type(a, json_type_array)
               ? json_object_array_length(a) : 0;
}

/*
 * A list of pools (the reader names its key: ARM agentPoolProfiles):
 * elements are matched by name, not position.
 */
static bool keyed_by_name(const struct walker *w, const struct ndp_buf *path)
{
    const char *key = w->change->facts.pool_list_key;
    size_t n = key ? strlen(key) : 0;

    return key && path->len >= n &&
           ndp_strcasecmp(path->buf + path->len - n, key) == 0;
}

/* An array's elements by name, sorted, so each lookup is a binary search. */
struct named {
    const char *name;
    size_t position;
};

struct name_index {
    struct named *items;
    size_t nr;
};

static int compare_named(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int d = ndp_strcasecmp(x->name, y->name);

    /* Equal names: the first one in the array wins. */
    return d ? d : (x->position > y->position) - (x->position < y->position);
}

static void index_names(struct name_index *ix, const struct json_object *a)
{
    size_t i, n = array_len(a);

    ix->items = ndp_xcalloc(n ? n : 1, sizeof(*ix->items));
    ix->nr = 0;
    for (i = 0; i < n; i++) {
        const char *name = element_name(json_object_array_get_idx(a, i));
        if (name) {
            ix->items[ix->nr].name = name;
            ix->items[ix->nr].position = i;
            ix->nr++;
        }
    }
    qsort(ix->items, ix->nr, sizeof(*ix->items), compare_named);
}

/* Position of the first element called 'name', or SIZE_MAX. */
static size_t lookup_name(const struct name_index *ix, const char *name)
{
    size_t lo = 0, hi = ix->nr;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (ndp_strcasecmp(ix->items[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < ix->nr && ndp_strcasecmp(ix->items[lo].name, name) == 0)
        return ix->items[lo].position;
    return SIZE_MAX;
}

static void release_names(struct name_index *ix)
{
    free(ix->items);
}

static void walk_named_element(struct walker *w, struct ndp_buf *path,
                               const char *name, size_t bi, size_t ai,
                               const struct json_object *before,
                               const struct json_object *after,
                               const struct node_masks *m)
{
    size_t len = path->len;
    struct node_masks cm = descend_masks(m, NULL, bi, ai, false, before,
                                         after);

    ndp_buf_addf(path, "[name=%s]", name);
    walk(w, path, name, ndp_json_index(before, bi), ndp_json_index(after, ai),
         &cm);
    ndp_buf_setlen(path, len);
}

/*
 * An element without a name on either side (a what-if delta rebuilt into
 * snapshots names no pool), matched by position and printed "[N]".
 */
static void walk_unnamed_element(struct walker *w, struct ndp_buf *path,
                                 size_t i, const struct json_object *before,
                                 const struct json_object *after,
                                 const struct node_masks *m)
{
    size_t len = path->len, outer = w->unnamed_pool_at;
    struct node_masks cm = descend_masks(m, NULL, i, i, false, before, after);

    w->unnamed_pool_at = len;
    ndp_buf_addf(path, "[%zu]", i);
    walk(w, path, NULL, ndp_json_index(before, i), ndp_json_index(after, i),
         &cm);
    ndp_buf_setlen(path, len);
    w->unnamed_pool_at = outer;
}

/*
 * Only pools present before and after are compared, matched by name
 * (case-insensitively), in before's order: a pool in one list only is
 * created or deleted by this apply, which reimages no existing node
 * (spec §11).  Elements that have no name on either side are matched by
 * position; a named element facing an unnamed one is not judged.
 */
static void walk_pool_array(struct walker *w, struct ndp_buf *path,
                            const struct json_object *before,
                            const struct json_object *after,
                            const struct node_masks *m)
{
    struct name_index bix, aix;
    size_t i, both = array_len(before) < array_len(after) ? array_len(before)
                                                         : array_len(after);

    index_names(&bix, before);
    index_names(&aix, after);
    for (i = 0; i < array_len(before); i++) {
        const char *name = element_name(json_object_array_get_idx(before, i));
        size_t ai = name ? lookup_name(&aix, name) : SIZE_MAX;
        if (ai != SIZE_MAX && lookup_name(&bix, name) == i)
            walk_named_element(w, path, name, i, ai, before, after, m);
    }
    for (i = 0; i < both; i++)
        if (!element_name(json_object_array_get_idx(before, i)) &&
            !element_name(json_object_array_get_idx(after, i)))
            walk_unnamed_element(w, path, i, before, after, m);
    release_names(&bix);
    release_names(&aix);
}

/*
 * The block the reader names as the cluster's default pool (azurerm
 * default_node_pool[0]) is the pool called by its name.
 */
static const char *pool_of_element(const struct walker *w,
                                   const struct ndp_buf *path,
                                   const char *pool,
                                   const struct json_object *be,
                                   const struct json_object *ae)
{
    const char *key = w->change->facts.default_pool_key;
    const char *name;

    if (!key || strcmp(path->buf, key) != 0)
        return pool;
    name = element_name(ae);
    if (!name || !*name)
        name = element_name(be);
    return name && *name ? name : "default_node_pool";
}

static void walk_array(struct walker *w, struct ndp_buf *path,
                       const char *pool, const struct json_object *before,
                       const struct json_object *after,
                       const struct node_masks *m)
{
    size_t i, n = array_len(before) > array_len(after) ? array_len(before)
                                                       : array_len(after);

    if (keyed_by_name(w, path)) {
        walk_pool_array(w, path, before, after, m);
        return;
    }
    for (i = 0; i < n; i++) {
        size_t len = path->len;
        const struct json_object *be = ndp_json_index(before, i);
        const struct json_object *ae = ndp_json_index(after, i);
        const char *element_pool = pool_of_element(w, path, pool, be, ae);
        struct node_masks cm = descend_masks(m, NULL, i, i, false, before,
                                             after);

        ndp_buf_addf(path, "[%zu]", i);
        walk(w, path, element_pool, be, ae, &cm);
        ndp_buf_setlen(path, len);
    }
}

static void walk(struct walker *w, struct ndp_buf *path, const char *pool,
                 const struct json_object *before,
                 const struct json_object *after,
                 const struct node_masks *m)
{
    bool is_object = (before && json_object_is_type(before, json_type_object)) ||
                     (after && json_object_is_type(after, json_type_object));
    bool is_array = (before && json_object_is_type(before, json_type_array)) ||
                    (after && json_object_is_type(after, json_type_array));

    if (path->len)
        test_rules(w, path->buf, pool, before, after, m);
    if (is_object)
        walk_object(w, path, pool, before, after, m);
    else if (is_array)
        walk_array(w, path, pool, before, after, m);
}

static void walk_change(struct ndp_hits *out, const struct ndp_ruleset *rs,
                        const struct ndp_change *ch, size_t index)
{
    struct walker w = { out, ch, index, NULL, NULL, 0, SIZE_MAX };
    struct node_masks m = { ch->after_unknown, ch->before_sensitive,
                            ch->after_sensitive, false, false, false,
                            NULL, NULL };
    struct ndp_buf path = NDP_BUF_INIT;
    size_t i, n = ndp_ruleset_count(rs);

    w.rules = ndp_xcalloc(n ? n : 1, sizeof(*w.rules));
    w.watches = ndp_xcalloc(n ? n : 1, sizeof(*w.watches));
    for (i = 0; i < n; i++) {
        const struct ndp_rule *rule = ndp_ruleset_get(rs, i);
        uint32_t watches = !ndp_rule_class_watches(rule->class_)
                               ? 0
                               : ndp_rule_type_watches(rule, ch->notation,
                                                       ch->resource_type);
        if (watches) {
            w.rules[w.nr_rules] = rule;
            w.watches[w.nr_rules++] = watches;
        }
    }
    if (w.nr_rules)
        walk(&w, &path, ch->kind == NDP_KIND_NODEPOOL ? ch->name : NULL,
             ch->before, ch->after, &m);
    ndp_buf_release(&path);
    free(w.rules);
    free(w.watches);
}

/* Updates, and setters applied for the first time (spec §11). */
static bool is_judged(const struct ndp_change *ch)
{
    return ch->action == NDP_ACTION_UPDATE ||
           ((ch->kind == NDP_KIND_SETTER || ch->setter) &&
            ch->action == NDP_ACTION_CREATE);
}

void ndp_engine_run(struct ndp_hits *out, const struct ndp_ruleset *rs,
                    const struct ndp_changeset *set)
{
    size_t i;

    for (i = 0; i < set->nr; i++)
        if (is_judged(set->items[i]))
            walk_change(out, rs, set->items[i], i);
}

void ndp_hits_release(struct ndp_hits *hits)
{
    size_t i;

    for (i = 0; i < hits->nr; i++) {
        free(hits->items[i].path);
        free(hits->items[i].pool);
    }
    free(hits->items);
    memset(hits, 0, sizeof(*hits));
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * input_whatif.c - reader for Azure Resource Manager what-if results:
 * 'az deployment group|sub what-if --no-pretty-print' (top-level
 * "changes") and the REST WhatIfOperationResult ("properties.changes"),
 * including the x-ms-examples wrapper ({"responses": {"200": {"body": ...}}}).
 *
 * Keeps Microsoft.ContainerService/managedClusters, .../agentPools and
 * .../maintenanceConfigurations changes (types compare case-insensitively,
 * as ARM does) and hands their 'before' and 'after' snapshots to the
 * ARM-notation rules.  'delta' is used where the snapshots are missing
 * (partial snapshots rebuilt from the delta tree, Array entries and their
 * element children at every depth; a missing after is the before with the
 * delta laid over it) and to keep before's value wherever a
 * propertyChangeType is NoEffect, at any depth.  A change what-if cannot
 * show (Deploy, Unsupported) is kept with action "other" so the evaluator
 * warns about it.
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "change.h"
#include "error.h"
#include "jsonutil.h"


struct whatif_reader {
    struct ndp_changeset *set;
    size_t input_index;
    const struct ndp_document *doc;
    struct ndp_error *err;
    struct ndp_locator locator;
};

/* The WhatIfOperationResult inside 'root' (unwrapping an x-ms-example). */
static const struct json_object *operation_result(const struct json_object *root)
{
    const struct json_object *body = ndp_json_get(
        ndp_json_get(ndp_json_get(root, "responses"), "200"), "body");

    return body ? body : root;
}

static struct json_object *changes_of(const struct json_object *result,
                                      const char *key)
{
    struct json_object *c = ndp_json_get(result, key);

    if (!c)
        c = ndp_json_get(ndp_json_get(result, "properties"), key);
    return c && json_object_is_type(c, json_type_array) ? c : NULL;
}

static int check_status(const struct whatif_reader *r,
                        const struct json_object *result)
{
    const struct json_object *error = ndp_json_get(result, "error");
    const char *status = ndp_json_get_string(result, "status");

    if (!ndp_json_is_unset(error))
        return ndp_error_set(r->err, NDP_ESCHEMA,
                             "'%s' is a failed what-if (error %s: %s); fix "
                             "the deployment and run what-if again",
                             r->doc->path,
                             ndp_json_get_string(error, "code")
                                 ? ndp_json_get_string(error, "code") : "?",
                             ndp_json_get_string(error, "message")
                                 ? ndp_json_get_string(error, "message")
                                 : "no message");
    if (status && ndp_strcasecmp(status, "Failed") == 0)
        return ndp_error_set(r->err, NDP_ESCHEMA,
                             "'%s' is a what-if with status Failed",
                             r->doc->path);
    return 0;
}

/*
 * "/subscriptions/s/resourceGroups/g/providers/Microsoft.ContainerService/
 * managedClusters/aks/agentPools/np1" -> type ".../managedClusters/agentPools",
 * parent ".../managedClusters/aks", name "np1".
 */
static bool parse_resource_id(const char *id, char **type, char **parent,
                              char **name)
{
    const char *providers = NULL, *p = id, *seg[8];
    size_t lens[8], n = 0;
    struct ndp_buf t = NDP_BUF_INIT;
    size_t i;

    while ((p = strstr(p, "/providers/")) != NULL)
        providers = p++;
    if (!providers)
        return false;
    p = providers + strlen("/providers/");
    while (*p && n < NDP_ARRAY_SIZE(seg)) {
        seg[n] = p;
        lens[n] = strcspn(p, "/");
        p += lens[n];
        n++;
        if (*p == '/')
            p++;
    }
    /* namespace, then type/name pairs */
    if (n < 3 || n % 2 == 0)
        return false;
    ndp_buf_add(&t, seg[0], lens[0]);
    for (i = 1; i < n; i += 2) {
        ndp_buf_addch(&t, '/');
        ndp_buf_add(&t, seg[i], lens[i]);
    }
    *type = ndp_buf_detach(&t);
    *name = ndp_xstrndup(seg[n - 1], lens[n - 1]);
    *parent = n >= 5 ? ndp_xstrndup(id, (size_t)(seg[n - 2] - 1 - id)) : NULL;
    return true;
}


static enum ndp_action parse_change_type(const char *t)
{
    static const struct {
        const char *name;
        enum ndp_action action;
    } map[] = {
        { "Modify", NDP_ACTION_UPDATE }, { "Create", NDP_ACTION_CREATE },
        { "Delete", NDP_ACTION_DELETE }, { "NoChange", NDP_ACTION_NOOP },
        { "Ignore", NDP_ACTION_NOOP },
    };
    size_t i;

    for (i = 0; t && i < NDP_ARRAY_SIZE(map); i++)
        if (ndp_strcasecmp(t, map[i].name) == 0)
            return map[i].action;
    return NDP_ACTION_OTHER; /* Deploy, Unsupported, unknown */
}

static struct json_object *copy(const struct json_object *v)
{
    struct json_object *out = NULL;

    if (ndp_json_is_unset(v))
        return NULL;
    json_object_deep_copy(ndp_json_unconst(v), &out, NULL);
    return out;
}

static bool kind_is(const struct json_object *d, const char *kind)
{
    const char *k = ndp_json_get_string(d, "propertyChangeType");

    return k && ndp_strcasecmp(k, kind) == 0;
}

/* The entry's "children" when it is a list ("children": null is none). */
static const struct json_object *children_of(const struct json_object *d)
{
    const struct json_object *c = ndp_json_get(d, "children");

    return c && json_object_is_type(c, json_type_array) ? c : NULL;
}

/*
 * The member at dotted 'path' of object 'doc', created on the way: objects
 * for the steps, and for the last one an object or an array ('type').
 * A step that holds something else is replaced.  Takes over 'value'
 * (which may be NULL) as the last step's value when given.  Returns the
 * last step's value (borrowed), or NULL when 'doc' is not an object.
 */
static struct json_object *member_at(struct json_object *doc,
                                     const char *path, enum json_type type,
                                     struct json_object *value)
{
    struct json_object *cur = doc;
    char key[256];

    for (;;) {
        size_t n = strcspn(path, ".");
        struct json_object *next;
        bool last = path[n] == '\0';

        if (n >= sizeof(key) || !cur ||
            !json_object_is_type(cur, json_type_object))
            break;
        memcpy(key, path, n);
        key[n] = '\0';
        next = ndp_json_get(cur, key);
        if (last && value) {
            json_object_object_add(cur, key, value);
            return value;
        }
        if (!next || !json_object_is_type(next, last ? type
                                                     : json_type_object)) {
            next = last && type == json_type_array ? json_object_new_array()
                                                   : json_object_new_object();
            json_object_object_add(cur, key, next);
        }
        if (last)
            return next;
        cur = next;
        path += n + 1;
    }
    json_object_put(value);
    return NULL;
}

/*
 * Partial snapshots rebuilt from a delta when what-if gives none.  An
 * entry's path is dotted from its container: the resource, or an array
 * element for the children of a Modify element.  The children of an
 * Array entry are its elements, by decimal index:
 *   Create   the element is only in after (its whole value in 'after');
 *   Delete   the element is only in before;
 *   Modify   in both; its value, or its own children relative to it;
 *   Array    in both, itself an array with children of its own;
 *   NoEffect in both, unchanged (before's value on both sides).
 * An index no child names is unchanged but unknown: null on both sides,
 * so it compares equal and starts no transition.  A slot that is absent
 * on one side (Create, Delete) is null there too, so the elements after
 * it keep their index; at the end of the list it is left out.
 *
 * No AKS list comes near NDP_WHATIF_MAX_INDEX elements, nor a change near
 * NDP_WHATIF_MAX_SLOTS rebuilt elements in all, nor an ARM property near
 * NDP_WHATIF_MAX_DEPTH levels deep (path steps and array elements on the
 * way, children included); a delta beyond any is not rebuilt (a few bytes
 * of "path": "4000" must not cost megabytes, nor a path of a thousand
 * dots a document a thousand levels deep that every later walk recurses
 * through), and the change is kept as one what-if cannot show.
 */
#define NDP_WHATIF_MAX_INDEX 4095
#define NDP_WHATIF_MAX_SLOTS 65536
#define NDP_WHATIF_MAX_DEPTH 64

struct rebuild {
    size_t slots_left;
    unsigned depth;         /* levels below the resource so far */
    bool too_big;
};

/* The steps of a dotted path: its dots, plus one. */
static unsigned path_steps(const char *path)
{
    unsigned n = 1;

    for (; *path; path++)
        n += *path == '.';
    return n;
}

struct slot {
    const struct json_object *bsrc, *asrc; /* the children giving each side */
    bool named;                            /* some child names this index */
};

static void rebuild_object(struct rebuild *rb, struct json_object *b,
                           struct json_object *a,
                           const struct json_object *entries);
static void rebuild_array(struct rebuild *rb, struct json_object *b,
                          struct json_object *a,
                          const struct json_object *children);

/* Decimal index of an element child, or -1. */
static long element_index(const struct json_object *child)
{
    const char *p = ndp_json_get_string(child, "path");
    long v = 0;

    if (!p || !*p || strlen(p) > 9)
        return -1;
    for (; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v;
}

static bool in_before(const struct slot *s)
{
    return !s->named || s->bsrc;
}

static bool in_after(const struct slot *s)
{
    return !s->named || s->asrc;
}

/* A Modify or Array element described by its own children. */
static bool has_parts(const struct json_object *e)
{
    return children_of(e) && (kind_is(e, "Modify") || kind_is(e, "Array"));
}

/* One side's value of a slot (NULL for JSON null): owned by the caller. */
static struct json_object *slot_value(const struct slot *s, bool before)
{
    const struct json_object *e = before ? s->bsrc : s->asrc;

    if (!e)
        return NULL;
    if (kind_is(e, "NoEffect"))
        return copy(ndp_json_get(e, "before"));
    if (has_parts(e))
        return kind_is(e, "Array") ? json_object_new_array()
                                   : json_object_new_object();
    return copy(ndp_json_get(e, before ? "before" : "after"));
}

/* Appends slot 'i' to the sides that hold it; recurses into its parts. */
static void fill_slot(struct rebuild *rb, struct json_object *b,
                      struct json_object *a, const struct slot *s, size_t i,
                      size_t nb, size_t na)
{
    struct json_object *bv = NULL, *av = NULL;

    if (i < nb && in_before(s))
        json_object_array_add(b, bv = slot_value(s, true));
    else if (i < nb)
        json_object_array_add(b, NULL);
    if (i < na && in_after(s))
        json_object_array_add(a, av = slot_value(s, false));
    else if (i < na)
        json_object_array_add(a, NULL);
    if (!bv || !av || s->bsrc != s->asrc || !has_parts(s->bsrc))
        return;
    if (++rb->depth > NDP_WHATIF_MAX_DEPTH)
        rb->too_big = true;
    else if (kind_is(s->bsrc, "Array"))
        rebuild_array(rb, bv, av, children_of(s->bsrc));
    else
        rebuild_object(rb, bv, av, children_of(s->bsrc));
    rb->depth--;
}

static void rebuild_array(struct rebuild *rb, struct json_object *b,
                          struct json_object *a,
                          const struct json_object *children)
{
    size_t i, n = children ? json_object_array_length(children) : 0;
    size_t nslots = 0, nb = 0, na = 0;
    struct slot *slots;

    if (!b || !a || rb->too_big)
        return;
    for (i = 0; i < n; i++) {
        long k = element_index(json_object_array_get_idx(children, i));
        if (k >= 0 && (size_t)k + 1 > nslots)
            nslots = (size_t)k + 1;
    }
    if (nslots > NDP_WHATIF_MAX_INDEX + 1 || nslots > rb->slots_left) {
        rb->too_big = true;
        return;
    }
    rb->slots_left -= nslots;
    slots = ndp_xcalloc(nslots ? nslots : 1, sizeof(*slots));
    for (i = 0; i < n; i++) {
        const struct json_object *c = json_object_array_get_idx(children, i);
        long k = element_index(c);
        if (k < 0)
            continue;
        slots[k].named = true;
        if (!kind_is(c, "Create"))
            slots[k].bsrc = c;
        if (!kind_is(c, "Delete"))
            slots[k].asrc = c;
    }
    /* A slot absent on one side at the end of the list is left out. */
    for (i = 0; i < nslots; i++) {
        if (in_before(&slots[i]))
            nb = i + 1;
        if (in_after(&slots[i]))
            na = i + 1;
    }
    for (i = 0; i < nslots; i++)
        fill_slot(rb, b, a, &slots[i], i, nb, na);
    free(slots);
}

/* One entry whose path is relative to objects 'b' and 'a'. */
static void rebuild_entry(struct rebuild *rb, struct json_object *b,
                          struct json_object *a, const struct json_object *d)
{
    const char *path = ndp_json_get_string(d, "path");
    const struct json_object *children = children_of(d);
    const struct json_object *bv = ndp_json_get(d, "before");
    const struct json_object *av = ndp_json_get(d, "after");

    unsigned steps;

    if (!path || !*path)
        return;
    steps = path_steps(path);
    if (rb->depth + steps > NDP_WHATIF_MAX_DEPTH) {
        rb->too_big = true;
        return;
    }
    rb->depth += steps;
    if (has_parts(d) && kind_is(d, "Array"))
        rebuild_array(rb, member_at(b, path, json_type_array, NULL),
                      member_at(a, path, json_type_array, NULL), children);
    else if (has_parts(d))
        rebuild_object(rb, member_at(b, path, json_type_object, NULL),
                       member_at(a, path, json_type_object, NULL), children);
    rb->depth -= steps;
    if (has_parts(d))
        return;
    if (kind_is(d, "NoEffect"))
        av = bv;
    if (!ndp_json_is_unset(bv))
        member_at(b, path, json_type_object, copy(bv));
    if (!ndp_json_is_unset(av))
        member_at(a, path, json_type_object, copy(av));
}

static void rebuild_object(struct rebuild *rb, struct json_object *b,
                           struct json_object *a,
                           const struct json_object *entries)
{
    size_t i, n = entries ? json_object_array_length(entries) : 0;

    if (!b || !a || !json_object_is_type(b, json_type_object) ||
        !json_object_is_type(a, json_type_object))
        return;
    for (i = 0; i < n; i++)
        rebuild_entry(rb, b, a, json_object_array_get_idx(entries, i));
}

static void snapshots_from_delta(struct ndp_change *c,
                                 const struct json_object *delta)
{
    struct rebuild rb = { NDP_WHATIF_MAX_SLOTS, 0, false };

    c->before = json_object_new_object();
    c->after = json_object_new_object();
    c->delta_only = true;
    rebuild_object(&rb, c->before, c->after, delta);
    if (rb.too_big)
        c->action = NDP_ACTION_OTHER;
}

/* Sets the member at dotted 'path' of 'doc' to null, if its parent exists. */
static void null_at(struct json_object *doc, const char *path)
{
    char key[256];

    for (;;) {
        size_t n = strcspn(path, ".");

        if (n >= sizeof(key) || !doc ||
            !json_object_is_type(doc, json_type_object))
            return;
        memcpy(key, path, n);
        key[n] = '\0';
        if (path[n] == '\0') {
            if (ndp_json_get(doc, key))
                json_object_object_add(doc, key, NULL);
            return;
        }
        doc = ndp_json_get(doc, key);
        path += n + 1;
    }
}

/*
 * The overlay keeps what the delta does not name, so a property the delta
 * deletes (a before and no after) is set to null in 'after' here: objects
 * by path, at any depth of nested object entries.  Array elements are laid
 * over by index and a deleted element is not removed (docs/limits.md).
 */
static void deletes_into(struct json_object *after,
                         const struct json_object *entries)
{
    size_t i, n = entries ? json_object_array_length(entries) : 0;

    for (i = 0; i < n; i++) {
        const struct json_object *d = json_object_array_get_idx(entries, i);
        const char *path = ndp_json_get_string(d, "path");

        if (!path || !*path || kind_is(d, "NoEffect") ||
            (has_parts(d) && kind_is(d, "Array")))
            continue;
        if (has_parts(d))
            deletes_into(ndp_json_path(after, path),
                         children_of(d));
        else if (!ndp_json_is_unset(ndp_json_get(d, "before")) &&
                 ndp_json_is_unset(ndp_json_get(d, "after")))
            null_at(after, path);
    }
}

/*
 * A Modify with its before snapshot and a delta but no after: the after
 * is the before with the delta laid over it (jsonutil.h, ndp_json_overlay),
 * less what the delta deletes.
 */
static void after_from_delta(struct ndp_change *c,
                             const struct json_object *delta)
{
    struct rebuild rb = { NDP_WHATIF_MAX_SLOTS, 0, false };
    struct json_object *b = json_object_new_object();
    struct json_object *a = json_object_new_object();

    rebuild_object(&rb, b, a, delta);
    if (rb.too_big) {
        c->action = NDP_ACTION_OTHER;
    } else {
        c->after = ndp_json_overlay(c->before, a);
        deletes_into(c->after, delta);
    }
    json_object_put(b);
    json_object_put(a);
}

/*
 * NoEffect, at any depth: what-if says nothing will be set there, so
 * after keeps before's value (or lacks it, as before does).  The walk
 * follows the delta into the snapshots: an Array entry's children into
 * the elements by index, a Modify element's children into the element.
 */
static void no_effect_in_object(struct json_object *b, struct json_object *a,
                                const struct json_object *entries);

static void no_effect_in_array(struct json_object *b, struct json_object *a,
                               const struct json_object *children)
{
    size_t i, n = children ? json_object_array_length(children) : 0;

    if (!b || !a || !json_object_is_type(b, json_type_array) ||
        !json_object_is_type(a, json_type_array))
        return;
    for (i = 0; i < n; i++) {
        const struct json_object *c = json_object_array_get_idx(children, i);
        long k = element_index(c);
        struct json_object *be, *ae;

        if (k < 0 || (size_t)k >= json_object_array_length(b) ||
            (size_t)k >= json_object_array_length(a))
            continue;
        be = ndp_json_index(b, (size_t)k);
        ae = ndp_json_index(a, (size_t)k);
        if (kind_is(c, "NoEffect"))
            json_object_array_put_idx(a, (size_t)k, copy(be));
        else if (kind_is(c, "Array"))
            no_effect_in_array(be, ae, children_of(c));
        else
            no_effect_in_object(be, ae, children_of(c));
    }
}

/* Removes the value at 'path' from 'doc'. */
static void drop_path(struct json_object *doc, const char *path)
{
    const char *dot = strrchr(path, '.');
    struct ndp_buf parent = NDP_BUF_INIT;
    struct json_object *holder = doc;

    if (dot) {
        ndp_buf_add(&parent, path, (size_t)(dot - path));
        holder = ndp_json_path(doc, parent.buf);
    }
    if (holder && json_object_is_type(holder, json_type_object))
        json_object_object_del(holder, dot ? dot + 1 : path);
    ndp_buf_release(&parent);
}

static void no_effect_in_object(struct json_object *b, struct json_object *a,
                                const struct json_object *entries)
{
    size_t i, n = entries ? json_object_array_length(entries) : 0;

    if (!a || !json_object_is_type(a, json_type_object))
        return;
    for (i = 0; i < n; i++) {
        const struct json_object *d = json_object_array_get_idx(entries, i);
        const char *path = ndp_json_get_string(d, "path");
        struct json_object *old;

        if (!path || !*path)
            continue;
        old = ndp_json_path(b, path);
        if (kind_is(d, "NoEffect")) {
            if (!ndp_json_is_unset(old))
                member_at(a, path, json_type_object, copy(old));
            else
                drop_path(a, path);
        } else if (kind_is(d, "Array")) {
            no_effect_in_array(old, ndp_json_path(a, path), children_of(d));
        } else if (children_of(d)) {
            no_effect_in_object(old, ndp_json_path(a, path),
                                children_of(d));
        }
    }
}

/*
 * The managedClusters type an ARM expression names ("[resourceId('Micro
 * soft.ContainerService/managedClusters/agentPools', ...)]"), returned
 * owned, or NULL.
 */
static char *expression_type(const char *id)
{
    static const char needle[] = "microsoft.containerservice/managedclusters";
    size_t n = sizeof(needle) - 1;

    if (*id != '[')
        return NULL;
    for (; *id; id++)
        if (ndp_strncasecmp(id, needle, n) == 0)
            return ndp_xstrndup(id, n + strspn(id + n, "abcdefghijklmnopq"
                                                       "rstuvwxyzABCDEFGHIJ"
                                                       "KLMNOPQRSTUVWXYZ/"));
    return NULL;
}

/*
 * A change whose resourceId is an expression what-if did not resolve
 * (changeType Unsupported): which cluster, pool or configuration it is
 * cannot be seen, so it is kept as a change that cannot be seen (action
 * "other"), never dropped.
 */
static bool unresolved(const char *id, char **type, enum ndp_kind *kind)
{
    *type = expression_type(id);
    if (*type && ndp_arm_type_kind(*type, kind))
        return true;
    free(*type);
    *type = NULL;
    return false;
}

static void read_change(struct whatif_reader *r, const struct json_object *ch)
{
    const char *id = ndp_json_get_string(ch, "resourceId");
    const struct json_object *delta = ndp_json_get(ch, "delta");
    char *type = NULL, *parent = NULL, *name = NULL;
    enum ndp_kind kind;
    struct ndp_change *c;
    bool seen = true;

    r->set->inputs[r->input_index].resources_seen++;
    if (!id || !parse_resource_id(id, &type, &parent, &name) ||
        !ndp_arm_type_kind(type, &kind)) {
        free(type);
        free(parent);
        free(name);
        type = parent = name = NULL;
        if (!id || !unresolved(id, &type, &kind))
            return;
        seen = false;
    }
    c = ndp_changeset_add(r->set, r->input_index);
    c->address = ndp_xstrdup(id);
    c->resource_type = type;
    c->name = name;
    c->kind = kind;
    c->notation = NDP_NOTATION_ARM;
    c->action = seen ? parse_change_type(ndp_json_get_string(ch,
                                                             "changeType"))
                     : NDP_ACTION_OTHER;
    c->self_id = seen ? ndp_xstrdup(id) : NULL;
    c->parent_id = parent;
    c->line = ndp_document_locate(r->doc, &r->locator, ch, "resourceId",
                                  id);
    c->before = copy(ndp_json_get(ch, "before"));
    c->after = copy(ndp_json_get(ch, "after"));
    if (c->action == NDP_ACTION_UPDATE && !c->before && !c->after && delta &&
        json_object_is_type(delta, json_type_array))
        snapshots_from_delta(c, delta);
    else if (c->action == NDP_ACTION_UPDATE && c->before && !c->after &&
             delta && json_object_is_type(delta, json_type_array))
        after_from_delta(c, delta);
    if (c->before && c->after && delta &&
        json_object_is_type(delta, json_type_array))
        no_effect_in_object(c->before, c->after, delta);
}

int ndp_whatif_read(struct ndp_changeset *set, size_t input_index,
                    const struct ndp_document *doc, struct ndp_error *err)
{
    struct whatif_reader r = { set, input_index, doc, err, NDP_LOCATOR_INIT };
    const struct json_object *result = operation_result(doc->root);
    struct json_object *lists[2];
    size_t i, j;
    int rc = check_status(&r, result);

    if (rc)
        return rc;
    lists[0] = changes_of(result, "changes");
    lists[1] = changes_of(result, "potentialChanges");
    if (!lists[0] && !lists[1])
        return ndp_error_set(err, NDP_ESCHEMA,
                             "'%s' is not a what-if result: no 'changes' "
                             "array (expected az ... what-if "
                             "--no-pretty-print output)", doc->path);
    for (j = 0; j < 2; j++) {
        size_t n = lists[j] ? json_object_array_length(lists[j]) : 0;
        for (i = 0; i < n; i++) {
            struct json_object *ch = json_object_array_get_idx(lists[j], i);
            if (!json_object_is_type(ch, json_type_object))
                return ndp_error_set(err, NDP_ESCHEMA,
                                     "'%s': changes[%zu] is not an object",
                                     doc->path, i);
            read_change(&r, ch);
        }
    }
    return 0;
}

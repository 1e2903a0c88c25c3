/*
 * input_whatif.c - reader for Azure Resource Manager what-if results:
 * 'az deployment group|sub what-if --no-pretty-print' (top-level
 * "changes") and the REST WhatIfOperationResult ("properties.changes"),
 * including the x-ms-examples wrapper ({"responses": {"200": {"body": ...}}}).
 *
 * Keeps Microsoft.ContainerService/managedClusters, .../agentPools and
 * .../maintenanceConfigurations changes (types compare case-insensitively,
 * as ARM does) and hands their 'before' and 'after' snapshots to the
 * ARM-notation rules.  'delta' is used where the snapshots are missing
 * (rebuilt from the delta's paths) and to drop paths whose
 * propertyChangeType is NoEffect.  A change what-if cannot show (Deploy,
 * Unsupported) is kept with action "other" so the evaluator warns about it.
 */
#include "common.h"
#include "input.h"
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

/* Sets 'value' at a dotted path in 'doc', creating objects on the way. */
static void set_at_path(struct json_object *doc, const char *path,
                        struct json_object *value)
{
    struct json_object *cur = doc;
    char key[256];

    for (;;) {
        size_t n = strcspn(path, ".");
        struct json_object *next;

        if (n >= sizeof(key))
            break;
        memcpy(key, path, n);
        key[n] = '\0';
        if (path[n] == '\0') {
            json_object_object_add(cur, key, json_object_get(value));
            return;
        }
        next = ndp_json_get(cur, key);
        if (!next || !json_object_is_type(next, json_type_object)) {
            next = json_object_new_object();
            json_object_object_add(cur, key, next);
        }
        cur = next;
        path += n + 1;
    }
}

/*
 * Without snapshots, rebuild partial ones from the top-level delta entries
 * that carry values (array element changes need the snapshots).
 */
static void snapshots_from_delta(struct ndp_change *c,
                                 const struct json_object *delta)
{
    size_t i, n = json_object_array_length(delta);

    c->before = json_object_new_object();
    c->after = json_object_new_object();
    for (i = 0; i < n; i++) {
        struct json_object *d = json_object_array_get_idx(delta, i);
        const char *path = ndp_json_get_string(d, "path");
        struct json_object *b = ndp_json_get(d, "before");
        struct json_object *a = ndp_json_get(d, "after");

        if (!path)
            continue;
        if (!ndp_json_is_unset(b))
            set_at_path(c->before, path, b);
        if (!ndp_json_is_unset(a))
            set_at_path(c->after, path, a);
    }
}

/* Removes the value at 'path' from 'doc' (a NoEffect delta entry). */
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

static void apply_no_effect(struct ndp_change *c,
                            const struct json_object *delta)
{
    size_t i, n = json_object_array_length(delta);

    for (i = 0; i < n; i++) {
        struct json_object *d = json_object_array_get_idx(delta, i);
        const char *kind = ndp_json_get_string(d, "propertyChangeType");
        const char *path = ndp_json_get_string(d, "path");

        if (!kind || !path || ndp_strcasecmp(kind, "NoEffect") != 0)
            continue;
        /* What-if says nothing will be set here: keep the old value. */
        if (c->before && c->after) {
            struct json_object *old = ndp_json_path(c->before, path);
            if (old)
                set_at_path(c->after, path, old);
            else
                drop_path(c->after, path);
        }
    }
}

static struct json_object *copy(const struct json_object *v)
{
    struct json_object *out = NULL;

    if (ndp_json_is_unset(v))
        return NULL;
    json_object_deep_copy((struct json_object *)(uintptr_t)v, &out, NULL);
    return out;
}

static void read_change(struct whatif_reader *r, const struct json_object *ch)
{
    const char *id = ndp_json_get_string(ch, "resourceId");
    const struct json_object *delta = ndp_json_get(ch, "delta");
    char *type = NULL, *parent = NULL, *name = NULL;
    enum ndp_kind kind;
    struct ndp_change *c;

    r->set->inputs[r->input_index].resources_seen++;
    if (!id || !parse_resource_id(id, &type, &parent, &name) ||
        !ndp_arm_type_kind(type, &kind)) {
        free(type);
        free(parent);
        free(name);
        return;
    }
    c = ndp_changeset_add(r->set, r->input_index);
    c->address = ndp_xstrdup(id);
    c->resource_type = type;
    c->name = name;
    c->kind = kind;
    c->notation = NDP_NOTATION_ARM;
    c->action = parse_change_type(ndp_json_get_string(ch, "changeType"));
    c->self_id = ndp_xstrdup(id);
    c->parent_id = parent;
    c->line = ndp_document_locate(r->doc, &r->locator, ch, "resourceId",
                                  id);
    c->before = copy(ndp_json_get(ch, "before"));
    c->after = copy(ndp_json_get(ch, "after"));
    if (c->action == NDP_ACTION_UPDATE && !c->before && !c->after && delta &&
        json_object_is_type(delta, json_type_array))
        snapshots_from_delta(c, delta);
    if (delta && json_object_is_type(delta, json_type_array))
        apply_no_effect(c, delta);
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

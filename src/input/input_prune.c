/*
 * SPDX-License-Identifier: Apache-2.0
 * input_prune.c - the parse tree a reader needs, and nothing more.
 *
 * A Terraform plan of a large estate runs to hundreds of megabytes, almost
 * all of it resources ndplint ignores; a json-c tree of it costs several
 * times its size.  This stage validates the whole document with the
 * non-allocating cursor (jscan.c: it accepts exactly what json-c accepts)
 * and builds json-c objects only for what the readers use:
 *
 *   - resource_changes[]: entries whose "type" is an AKS or azapi type,
 *     a subnet, or a Kubernetes object a drain depends on;
 *   - deferred_changes[] (a plan with "complete": false): entries whose
 *     "resource_change" has such a type;
 *   - changes[] / potentialChanges[] (also under "properties"): what-if
 *     changes whose resourceId names a managedClusters resource;
 *   - configuration: module resources of those types, for linking;
 *   - planned_values: the first resource of each module (the reader only
 *     asks whether there is one);
 *   - prior_state, resource_drift, output_changes, variables and the like:
 *     validated and skipped, an empty placeholder keeps the key;
 *   - any other member: parsed as it is (they are small).
 *
 * ARM templates and x-ms-examples wrappers keep their members whole (they
 * match none of the filters).  The first malformed entry of a filtered
 * list is kept so that the reader still reports it.
 *
 * A key twice in one object is refused (NDP_ESCHEMA) where it would decide
 * what is judged: the discriminating key of any element of a filtered
 * list, any key at any depth of a kept element, and a counted list's own
 * key.  json-c keeps the last of two equal keys, this walk would decide on
 * the first; refusing means no reader's choice is ever silently taken.
 *
 * A long counted list in a complete text is walked by two threads; the
 * second one, and when its work counts, is input_split.c's.
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "compat.h"
#include "jscan.h"
#include "jsonutil.h"
#include "kube.h"

#include <json-c/json.h>

/* A top-level member larger than this is not built unless it is needed. */
#define NDP_PRUNE_SMALL_MEMBER ((size_t)16 << 20)

/* Where in the document an object is: decides how its members are kept. */
enum context {
    CTX_TOP,        /* the document */
    CTX_PROPERTIES, /* REST what-if: {"properties": {"changes": ...}} */
    CTX_CONFIG,     /* configuration, or a module of it */
    CTX_CALLS,      /* configuration module_calls */
    CTX_CALL,       /* one module call */
    CTX_PLANNED     /* planned_values, or a module of it */
};

/* Streaming: how far ahead of the cursor the bytes should be. */
#define STREAM_AHEAD ((size_t)1 << 20)

static const char *const plan_types[] = {
    "azurerm_kubernetes_cluster", "azurerm_kubernetes_cluster_node_pool",
    "azapi_resource", "azapi_update_resource",
    "azurerm_subnet", /* the address room of the pools in it */
    /* pod disruption budgets and the workloads they hold (input_kube.c) */
    "kubernetes_pod_disruption_budget_v1", "kubernetes_pod_disruption_budget",
    "kubernetes_deployment_v1", "kubernetes_deployment",
    "kubernetes_stateful_set_v1", "kubernetes_stateful_set",
    "kubernetes_manifest"
};

/* Members that are large and that no reader looks into. */
static const char *const skipped_members[] = {
    "prior_state", "resource_drift", "output_changes", "variables",
    "relevant_attributes", "checks", "condition_results", "provider_schemas",
    "values", "action_invocations", "diagnostics"
};

/* The filtered lists: where they are, and how their elements are kept.
 * The first, a plan's resource_changes, is the one a second thread may
 * start on before the first thread gets there (ndp_split_start_early()). */
static const struct filtered_list {
    int ctx;            /* enum context */
    const char *key;
    enum ndp_prune_filter f;
    const char *where;  /* its elements, in words (messages) */
    const char *in;     /* the object that holds it, in words */
} filtered_lists[] = {
    { CTX_TOP, "resource_changes", NDP_FILTER_PLAN_RESOURCES,
      "an entry of 'resource_changes'", "the top-level object" },
    { CTX_TOP, "deferred_changes", NDP_FILTER_DEFERRED,
      "an entry of 'deferred_changes'", "the top-level object" },
    { CTX_TOP, "changes", NDP_FILTER_WHATIF_CHANGES,
      "an entry of 'changes'", "the top-level object" },
    { CTX_TOP, "potentialChanges", NDP_FILTER_WHATIF_CHANGES,
      "an entry of 'potentialChanges'", "the top-level object" },
    { CTX_PROPERTIES, "changes", NDP_FILTER_WHATIF_CHANGES,
      "an entry of 'properties.changes'", "'properties'" },
    { CTX_PROPERTIES, "potentialChanges", NDP_FILTER_WHATIF_CHANGES,
      "an entry of 'properties.potentialChanges'", "'properties'" },
    { CTX_CONFIG, "resources", NDP_FILTER_CONFIG_RESOURCES,
      "a resource of 'configuration'", "a module of 'configuration'" },
    { CTX_PLANNED, "resources", NDP_FILTER_FIRST_ONLY, NULL, NULL },
};

/* Lists whose elements are counted and judged (not only looked up). */
static bool is_counted(enum ndp_prune_filter f)
{
    return f != NDP_FILTER_CONFIG_RESOURCES && f != NDP_FILTER_FIRST_ONLY;
}

static bool in_list(const char *key, size_t key_len,
                    const char *const *list, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (ndp_jscan_key_is(key, key_len, list[i]))
            return true;
    return false;
}

/* The tree of [start, end); the range was validated already. */
static struct json_object *build(const struct ndp_pruner *p, size_t start,
                                 size_t end, bool *unique)
{
    return ndp_build_value(p->tok, p->text, p->len, start, end, unique);
}

/* The key as json-c decodes it (escapes, and ' quotes as raw text). */
static struct json_object *decoded_key(const struct ndp_pruner *p,
                                       const char *key, size_t klen)
{
    size_t start = (size_t)(key - 1 - p->text);
    struct json_object *k = NULL;

    if (p->text[start] == '"')
        k = ndp_build_with_json_c(p->tok, p->text, p->len, start,
                                  start + klen + 2);
    if (!k || !json_object_is_type(k, json_type_string)) {
        json_object_put(k);
        k = json_object_new_string_len(key, (int)klen);
    }
    return k;
}

static struct json_object *placeholder(enum ndp_jscan_type type)
{
    switch (type) {
    case NDP_JSCAN_OBJECT: return json_object_new_object();
    case NDP_JSCAN_ARRAY: return json_object_new_array();
    case NDP_JSCAN_STRING: return json_object_new_string("");
    case NDP_JSCAN_NUMBER: return json_object_new_int(0);
    case NDP_JSCAN_BOOL: return json_object_new_boolean(0);
    default: return NULL;
    }
}

static bool keep_plan_type(const char *type)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(plan_types); i++)
        if (strcmp(type, plan_types[i]) == 0)
            return true;
    return false;
}

/*
 * A resourceId that names a managedClusters type anywhere: an ARM id, or
 * an expression ("[resourceId('Microsoft.ContainerService/...', ...)]"),
 * which the reader keeps as a change it cannot see.
 */
static bool keep_whatif_id(const char *id)
{
    static const char needle[] = "microsoft.containerservice/managedclusters";
    size_t n = sizeof(needle) - 1;

    for (; *id; id++)
        if ((*id | 0x20) == 'm' && ndp_strncasecmp(id, needle, n) == 0)
            return true;
    return false;
}

/*
 * A key met twice in one object: json-c, and every other reader, keeps the
 * last value and drops the first one unseen, while a walk that stops at
 * the first would judge another entry.  Either way something in the entry
 * goes unjudged, so the document is refused.  'key' is the raw key of the
 * second occurrence (it points into the text, after its quote).
 */
static int duplicate(struct ndp_pruner *p, const char *key, const char *where)
{
    if (!p->dup_where) {
        p->dup_where = where;
        p->dup_pos = (size_t)(key - 1 - p->text);
    }
    return NDP_ESCHEMA;
}

/*
 * Reads one element's discriminating member ('key') while skipping the
 * rest; '*found' tells whether it was there as a string.  The member
 * twice is refused in a list that is judged ('p->list' set).
 */
static int scan_element(struct ndp_pruner *p, struct ndp_jscan *s,
                        const char *key, struct ndp_buf *value, bool *found)
{
    const char *k;
    size_t klen;
    bool done = false, met = false;
    int rc = ndp_jscan_object_begin(s);

    *found = false;
    while (!rc && !(rc = ndp_jscan_object_next(s, &k, &klen, &done)) &&
           !done) {
        if (!ndp_jscan_key_is(k, klen, key) || (met && !p->list)) {
            rc = ndp_jscan_skip_value(s, NULL, NULL);
        } else if (met) {
            rc = duplicate(p, k, p->list);
        } else if (ndp_jscan_peek(s) == NDP_JSCAN_STRING) {
            met = true;
            rc = ndp_jscan_string(s, value);
            *found = rc == 0;
        } else {
            met = true;
            rc = ndp_jscan_skip_value(s, NULL, NULL);
        }
        /* The rest at once where the scanner can: only a second 'key'
         * matters, and only in a list that is judged. */
        if (!rc && met) {
            int skipped = ndp_jscan_skip_rest_of_object(s, p->list ? key
                                                                   : NULL);
            if (skipped)
                return skipped < 0 ? skipped : 0;
        }
    }
    return rc;
}

static void wait_for(struct ndp_pruner *p, struct ndp_jscan *s, size_t want)
{
    s->len = p->len = p->src->wait(p->src->ctx, want, &p->complete);
}

/* Streaming: have the next stretch of bytes at hand before scanning on. */
static void stream_ahead(struct ndp_pruner *p, struct ndp_jscan *s)
{
    if (p->src && !p->complete && p->len - s->pos < STREAM_AHEAD)
        wait_for(p, s, s->pos + STREAM_AHEAD);
}

/*
 * Streaming: the item begun at mark 'm' ran past the bytes there are so
 * far.  Waits for at least as many more as it has used (so a large item
 * is scanned again only a few times) and goes back to 'm'.  False when the
 * failure is real: the text is complete, or the error is not its end.
 */
static bool stream_retry(struct ndp_pruner *p, struct ndp_jscan *s,
                         const struct ndp_jscan_mark *m)
{
    size_t used;

    if (!p->src || p->complete || !ndp_jscan_truncated(s))
        return false;
    used = p->len - m->pos;
    wait_for(p, s, p->len + (used > STREAM_AHEAD ? used : STREAM_AHEAD));
    ndp_jscan_rewind(s, m);
    return true;
}

/*
 * A mapped file's pages go back behind the walk (struct ndp_load_cursor):
 * the scanner tells the cursor as its fast walk crosses a skipped value,
 * the walk after each element and member.  Read again (a message, the
 * second thread's work dropped), they come back from the file.
 */
static void reach_pages(struct ndp_jscan_progress *hook, size_t pos)
{
    struct ndp_prune_cursor *c = (struct ndp_prune_cursor *)(void *)hook;

    hook->at = ndp_load_cursor_reach(&c->pages, pos);
}

/* Starts giving back the pages behind the walk of scanner 's' (from where
 * it is), when the text is a mapped file's. */
static void cursor_start(struct ndp_pruner *p, struct ndp_jscan *s)
{
    ndp_load_cursor_start(&p->cursor.pages, p->mapped ? p->text : NULL,
                          p->tune->give_back_step);
    p->cursor.hook.reach = reach_pages;
    p->cursor.hook.at = p->mapped ? 0 : SIZE_MAX;
    s->progress = p->mapped ? &p->cursor.hook : NULL;
}

/* The walk is at 'pos', after an item: gives pages back when it is time. */
static void give_back(struct ndp_pruner *p, size_t pos)
{
    if (pos >= p->cursor.hook.at)
        reach_pages(&p->cursor.hook, pos);
}

/*
 * Reads one item (an element of a list, a member of an object) with
 * 'read'.  Streaming, when the bytes there are so far end inside it, waits
 * for more and reads it again from its start: every loop of the walk reads
 * its items through here, and none of them deals with text still arriving.
 * As 'read' may read the same item again, it keeps nothing of a reading
 * that failed (a value it built is freed).
 */
static int read_item(struct ndp_pruner *p, struct ndp_jscan *s,
                     int (*read)(struct ndp_pruner *p, struct ndp_jscan *s,
                                 void *item),
                     void *item)
{
    struct ndp_jscan_mark m;
    int rc;

    do {
        stream_ahead(p, s);
        ndp_jscan_mark(s, &m);
        rc = read(p, s, item);
    } while (rc && stream_retry(p, s, &m));
    return rc;
}

static bool keep_element(struct ndp_pruner *p, enum ndp_prune_filter f,
                         bool found, const char *value, size_t index)
{
    if (f == NDP_FILTER_FIRST_ONLY)
        return index == 0;
    if (!found) {
        /* Malformed (no discriminator): keep the first for the reader. */
        bool keep = !p->kept_malformed && f != NDP_FILTER_CONFIG_RESOURCES;
        p->kept_malformed = p->kept_malformed || keep;
        return keep;
    }
    if (f == NDP_FILTER_WHATIF_CHANGES)
        return keep_whatif_id(value);
    return keep_plan_type(value);
}

/*
 * A deferred change: {"reason": ..., "resource_change": {"type": ...}};
 * '*found': the inner "type" was a string.
 */
static int scan_deferred(struct ndp_pruner *p, struct ndp_jscan *s,
                         struct ndp_buf *value, bool *found)
{
    const char *k;
    size_t klen;
    bool done = false, met = false;
    int rc = ndp_jscan_object_begin(s);

    while (!rc && !(rc = ndp_jscan_object_next(s, &k, &klen, &done)) &&
           !done) {
        if (!ndp_jscan_key_is(k, klen, "resource_change")) {
            rc = ndp_jscan_skip_value(s, NULL, NULL);
        } else if (met) {
            rc = duplicate(p, k, p->list);
        } else if (ndp_jscan_peek(s) == NDP_JSCAN_OBJECT) {
            met = true;
            rc = scan_element(p, s, "type", value, found);
        } else {
            met = true;
            rc = ndp_jscan_skip_value(s, NULL, NULL);
        }
    }
    return rc;
}

/* Scans the element at the cursor; '*found': its 'key' was a string. */
static int scan_one(struct ndp_pruner *p, struct ndp_jscan *s,
                    enum ndp_prune_filter f, const char *key,
                    struct ndp_buf *value, bool *found)
{
    *found = false;
    if (ndp_jscan_peek(s) != NDP_JSCAN_OBJECT)
        return ndp_jscan_skip_value(s, NULL, NULL);
    if (f == NDP_FILTER_DEFERRED)
        return scan_deferred(p, s, value, found);
    return scan_element(p, s, key, value, found);
}

static int prune_members(struct ndp_pruner *p, struct ndp_jscan *s,
                         enum context ctx, struct json_object *obj);

/* ---- the elements of a filtered list ----------------------------------- */

/* The key as json-c stores it: escapes decoded, cut at a NUL byte. */
static void key_name(const struct ndp_pruner *p, const char *key, size_t klen,
                     struct ndp_buf *out)
{
    struct json_object *k;

    ndp_buf_reset(out);
    if (!memchr(key, '\\', klen)) {
        ndp_buf_add(out, key, klen);
        return;
    }
    k = decoded_key(p, key, klen);
    ndp_buf_adds(out, json_object_get_string(k));
    json_object_put(k);
}

static int unique_value(struct ndp_pruner *p, struct ndp_jscan *c);

/* The object at 'c' and everything in it hold each key once. */
static int unique_members(struct ndp_pruner *p, struct ndp_jscan *c)
{
    struct json_object *names = json_object_new_object();
    struct ndp_buf name = NDP_BUF_INIT;
    const char *k;
    size_t klen;
    bool done = false;
    int rc = ndp_jscan_object_begin(c);

    while (!rc && !(rc = ndp_jscan_object_next(c, &k, &klen, &done)) &&
           !done) {
        key_name(p, k, klen, &name);
        if (json_object_object_get_ex(names, name.buf, NULL)) {
            rc = duplicate(p, k, p->list);
        } else {
            json_object_object_add(names, name.buf, NULL);
            rc = unique_value(p, c);
        }
    }
    ndp_buf_release(&name);
    json_object_put(names);
    return rc;
}

static int unique_value(struct ndp_pruner *p, struct ndp_jscan *c)
{
    bool done = false;
    int rc;

    switch (ndp_jscan_peek(c)) {
    case NDP_JSCAN_OBJECT:
        return unique_members(p, c);
    case NDP_JSCAN_ARRAY:
        rc = ndp_jscan_array_begin(c);
        while (!rc && !(rc = ndp_jscan_array_next(c, &done)) && !done)
            rc = unique_value(p, c);
        return rc;
    default:
        return ndp_jscan_skip_value(c, NULL, NULL);
    }
}

/*
 * The members written in the validated text [start, end): one ':' each
 * outside the strings (keys may be '-quoted).
 */
static size_t members_written(const char *text, size_t start, size_t end)
{
    size_t i, n = 0;
    char quote = 0;

    for (i = start; i < end; i++) {
        char c = text[i];

        if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == ':') {
            n++;
        }
    }
    return n;
}

/* The members of every object in 'v', which json-c keeps once per key. */
static size_t members_kept(struct json_object *v)
{
    size_t i, n = 0;

    if (json_object_is_type(v, json_type_object)) {
        json_object_object_foreach(v, key, member) {
            (void)key;
            n += 1 + members_kept(member);
        }
    } else if (json_object_is_type(v, json_type_array)) {
        for (i = 0; i < json_object_array_length(v); i++)
            n += members_kept(json_object_array_get_idx(v, i));
    }
    return n;
}

/*
 * A kept element is what a reader judges, so a key twice anywhere in it
 * (a second "change", "actions" or "mode") is refused as well.  The tree
 * builder says when it met every key once ('unique'); otherwise json-c,
 * which keeps one member per key, made a tree with as many members as the
 * text only when no key is there twice; only then is the text walked
 * again to name the duplicate.
 */
static int check_kept(struct ndp_pruner *p, size_t start, size_t end,
                      struct json_object *kept, bool unique)
{
    struct ndp_jscan c;

    if (unique || p->text[start] != '{' ||
        members_kept(kept) == members_written(p->text, start, end))
        return 0;
    ndp_jscan_init(&c, p->text + start, end - start, NDP_MAX_JSON_DEPTH);
    return unique_members(p, &c);
}

/* The element being read, with what decides whether it is kept. */
struct element {
    enum ndp_prune_filter f;
    const char *key;      /* its discriminating member */
    struct ndp_buf value; /* ... that member's value, when 'found' */
    bool found;           /* ... was there as a string */
    size_t start;         /* where the element begins */
};

static int next_element(struct ndp_pruner *p, struct ndp_jscan *s, void *done)
{
    (void)p;
    return ndp_jscan_array_next(s, done);
}

static int read_element(struct ndp_pruner *p, struct ndp_jscan *s, void *item)
{
    struct element *e = item;

    /* Streaming, the whitespace before it may have come in only now. */
    (void)ndp_jscan_peek(s);
    e->start = s->pos;
    return scan_one(p, s, e->f, e->key, &e->value, &e->found);
}

/*
 * A Kubernetes object's entry keeps only what input_kube.c reads: not a
 * manifest's copy of the object as the cluster returns it ('object'), not
 * a pod template's spec, nothing of a manifest of another kind.  An
 * estate's plan can hold thousands of them.
 */
static void drop(struct json_object *o, const char *key)
{
    if (json_object_is_type(o, json_type_object))
        json_object_object_del(o, key);
}

/* The pod template's spec (containers, volumes, ...): only its labels
 * are read. */
static void drop_pod_spec(struct json_object *doc, bool manifest)
{
    struct json_object *tmpl;

    if (manifest) {
        drop(ndp_json_path(ndp_json_get(doc, "manifest"), "spec.template"),
             "spec");
        return;
    }
    tmpl = ndp_json_get(ndp_json_index(ndp_json_get(doc, "spec"), 0),
                        "template");
    drop(ndp_json_index(tmpl, 0), "spec");
}

static void trim_kube_entry(struct json_object *entry, const char *type)
{
    struct json_object *change = ndp_json_get(entry, "change");
    static const char *const sides[] = {
        "before", "before_sensitive", "after", "after_unknown",
        "after_sensitive"
    };
    bool manifest = strcmp(type, "kubernetes_manifest") == 0;
    bool other_kind;
    size_t i;

    if (!ndp_kube_plan_type(type) ||
        !json_object_is_type(change, json_type_object))
        return;
    /* Read before a side may go: its kind is a string inside it. */
    other_kind = manifest && !ndp_kube_kind_known(ndp_json_get_string(
        ndp_json_get(ndp_json_get(change, "after"), "manifest"), "kind")) &&
        !ndp_kube_kind_known(ndp_json_get_string(
            ndp_json_get(ndp_json_get(change, "before"), "manifest"),
            "kind"));
    for (i = 0; i < NDP_ARRAY_SIZE(sides); i++) {
        struct json_object *side = ndp_json_get(change, sides[i]);
        if (other_kind) {
            /* A CustomResourceDefinition, a ConfigMap: nothing to read. */
            drop(change, sides[i]);
            continue;
        }
        drop(side, "object");
        drop_pod_spec(side, manifest);
    }
}

/*
 * Adds the element just read (it ends at 'end') to 'list' if the filter
 * keeps it; 'index' is its place in the list.  Its mark carries the line
 * it begins on, counted here, in the thread that read it, over text it
 * has just read.
 */
static int take_element(struct ndp_pruner *p, const struct element *e,
                        size_t end, struct json_object *list, size_t index)
{
    struct ndp_entry_mark *mark;
    struct json_object *kept;
    bool unique;
    int rc;

    if (p->started_mid_list && (!e->found || ndp_split_cancelled(p)))
        return ndp_split_give_up(p);
    if (!keep_element(p, e->f, e->found, e->value.buf, index))
        return 0;
    kept = build(p, e->start, end, &unique);
    if (e->f != NDP_FILTER_FIRST_ONLY &&
        (rc = check_kept(p, e->start, end, kept, unique)) != 0) {
        json_object_put(kept);
        return rc;
    }
    if (e->f == NDP_FILTER_PLAN_RESOURCES)
        trim_kube_entry(kept, e->value.buf);
    mark = ndp_document_mark_entry(kept, e->start,
                                   ndp_prune_line_at(p, e->start));
    if (mark && p->started_mid_list) {
        NDP_GROW(p->marks, p->alloc_marks, p->nr_marks + 1);
        p->marks[p->nr_marks++] = mark;
    }
    json_object_array_add(list, kept);
    return 0;
}

/*
 * Walks a filtered list from the cursor to its end, adding the kept
 * elements to 'list' and counting all of them in '*count'.  'at_element':
 * the cursor is at an element already.  Stops early, with '*stopped' set
 * and the cursor at that element, at an element that begins at byte
 * 'stop' (where a second thread started; SIZE_MAX: none).
 */
static int filter_elements(struct ndp_pruner *p, struct ndp_jscan *s,
                           enum ndp_prune_filter f, struct json_object *list,
                           size_t *count, bool at_element, size_t stop,
                           bool *stopped)
{
    struct element e = {
        f, f == NDP_FILTER_WHATIF_CHANGES ? "resourceId" : "type",
        NDP_BUF_INIT, false, 0
    };
    bool done = false;
    int rc = 0;

    *stopped = false;
    while (!rc) {
        if (!at_element)
            rc = read_item(p, s, next_element, &done);
        at_element = false;
        if (rc || done)
            break;
        if (s->pos == stop) {
            *stopped = true;
            break;
        }
        rc = read_item(p, s, read_element, &e);
        if (!rc)
            rc = take_element(p, &e, s->pos, list, *count);
        if (!rc)
            (*count)++;
        /* The element's newlines while its bytes are in the cache. */
        if (!rc) {
            ndp_prune_line_at_cursor(p, s);
            give_back(p, s->pos);
        }
    }
    ndp_buf_release(&e.value);
    return rc;
}

/*
 * The second thread's walk (input_split.c): from the element at the cursor
 * to the end of the list, then the top-level members after it, giving
 * back the pages behind it as the first thread does behind its own.
 */
static int walk_second(struct ndp_pruner *p, struct ndp_jscan *s,
                       enum ndp_prune_filter f, struct json_object *kept,
                       size_t *count, struct json_object *tail)
{
    bool stopped;
    int rc;

    cursor_start(p, s);
    rc = filter_elements(p, s, f, kept, count, true, SIZE_MAX, &stopped);
    return rc ? rc : prune_members(p, s, CTX_TOP, tail);
}

/*
 * The elements of a filtered list.  A long counted one is split between
 * two threads (input_split.c): this one walks up to where the second one
 * started, then takes over its work, or goes on alone when the second
 * one gave up.
 */
static int walk_list(struct ndp_pruner *p, struct ndp_jscan *s,
                     enum ndp_prune_filter f, struct json_object *list,
                     size_t *count)
{
    size_t stop = is_counted(f) ? ndp_split_start(p, s, f, walk_second)
                                : SIZE_MAX;
    bool stopped;
    int rc = filter_elements(p, s, f, list, count, false, stop, &stopped);

    if (stopped && !ndp_split_take(p, s, list, count, &rc))
        rc = filter_elements(p, s, f, list, count, true, SIZE_MAX,
                             &stopped);
    if (stop != SIZE_MAX)
        ndp_split_cancel(p); /* not taken over */
    return rc;
}

static int filter_array(struct ndp_pruner *p, struct ndp_jscan *s,
                        const struct filtered_list *fl,
                        struct json_object **out)
{
    struct json_object *list = json_object_new_array();
    bool counted = is_counted(fl->f);
    const char *outer = p->list;
    size_t index = 0;
    int rc = ndp_jscan_array_begin(s);

    p->list = fl->where;
    /* Another counted list: the second thread leaves it to the first. */
    if (counted && p->started_mid_list)
        rc = ndp_split_give_up(p);
    if (!rc)
        rc = walk_list(p, s, fl->f, list, &index);
    if (counted && !rc) {
        p->seen += index;
        p->filtered = true;
    }
    p->list = outer;
    *out = list;
    return rc;
}

static int prune_object(struct ndp_pruner *p, struct ndp_jscan *s,
                        enum context ctx, struct json_object **out);

static int prune_list_of_objects(struct ndp_pruner *p, struct ndp_jscan *s,
                                 enum context ctx, struct json_object **out)
{
    struct json_object *list = json_object_new_array();
    bool done = false;
    int rc = ndp_jscan_array_begin(s);

    while (!rc && !(rc = ndp_jscan_array_next(s, &done)) && !done) {
        struct json_object *m = NULL;
        if (ndp_jscan_peek(s) == NDP_JSCAN_OBJECT) {
            rc = prune_object(p, s, ctx, &m);
            json_object_array_add(list, m);
        } else {
            rc = ndp_jscan_skip_value(s, NULL, NULL);
        }
    }
    *out = list;
    return rc;
}

/* The context of member 'key' (of a value of 'type') inside 'ctx', or -1. */
static int child_context(enum context ctx, const char *key, size_t klen,
                         enum ndp_jscan_type type)
{
#define IS(name) ndp_jscan_key_is(key, klen, (name))
    if (type != NDP_JSCAN_OBJECT)
        return -1;
    switch (ctx) {
    case CTX_TOP:
        if (IS("properties"))
            return CTX_PROPERTIES;
        if (IS("configuration"))
            return CTX_CONFIG;
        if (IS("planned_values"))
            return CTX_PLANNED;
        return -1;
    case CTX_CONFIG:
        if (IS("root_module") || IS("module"))
            return CTX_CONFIG;
        if (IS("module_calls"))
            return CTX_CALLS;
        return -1;
    case CTX_CALLS:
        return CTX_CALL;
    case CTX_CALL:
        return IS("module") ? CTX_CONFIG : -1;
    case CTX_PLANNED:
        return IS("root_module") ? CTX_PLANNED : -1;
    default:
        return -1;
    }
#undef IS
}

/* The filtered list that member 'key' of a 'ctx' object is, or NULL. */
static const struct filtered_list *find_list(enum context ctx, const char *key,
                                            size_t klen)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(filtered_lists); i++)
        if (filtered_lists[i].ctx == (int)ctx &&
            ndp_jscan_key_is(key, klen, filtered_lists[i].key))
            return &filtered_lists[i];
    return NULL;
}

static int prune_member(struct ndp_pruner *p, struct ndp_jscan *s,
                        enum context ctx, const char *key, size_t klen,
                        struct json_object **out)
{
    enum ndp_jscan_type type = ndp_jscan_peek(s);
    int child = child_context(ctx, key, klen, type);
    const struct filtered_list *fl =
        type == NDP_JSCAN_ARRAY ? find_list(ctx, key, klen) : NULL;
    size_t start, end;
    int rc;

    if (child >= 0)
        return prune_object(p, s, (enum context)child, out);
    if (fl)
        return filter_array(p, s, fl, out);
    if (ctx == CTX_PLANNED && type == NDP_JSCAN_ARRAY &&
        ndp_jscan_key_is(key, klen, "child_modules"))
        return prune_list_of_objects(p, s, CTX_PLANNED, out);
    rc = ndp_jscan_skip_value(s, &start, &end);
    if (rc)
        return rc;
    if ((ctx == CTX_TOP && in_list(key, klen, skipped_members,
                                   NDP_ARRAY_SIZE(skipped_members))) ||
        ctx == CTX_PLANNED || end - start > NDP_PRUNE_SMALL_MEMBER)
        *out = placeholder(type);
    else
        *out = build(p, start, end, NULL); /* its keys are not checked */
    return 0;
}

/*
 * The second thread's work was taken over: adds the top-level members it
 * read after its list to 'obj', which is then complete.
 */
static void add_tail_members(struct ndp_pruner *p, struct json_object *obj)
{
    json_object_object_foreach(p->tail_members, key, v)
        json_object_object_add(obj, key, json_object_get(v));
    json_object_put(p->tail_members);
    p->tail_members = NULL;
}

/*
 * A judged list's key met again in the same object ('*met': the ones met
 * so far): every reader keeps the last list and never sees the first.
 * The second thread leaves such a key to the first one, which knows the
 * members before the split.
 */
static int check_list_key(struct ndp_pruner *p, enum context ctx,
                          const char *key, size_t klen, unsigned met,
                          unsigned *bit)
{
    const struct filtered_list *fl = find_list(ctx, key, klen);

    *bit = 0;
    if (!fl || !is_counted(fl->f))
        return 0;
    if (p->started_mid_list)
        return ndp_split_give_up(p);
    *bit = 1u << (fl - filtered_lists);
    return met & *bit ? duplicate(p, key, fl->in) : 0;
}

/* The member being read, and the judged lists' keys met before it. */
struct member {
    enum context ctx;         /* of the object it is in */
    unsigned met;             /* check_list_key() bits of those before */
    unsigned bit;             /* ... and of this one */
    const char *key;          /* raw, in the text */
    size_t klen;
    bool done;                /* no member: the object ended */
    struct json_object *value;
};

static int read_member(struct ndp_pruner *p, struct ndp_jscan *s, void *item)
{
    struct member *m = item;
    int rc = ndp_jscan_object_next(s, &m->key, &m->klen, &m->done);

    m->value = NULL;
    if (!rc && !m->done)
        rc = check_list_key(p, m->ctx, m->key, m->klen, m->met, &m->bit);
    if (!rc && !m->done)
        rc = prune_member(p, s, m->ctx, m->key, m->klen, &m->value);
    if (rc) {
        json_object_put(m->value);
        m->value = NULL;
    }
    return rc;
}

static void add_member(const struct ndp_pruner *p, struct json_object *obj,
                       const struct member *m)
{
    struct json_object *k = decoded_key(p, m->key, m->klen);

    json_object_object_add(obj, json_object_get_string(k), m->value);
    json_object_put(k);
}

/* The members of the object at the cursor, from there to its end. */
static int prune_members(struct ndp_pruner *p, struct ndp_jscan *s,
                         enum context ctx, struct json_object *obj)
{
    struct member m = { .ctx = ctx };
    int rc = 0;

    while (!rc) {
        if (ctx == CTX_TOP)
            ndp_split_start_early(p, s, NDP_FILTER_PLAN_RESOURCES,
                                  filtered_lists[0].where, walk_second);
        rc = read_item(p, s, read_member, &m);
        if (rc || m.done)
            break;
        if (ndp_split_cancelled(p)) {
            json_object_put(m.value);
            rc = ndp_split_give_up(p);
            break;
        }
        m.met |= m.bit;
        add_member(p, obj, &m);
        give_back(p, s->pos);
        if (p->tail_members) {
            add_tail_members(p, obj);
            break;
        }
    }
    return rc;
}

static int prune_object(struct ndp_pruner *p, struct ndp_jscan *s,
                        enum context ctx, struct json_object **out)
{
    struct json_object *obj = json_object_new_object();
    int rc = ndp_jscan_object_begin(s);

    if (!rc)
        rc = prune_members(p, s, ctx, obj);
    *out = obj;
    return rc;
}

/* One pass: the cursor validates as it goes. */
static int prune_document(struct ndp_pruner *p, struct ndp_jscan *s,
                          struct json_object **root,
                          enum ndp_jscan_type *type)
{
    int rc;

    ndp_jscan_init(s, p->text, p->len, NDP_MAX_JSON_DEPTH);
    cursor_start(p, s);
    *type = ndp_jscan_peek(s);
    if (*type == NDP_JSCAN_OBJECT)
        rc = prune_object(p, s, CTX_TOP, root);
    else
        rc = ndp_jscan_skip_value(s, NULL, NULL);
    while (!rc && p->src && !p->complete)
        wait_for(p, s, SIZE_MAX);
    return rc ? rc : ndp_jscan_end(s);
}

static int parse(struct ndp_pruner *p, struct json_object **out, size_t *seen,
                 size_t *err_pos, const char **err_msg)
{
    struct ndp_jscan s;
    struct json_object *root = NULL;
    enum ndp_jscan_type type;
    int rc;

    p->tok = json_tokener_new_ex(NDP_MAX_JSON_DEPTH);
    rc = prune_document(p, &s, &root, &type);
    ndp_split_cancel(p); /* started early, never reached */
    json_object_put(p->tail_members); /* left when the second thread failed */
    p->tail_members = NULL;
    /* Streamed text cut before the first value: start again with it all. */
    if (rc && p->src && !p->complete && ndp_jscan_truncated(&s)) {
        json_object_put(root);
        root = NULL;
        while (!p->complete)
            wait_for(p, &s, SIZE_MAX);
        p->seen = 0;
        p->filtered = p->kept_malformed = false;
        p->lines_at = 0;
        p->line = 1;
        rc = prune_document(p, &s, &root, &type);
    }
    json_tokener_free(p->tok);
    p->tok = NULL;
    if (rc) {
        /* An error anywhere throws the tree away. */
        json_object_put(root);
        *err_pos = p->dup_where ? p->dup_pos : s.err_pos;
        *err_msg = p->dup_where ? p->dup_where
                   : s.err_msg ? s.err_msg : "syntax error";
        return p->dup_where ? NDP_ESCHEMA : NDP_EPARSE;
    }
    if (type != NDP_JSCAN_OBJECT)
        root = placeholder(type);
    *out = root;
    /* SIZE_MAX: nothing was filtered, the reader counts what it reads. */
    *seen = type == NDP_JSCAN_OBJECT && p->filtered ? p->seen : SIZE_MAX;
    return 0;
}

/* Where lists split when the caller does not say. */
static const struct ndp_input_tuning default_tuning = NDP_INPUT_TUNING_DEFAULT;

int ndp_parse_pruned(struct json_object **out, size_t *seen,
                     const char *text, size_t len, bool mapped,
                     const struct ndp_input_tuning *tune,
                     size_t *err_pos, const char **err_msg)
{
    struct ndp_pruner p = { .text = text, .len = len, .complete = true,
                            .line = 1, .line_origin = 1, .mapped = mapped,
                            .tune = tune ? tune : &default_tuning };

    return parse(&p, out, seen, err_pos, err_msg);
}

int ndp_parse_pruned_stream(struct json_object **out, size_t *seen,
                            const char *text,
                            const struct ndp_text_source *src,
                            size_t *err_pos, const char **err_msg)
{
    struct ndp_pruner p = { .text = text, .src = src, .line = 1,
                            .line_origin = 1, .tune = &default_tuning };

    p.len = src->wait(src->ctx, 1, &p.complete);
    return parse(&p, out, seen, err_pos, err_msg);
}

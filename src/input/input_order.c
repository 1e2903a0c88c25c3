/*
 * SPDX-License-Identifier: Apache-2.0
 * input_order.c - the order Terraform applies a plan in, read from the
 * plan's 'configuration' section into the change set's order graph
 * (struct ndp_order_node), for the concurrency check (put-time-limits
 * PT-CONC-01).
 *
 * A node is a resource or data source ("module.a.azurerm_x.y", instance
 * keys ignored), a module's input variable ("module.a.var.v"), output
 * ("module.a.output.o"), the module as a whole ("module.a": waits for
 * every resource in it) or its call ("module.a.#call": the call's
 * depends_on, which every resource in the module waits for).  A node
 * waits for what its expressions reference (every 'references' list
 * below it, constant values excepted) and what its depends_on names; a
 * module input waits for what the call's expression for it references,
 * a module output for what its expression references.  Locals are not in
 * the configuration section, so an order through a local is not seen.
 * A resource also waits for what its provider's configuration references.
 *
 * Cost: one pass over the configuration; names are looked up in a hash
 * map (strmap.h).
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "change.h"
#include "jsonutil.h"
#include "strmap.h"

struct order_reader {
    struct ndp_changeset *set;
    const struct json_object *providers; /* configuration.provider_config */
    struct ndp_strmap map;      /* name -> index into set->order */
    char **names;               /* owned, the map's keys */
    size_t nr, alloc;
    bool *declared;             /* by node: the configuration declares it */
    size_t alloc_declared;
};

/* Node 'n' is declared by the configuration (not only named). */
static void declare(struct order_reader *r, size_t n)
{
    size_t old = r->alloc_declared;

    NDP_GROW(r->declared, r->alloc_declared, n + 1);
    if (r->alloc_declared > old)
        memset(r->declared + old, 0,
               (r->alloc_declared - old) * sizeof(*r->declared));
    r->declared[n] = true;
}

static size_t node(struct order_reader *r, const char *name)
{
    size_t found = ndp_strmap_find(&r->map, name);

    if (found != SIZE_MAX)
        return found;
    NDP_GROW(r->names, r->alloc, r->nr + 1);
    r->names[r->nr] = ndp_xstrdup(name);
    found = ndp_changeset_add_order(r->set);
    ndp_strmap_add(&r->map, r->names[r->nr++], found);
    return found;
}

static size_t node2(struct order_reader *r, const char *prefix,
                    const char *name, size_t len)
{
    struct ndp_buf b = NDP_BUF_INIT;
    size_t n;

    ndp_buf_adds(&b, prefix);
    ndp_buf_add(&b, name, len);
    n = node(r, b.buf);
    ndp_buf_release(&b);
    return n;
}

/* Length of the name at 'p': up to a '.', a '[' or the end. */
static size_t word(const char *p)
{
    return strcspn(p, ".[");
}

/*
 * The node a reference 'ref' written in module 'prefix' waits for, or
 * SIZE_MAX for one that orders nothing (local., each., count., path.).
 */
static size_t resolve(struct order_reader *r, const char *prefix,
                      const char *ref)
{
    static const char *const skipped[] = {
        "local.", "each.", "count.", "path.", "terraform.", "self.", NULL
    };
    struct ndp_buf b = NDP_BUF_INIT;
    const char *p = ref;
    size_t i, n, parts = 2;

    for (i = 0; skipped[i]; i++)
        if (strncmp(ref, skipped[i], strlen(skipped[i])) == 0)
            return SIZE_MAX;
    ndp_buf_adds(&b, prefix);
    if (strncmp(ref, "module.", 7) == 0) {
        p = ref + 7;
        ndp_buf_adds(&b, "module.");
        ndp_buf_add(&b, p, word(p));
        p = ndp_address_skip_key(p + word(p));
        if (*p == '.' && p[1]) {
            ndp_buf_adds(&b, ".output.");
            ndp_buf_add(&b, p + 1, word(p + 1));
        }
    } else {
        if (strncmp(ref, "data.", 5) == 0)
            parts = 3;
        else if (strncmp(ref, "var.", 4) == 0)
            parts = 2;
        for (i = 0; i < parts && *p; i++) {
            size_t len = word(p);
            if (i)
                ndp_buf_addch(&b, '.');
            ndp_buf_add(&b, p, len);
            p = ndp_address_skip_key(p + len);
            if (*p == '.')
                p++;
        }
    }
    n = node(r, b.buf);
    ndp_buf_release(&b);
    return n;
}

static void add_ref(struct order_reader *r, size_t from, const char *prefix,
                    const char *ref)
{
    size_t to = ref ? resolve(r, prefix, ref) : SIZE_MAX;

    if (to != SIZE_MAX)
        ndp_changeset_add_order_dep(r->set, from, to);
}

/* Every 'references' list below 'v', constant values excepted. */
static void add_references(struct order_reader *r, size_t from,
                           const char *prefix, struct json_object *v)
{
    size_t i, n;

    if (json_object_is_type(v, json_type_array)) {
        n = json_object_array_length(v);
        for (i = 0; i < n; i++)
            add_references(r, from, prefix, json_object_array_get_idx(v, i));
    } else if (json_object_is_type(v, json_type_object)) {
        json_object_object_foreach(v, key, val) {
            if (strcmp(key, "constant_value") == 0 ||
                strcmp(key, "depends_on") == 0 || strcmp(key, "module") == 0)
                continue;
            if (strcmp(key, "references") == 0 &&
                json_object_is_type(val, json_type_array)) {
                n = json_object_array_length(val);
                for (i = 0; i < n; i++)
                    add_ref(r, from, prefix, json_object_get_string(
                                json_object_array_get_idx(val, i)));
            } else {
                add_references(r, from, prefix, val);
            }
        }
    }
}

static void add_depends_on(struct order_reader *r, size_t from,
                           const char *prefix, const struct json_object *o)
{
    struct json_object *list = ndp_json_get(o, "depends_on");
    size_t i, n = list && json_object_is_type(list, json_type_array)
                      ? json_object_array_length(list) : 0;

    for (i = 0; i < n; i++)
        add_ref(r, from, prefix, json_object_get_string(
                    json_object_array_get_idx(list, i)));
}

/*
 * A resource waits for what its provider's configuration references
 * (Terraform configures a provider before it applies any of its
 * resources): a kubernetes provider whose host is a cluster's kube_config
 * makes every resource of it wait for that cluster.  The references are
 * the provider's module's ("module_address").
 */
static void add_provider_references(struct order_reader *r, size_t from,
                                    const struct json_object *res)
{
    const char *key = ndp_json_get_string(res, "provider_config_key");
    const struct json_object *cfg = key ? ndp_json_get(r->providers, key)
                                        : NULL;
    const char *module = ndp_json_get_string(cfg, "module_address");
    struct ndp_buf prefix = NDP_BUF_INIT;

    if (!cfg)
        return;
    if (module && *module)
        ndp_buf_addf(&prefix, "%s.", module);
    else
        ndp_buf_adds(&prefix, "");
    add_references(r, from, prefix.buf,
                   ndp_json_unconst(ndp_json_get(cfg, "expressions")));
    ndp_buf_release(&prefix);
}

/* Module 'm' at 'prefix' ("" or "module.a.module.b."); 'depth' bounds it. */
static void read_module(struct order_reader *r, const struct json_object *m,
                        const char *prefix, int depth)
{
    struct json_object *resources = ndp_json_get(m, "resources");
    struct json_object *calls = ndp_json_get(m, "module_calls");
    struct json_object *outputs = ndp_json_get(m, "outputs");
    size_t i, n, whole = SIZE_MAX, call = SIZE_MAX;
    size_t plen = strlen(prefix);

    if (depth > 64)
        return;
    if (plen) {
        whole = node2(r, "", prefix, plen - 1);
        call = node2(r, prefix, "#call", 5);
        declare(r, whole);
        declare(r, call);
    }
    n = resources && json_object_is_type(resources, json_type_array)
            ? json_object_array_length(resources) : 0;
    for (i = 0; i < n; i++) {
        struct json_object *res = json_object_array_get_idx(resources, i);
        const char *addr = ndp_json_get_string(res, "address");
        size_t self;
        if (!addr)
            continue;
        self = node2(r, prefix, addr, strlen(addr));
        declare(r, self);
        add_references(r, self, prefix, res);
        add_depends_on(r, self, prefix, res);
        add_provider_references(r, self, res);
        if (plen) {
            ndp_changeset_add_order_dep(r->set, self, call);
            ndp_changeset_add_order_dep(r->set, whole, self);
        }
    }
    if (outputs && json_object_is_type(outputs, json_type_object)) {
        json_object_object_foreach(outputs, name, out) {
            struct ndp_buf b = NDP_BUF_INIT;
            size_t self;
            ndp_buf_addf(&b, "%soutput.%s", prefix, name);
            self = node(r, b.buf);
            declare(r, self);
            ndp_buf_release(&b);
            add_references(r, self, prefix, ndp_json_get(out, "expression"));
            add_depends_on(r, self, prefix, out);
        }
    }
    if (!calls || !json_object_is_type(calls, json_type_object))
        return;
    json_object_object_foreach(calls, name, c) {
        struct ndp_buf child = NDP_BUF_INIT, b = NDP_BUF_INIT;
        struct json_object *exprs = ndp_json_get(c, "expressions");
        size_t inner_call;

        ndp_buf_addf(&child, "%smodule.%s.", prefix, name);
        inner_call = node2(r, child.buf, "#call", 5);
        declare(r, inner_call);
        add_depends_on(r, inner_call, prefix, c);
        add_references(r, inner_call, prefix,
                       ndp_json_get(c, "count_expression"));
        add_references(r, inner_call, prefix,
                       ndp_json_get(c, "for_each_expression"));
        if (plen)
            ndp_changeset_add_order_dep(r->set, whole,
                                        node2(r, "", child.buf,
                                              child.len - 1));
        if (exprs && json_object_is_type(exprs, json_type_object)) {
            json_object_object_foreach(exprs, input, e) {
                size_t var;
                ndp_buf_reset(&b);
                ndp_buf_addf(&b, "%svar.%s", child.buf, input);
                var = node(r, b.buf);
                declare(r, var);
                ndp_changeset_add_order_dep(r->set, var, inner_call);
                add_references(r, var, prefix, e);
            }
        }
        read_module(r, ndp_json_get(c, "module"), child.buf, depth + 1);
        ndp_buf_release(&child);
        ndp_buf_release(&b);
    }
}

/*
 * Every node named but not declared is opaque, but for variables (the
 * root module's inputs, a module input its call leaves to its default):
 * they wait for nothing.
 */
static void mark_opaque(struct order_reader *r)
{
    size_t i;

    for (i = 0; i < r->nr; i++) {
        size_t n = ndp_strmap_find(&r->map, r->names[i]);
        const char *name = r->names[i];
        if ((n < r->alloc_declared && r->declared[n]) ||
            strncmp(name, "var.", 4) == 0 || strstr(name, ".var."))
            continue;
        r->set->order[n].opaque = true;
    }
}

/* "module.a[\"x\"].azurerm_x.y[0]" -> "module.a.azurerm_x.y". */
static void node_name(struct ndp_buf *out, const char *address)
{
    const char *p = address;

    while (*p) {
        if (*p == '[') {
            p = ndp_address_skip_key(p);
            continue;
        }
        ndp_buf_addch(out, *p++);
    }
}

/* The node of 'address' plus 1, or 0 when the configuration has none. */
static size_t order_node_of(const struct order_reader *r,
                            struct ndp_buf *name, const char *address)
{
    size_t n;

    ndp_buf_reset(name);
    node_name(name, address);
    n = ndp_strmap_find(&r->map, name->buf);
    return n == SIZE_MAX ? 0 : n + 1;
}

void ndp_tfplan_read_order(struct ndp_changeset *set, size_t first,
                           size_t first_budget,
                           const struct json_object *root)
{
    struct order_reader r = { set, NULL, NDP_STRMAP_INIT(false), NULL, 0, 0,
                              NULL, 0 };
    const struct json_object *module = ndp_json_get(
        ndp_json_get(root, "configuration"), "root_module");
    struct ndp_buf name = NDP_BUF_INIT;
    size_t i;

    if (!module)
        return;
    r.providers = ndp_json_get(ndp_json_get(root, "configuration"),
                               "provider_config");
    read_module(&r, module, "", 0);
    mark_opaque(&r);
    for (i = first; i < set->nr; i++)
        set->items[i]->order_node = order_node_of(&r, &name,
                                                  set->items[i]->address);
    for (i = first_budget; i < set->kube.nr_budgets; i++) {
        struct ndp_kube_origin *o = &set->kube.budgets[i].origin;
        if (o->address)
            o->order_node = order_node_of(&r, &name, o->address);
    }
    ndp_buf_release(&name);
    ndp_strmap_release(&r.map);
    for (i = 0; i < r.nr; i++)
        free(r.names[i]);
    free(r.names);
    free(r.declared);
}

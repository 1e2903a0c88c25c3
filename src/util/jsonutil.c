/*
 * SPDX-License-Identifier: Apache-2.0
 * jsonutil.c - read-only helpers over json-c values (see jsonutil.h).
 *
 * json-c's getters take non-const pointers although they do not modify the
 * value; the casts here are confined to this file.
 */
#include "common.h"
#include "jsonutil.h"
#include "buf.h"

#define MUT(o) ndp_json_unconst(o)

struct json_object *ndp_json_get(const struct json_object *o, const char *key)
{
    struct json_object *v = NULL;

    if (!o || !json_object_is_type(o, json_type_object))
        return NULL;
    if (!json_object_object_get_ex(o, key, &v))
        return NULL;
    return v;
}

struct json_object *ndp_json_get_nocase(const struct json_object *o,
                                        const char *key)
{
    struct json_object *exact = ndp_json_get(o, key);

    if (exact || !o || !json_object_is_type(o, json_type_object))
        return exact;
    json_object_object_foreach(MUT(o), k, v) {
        if (ndp_strcasecmp(k, key) == 0)
            return v;
    }
    return NULL;
}

const char *ndp_json_get_string(const struct json_object *o, const char *key)
{
    struct json_object *v = ndp_json_get(o, key);

    if (!v || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

struct json_object *ndp_json_index(const struct json_object *a, size_t i)
{
    if (!a || !json_object_is_type(a, json_type_array))
        return NULL;
    if (i >= json_object_array_length(a))
        return NULL;
    return json_object_array_get_idx(a, i);
}

struct json_object *ndp_json_path(const struct json_object *o,
                                  const char *dotted)
{
    const char *p = dotted;
    struct json_object *cur = MUT(o);
    char key[128];

    while (cur && *p) {
        size_t n = strcspn(p, ".");

        if (n >= sizeof(key))
            return NULL;
        memcpy(key, p, n);
        key[n] = '\0';
        cur = ndp_json_get_nocase(cur, key);
        p += n;
        if (*p == '.')
            p++;
    }
    return cur;
}

bool ndp_json_is_unset(const struct json_object *v)
{
    if (!v)
        return true;
    switch (json_object_get_type(v)) {
    case json_type_null:
        return true;
    case json_type_string:
        return json_object_get_string_len(v) == 0;
    case json_type_array:
        return json_object_array_length(v) == 0;
    case json_type_object:
        return json_object_object_length(v) == 0;
    default:
        return false;
    }
}

bool ndp_json_is_true(const struct json_object *v)
{
    return v && json_object_is_type(v, json_type_boolean) &&
           json_object_get_boolean(v);
}

bool ndp_json_any_true(const struct json_object *mask)
{
    size_t i, n;

    if (!mask)
        return false;
    switch (json_object_get_type(mask)) {
    case json_type_boolean:
        return json_object_get_boolean(mask);
    case json_type_array:
        n = json_object_array_length(mask);
        for (i = 0; i < n; i++)
            if (ndp_json_any_true(json_object_array_get_idx(mask, i)))
                return true;
        return false;
    case json_type_object: {
        json_object_object_foreach(MUT(mask), k, v) {
            (void)k;
            if (ndp_json_any_true(v))
                return true;
        }
        return false;
    }
    default:
        return false;
    }
}

/* 'first': a list on the way stands for its first element. */
static bool mask_covers(const struct json_object *mask, const char *dotted,
                        bool first)
{
    char key[128];

    while (mask && *dotted) {
        size_t len = strcspn(dotted, ".");
        if (first && json_object_is_type(mask, json_type_array)) {
            mask = ndp_json_index(mask, 0);
            continue;
        }
        if (json_object_is_type(mask, json_type_boolean))
            return json_object_get_boolean(mask);
        if (!json_object_is_type(mask, json_type_object))
            break; /* an array: judged whole, below */
        if (len >= sizeof(key))
            return ndp_json_any_true(mask);
        memcpy(key, dotted, len);
        key[len] = '\0';
        mask = ndp_json_get(mask, key);
        dotted += len + (dotted[len] == '.');
    }
    return ndp_json_any_true(mask);
}

bool ndp_json_mask_covers(const struct json_object *mask, const char *dotted)
{
    return mask_covers(mask, dotted, false);
}

bool ndp_json_mask_covers_first(const struct json_object *mask,
                                const char *dotted)
{
    return mask_covers(mask, dotted, true);
}

void ndp_json_to_buf(struct ndp_buf *out, const struct json_object *v)
{
    size_t len = 0;
    const char *s;

    if (!v) {
        ndp_buf_adds(out, "null");
        return;
    }
    s = json_object_to_json_string_length(
        MUT(v), JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
    ndp_buf_add(out, s, len);
}

const char *ndp_json_scalar_text(const struct json_object *v,
                                 struct ndp_buf *scratch)
{
    if (ndp_json_is_unset(v))
        return NULL;
    switch (json_object_get_type(v)) {
    case json_type_string:
        return json_object_get_string(MUT(v));
    case json_type_boolean:
        return json_object_get_boolean(v) ? "true" : "false";
    default:
        ndp_buf_reset(scratch);
        ndp_json_to_buf(scratch, v);
        return scratch->buf;
    }
}

static bool is_expression(const char *s, size_t len)
{
    return len >= 2 && s[0] == '[' && s[1] != '[' && s[len - 1] == ']';
}

bool ndp_json_has_expression(const struct json_object *v)
{
    size_t i, n;

    if (!v)
        return false;
    switch (json_object_get_type(v)) {
    case json_type_string:
        return is_expression(json_object_get_string(MUT(v)),
                             (size_t)json_object_get_string_len(v));
    case json_type_array:
        n = json_object_array_length(v);
        for (i = 0; i < n; i++)
            if (ndp_json_has_expression(json_object_array_get_idx(v, i)))
                return true;
        return false;
    case json_type_object: {
        json_object_object_foreach(MUT(v), k, child) {
            (void)k;
            if (ndp_json_has_expression(child))
                return true;
        }
        return false;
    }
    default:
        return false;
    }
}

/* The first key of object 'o' not in 'allowed', or NULL. */
static const char *unknown_key(const struct json_object *o,
                               const char *const *allowed)
{
    json_object_object_foreach(MUT(o), key, v) {
        const char *const *a;
        (void)v;
        for (a = allowed; *a; a++)
            if (strcmp(*a, key) == 0)
                break;
        if (!*a)
            return key;
    }
    return NULL;
}

const char *ndp_json_check_keys(char *at, size_t at_size,
                                const struct json_object *o, const char *where,
                                const char *const *allowed)
{
    const char *key;

    if (!json_object_is_type(o, json_type_object)) {
        snprintf(at, at_size, "%s", where);
        return "must be an object";
    }
    key = unknown_key(o, allowed);
    if (!key)
        return NULL;
    snprintf(at, at_size, "%s%s%s", where, *where ? "." : "", key);
    return "unknown key";
}

static struct json_object *deep_copy(const struct json_object *v)
{
    struct json_object *out = NULL;

    if (v)
        json_object_deep_copy(MUT(v), &out, NULL);
    return out;
}

static struct json_object *overlay_array(const struct json_object *base,
                                         const struct json_object *top)
{
    size_t nb = json_object_array_length(base);
    size_t nt = json_object_array_length(top);
    struct json_object *out = json_object_new_array();

    for (size_t i = 0; i < (nb > nt ? nb : nt); i++) {
        const struct json_object *b = i < nb ? ndp_json_index(base, i) : NULL;
        const struct json_object *t = i < nt ? ndp_json_index(top, i) : NULL;

        json_object_array_add(out, ndp_json_overlay(b, t));
    }
    return out;
}

struct json_object *ndp_json_overlay(const struct json_object *base,
                                     const struct json_object *top)
{
    struct json_object *out;

    if (!top || !base)
        return deep_copy(top ? top : base);
    if (json_object_is_type(base, json_type_array) &&
        json_object_is_type(top, json_type_array))
        return overlay_array(base, top);
    if (!json_object_is_type(base, json_type_object) ||
        !json_object_is_type(top, json_type_object))
        return deep_copy(top);
    out = deep_copy(base);
    json_object_object_foreach(MUT(top), key, value) {
        json_object_object_add(out, key,
                               ndp_json_overlay(ndp_json_get(base, key),
                                                value));
    }
    return out;
}

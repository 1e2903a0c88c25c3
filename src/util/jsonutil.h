/*
 * SPDX-License-Identifier: Apache-2.0
 * jsonutil.h - small read-only helpers over json-c values, shared by the
 * readers, the rule loader and the engine.
 *
 * Every function borrows its arguments and never changes them.  "Unset"
 * is ndplint's single notion of absence: a missing value, JSON null, "",
 * [] and {} are all unset (Terraform writes "" for unset azurerm strings and
 * [] for absent blocks; ARM omits the property).
 */
#ifndef NDP_JSONUTIL_H
#define NDP_JSONUTIL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

struct ndp_buf;

/*
 * 'o' without its const, for json-c calls that take a plain pointer but
 * only read through it (json_object_get_type, json_object_object_foreach...).
 * The one place a const json_object is cast away.
 */
static inline struct json_object *ndp_json_unconst(const struct json_object *o)
{
    return (struct json_object *)(uintptr_t)o;
}

/* Member 'key' of object 'o', or NULL when 'o' is not an object or lacks it. */
struct json_object *ndp_json_get(const struct json_object *o, const char *key);
/* Member 'key' matched ASCII case-insensitively (ARM property names). */
struct json_object *ndp_json_get_nocase(const struct json_object *o,
                                        const char *key);
/* String member 'key', or NULL when absent or not a string. */
const char *ndp_json_get_string(const struct json_object *o, const char *key);
/* Element 'i' of array 'a', or NULL. */
struct json_object *ndp_json_index(const struct json_object *a, size_t i);
/* Follows a '.'-separated path of object keys (no array steps). */
struct json_object *ndp_json_path(const struct json_object *o,
                                  const char *dotted);

bool ndp_json_is_unset(const struct json_object *v);
bool ndp_json_is_true(const struct json_object *v);
/* True when any value in 'mask' (a Terraform unknown/sensitive mask) is true. */
bool ndp_json_any_true(const struct json_object *mask);
/*
 * True when the value at '.'-separated path 'dotted' of the document that
 * 'mask' mirrors is marked in 'mask': a true on the way down covers its
 * whole subtree, any true below the path marks part of it.  Array steps
 * are not named: an array on the way is searched whole.
 */
bool ndp_json_mask_covers(const struct json_object *mask, const char *dotted);
/*
 * The same, but a list on the way stands for its first element (the
 * blocks of a Terraform provider that are lists of one), so that a mask
 * of metadata[0].uid does not cover metadata[0].name.
 */
bool ndp_json_mask_covers_first(const struct json_object *mask,
                                const char *dotted);

/*
 * True when 'v' is, or holds, an ARM template expression: a string that
 * starts with '[' and ends with ']' ("[[" escapes a literal '[').
 */
bool ndp_json_has_expression(const struct json_object *v);

/*
 * A new value (owned by the caller; NULL when both are NULL): 'base' with
 * 'top' laid over it.  Objects merge key by key; arrays element by
 * element, a null element of 'top' keeping the one of 'base', and the
 * longer length winning (a what-if delta names only the elements that
 * change); anything else is 'top' when it is not NULL.  For partial
 * snapshots rebuilt from a what-if delta, over a whole value known from
 * elsewhere.
 */
struct json_object *ndp_json_overlay(const struct json_object *base,
                                     const struct json_object *top);

/*
 * Checks the keys of 'o', a part of a settings or rule file: 'o' must be
 * an object whose every key is in the NULL-terminated list 'allowed'.
 * 'where' is the JSON path of 'o' in its file ("" at the top level).
 *
 * Returns NULL when the keys are good.  Otherwise returns the problem,
 * "must be an object" or "unknown key", and writes to 'at' (of 'at_size'
 * bytes, truncated to fit) the path it concerns: 'where' itself, or
 * 'where.KEY' for the first unknown KEY.  The caller words the error, as
 * each kind of file names itself and has its own error code.
 */
const char *ndp_json_check_keys(char *at, size_t at_size,
                                const struct json_object *o, const char *where,
                                const char *const *allowed);

/* Appends compact JSON text, object keys in document order. */
void ndp_json_to_buf(struct ndp_buf *out, const struct json_object *v);

/*
 * The canonical text of a scalar for comparisons: strings as they are,
 * booleans "true"/"false", numbers as json-c prints them; NULL for unset.
 * Returns a pointer into 'scratch' or into 'v'; valid while both live.
 */
const char *ndp_json_scalar_text(const struct json_object *v,
                                 struct ndp_buf *scratch);

#endif

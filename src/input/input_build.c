/*
 * SPDX-License-Identifier: Apache-2.0
 * input_build.c - json-c trees of the kept values, built from the scanner.
 *
 * The pruned reader keeps a few values (AKS resources) as json-c trees.
 * json-c's own parser reads them a byte at a time; here the validating
 * scanner walks them instead (strings a vector at a time) and json-c only
 * makes the objects, so a small plan, all of it kept, starts faster.  The
 * tree is the one json-c's parser makes: strings decoded as json-c decodes
 * them (ndp_jscan_string; one with a \u escape by json-c itself, which
 * treats surrogates in a row its own way), plain integers and literals made as json-c
 * makes them, other numbers handed to json-c's parser itself (their types
 * and printed forms are json-c's business), and anything this file
 * does not mirror exactly (a '-quoted key, a key with an escape) sends the
 * whole value to json-c.  jscan_diff compares the two on every value it
 * meets.
 */
#include "common.h"
#include "input_internal.h"
#include "buf.h"
#include "compat.h"
#include "jscan.h"

#include <json-c/json.h>

struct builder {
    const char *text;
    struct json_tokener *tok;   /* for numbers */
    struct ndp_buf scratch;     /* a string or key being decoded */
    bool unsure;                /* met what only json-c may decide */
    bool repeated;              /* an object had a key twice */
};

/* json-c's parser on [start, end) of the text, and the byte after it that
 * ends a number (within the text: a kept value is inside its document). */
struct json_object *ndp_build_with_json_c(struct json_tokener *tok,
                                          const char *text, size_t len,
                                          size_t start, size_t end)
{
    size_t n = end - start;

    if (end < len)
        n++;
    json_tokener_reset(tok);
    return json_tokener_parse_ex(tok, text + start, (int)n);
}

static struct json_object *build_value(struct builder *b,
                                       struct ndp_jscan *c);

/* A key json-c would read as written: "-quoted, without escapes. */
static bool plain_key(const struct builder *b, const char *key,
                      size_t key_len)
{
    return key > b->text && key[-1] == '"' && !memchr(key, '\\', key_len) &&
           !memchr(key, '\0', key_len);
}

/* Keys this long are copied on the stack; longer ones are allocated. */
#define SHORT_KEY 128

static struct json_object *build_object(struct builder *b,
                                        struct ndp_jscan *c)
{
    struct json_object *obj = json_object_new_object();
    const char *key;
    size_t key_len, added = 0;
    bool done = false;

    if (ndp_jscan_object_begin(c))
        b->unsure = true;
    while (!b->unsure && !ndp_jscan_object_next(c, &key, &key_len, &done) &&
           !done) {
        /* json-c takes the key as a C string: a copy that ends there,
         * kept apart from the scratch buffer the value may use. */
        char short_key[SHORT_KEY];
        char *name = key_len < SHORT_KEY ? short_key
                                         : ndp_xmalloc(key_len + 1);

        if (!plain_key(b, key, key_len)) {
            b->unsure = true;
        } else {
            memcpy(name, key, key_len);
            name[key_len] = '\0';
            json_object_object_add(obj, name, build_value(b, c));
            added++;
        }
        if (name != short_key)
            free(name);
    }
    if (!done)
        b->unsure = true;
    /* json-c keeps one member per key: a key met twice replaced one. */
    if ((size_t)json_object_object_length(obj) != added)
        b->repeated = true;
    return obj;
}

static struct json_object *build_array(struct builder *b, struct ndp_jscan *c)
{
    struct json_object *arr = json_object_new_array();
    bool done = false;

    if (ndp_jscan_array_begin(c))
        b->unsure = true;
    while (!b->unsure && !ndp_jscan_array_next(c, &done) && !done)
        json_object_array_add(arr, build_value(b, c));
    if (!done)
        b->unsure = true;
    return arr;
}

/*
 * An integer written as json-c reads it into an int64_t without a doubt:
 * an optional '-', then 0 or up to 18 digits not starting with 0.
 */
static bool plain_integer(const char *text, size_t n, int64_t *value)
{
    size_t i = text[0] == '-';
    int64_t v = 0;

    if (n == i || n - i > 18 || (text[i] == '0' && n - i > 1))
        return false;
    for (; i < n; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = v * 10 + (text[i] - '0');
    }
    *value = text[0] == '-' ? -v : v;
    return true;
}

/*
 * true, false, null and plain integers made here; other numbers through
 * json-c's own parser (which also switches the locale on every call).
 */
static struct json_object *build_scalar(struct builder *b, struct ndp_jscan *c)
{
    size_t start, end;
    int64_t v;

    if (ndp_jscan_skip_value(c, &start, &end)) {
        b->unsure = true;
        return NULL;
    }
    if (end - start == 4 && memcmp(c->buf + start, "true", 4) == 0)
        return json_object_new_boolean(1);
    if (end - start == 5 && memcmp(c->buf + start, "false", 5) == 0)
        return json_object_new_boolean(0);
    if (end - start == 4 && memcmp(c->buf + start, "null", 4) == 0)
        return NULL;
    if (plain_integer(c->buf + start, end - start, &v))
        return json_object_new_int64(v);
    return ndp_build_with_json_c(b->tok, c->buf, c->len, start, end);
}

/*
 * A string, decoded here; one with a \u escape by json-c's parser (whose
 * handling of surrogates in a row is its own).
 */
static struct json_object *build_string(struct builder *b,
                                        struct ndp_jscan *c)
{
    size_t start = c->pos;

    if (ndp_jscan_string(c, &b->scratch)) {
        b->unsure = true;
        return NULL;
    }
    /* Decoded to as many bytes as written between the quotes: no escape
     * at all (an escape always writes more bytes than it stands for). */
    if (b->scratch.len != c->pos - start - 2 &&
        ndp_memmem(c->buf + start, c->pos - start, "\\u", 2))
        return ndp_build_with_json_c(b->tok, c->buf, c->len, start, c->pos);
    return json_object_new_string_len(b->scratch.buf, (int)b->scratch.len);
}

static struct json_object *build_value(struct builder *b, struct ndp_jscan *c)
{
    switch (ndp_jscan_peek(c)) {
    case NDP_JSCAN_OBJECT:
        return build_object(b, c);
    case NDP_JSCAN_ARRAY:
        return build_array(b, c);
    case NDP_JSCAN_STRING:
        return build_string(b, c);
    case NDP_JSCAN_BOOL:
    case NDP_JSCAN_NULL:
    case NDP_JSCAN_NUMBER:
        return build_scalar(b, c);
    default:
        b->unsure = true;
        return NULL;
    }
}

struct json_object *ndp_build_value(struct json_tokener *tok,
                                    const char *text, size_t len,
                                    size_t start, size_t end, bool *unique)
{
    struct builder b = { text, tok, NDP_BUF_INIT, false, false };
    struct ndp_jscan c;
    struct json_object *v;

    /* The cursor sees the value and the byte after it (see above). */
    ndp_jscan_init(&c, text, end < len ? end + 1 : end, NDP_MAX_JSON_DEPTH);
    c.pos = start;
    v = build_value(&b, &c);
    ndp_buf_release(&b.scratch);
    if (unique)
        *unique = !b.unsure && c.pos == end && !b.repeated;
    if (!b.unsure && c.pos == end)
        return v;
    json_object_put(v);
    return ndp_build_with_json_c(tok, text, len, start, end);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_jscan.c - fuzz target: arbitrary bytes as one JSON document, judged
 * by json-c 0.16 as ndplint runs it (strict, UTF-8 validated, depth 512,
 * only white space after the value) and by ndp_jscan_skip_value() with
 * every copy of the scanner's loops this build and CPU have (portable,
 * SSE2, AVX2 and its block-wise fast path).  Every copy must accept
 * exactly what json-c accepts, end where the others end, and refuse at
 * the same byte with the same words as the others (reports and goldens
 * must not depend on the processor); a document json-c accepts must be
 * built by input_build.c into the tree json-c builds; and an object's
 * members after the first, skipped at once by the AVX2 copy, must be what
 * walking them one by one finds.
 * Built as a libFuzzer target with clang (-DNDP_FUZZ=ON) and, always, as a
 * replay program that ctest runs over tests/fuzz/corpus/jscan.
 */
#include "common.h"
#include "buf.h"
#include "input/jscan.h"
#include "input/input_internal.h"
#include "../json_members.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_DEPTH 512

static bool is_json_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* json-c's verdict, and its tree when it accepts. */
static struct json_object *json_c_accepts(const char *buf, size_t len,
                                          bool *accept)
{
    struct json_tokener *tok = json_tokener_new_ex(MAX_DEPTH);
    struct json_object *root;
    size_t end;

    json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
                                    JSON_TOKENER_VALIDATE_UTF8);
    root = json_tokener_parse_ex(tok, buf, (int)len);
    *accept = json_tokener_get_error(tok) == json_tokener_success;
    end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    while (*accept && end < len && is_json_ws(buf[end]))
        end++;
    if (!*accept || end < len) {
        *accept = false;
        json_object_put(root);
        return NULL;
    }
    return root;
}

struct scan {
    bool accept;
    size_t start, end, err_pos;
    const char *err_msg;
};

static struct scan scan_with(const char *buf, size_t len)
{
    struct ndp_jscan s;
    struct scan r = { false, 0, 0, 0, NULL };

    ndp_jscan_init(&s, buf, len, MAX_DEPTH);
    r.accept = ndp_jscan_skip_value(&s, &r.start, &r.end) == 0 &&
               ndp_jscan_end(&s) == 0;
    r.err_pos = s.err_pos;
    r.err_msg = s.err_msg;
    return r;
}

static void check_built(const char *buf, size_t len, size_t start,
                        size_t end, struct json_object *want)
{
    static struct json_tokener *tok;
    struct json_object *got;
    const char *a, *b;
    bool unique;

    if (!tok)
        tok = json_tokener_new_ex(MAX_DEPTH);
    got = ndp_build_value(tok, buf, len, start, end, &unique);
    a = got ? json_object_to_json_string_ext(got, JSON_C_TO_STRING_PLAIN)
            : "null";
    b = want ? json_object_to_json_string_ext(want, JSON_C_TO_STRING_PLAIN)
             : "null";
    if (strcmp(a, b) != 0 ||
        json_object_get_type(got) != json_object_get_type(want)) {
        fprintf(stderr, "fuzz_jscan: built %s, json-c %s\n", a, b);
        abort();
    }
    if (unique && members_in_tree(got) != members_in_text(buf, start, end)) {
        fprintf(stderr, "fuzz_jscan: a key twice in %s, said unique\n", b);
        abort();
    }
    json_object_put(got);
}

/*
 * An object's members after its first, skipped at once by the AVX2 copy
 * (ndp_jscan_skip_rest_of_object, watching for the first key again) and
 * walked one by one: when the skip says yes, the walk must find them
 * valid, without that key, and end at the same place; when it says no,
 * the cursor must be untouched.
 */
static size_t newlines_in(const char *buf, size_t from, size_t to)
{
    size_t n = 0;

    for (; from < to; from++)
        n += buf[from] == '\n';
    return n;
}

static void check_rest(const char *buf, size_t len)
{
    struct ndp_jscan a, b;
    const char *k;
    size_t klen;
    bool done = false, again = false;
    char key[64];
    int skipped;

    if (!ndp_jscan_use_isa("avx2"))
        return;
    ndp_jscan_init(&a, buf, len, MAX_DEPTH);
    if (ndp_jscan_peek(&a) != NDP_JSCAN_OBJECT || ndp_jscan_object_begin(&a) ||
        ndp_jscan_object_next(&a, &k, &klen, &done) || done ||
        klen >= sizeof(key) || memchr(k, '\\', klen) || memchr(k, '\0', klen) ||
        ndp_jscan_skip_value(&a, NULL, NULL))
        return;
    memcpy(key, k, klen);
    key[klen] = '\0';
    b = a;
    skipped = ndp_jscan_skip_rest_of_object(&a, key);
    if (skipped == 0) {
        if (a.pos != b.pos || a.depth != b.depth || a.err_msg) {
            fprintf(stderr, "fuzz_jscan: the skip said no but moved\n");
            abort();
        }
        return;
    }
    while (!ndp_jscan_object_next(&b, &k, &klen, &done) && !done) {
        again = again || ndp_jscan_key_is(k, klen, key);
        if (ndp_jscan_skip_value(&b, NULL, NULL))
            break;
    }
    if (skipped < 0) {
        /* The end of data, where the walk finds it too. */
        if (!b.err_msg || b.err_pos != a.err_pos || b.err_msg != a.err_msg ||
            again) {
            fprintf(stderr, "fuzz_jscan: the skip of the rest says the "
                    "data ends at %zu, the walk %s at %zu\n", a.err_pos,
                    b.err_msg ? b.err_msg : "ends", b.err_pos);
            abort();
        }
        return;
    }
    if (b.err_msg || again || !done || b.pos != a.pos || b.depth != a.depth ||
        b.first != a.first) {
        fprintf(stderr, "fuzz_jscan: the skip of the rest ends at %zu, the "
                "walk at %zu (%s%s)\n", a.pos, b.pos,
                b.err_msg ? b.err_msg : "valid",
                again ? ", the first key again" : "");
        abort();
    }
    /* Its count of newlines reaches where it ended, and is right. */
    if (a.newlines_at != a.pos || a.newlines != newlines_in(buf, 0, a.pos)) {
        fprintf(stderr, "fuzz_jscan: the skip counts %zu newlines up to "
                "%zu; there are %zu up to %zu\n", a.newlines,
                a.newlines_at, newlines_in(buf, 0, a.pos), a.pos);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const isas[] = { "portable", "sse2", "avx2" };
    char *buf = malloc(size + 1);
    struct json_object *root;
    struct scan first = { false, 0, 0, 0, NULL };
    bool accept, have_first = false;
    size_t i;

    if (!buf || size > (1 << 20)) {
        free(buf);
        return 0;
    }
    memcpy(buf, data, size);
    buf[size] = '\0';
    root = json_c_accepts(buf, size, &accept);
    for (i = 0; i < NDP_ARRAY_SIZE(isas); i++) {
        struct scan r;

        if (!ndp_jscan_use_isa(isas[i]))
            continue;
        r = scan_with(buf, size);
        if (r.accept != accept) {
            fprintf(stderr, "fuzz_jscan: %s %s, json-c %s\n", isas[i],
                    r.accept ? "accepts" : "refuses",
                    accept ? "accepts" : "refuses");
            abort();
        }
        if (have_first &&
            (r.start != first.start || r.end != first.end ||
             r.err_pos != first.err_pos ||
             (r.err_msg != first.err_msg &&
              (!r.err_msg || !first.err_msg ||
               strcmp(r.err_msg, first.err_msg) != 0)))) {
            fprintf(stderr, "fuzz_jscan: %s differs from %s: [%zu,%zu) "
                    "error at %zu (%s); [%zu,%zu) error at %zu (%s)\n",
                    isas[i], isas[0], r.start, r.end, r.err_pos,
                    r.err_msg ? r.err_msg : "-", first.start, first.end,
                    first.err_pos, first.err_msg ? first.err_msg : "-");
            abort();
        }
        if (!have_first) {
            first = r;
            have_first = true;
        }
        if (accept)
            check_built(buf, size, r.start, r.end, root);
    }
    check_rest(buf, size);
    json_object_put(root);
    free(buf);
    return 0;
}

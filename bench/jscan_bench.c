/*
 * SPDX-License-Identifier: Apache-2.0
 * jscan_bench.c - throughput of the JSON scanner against json-c on one file.
 *
 * Build (from the top of the source tree, after a cmake build in 'build'
 * for its generated platform_config.h):
 *   cc -std=c11 -O2 -D_GNU_SOURCE -DNDP_INSIDE_INPUT -DNDP_INSIDE_UTIL \
 *      -Isrc -Isrc/util -Ibuild/generated bench/jscan_bench.c \
 *      src/input/jscan.c src/util/buf.c src/util/xalloc.c src/util/strutil.c \
 *      src/util/compat.c -ljson-c -o jscan_bench
 * NDPLINT_JSCAN=portable|sse2|avx2 picks the copy of the scanner's loops.
 * Run:
 *   jscan_bench [--validate|--walk|--jsonc] FILE [ROUNDS]
 *
 * --validate (default): ndp_jscan_skip_value + ndp_jscan_end over the whole
 *   file, the full validation a reader would start with.
 * --walk: what a plan reader does: iterate the top-level object, walk
 *   resource_changes element by element, read each "type" with key_is and
 *   ndp_jscan_string, and skip everything else.
 * --jsonc: json_tokener_parse_ex as input.c calls it (one round; run it
 *   under /usr/bin/time -v for the peak RSS).
 * The file is read into memory first; times cover the scan only.  Prints
 * the best of ROUNDS (default 5).
 */
#include "common.h"
#include "buf.h"
#include "input/jscan.h"

#include <time.h>

#include <json-c/json.h>

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int validate(const char *buf, size_t len)
{
    struct ndp_jscan s;

    ndp_jscan_init(&s, buf, len, 512);
    if (ndp_jscan_skip_value(&s, NULL, NULL) || ndp_jscan_end(&s)) {
        fprintf(stderr, "invalid: %s at byte %zu\n", s.err_msg, s.err_pos);
        return -1;
    }
    return 0;
}

static int walk(const char *buf, size_t len, size_t *aks)
{
    struct ndp_jscan s;
    struct ndp_buf type = NDP_BUF_INIT;
    const char *key;
    size_t key_len;
    bool done, rdone, edone;
    int rc;

    *aks = 0;
    ndp_jscan_init(&s, buf, len, 512);
    rc = ndp_jscan_object_begin(&s);
    while (!rc && !(rc = ndp_jscan_object_next(&s, &key, &key_len, &done)) &&
           !done) {
        if (!ndp_jscan_key_is(key, key_len, "resource_changes") ||
            ndp_jscan_peek(&s) != NDP_JSCAN_ARRAY) {
            rc = ndp_jscan_skip_value(&s, NULL, NULL);
            continue;
        }
        rc = ndp_jscan_array_begin(&s);
        while (!rc && !(rc = ndp_jscan_array_next(&s, &rdone)) && !rdone) {
            rc = ndp_jscan_object_begin(&s);
            while (!rc &&
                   !(rc = ndp_jscan_object_next(&s, &key, &key_len, &edone)) &&
                   !edone) {
                if (ndp_jscan_key_is(key, key_len, "type") &&
                    ndp_jscan_peek(&s) == NDP_JSCAN_STRING) {
                    rc = ndp_jscan_string(&s, &type);
                    if (!rc && (strstr(type.buf, "kubernetes_cluster") ||
                                strcmp(type.buf, "azapi_resource") == 0))
                        (*aks)++;
                } else {
                    rc = ndp_jscan_skip_value(&s, NULL, NULL);
                }
            }
        }
    }
    if (!rc)
        rc = ndp_jscan_end(&s);
    if (rc)
        fprintf(stderr, "invalid: %s at byte %zu\n", s.err_msg, s.err_pos);
    ndp_buf_release(&type);
    return rc;
}

static int jsonc(const char *buf, size_t len)
{
    struct json_tokener *tok = json_tokener_new_ex(512);
    struct json_object *root;

    json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
                                    JSON_TOKENER_VALIDATE_UTF8);
    root = json_tokener_parse_ex(tok, buf, (int)len);
    if (json_tokener_get_error(tok) != json_tokener_success)
        fprintf(stderr, "json-c: %s\n",
                json_tokener_error_desc(json_tokener_get_error(tok)));
    json_object_put(root);
    json_tokener_free(tok);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = "--validate", *path;
    struct ndp_buf b = NDP_BUF_INIT;
    char chunk[1 << 16];
    size_t n, aks = 0;
    FILE *f;
    int rounds = 5, i, a = 1;
    double best = 1e9;

    if (argc > 1 && argv[1][0] == '-')
        mode = argv[a++];
    if (a >= argc) {
        fprintf(stderr, "usage: %s [--validate|--walk|--jsonc] FILE "
                        "[ROUNDS]\n", argv[0]);
        return 2;
    }
    path = argv[a++];
    if (a < argc)
        rounds = atoi(argv[a]);
    if (strcmp(mode, "--jsonc") == 0)
        rounds = 1;
    f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 2;
    }
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        ndp_buf_add(&b, chunk, n);
    fclose(f);
    for (i = 0; i < rounds; i++) {
        double t = now();
        int rc;

        if (strcmp(mode, "--walk") == 0)
            rc = walk(b.buf, b.len, &aks);
        else if (strcmp(mode, "--jsonc") == 0)
            rc = jsonc(b.buf, b.len);
        else
            rc = validate(b.buf, b.len);
        t = now() - t;
        if (rc)
            return 1;
        if (t < best)
            best = t;
    }
    printf("%s %s: %.1f MB in %.3f s = %.0f MB/s", mode, path,
           (double)b.len / 1e6, best, (double)b.len / 1e6 / best);
    if (strcmp(mode, "--walk") == 0)
        printf(" (%zu AKS resource changes)", aks);
    printf("\n");
    ndp_buf_release(&b);
    return 0;
}

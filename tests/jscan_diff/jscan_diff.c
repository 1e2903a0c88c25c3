/*
 * SPDX-License-Identifier: Apache-2.0
 * jscan_diff.c - differential test of the JSON scanner against json-c.
 *
 * For every input, json-c 0.16 as ndplint runs it (json_tokener_new_ex(512),
 * JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8, only JSON whitespace
 * after the value) must accept it exactly when the scanner does, by both
 * ways of using it: one ndp_jscan_skip_value() over the document, and a
 * walk with the object/array iterators and ndp_jscan_string().  When both
 * refuse, the scanner's error offset must lie in the document and at or
 * before the byte json-c refused; the spread is reported.  When both
 * accept, every member of the top-level container is cut out by its
 * skip_value range, parsed alone by json-c and compared with json-c's own
 * tree, and built from the scanner as the pruned reader builds the values
 * it keeps (input_build.c) and compared too (and string values with
 * ndp_jscan_string, keys with key_is).
 *
 * Inputs: files named on the command line, directories walked recursively
 * (a missing one is skipped with a note), and about a hundred thousand
 * cases generated here from a fixed seed.  Prints the spread of the error
 * offsets (every pair of offsets with -v), "N passed, N failed", and exits
 * 1 on any disagreement.
 */
#include "common.h"
#include "buf.h"
#include "input/jscan.h"
#include "input/input_internal.h"
#include "../json_members.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

#include <json-c/json.h>

#define MAX_DEPTH 512

struct stats {
    unsigned long passed, failed;
    unsigned long both_accept, both_reject;
    /* json-c's offset minus the scanner's: 0, 1, 2-5, 6-20, 21-100, >100 */
    unsigned long spread[6];
    size_t max_spread;
    unsigned long walk_pos_differs;
    unsigned long ranges_checked;
    unsigned long builds_checked;   /* trees built from the scanner */
    unsigned long builds_unique;    /* ... said to have no key twice */
};

static struct stats st;
static bool verbose;
static const char *cur_group = "";

/* ---- the two judges ------------------------------------------------- */

struct verdict {
    bool accept;
    size_t pos;          /* json-c: first byte refused; scanner: err_pos */
    const char *msg;
};

static bool is_json_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static struct json_object *jsonc_parse(const char *buf, size_t len,
                                       struct verdict *v)
{
    struct json_tokener *tok = json_tokener_new_ex(MAX_DEPTH);
    struct json_object *root;
    enum json_tokener_error jerr;
    size_t end, i;

    json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
                                    JSON_TOKENER_VALIDATE_UTF8);
    root = json_tokener_parse_ex(tok, buf, (int)len);
    jerr = json_tokener_get_error(tok);
    end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    v->accept = false;
    v->msg = json_tokener_error_desc(jerr);
    if (jerr != json_tokener_success) {
        v->pos = jerr == json_tokener_continue ? len : end;
        json_object_put(root);
        return NULL;
    }
    for (i = end; i < len && is_json_ws(buf[i]); i++)
        ;
    if (i < len) {
        v->pos = i;
        v->msg = "data after the value";
        json_object_put(root);
        return NULL;
    }
    v->accept = true;
    return root;
}

static void jscan_skip(const char *buf, size_t len, struct verdict *v)
{
    struct ndp_jscan s;

    ndp_jscan_init(&s, buf, len, MAX_DEPTH);
    v->accept = ndp_jscan_skip_value(&s, NULL, NULL) == 0 &&
                ndp_jscan_end(&s) == 0;
    v->pos = s.err_pos;
    v->msg = s.err_msg;
    if (v->accept != (s.err_msg == NULL))
        NDP_BUG("scanner verdict and err_msg disagree");
}

/* A small deterministic generator (xorshift64*). */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717u;
}

static unsigned rnd(unsigned n)
{
    return (unsigned)(rng() % n);
}

/*
 * Walks the document with the iterators: containers are entered or skipped
 * whole at random, strings read with ndp_jscan_string.  Depth bookkeeping
 * uses a local array of kinds, not recursion.
 */
static void jscan_walk(const char *buf, size_t len, struct verdict *v)
{
    static bool kinds[NDP_JSCAN_DEPTH_LIMIT + 1];
    struct ndp_jscan s;
    struct ndp_buf str = NDP_BUF_INIT;
    int top = 0, rc = 0;
    uint64_t saved = rng_state;

    ndp_jscan_init(&s, buf, len, MAX_DEPTH);
    for (;;) {
        enum ndp_jscan_type t = ndp_jscan_peek(&s);
        bool descend = rnd(4) != 0;

        if (t == NDP_JSCAN_OBJECT && descend) {
            rc = ndp_jscan_object_begin(&s);
            if (!rc)
                kinds[top++] = true;
        } else if (t == NDP_JSCAN_ARRAY && descend) {
            rc = ndp_jscan_array_begin(&s);
            if (!rc)
                kinds[top++] = false;
        } else if (t == NDP_JSCAN_STRING && descend) {
            rc = ndp_jscan_string(&s, &str);
        } else {
            rc = ndp_jscan_skip_value(&s, NULL, NULL);
        }
        if (rc)
            break;
        /* Move to the next value, closing finished containers. */
        for (;;) {
            bool done;

            if (top == 0) {
                rc = ndp_jscan_end(&s);
                goto out;
            }
            if (kinds[top - 1]) {
                const char *key;
                size_t key_len;

                rc = ndp_jscan_object_next(&s, &key, &key_len, &done);
            } else {
                rc = ndp_jscan_array_next(&s, &done);
            }
            if (rc)
                goto out;
            if (!done)
                break;
            top--;
        }
    }
out:
    if (rc && rc != NDP_EPARSE)
        NDP_BUG("walk: unexpected return code");
    v->accept = rc == 0;
    v->pos = s.err_pos;
    v->msg = s.err_msg;
    ndp_buf_release(&str);
    /* Keep the generator's sequence independent of the walk. */
    rng_state = saved;
}

/* ---- accepted documents: the ranges a reader would keep -------------- */

/* Decodes a raw key as json-c would store it (cut at a decoded NUL). */
static char *decode_key(const char *raw, size_t n)
{
    struct ndp_buf quoted = NDP_BUF_INIT, out = NDP_BUF_INIT;
    struct ndp_jscan s;
    char *key;
    size_t i;

    ndp_buf_addch(&quoted, '"');
    for (i = 0; i < n; i++) {
        if (raw[i] == '\\') {
            ndp_buf_add(&quoted, raw + i, 2);
            i++;
            continue;
        }
        /* A '\''-quoted key may hold a bare '"'. */
        if (raw[i] == '"')
            ndp_buf_addch(&quoted, '\\');
        ndp_buf_addch(&quoted, raw[i]);
    }
    ndp_buf_addch(&quoted, '"');
    ndp_jscan_init(&s, quoted.buf, quoted.len, MAX_DEPTH);
    if (ndp_jscan_string(&s, &out))
        NDP_BUG("decode_key: key does not decode");
    ndp_buf_release(&quoted);
    /* A copy, so that nothing after a NUL can be read past it. */
    key = ndp_xstrdup(out.buf);
    ndp_buf_release(&out);
    return key;
}

static const char *plain(struct json_object *o)
{
    return o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)
             : "null";
}

/* Parses buf[start, end) alone with json-c (a space after it, see jscan.h). */
static struct json_object *parse_range(const char *buf, size_t start,
                                       size_t end, bool *ok)
{
    struct ndp_buf b = NDP_BUF_INIT;
    struct verdict v;
    struct json_object *o;

    ndp_buf_add(&b, buf + start, end - start);
    ndp_buf_addch(&b, ' ');
    o = jsonc_parse(b.buf, b.len, &v);
    *ok = v.accept;
    ndp_buf_release(&b);
    return o;
}

struct member {
    char *key;
    size_t start, end;
};

/* The same types everywhere, the same keys in the same order. */
static bool same_types(struct json_object *a, struct json_object *b)
{
    size_t i;

    if (json_object_get_type(a) != json_object_get_type(b))
        return false;
    if (json_object_is_type(a, json_type_array)) {
        if (json_object_array_length(a) != json_object_array_length(b))
            return false;
        for (i = 0; i < json_object_array_length(a); i++)
            if (!same_types(json_object_array_get_idx(a, i),
                            json_object_array_get_idx(b, i)))
                return false;
    } else if (json_object_is_type(a, json_type_object)) {
        struct json_object_iterator ia = json_object_iter_begin(a);
        struct json_object_iterator ib = json_object_iter_begin(b);
        struct json_object_iterator ea = json_object_iter_end(a);
        struct json_object_iterator eb = json_object_iter_end(b);

        for (; !json_object_iter_equal(&ia, &ea) &&
               !json_object_iter_equal(&ib, &eb);
             json_object_iter_next(&ia), json_object_iter_next(&ib))
            if (strcmp(json_object_iter_peek_name(&ia),
                       json_object_iter_peek_name(&ib)) != 0 ||
                !same_types(json_object_iter_peek_value(&ia),
                            json_object_iter_peek_value(&ib)))
                return false;
        return json_object_iter_equal(&ia, &ea) &&
               json_object_iter_equal(&ib, &eb);
    }
    return true;
}

/*
 * The pruned reader's tree of [start, end) (input_build.c, built from the
 * scanner) against json-c's 'want': the same printed form (numbers as
 * json-c prints them, NaN included), types and key order.
 */
static bool built_like_json_c(const char *buf, size_t len, size_t start,
                              size_t end, struct json_object *want)
{
    static struct json_tokener *tok;
    struct json_object *got;
    bool same, unique;

    if (!tok)
        tok = json_tokener_new_ex(MAX_DEPTH);
    got = ndp_build_value(tok, buf, len, start, end, &unique);
    same = same_types(got, want) && strcmp(plain(got), plain(want)) == 0 &&
           (!unique ||
            members_in_tree(got) == members_in_text(buf, start, end));
    json_object_put(got);
    st.builds_checked++;
    if (unique)
        st.builds_unique++;
    return same;
}

/* Returns a description of the first mismatch, or NULL. */
static const char *check_ranges(const char *buf, size_t len,
                                struct json_object *root, char *why,
                                size_t why_len)
{
    struct ndp_jscan s;
    struct member *m = NULL;
    size_t n = 0, alloc = 0, i, j;
    struct ndp_buf str = NDP_BUF_INIT;
    bool is_obj, done;
    const char *bad = NULL;

    ndp_jscan_init(&s, buf, len, MAX_DEPTH);
    is_obj = ndp_jscan_peek(&s) == NDP_JSCAN_OBJECT;
    if (!is_obj && ndp_jscan_peek(&s) != NDP_JSCAN_ARRAY)
        return NULL;
    if ((is_obj ? ndp_jscan_object_begin(&s) : ndp_jscan_array_begin(&s)))
        return "begin failed";
    for (;;) {
        const char *key = NULL;
        size_t key_len = 0;
        int rc = is_obj ? ndp_jscan_object_next(&s, &key, &key_len, &done)
                        : ndp_jscan_array_next(&s, &done);

        if (rc) {
            bad = "next failed";
            goto out;
        }
        if (done)
            break;
        NDP_GROW(m, alloc, n + 1);
        m[n].key = is_obj ? decode_key(key, key_len) : NULL;
        if (is_obj && !ndp_jscan_key_is(key, key_len, m[n].key)) {
            snprintf(why, why_len, "key_is false for its own key '%s'",
                     m[n].key);
            n++;
            bad = why;
            goto out;
        }
        if (ndp_jscan_peek(&s) == NDP_JSCAN_STRING) {
            struct ndp_jscan t = s;
            struct json_object *o;
            bool ok;
            size_t a, b;

            if (ndp_jscan_string(&t, &str) ||
                ndp_jscan_skip_value(&s, &a, &b)) {
                n++;
                bad = "string failed";
                goto out;
            }
            o = parse_range(buf, a, b, &ok);
            if (!ok || (size_t)json_object_get_string_len(o) != str.len ||
                memcmp(json_object_get_string(o), str.buf, str.len) != 0) {
                snprintf(why, why_len, "string at %zu decodes differently",
                         a);
                json_object_put(o);
                n++;
                bad = why;
                goto out;
            }
            json_object_put(o);
            m[n].start = a;
            m[n].end = b;
        } else if (ndp_jscan_skip_value(&s, &m[n].start, &m[n].end)) {
            n++;
            bad = "skip failed";
            goto out;
        }
        n++;
    }
    if (ndp_jscan_end(&s)) {
        bad = "end failed";
        goto out;
    }
    if (!is_obj && n != json_object_array_length(root)) {
        bad = "element count differs";
        goto out;
    }
    for (i = 0; i < n; i++) {
        struct json_object *want, *got;
        bool ok, later = false;

        if (is_obj) {
            for (j = i + 1; j < n; j++)
                if (strcmp(m[j].key, m[i].key) == 0)
                    later = true;
            if (later) /* json-c keeps the last of duplicate keys */
                continue;
            want = json_object_object_get(root, m[i].key);
        } else {
            want = json_object_array_get_idx(root, i);
        }
        got = parse_range(buf, m[i].start, m[i].end, &ok);
        st.ranges_checked++;
        if (!ok || strcmp(plain(got), plain(want)) != 0) {
            snprintf(why, why_len, "member %zu [%zu,%zu) parses differently",
                     i, m[i].start, m[i].end);
            bad = why;
        } else if (!built_like_json_c(buf, len, m[i].start, m[i].end,
                                      want)) {
            snprintf(why, why_len, "member %zu [%zu,%zu) is built "
                     "differently from json-c's tree", i, m[i].start,
                     m[i].end);
            bad = why;
        }
        json_object_put(got);
        if (bad)
            break;
    }
out:
    for (i = 0; i < n; i++)
        free(m[i].key);
    free(m);
    ndp_buf_release(&str);
    return bad;
}

/* ---- one case -------------------------------------------------------- */

static void report(const char *name, const char *buf, size_t len,
                   const char *problem, const struct verdict *jc,
                   const struct verdict *js, const struct verdict *jw)
{
    st.failed++;
    printf("FAIL %s%s (%zu bytes): %s\n", cur_group, name, len, problem);
    printf("  json-c: %s at %zu (%s); skip: %s at %zu (%s); walk: %s at "
           "%zu (%s)\n",
           jc->accept ? "accept" : "reject", jc->pos, jc->msg,
           js->accept ? "accept" : "reject", js->pos,
           js->msg ? js->msg : "-", jw->accept ? "accept" : "reject",
           jw->pos, jw->msg ? jw->msg : "-");
    if (len <= 120) {
        size_t i;

        printf("  input: ");
        for (i = 0; i < len; i++) {
            unsigned char c = (unsigned char)buf[i];
            if (c >= 0x20 && c < 0x7f && c != '\\')
                putchar(c);
            else
                printf("\\x%02x", c);
        }
        putchar('\n');
    }
}

static void count_pass(const char *name, const struct verdict *jc,
                       const struct verdict *js, const struct verdict *jw)
{
    st.passed++;
    if (jc->accept) {
        st.both_accept++;
    } else {
        size_t d = jc->pos - js->pos;

        st.both_reject++;
        st.spread[d == 0 ? 0 : d == 1 ? 1 : d <= 5 ? 2 : d <= 20 ? 3
                  : d <= 100 ? 4 : 5]++;
        if (d > st.max_spread)
            st.max_spread = d;
        if (jw->pos != js->pos)
            st.walk_pos_differs++;
    }
    if (verbose && jc->accept)
        printf("ok %s%s: accepted\n", cur_group, name);
    else if (verbose)
        printf("ok %s%s: rejected, json-c at byte %zu (%s), scanner at byte "
               "%zu (%s)\n", cur_group, name, jc->pos, jc->msg, js->pos,
               js->msg);
}

static void check(const char *name, const char *text, size_t len)
{
    struct verdict jc, js, jw;
    /* An exact-size copy without a NUL after it: the sanitizers and
     * valgrind then see any read past the end. */
    char *buf = ndp_xmalloc(len ? len : 1);
    struct json_object *root;
    char why[256];
    const char *problem = NULL;

    memcpy(buf, text, len);
    root = jsonc_parse(buf, len, &jc);
    jscan_skip(buf, len, &js);
    jscan_walk(buf, len, &jw);
    if (jc.accept != js.accept)
        problem = "json-c and skip_value disagree";
    else if (jc.accept != jw.accept)
        problem = "json-c and the iterator walk disagree";
    else if (!jc.accept && (js.pos > len || js.pos > jc.pos))
        problem = "scanner error offset after json-c's";
    else if (!jc.accept && (jw.pos > len || jw.pos > jc.pos))
        problem = "walk error offset after json-c's";
    else if (jc.accept)
        problem = check_ranges(buf, len, root, why, sizeof(why));
    json_object_put(root);

    if (problem)
        report(name, buf, len, problem, &jc, &js, &jw);
    else
        count_pass(name, &jc, &js, &jw);
    free(buf);
}

static void check_str(const char *name, const char *s)
{
    check(name, s, strlen(s));
}

static void check_buf(const char *name, const struct ndp_buf *b)
{
    check(name, b->buf, b->len);
}

/* ---- files ----------------------------------------------------------- */

static int read_file(struct ndp_buf *out, const char *path)
{
    FILE *f = fopen(path, "rb");
    char chunk[65536];
    size_t n;

    if (!f)
        return -1;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        ndp_buf_add(out, chunk, n);
    fclose(f);
    return 0;
}

static unsigned long files_seen;

static void check_path(const char *path)
{
    struct stat sb;

    if (stat(path, &sb) != 0) {
        printf("note: skipping '%s': %s\n", path, strerror(errno));
        return;
    }
    if (S_ISDIR(sb.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        char **names = NULL;
        size_t n = 0, alloc = 0, i;

        if (!d) {
            printf("note: skipping '%s': %s\n", path, strerror(errno));
            return;
        }
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            NDP_GROW(names, alloc, n + 1);
            names[n] = ndp_xmalloc(strlen(path) + strlen(e->d_name) + 2);
            sprintf(names[n], "%s/%s", path, e->d_name);
            n++;
        }
        closedir(d);
        for (i = 0; i < n; i++) {
            check_path(names[i]);
            free(names[i]);
        }
        free(names);
    } else if (S_ISREG(sb.st_mode)) {
        struct ndp_buf b = NDP_BUF_INIT;

        if (read_file(&b, path) != 0) {
            printf("note: cannot read '%s': %s\n", path, strerror(errno));
        } else {
            files_seen++;
            check_buf(path, &b);
        }
        ndp_buf_release(&b);
    }
}

/* ---- generated cases ------------------------------------------------- */

/* Small documents truncated at every byte and mutated at every byte. */
static const char *const seeds[] = {
    "{\"format_version\":\"1.2\",\"resource_changes\":[{\"address\":"
    "\"azurerm_kubernetes_cluster.main\",\"type\":\"azurerm_kubernetes_"
    "cluster\",\"change\":{\"actions\":[\"update\"],\"before\":{\"x\":1.5e3,"
    "\"y\":[true,false,null],\"z\":\"caf\\u00e9 \\ud83d\\ude00 \xc3\xa9\"},"
    "\"after\":{}}}]}",
    "[1,-0.5,2E+3,0,-0,1e-7,\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\",{},[],"
    "{\"\":\"\"},NaN,-Infinity,Infinity]",
    "{\r\n  \"a\" : [ 1 , 2.50 ] ,\r\n\t\"b\":{ \"c\" : null, \"d\":"
    "\"\xe2\x82\xac\xf0\x9f\x98\x80\" }\r\n}\n",
    "{'k':\"v\",'a\"b':[0],\"\\u0041\":{\"x\":[[\"\\ud800\"]]}}",
    "\"top \\u00e9\"",
    "123.5e+7 ",
    "true ",
    "[\"\\udc00\\ud800\",\"\\ud800\\udc00\",\"\\ud800x\",\"\\u0000\"]",
};

static const char mutants[] = {
    '"', '\\', '{', '}', '[', ']', ',', ':', '0', '1', '-', '+', '.', 'e',
    ' ', '\n', '\v', '\0', '\x01', '\x1f', '\x7f', '\x80', '\xbf', '\xc3',
    '\xe2', '\xf0', '\xf8', '\xff', '\'', '/', 'u', 'n', 't', 'N', 'I', 'x',
};

static void gen_seeds(void)
{
    size_t k, i, m;
    char name[64];

    for (k = 0; k < NDP_ARRAY_SIZE(seeds); k++) {
        const char *doc = seeds[k];
        size_t len = strlen(doc);
        struct ndp_buf b = NDP_BUF_INIT;

        snprintf(name, sizeof(name), "seed%zu", k);
        check(name, doc, len);
        for (i = 0; i <= len; i++) {
            snprintf(name, sizeof(name), "seed%zu/trunc%zu", k, i);
            check(name, doc, i);
        }
        for (i = 0; i < len; i++) {
            for (m = 0; m < sizeof(mutants); m++) {
                ndp_buf_reset(&b);
                ndp_buf_add(&b, doc, len);
                b.buf[i] = mutants[m];
                snprintf(name, sizeof(name), "seed%zu/set%zu=%02x", k, i,
                         (unsigned char)mutants[m]);
                check_buf(name, &b);
                ndp_buf_reset(&b);
                ndp_buf_add(&b, doc, i);
                ndp_buf_addch(&b, mutants[m]);
                ndp_buf_add(&b, doc + i, len - i);
                snprintf(name, sizeof(name), "seed%zu/ins%zu=%02x", k, i,
                         (unsigned char)mutants[m]);
                check_buf(name, &b);
            }
            ndp_buf_reset(&b);
            ndp_buf_add(&b, doc, i);
            ndp_buf_add(&b, doc + i + 1, len - i - 1);
            snprintf(name, sizeof(name), "seed%zu/del%zu", k, i);
            check_buf(name, &b);
            ndp_buf_reset(&b);
            ndp_buf_add(&b, doc, len);
            b.buf[i] = (char)(b.buf[i] ^ (1 << rnd(8)));
            snprintf(name, sizeof(name), "seed%zu/flip%zu", k, i);
            check_buf(name, &b);
        }
        ndp_buf_release(&b);
    }
}

/* A hand-written list of the cases the issue names, and their neighbours. */
static const char *const edge_cases[] = {
    "", " ", "\n\t\r ", "\v[]", "[]\v", "\f[]", "[]\f", "[] ", " []\r\n",
    "[]x", "[] x", "[][]", "{}{}", "\"a\"\"b\"", "\"a\" \"b\"", "1 2",
    "0", "0 ", "-", "- ", "-0 ", "01 ", "00 ", "-01 ", "01.5 ", "1.",
    "1. ", ".5 ", "[.5]", "1e", "1e ", "1e+ ", "1E5 ", "+1 ", "[+1]",
    "1.e5 ", "-.5 ", "-. ", "[-.e1]", "1.5e ", "[1e1.5]", "[0x10]",
    "[1.-5]", "[1.+5]", "[1-2]", "[1+2]", "[99999999999999999999999]",
    "[-99999999999999999999999]", "[1e999]", "[18446744073709551616]",
    "[0123]", "[0123.0]", "[0123e1]", "[-0123]", "[000]", "[00e0]",
    "NaN ", "NaN", "[NaN]", "[nan]", "[NAN]", "Infinity ", "-Infinity ",
    "[Infinity]", "[-Infinity]", "[infinity]", "[-infinity]", "[-Inf]",
    "[Inf]", "[-NaN]", "[- 1]", "[-I]", "true", "true ", "false ",
    "null ", "null", "[True]", "[NULL]", "[tru]", "[truex]", "[nul]",
    "\"x\"", "\"x", "'x'", "['x']", "{'a':1}", "{'a':'b'}", "{\"a\":'b'}",
    "{'a\"b':1}", "{'a\\'b':1}", "{'a\\\"b':1}", "{'':0}", "{'",
    "{'a", "{'a'", "{'a':", "[1,]", "[1,2,]", "{\"a\":1,}", "[,1]", "{,}",
    "[,]", "{\"a\":1,\"a\":2}", "{\"a\" 1}", "{\"a\":}", "{a:1}",
    "{1:1}", "{\"a\":1 \"b\":2}", "[1 2]", "[}", "{]", "[1]]", "{}}",
    "[1 /* c */]", "[1] // c", "/* c */ [1]", "# c\n[1]", "[1]#",
    "\xef\xbb\xbf[1]", "\xef\xbb\xbf\"a\"", "[\"\xef\xbb\xbf\"]",
    "[\"\\u\"]", "[\"\\u12\"]", "[\"\\u12g4\"]", "[\"\\U1234\"]",
    "[\"\\x41\"]", "[\"\\'\"]", "[\"\\a\"]", "[\"\\0\"]", "[\"\\ \"]",
    "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\udc00\\ud800\"]",
    "[\"\\ud83d\\ude00\"]", "[\"\\ud800x\"]", "[\"\\ud800\\u0041\"]",
    "[\"\\ud800\\\"]", "[\"\\ud800\\u\"]", "[\"\\ud800\\ud\"]",
    "[\"\\ud800\\udc0\"]", "[\"\\ud800\\uzzzz\"]", "[\"\\ud800\\n\"]",
    "[\"\\ud800\\ud800\\udc00\"]", "[\"\\uDBFF\\uDFFF\"]", "[\"\\u0000\"]",
    "[\"\\uFFFF\"]", "[\"\\uFEFF\"]", "{\"\\ud800\":1}",
    "{\"a\\u0000b\":1,\"a\":2}", "\"\\ud800\"", "\"\\ud800\\",
    "\"\\ud800\\u", "\"\\ud800\\udc00",
    "[\"\xc3\"]", "[\"\xc3\xa9\"]", "[\"\xc3\xa9\xa9\"]", "[\"\xc0\x80\"]",
    "[\"\xc1\xbf\"]", "[\"\xe0\x80\x80\"]", "[\"\xed\xa0\x80\"]",
    "[\"\xed\xbf\xbf\"]", "[\"\xef\xbf\xbe\"]", "[\"\xf0\x80\x80\x80\"]",
    "[\"\xf4\x8f\xbf\xbf\"]", "[\"\xf4\x90\x80\x80\"]",
    "[\"\xf5\x80\x80\x80\"]", "[\"\xf7\xbf\xbf\xbf\"]",
    "[\"\xf8\x88\x80\x80\x80\"]", "[\"\xfc\x84\x80\x80\x80\x80\"]",
    "[\"\xfe\"]", "[\"\xff\"]", "[\"\x80\"]", "[\"\xbf\"]", "[\"\xe2\x82\"]",
    "[\"\xf0\x9f\x98\"]", "[\xc3\xa9]", "[1]\xc3\xa9", "\xc2\xa0[1]",
    "[1]\xc2\xa0", "{\"\xc3\":1}", "{'\xc3\xa9':1}",
    "[\"\x7f\"]", "[\"\t\"]", "[\"\n\"]", "{\"a\nb\":1}",
};

static void gen_edges(void)
{
    size_t i;
    char name[32];

    for (i = 0; i < NDP_ARRAY_SIZE(edge_cases); i++) {
        snprintf(name, sizeof(name), "edge%zu", i);
        check_str(name, edge_cases[i]);
    }
}

/* NUL bytes and every control character, inside and outside strings. */
static void gen_controls(void)
{
    struct ndp_buf b = NDP_BUF_INIT;
    char name[64];
    int c, where;
    static const char *const frame[][2] = {
        { "[\"a", "b\"]" }, { "{\"k", "\":1}" }, { "{'k", "':1}" },
        { "[", "1]" },      { "[1", "]" },       { "[1]", "" },
        { "", "[1]" },      { "{\"a\":", "1}" }, { "\"", "\"" },
        { "1", " " },       { "[\"\\", "\"]" },  { "[\"\\u00", "00\"]" },
    };

    for (where = 0; where < (int)NDP_ARRAY_SIZE(frame); where++) {
        for (c = 0; c < 0x100; c++) {
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != ' ')
                continue;
            ndp_buf_reset(&b);
            ndp_buf_adds(&b, frame[where][0]);
            ndp_buf_addch(&b, (char)c);
            ndp_buf_adds(&b, frame[where][1]);
            snprintf(name, sizeof(name), "ctl/%d/%02x", where, c);
            check_buf(name, &b);
        }
    }
    ndp_buf_release(&b);
}

/* Every lead byte with 0-4 continuation bytes, then a terminator. */
static void gen_utf8(void)
{
    struct ndp_buf b = NDP_BUF_INIT;
    char name[64];
    static const unsigned char conts[] = { 0x80, 0xbf, 0x9f, 0xa0 };
    static const unsigned char ends[] = { '"', 'A', 0x80, 0xc3, '\\' };
    unsigned lead, n, e, key;

    for (key = 0; key < 2; key++) {
        for (lead = 0x80; lead < 0x100; lead++) {
            for (n = 0; n <= 4; n++) {
                for (e = 0; e < NDP_ARRAY_SIZE(ends); e++) {
                    unsigned i;

                    ndp_buf_reset(&b);
                    ndp_buf_adds(&b, key ? "{\"" : "[\"");
                    ndp_buf_addch(&b, (char)lead);
                    for (i = 0; i < n; i++)
                        ndp_buf_addch(&b, (char)conts[(lead + i) % 4]);
                    ndp_buf_addch(&b, (char)ends[e]);
                    ndp_buf_adds(&b, key ? "\":0}" : "\"]");
                    snprintf(name, sizeof(name), "utf8/%u/%02x+%u/%u", key,
                             lead, n, e);
                    check_buf(name, &b);
                }
            }
        }
    }
    ndp_buf_release(&b);
}

/* All strings up to 4 bytes over a number alphabet, in four contexts. */
static void gen_numbers(void)
{
    static const char alpha[] = "015-+.eEINx";
    const size_t na = sizeof(alpha) - 1;
    struct ndp_buf b = NDP_BUF_INIT;
    char tok[16], name[64];
    size_t n, code, limit, i, ctx;
    static const char *const ctxs[][2] = {
        { "", " " }, { "", "" }, { "[", "]" }, { "{\"a\":", "}" },
        { "[", ",0]" }, { "", "\n" },
    };

    for (n = 1, limit = na; n <= 4; n++, limit *= na) {
        for (code = 0; code < limit; code++) {
            size_t c = code;

            for (i = 0; i < n; i++, c /= na)
                tok[i] = alpha[c % na];
            tok[n] = '\0';
            if (!strchr("-015", tok[0]))
                continue; /* the rest are refused at the first byte */
            for (ctx = 0; ctx < NDP_ARRAY_SIZE(ctxs); ctx++) {
                ndp_buf_reset(&b);
                ndp_buf_addf(&b, "%s%s%s", ctxs[ctx][0], tok, ctxs[ctx][1]);
                snprintf(name, sizeof(name), "num/%zu/%s", ctx, tok);
                check_buf(name, &b);
            }
        }
    }
    /* Longer random tokens. */
    for (i = 0; i < 3000; i++) {
        size_t len = 5 + rnd(8), k;

        tok[0] = "-0159"[rnd(5)];
        for (k = 1; k < len; k++)
            tok[k] = "0123456789-+.eE"[rnd(15)];
        tok[len] = '\0';
        ndp_buf_reset(&b);
        ndp_buf_addf(&b, "[%s]", tok);
        snprintf(name, sizeof(name), "numr/%s", tok);
        check_buf(name, &b);
    }
    ndp_buf_release(&b);
}

/* Literal prefixes and near misses. */
static void gen_literals(void)
{
    static const char *const words[] = {
        "true", "false", "null", "NaN", "Infinity", "-Infinity",
    };
    struct ndp_buf b = NDP_BUF_INIT;
    char name[64];
    size_t w, n, ctx;
    static const char *const ctxs[][2] = {
        { "", "" }, { "", " " }, { "[", "]" }, { "[", "x]" }, { "[", "1]" },
        { "[", "" }, { "{\"a\":", "}" }, { "", "\t" },
    };

    for (w = 0; w < NDP_ARRAY_SIZE(words); w++) {
        size_t len = strlen(words[w]);

        for (n = 1; n <= len; n++) {
            for (ctx = 0; ctx < NDP_ARRAY_SIZE(ctxs); ctx++) {
                ndp_buf_reset(&b);
                ndp_buf_adds(&b, ctxs[ctx][0]);
                ndp_buf_add(&b, words[w], n);
                ndp_buf_adds(&b, ctxs[ctx][1]);
                snprintf(name, sizeof(name), "lit/%s/%zu/%zu", words[w], n,
                         ctx);
                check_buf(name, &b);
                /* The same with the last byte's case flipped. */
                if (b.len > strlen(ctxs[ctx][0]) + n - 1) {
                    size_t at = strlen(ctxs[ctx][0]) + n - 1;
                    if ((b.buf[at] | 0x20) >= 'a' && (b.buf[at] | 0x20) <= 'z')
                        b.buf[at] ^= 0x20;
                    snprintf(name, sizeof(name), "lit/%s/%zu/%zu/case",
                             words[w], n, ctx);
                    check_buf(name, &b);
                }
            }
        }
    }
    ndp_buf_release(&b);
}

static void nest(struct ndp_buf *b, int levels, int kind, const char *inner)
{
    int i;

    ndp_buf_reset(b);
    for (i = 0; i < levels; i++)
        ndp_buf_adds(b, (kind == 0 || (kind == 2 && i % 2)) ? "[" : "{\"k\":");
    ndp_buf_adds(b, inner);
    for (i = levels - 1; i >= 0; i--)
        ndp_buf_addch(b, (kind == 0 || (kind == 2 && i % 2)) ? ']' : '}');
}

/* Nesting at and around json-c's limit, and far past it. */
static void gen_depth(void)
{
    static const int levels[] = { 1, 2, 510, 511, 512, 513, 10000 };
    static const char *const inner[] = { "", "[]", "{}", "1", "\"s\"",
                                         "[1]", "{\"a\":1}", "true" };
    struct ndp_buf b = NDP_BUF_INIT;
    char name[64];
    size_t l, i;
    int kind;

    for (l = 0; l < NDP_ARRAY_SIZE(levels); l++) {
        for (kind = 0; kind < 3; kind++) {
            for (i = 0; i < NDP_ARRAY_SIZE(inner); i++) {
                /* An object level needs a value. */
                if (kind != 0 && inner[i][0] == '\0')
                    continue;
                nest(&b, levels[l], kind, inner[i]);
                snprintf(name, sizeof(name), "depth/%d/%d/%zu", levels[l],
                         kind, i);
                check_buf(name, &b);
                /* And truncated in the middle of the closing brackets. */
                snprintf(name, sizeof(name), "depth/%d/%d/%zu/cut", levels[l],
                         kind, i);
                check(name, b.buf, b.len - 1 - (size_t)levels[l] / 2);
            }
        }
    }
    /* Deep, but each level closed before the next opens: depth 1. */
    ndp_buf_reset(&b);
    ndp_buf_addch(&b, '[');
    for (i = 0; i < 10000; i++)
        ndp_buf_adds(&b, i ? ",[]" : "[]");
    ndp_buf_addch(&b, ']');
    check_buf("depth/wide", &b);
    ndp_buf_release(&b);
}

/* Random documents, valid by construction, then mutated. */
static void gen_value(struct ndp_buf *b, int depth)
{
    static const char *const strs[] = {
        "", "a", "type", "hello world", "caf\xc3\xa9", "\\u00e9",
        "\\ud83d\\ude00", "\\\"q\\\"", "tab\\there", "\xe2\x82\xac",
        "\\/", "\\u0000", "\\ud800", "line\nraw",
    };
    static const char *const nums[] = {
        "0", "-0", "1", "-1", "1.5", "-0.25", "1e10", "2E-3", "1.5e+7",
        "123456789012345678901234567890", "1.", "-.5", "00", "NaN",
        "-Infinity",
    };
    unsigned r = rnd(depth > 6 ? 6 : 10);
    unsigned n, i;

    switch (r) {
    case 0: case 1:
        ndp_buf_addf(b, "\"%s\"", strs[rnd(NDP_ARRAY_SIZE(strs))]);
        break;
    case 2: case 3:
        ndp_buf_adds(b, nums[rnd(NDP_ARRAY_SIZE(nums))]);
        break;
    case 4:
        ndp_buf_adds(b, rnd(3) == 0 ? "true" : rnd(2) ? "false" : "null");
        break;
    case 5:
        ndp_buf_adds(b, rnd(2) ? "[]" : "{ }");
        break;
    case 6: case 7:
        n = rnd(5);
        ndp_buf_addch(b, '[');
        for (i = 0; i < n; i++) {
            if (i)
                ndp_buf_adds(b, rnd(4) ? "," : " ,\n ");
            gen_value(b, depth + 1);
        }
        ndp_buf_addch(b, ']');
        break;
    default:
        n = rnd(5);
        ndp_buf_addch(b, '{');
        for (i = 0; i < n; i++) {
            if (i)
                ndp_buf_adds(b, rnd(4) ? "," : "\r\n,\t");
            if (rnd(8) == 0)
                ndp_buf_addf(b, "'%s'", strs[rnd(6)]);
            else
                ndp_buf_addf(b, "\"%s\"", strs[rnd(NDP_ARRAY_SIZE(strs))]);
            ndp_buf_adds(b, rnd(4) ? ":" : " : ");
            gen_value(b, depth + 1);
        }
        ndp_buf_addch(b, '}');
        break;
    }
}

static void gen_random(void)
{
    struct ndp_buf b = NDP_BUF_INIT;
    char name[64];
    int i, k;

    for (i = 0; i < 3000; i++) {
        ndp_buf_reset(&b);
        ndp_buf_addch(&b, rnd(2) ? '[' : '{');
        if (b.buf[0] == '[') {
            gen_value(&b, 1);
            ndp_buf_addch(&b, ']');
        } else {
            ndp_buf_adds(&b, "\"root\":");
            gen_value(&b, 1);
            ndp_buf_addch(&b, '}');
        }
        if (rnd(3) == 0)
            ndp_buf_adds(&b, " \n");
        snprintf(name, sizeof(name), "rand%d", i);
        check_buf(name, &b);
        for (k = 0; k < 3 && b.len > 0; k++) {
            size_t at = rnd((unsigned)b.len);

            switch (rnd(4)) {
            case 0:
                b.buf[at] = mutants[rnd(sizeof(mutants))];
                break;
            case 1:
                b.buf[at] = (char)rnd(256);
                break;
            case 2:
                ndp_buf_setlen(&b, at);
                break;
            default:
                memmove(b.buf + at, b.buf + at + 1, b.len - at - 1);
                ndp_buf_setlen(&b, b.len - 1);
                break;
            }
            snprintf(name, sizeof(name), "rand%d/mut%d", i, k);
            check_buf(name, &b);
        }
    }
    ndp_buf_release(&b);
}

/* Long strings cross the 16- and 32-byte blocks of the fast loop. */
static void gen_blocks(void)
{
    struct ndp_buf b = NDP_BUF_INIT;
    char name[64];
    size_t n, at;
    static const char *const specials[] = { "\"", "\\n", "\\u00e9",
                                            "\xc3\xa9", "\x01", "\xc3", "\\" };
    size_t k;

    for (n = 0; n < 70; n++) {
        for (k = 0; k < NDP_ARRAY_SIZE(specials); k++) {
            for (at = 0; at <= n; at += (n > 40 ? 7 : 1)) {
                ndp_buf_reset(&b);
                ndp_buf_adds(&b, "[\"");
                for (size_t i = 0; i < n; i++) {
                    if (i == at)
                        ndp_buf_adds(&b, specials[k]);
                    ndp_buf_addch(&b, (char)('a' + i % 26));
                }
                ndp_buf_adds(&b, "\"]");
                snprintf(name, sizeof(name), "block/%zu/%zu/%zu", n, k, at);
                check_buf(name, &b);
                /* The same string at the very end of the input. */
                check(name, b.buf, b.len - 1);
            }
        }
    }
    ndp_buf_release(&b);
}

struct group {
    const char *name;
    void (*fn)(void);
};

int main(int argc, char **argv)
{
    static const struct group groups[] = {
        { "edge", gen_edges },         { "seeds", gen_seeds },
        { "controls", gen_controls },  { "utf8", gen_utf8 },
        { "numbers", gen_numbers },    { "literals", gen_literals },
        { "depth", gen_depth },        { "random", gen_random },
        { "blocks", gen_blocks },
    };
    unsigned long before;
    size_t i;
    int a;

    for (a = 1; a < argc; a++) {
        if (strcmp(argv[a], "-v") == 0) {
            verbose = true;
            continue;
        }
        if (strcmp(argv[a], "--isa") == 0 && a + 1 < argc) {
            /* One copy of the hot loops; skipped where there is none. */
            if (!ndp_jscan_use_isa(argv[++a])) {
                printf("jscan_diff: no %s copy of the scanner in this build "
                       "or on this CPU: skipped\n", argv[a]);
                return 77;
            }
            continue;
        }
        before = st.passed + st.failed;
        cur_group = "";
        check_path(argv[a]);
        printf("%s: %lu inputs\n", argv[a], st.passed + st.failed - before);
    }
    printf("scanner copy: %s\n", ndp_jscan_isa_name());
    for (i = 0; i < NDP_ARRAY_SIZE(groups); i++) {
        before = st.passed + st.failed;
        cur_group = "gen:";
        groups[i].fn();
        printf("generated %s: %lu cases\n", groups[i].name,
               st.passed + st.failed - before);
    }
    printf("both accept: %lu (%lu kept ranges re-parsed by json-c and "
           "compared, %lu built from the scanner and compared, %lu of them "
           "said to have no key twice), both reject: %lu\n", st.both_accept,
           st.ranges_checked, st.builds_checked, st.builds_unique,
           st.both_reject);
    printf("error offset spread (json-c minus scanner) over rejections: "
           "0: %lu, 1: %lu, 2-5: %lu, 6-20: %lu, 21-100: %lu, >100: %lu; "
           "max %zu\n",
           st.spread[0], st.spread[1], st.spread[2], st.spread[3],
           st.spread[4], st.spread[5], st.max_spread);
    printf("walk and skip_value report different offsets for %lu rejections\n",
           st.walk_pos_differs);
    printf("%lu passed, %lu failed\n", st.passed, st.failed);
    return st.failed ? 1 : 0;
}

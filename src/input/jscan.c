/*
 * SPDX-License-Identifier: Apache-2.0
 * jscan.c - validating JSON cursor (see jscan.h for the contract and for
 * the json-c 0.16 strict-mode rules it reproduces).
 *
 * Sits under the readers: src/util/load.c loads the bytes, a reader walks
 * them with this cursor and parses only the values it keeps with json-c.
 * The hot path is skipping strings: a 32-byte AVX2 or 16-byte SSE2 loop
 * (8 bytes of portable C elsewhere; jscan_impl.h, one copy each, picked at
 * run time) looks for the only bytes that need attention inside a string
 * (the quote, a backslash, NUL and bytes >= 0x80), so ASCII text goes by a
 * vector at a time; the AVX2 copy also skips whole containers 64 bytes at
 * a time, falling back to the exact scanner for anything it doubts.
 * Nesting is a counter plus one bit per level in the cursor, so deep input
 * costs no C stack.
 */
#include "common.h"
#include "jscan.h"
#include "buf.h"
#include "compat.h"

#include <stdatomic.h>

/* x86 builds carry an SSE2 and an AVX2 copy of the hot loops (one picked
 * at run time); others, and NDP_JSCAN_PORTABLE builds, the portable one. */
#if (defined(__x86_64__) || defined(__i386__)) && defined(__SSE2__) && \
    defined(__GNUC__) && !defined(NDP_JSCAN_PORTABLE)
#include <immintrin.h>
#define JS_X86 1
#endif

static const char M_EOF[] = "unexpected end of data";
static const char M_UNEXPECTED[] = "unexpected character";
static const char M_DEPTH[] = "nesting too deep";
static const char M_NUMBER[] = "invalid number";
static const char M_LITERAL[] = "invalid literal";
static const char M_ESCAPE[] = "invalid escape in string";
static const char M_UESCAPE[] = "invalid \\u escape in string";
static const char M_UTF8[] = "invalid UTF-8 in string";
static const char M_NUL[] = "NUL byte";
static const char M_KEY[] = "quoted object key expected";
static const char M_COLON[] = "':' expected after object key";
static const char M_OBJSEP[] = "',' or '}' expected in object";
static const char M_ARRSEP[] = "',' or ']' expected in array";
static const char M_TRAILING[] = "unexpected data after the document";

/* Bytes that end the fast part of a "-quoted string. */
#define JS_SPECIAL 1
/* JSON whitespace (json-c 0.16: not \v or \f). */
#define JS_WS 2
/* Bytes that may continue a number: a number followed by one is invalid. */
#define JS_NUMCHAR 4
/* Bytes that may follow a backslash, other than 'u'. */
#define JS_ESCAPE 8

static const unsigned char js_class[256] = {
    [0] = JS_SPECIAL,
    ['"'] = JS_SPECIAL | JS_ESCAPE,
    ['\\'] = JS_SPECIAL | JS_ESCAPE,
    ['/'] = JS_ESCAPE, ['b'] = JS_ESCAPE, ['f'] = JS_ESCAPE,
    ['n'] = JS_ESCAPE, ['r'] = JS_ESCAPE, ['t'] = JS_ESCAPE,
    [' '] = JS_WS, ['\t'] = JS_WS, ['\n'] = JS_WS, ['\r'] = JS_WS,
    ['0'] = JS_NUMCHAR, ['1'] = JS_NUMCHAR, ['2'] = JS_NUMCHAR,
    ['3'] = JS_NUMCHAR, ['4'] = JS_NUMCHAR, ['5'] = JS_NUMCHAR,
    ['6'] = JS_NUMCHAR, ['7'] = JS_NUMCHAR, ['8'] = JS_NUMCHAR,
    ['9'] = JS_NUMCHAR, ['.'] = JS_NUMCHAR, ['e'] = JS_NUMCHAR,
    ['E'] = JS_NUMCHAR, ['+'] = JS_NUMCHAR, ['-'] = JS_NUMCHAR,
#define JS_HI16 JS_SPECIAL, JS_SPECIAL, JS_SPECIAL, JS_SPECIAL, JS_SPECIAL, \
    JS_SPECIAL, JS_SPECIAL, JS_SPECIAL, JS_SPECIAL, JS_SPECIAL, JS_SPECIAL, \
    JS_SPECIAL, JS_SPECIAL, JS_SPECIAL, JS_SPECIAL, JS_SPECIAL
    [0x80] = JS_HI16, JS_HI16, JS_HI16, JS_HI16,
    JS_HI16, JS_HI16, JS_HI16, JS_HI16,
#undef JS_HI16
};

/* Index of the lowest set bit of a non-zero mask. */
static inline unsigned lowest_bit(unsigned mask)
{
#if defined(__GNUC__)
    return (unsigned)__builtin_ctz(mask);
#else
    unsigned n = 0;

    while (!(mask & 1)) {
        mask >>= 1;
        n++;
    }
    return n;
#endif
}

static int fail(struct ndp_jscan *s, size_t pos, const char *msg)
{
    if (!s->err_msg) {
        s->err_pos = pos;
        s->err_msg = msg;
    }
    return NDP_EPARSE;
}

/* A byte that is not what the grammar wants at 'pos': say what it is. */
static int fail_at(struct ndp_jscan *s, size_t pos, const char *msg)
{
    if (pos >= s->len)
        return fail(s, s->len, M_EOF);
    if (s->buf[pos] == '\0')
        return fail(s, pos, M_NUL);
    return fail(s, pos, msg);
}

/* The same for functions that return an index: 0 (never a valid end). */
static size_t fail0(struct ndp_jscan *s, size_t pos, const char *msg)
{
    fail(s, pos, msg);
    return 0;
}

static size_t fail0_at(struct ndp_jscan *s, size_t pos, const char *msg)
{
    fail_at(s, pos, msg);
    return 0;
}

static inline void set_kind(struct ndp_jscan *s, int depth, bool is_object)
{
    uint64_t bit = (uint64_t)1 << (depth & 63);

    if (is_object)
        s->is_object[depth >> 6] |= bit;
    else
        s->is_object[depth >> 6] &= ~bit;
}

static inline bool get_kind(const struct ndp_jscan *s, int depth)
{
    return (s->is_object[depth >> 6] >> (depth & 63)) & 1;
}

/* The walk is at 'pos', at or past s->progress->at: tells the listener
 * (the pages given back) and returns where to tell it next. */
static size_t tell_progress(struct ndp_jscan *s, size_t pos)
{
    s->progress->reach(s->progress, pos);
    return s->progress->at;
}

static inline bool is_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static inline bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/*
 * Validates the escape whose backslash is at 'pos'; '*next' gets the index
 * after it.  Errors point at the backslash.
 */
static int scan_escape(struct ndp_jscan *s, size_t pos, size_t *next)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    size_t i;

    if (s->len - pos < 2)
        return fail(s, s->len, M_EOF);
    switch (p[pos + 1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r':
    case 't':
        *next = pos + 2;
        return 0;
    case 'u':
        for (i = 2; i < 6; i++) {
            if (pos + i >= s->len)
                return fail(s, s->len, M_EOF);
            if (!is_hex(p[pos + i]))
                return fail(s, p[pos + i] ? pos : pos + i,
                            p[pos + i] ? M_UESCAPE : M_NUL);
        }
        *next = pos + 6;
        return 0;
    case '\0':
        return fail(s, pos + 1, M_NUL);
    default:
        return fail(s, pos, M_ESCAPE);
    }
}

/*
 * Validates one UTF-8 sequence whose first byte, >= 0x80, is at 'pos', with
 * json-c's shape-only rule; '*next' gets the index after it.
 */
static int scan_utf8(struct ndp_jscan *s, size_t pos, size_t *next)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    unsigned char c = p[pos];
    size_t n, i;

    if (c >= 0xC0 && c <= 0xDF)
        n = 1;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 2;
    else if (c >= 0xF0 && c <= 0xF7)
        n = 3;
    else
        return fail(s, pos, M_UTF8);
    for (i = 1; i <= n; i++) {
        if (pos + i >= s->len)
            return fail(s, s->len, M_EOF);
        if ((p[pos + i] & 0xC0) != 0x80)
            return fail(s, pos, M_UTF8);
    }
    *next = pos + n + 1;
    return 0;
}

/*
 * The byte at 'pos' inside a string is a backslash, NUL or >= 0x80:
 * validates what starts there and returns the index after it, or 0 (no
 * string byte can be at index 0) after recording the error.  The common
 * escapes and 2- and 3-byte sequences are checked inline.
 */
static inline size_t string_special(struct ndp_jscan *s, size_t pos)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    const size_t len = s->len;
    unsigned char c = p[pos];

    if (c == '\\') {
        if (len - pos >= 6 && p[pos + 1] != 'u') {
            if (js_class[p[pos + 1]] & JS_ESCAPE)
                return pos + 2;
        } else if (len - pos >= 6 && is_hex(p[pos + 2]) &&
                   is_hex(p[pos + 3]) && is_hex(p[pos + 4]) &&
                   is_hex(p[pos + 5])) {
            return pos + 6;
        }
        return scan_escape(s, pos, &pos) ? 0 : pos;
    }
    if (c >= 0xC0 && c <= 0xDF && len - pos >= 2 &&
        (p[pos + 1] & 0xC0) == 0x80)
        return pos + 2;
    if (c >= 0xE0 && c <= 0xEF && len - pos >= 3 &&
        (p[pos + 1] & 0xC0) == 0x80 && (p[pos + 2] & 0xC0) == 0x80)
        return pos + 3;
    if (c == '\0') {
        fail(s, pos, M_NUL);
        return 0;
    }
    return scan_utf8(s, pos, &pos) ? 0 : pos;
}

/*
 * Validates a '-quoted string (json-c takes them as keys) whose opening
 * quote is just before 'pos'; returns the index after the closing quote,
 * or 0.  Rare, so byte by byte.
 */
static size_t scan_sq_string(struct ndp_jscan *s, size_t pos)
{
    const unsigned char *p = (const unsigned char *)s->buf;

    for (;;) {
        while (pos < s->len && p[pos] != '\'' &&
               !(js_class[p[pos]] & JS_SPECIAL))
            pos++;
        if (pos >= s->len)
            return fail0(s, s->len, M_EOF);
        if (p[pos] == '\'')
            return pos + 1;
        if (p[pos] == '"') {
            pos++;
            continue;
        }
        pos = string_special(s, pos);
        if (!pos)
            return 0;
    }
}

/*
 * Matches the literal 'word' at 'pos' and returns the index after it, or
 * 0; errors point at 'start', where the token began ("-Infinity" begins
 * before its "Infinity").
 */
static size_t scan_word(struct ndp_jscan *s, size_t start, size_t pos,
                        const char *word)
{
    size_t n = strlen(word);
    size_t avail = s->len - pos;

    if (avail < n) {
        if (memcmp(s->buf + pos, word, avail) == 0)
            return fail0(s, s->len, M_EOF);
        return fail0_at(s, start, M_LITERAL);
    }
    if (memcmp(s->buf + pos, word, n) != 0)
        return fail0_at(s, start, M_LITERAL);
    /* json-c needs a byte after a literal to know that it ended. */
    if (pos + n == s->len)
        return fail0(s, s->len, M_EOF);
    return pos + n;
}

/*
 * Validates the number starting at 'pos' ('-' or a digit) as json-c
 * accepts it: RFC 8259 plus "1.", "-.5" and leading zeros that json-c lets
 * through (see jscan.h).  Returns the index after it, or 0; errors point
 * at the number's first byte.
 */
static size_t scan_number(struct ndp_jscan *s, size_t pos)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    const size_t len = s->len;
    const size_t start = pos;
    bool need_frac_or_exp = false;
    bool may_have_frac = true;

    if (p[pos] == '-') {
        pos++;
        if (pos >= len)
            return fail0(s, len, M_EOF);
        if (p[pos] == 'I')
            return scan_word(s, start, pos, "Infinity");
        if (p[pos] == '.') {
            /* "-.5": strtod takes it, so json-c does */
            may_have_frac = false;
            pos++;
            if (pos >= len)
                return fail0(s, len, M_EOF);
        }
        if (!is_digit(p[pos]))
            return fail0_at(s, start, M_NUMBER);
        while (pos < len && is_digit(p[pos]))
            pos++;
    } else if (p[pos] == '0') {
        while (pos < len && p[pos] == '0')
            pos++;
        if (pos < len && is_digit(p[pos])) {
            /* "0123" is refused, "0123.5" and "0123e1" are not. */
            need_frac_or_exp = true;
            while (pos < len && is_digit(p[pos]))
                pos++;
        }
    } else {
        while (pos < len && is_digit(p[pos]))
            pos++;
    }
    if (may_have_frac && pos < len && p[pos] == '.') {
        need_frac_or_exp = false;
        pos++;
        while (pos < len && is_digit(p[pos]))
            pos++;
    }
    if (pos < len && (p[pos] == 'e' || p[pos] == 'E')) {
        need_frac_or_exp = false;
        pos++;
        if (pos < len && (p[pos] == '+' || p[pos] == '-'))
            pos++;
        if (pos >= len)
            return fail0(s, len, M_EOF);
        if (!is_digit(p[pos]))
            return fail0_at(s, start, M_NUMBER);
        while (pos < len && is_digit(p[pos]))
            pos++;
    }
    /* json-c needs a byte after a number to know that it ended. */
    if (pos >= len)
        return fail0(s, len, M_EOF);
    if (need_frac_or_exp || (js_class[p[pos]] & JS_NUMCHAR))
        return fail0(s, start, M_NUMBER);
    return pos;
}

/* The hot loops, once per instruction set (jscan_impl.h). */
#define JS_NAME(x) x##_portable
#define JS_WIDTH 0
#define JS_TARGET
#include "jscan_impl.h"
#undef JS_NAME
#undef JS_WIDTH
#undef JS_TARGET
#ifdef JS_X86
#define JS_NAME(x) x##_sse2
#define JS_WIDTH 16
#define JS_TARGET
#include "jscan_impl.h"
#undef JS_NAME
#undef JS_WIDTH
#undef JS_TARGET
#define JS_NAME(x) x##_avx2
#define JS_WIDTH 32
#define JS_TARGET __attribute__((target("avx2")))
#include "jscan_impl.h"
#undef JS_NAME
#undef JS_WIDTH
#undef JS_TARGET
/* The cursor's other steps (a few bytes each) use the SSE2 copy. */
#define skip_ws skip_ws_sse2
#define scan_dq_string scan_dq_string_sse2
#else
#define skip_ws skip_ws_portable
#define scan_dq_string scan_dq_string_portable
#endif

typedef int skip_value_fn(struct ndp_jscan *s, size_t *start, size_t *end);
typedef size_t count_newlines_fn(const unsigned char *p, size_t n);
typedef int skip_rest_fn(struct ndp_jscan *s, const char *key);

/* The copies without a block-wise path leave the members to the caller. */
static int walk_rest(struct ndp_jscan *s, const char *key)
{
    (void)s;
    (void)key;
    return 0;
}

static const struct {
    const char *name;
    skip_value_fn *skip_value;
    count_newlines_fn *count_newlines;
    skip_rest_fn *skip_rest;
} isas[] = {
    [NDP_JSCAN_PORTABLE_ISA] = { "portable", skip_value_portable,
                                 count_newlines_portable, walk_rest },
#ifdef JS_X86
    [NDP_JSCAN_SSE2] = { "sse2", skip_value_sse2, count_newlines_sse2,
                         walk_rest },
    [NDP_JSCAN_AVX2] = { "avx2", skip_value_avx2, count_newlines_avx2,
                         skip_rest_avx2 },
#endif
};

/* The copy in use: -1 until the first value is skipped. */
static atomic_int isa_in_use = -1;

static bool isa_runs_here(enum ndp_jscan_isa isa)
{
    switch (isa) {
    case NDP_JSCAN_PORTABLE_ISA:
        return true;
#ifdef JS_X86
    case NDP_JSCAN_SSE2:
        return true;
    case NDP_JSCAN_AVX2:
        return ndp_cpu_has_avx2();
#endif
    default:
        return false;
    }
}

bool ndp_jscan_use_isa(const char *name)
{
    int i;

    for (i = 0; i < (int)NDP_ARRAY_SIZE(isas); i++) {
        if (isas[i].name && strcmp(isas[i].name, name) == 0 &&
            isa_runs_here((enum ndp_jscan_isa)i)) {
            atomic_store(&isa_in_use, i);
            return true;
        }
    }
    return false;
}

/* NDPLINT_JSCAN names the copy (for tests and benchmarks); else the
 * widest the CPU runs. */
static int choose_isa(void)
{
    const char *env = getenv("NDPLINT_JSCAN");
    int i;

    if (env && ndp_jscan_use_isa(env))
        return atomic_load(&isa_in_use);
    for (i = (int)NDP_ARRAY_SIZE(isas) - 1; i > 0; i--)
        if (isas[i].name && isa_runs_here((enum ndp_jscan_isa)i))
            break;
    atomic_store(&isa_in_use, i);
    return i;
}

const char *ndp_jscan_isa_name(void)
{
    int isa = atomic_load(&isa_in_use);

    return isas[isa >= 0 ? isa : choose_isa()].name;
}

int ndp_jscan_skip_value(struct ndp_jscan *s, size_t *start, size_t *end)
{
    int isa = atomic_load_explicit(&isa_in_use, memory_order_relaxed);

    if (isa < 0)
        isa = choose_isa();
    return isas[isa].skip_value(s, start, end);
}

int ndp_jscan_skip_rest_of_object(struct ndp_jscan *s, const char *key)
{
    int isa = atomic_load_explicit(&isa_in_use, memory_order_relaxed);

    if (isa < 0)
        isa = choose_isa();
    return isas[isa].skip_rest(s, key);
}

size_t ndp_jscan_count_newlines(const char *text, size_t n)
{
    int isa = atomic_load_explicit(&isa_in_use, memory_order_relaxed);

    if (isa < 0)
        isa = choose_isa();
    return isas[isa].count_newlines((const unsigned char *)text, n);
}

static enum ndp_jscan_type type_of(unsigned char c)
{
    switch (c) {
    case '{':
        return NDP_JSCAN_OBJECT;
    case '[':
        return NDP_JSCAN_ARRAY;
    case '"':
        return NDP_JSCAN_STRING;
    case '-': case '0': case '1': case '2': case '3': case '4': case '5':
    case '6': case '7': case '8': case '9': case 'N': case 'I':
        return NDP_JSCAN_NUMBER;
    case 't': case 'f':
        return NDP_JSCAN_BOOL;
    case 'n':
        return NDP_JSCAN_NULL;
    default:
        return NDP_JSCAN_NONE;
    }
}

void ndp_jscan_init(struct ndp_jscan *s, const char *buf, size_t len,
                    int max_depth)
{
    memset(s, 0, sizeof(*s));
    s->buf = buf;
    s->len = len;
    if (max_depth <= 0)
        max_depth = 512;
    if (max_depth > NDP_JSCAN_DEPTH_LIMIT)
        max_depth = NDP_JSCAN_DEPTH_LIMIT;
    s->max_depth = max_depth;
}

enum ndp_jscan_type ndp_jscan_peek(struct ndp_jscan *s)
{
    if (s->err_msg)
        return NDP_JSCAN_NONE;
    s->pos = skip_ws((const unsigned char *)s->buf, s->pos, s->len);
    if (s->pos >= s->len)
        return NDP_JSCAN_NONE;
    return type_of((unsigned char)s->buf[s->pos]);
}

/*
 * Skips whitespace; 'want' is the first byte of the value the caller asks
 * for.  Returns 0 with s->pos at the value, NDP_ESCHEMA if the value is of
 * another type, or a parse error.
 */
static int expect_value(struct ndp_jscan *s, char want)
{
    unsigned char c;

    if (s->err_msg)
        return NDP_EPARSE;
    s->pos = skip_ws((const unsigned char *)s->buf, s->pos, s->len);
    if (s->pos >= s->len)
        return fail(s, s->len, M_EOF);
    c = (unsigned char)s->buf[s->pos];
    if (c != (unsigned char)want)
        return type_of(c) != NDP_JSCAN_NONE ? NDP_ESCHEMA
                                            : fail_at(s, s->pos, M_UNEXPECTED);
    if (s->depth >= s->max_depth)
        return fail(s, s->pos, M_DEPTH);
    return 0;
}

static int open_container(struct ndp_jscan *s, char open)
{
    int rc = expect_value(s, open);

    if (rc)
        return rc;
    set_kind(s, s->depth++, open == '{');
    s->pos++;
    s->first = true;
    return 0;
}

/* The innermost container ends with the byte at 'pos'. */
static void close_container(struct ndp_jscan *s, size_t pos, bool *done)
{
    s->depth--;
    s->first = false;
    s->pos = pos + 1;
    *done = true;
}

int ndp_jscan_object_begin(struct ndp_jscan *s)
{
    return open_container(s, '{');
}

int ndp_jscan_array_begin(struct ndp_jscan *s)
{
    return open_container(s, '[');
}

int ndp_jscan_object_next(struct ndp_jscan *s, const char **key,
                          size_t *key_len, bool *done)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    size_t pos, key_start;
    unsigned char c;

    *done = false;
    if (s->err_msg)
        return NDP_EPARSE;
    if (s->depth <= 0 || !get_kind(s, s->depth - 1))
        NDP_BUG("ndp_jscan_object_next outside an object");
    pos = skip_ws(p, s->pos, s->len);
    if (pos >= s->len)
        return fail(s, s->len, M_EOF);
    c = p[pos];
    if (c == '}') {
        close_container(s, pos, done);
        return 0;
    }
    if (!s->first) {
        if (c != ',')
            return fail_at(s, pos, M_OBJSEP);
        pos = skip_ws(p, pos + 1, s->len);
        if (pos >= s->len)
            return fail(s, s->len, M_EOF);
        c = p[pos];
    }
    if (c != '"' && c != '\'')
        return fail_at(s, pos, M_KEY);
    key_start = pos + 1;
    pos = c == '"' ? scan_dq_string(s, key_start)
                   : scan_sq_string(s, key_start);
    if (!pos)
        return NDP_EPARSE;
    *key = s->buf + key_start;
    *key_len = pos - 1 - key_start;
    pos = skip_ws(p, pos, s->len);
    if (pos >= s->len || p[pos] != ':')
        return fail_at(s, pos, M_COLON);
    s->pos = skip_ws(p, pos + 1, s->len);
    s->first = false;
    return 0;
}

int ndp_jscan_array_next(struct ndp_jscan *s, bool *done)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    size_t pos;

    *done = false;
    if (s->err_msg)
        return NDP_EPARSE;
    if (s->depth <= 0 || get_kind(s, s->depth - 1))
        NDP_BUG("ndp_jscan_array_next outside an array");
    pos = skip_ws(p, s->pos, s->len);
    if (pos >= s->len)
        return fail(s, s->len, M_EOF);
    if (p[pos] == ']') {
        close_container(s, pos, done);
        return 0;
    }
    if (!s->first) {
        if (p[pos] != ',')
            return fail_at(s, pos, M_ARRSEP);
        pos = skip_ws(p, pos + 1, s->len);
    }
    s->pos = pos;
    s->first = false;
    return 0;
}

static unsigned hex4(const unsigned char *h)
{
    unsigned v = 0;
    int i;

    for (i = 0; i < 4; i++) {
        unsigned char c = h[i];

        v = v << 4 | (c <= '9' ? (unsigned)(c - '0')
                               : (unsigned)((c | 0x20) - 'a' + 10));
    }
    return v;
}

static size_t put_utf8(unsigned char out[4], uint32_t cp)
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/*
 * Decodes the escape at raw[*i] (a backslash) of an already validated
 * string of 'n' bytes into 'out'; returns the byte count and advances '*i'.
 * Surrogates are paired as json-c pairs them, the rest become U+FFFD.
 */
static size_t decode_escape(const unsigned char *raw, size_t n, size_t *i,
                            unsigned char out[4])
{
    unsigned char c = raw[*i + 1];
    uint32_t u, lo;

    *i += 2;
    switch (c) {
    case 'b': out[0] = '\b'; return 1;
    case 'f': out[0] = '\f'; return 1;
    case 'n': out[0] = '\n'; return 1;
    case 'r': out[0] = '\r'; return 1;
    case 't': out[0] = '\t'; return 1;
    case 'u': break;
    default: out[0] = c; return 1;
    }
    u = hex4(raw + *i);
    *i += 4;
    if (u >= 0xD800 && u <= 0xDBFF) {
        if (n - *i >= 6 && raw[*i] == '\\' && raw[*i + 1] == 'u' &&
            (lo = hex4(raw + *i + 2)) >= 0xDC00 && lo <= 0xDFFF) {
            *i += 6;
            return put_utf8(out,
                            0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
        }
        u = 0xFFFD;
    } else if (u >= 0xDC00 && u <= 0xDFFF) {
        u = 0xFFFD;
    }
    return put_utf8(out, u);
}

int ndp_jscan_string(struct ndp_jscan *s, struct ndp_buf *out)
{
    const unsigned char *raw;
    size_t end, n, i = 0;
    int rc = expect_value(s, '"');

    if (rc)
        return rc;
    end = scan_dq_string(s, s->pos + 1);
    if (!end)
        return NDP_EPARSE;
    raw = (const unsigned char *)s->buf + s->pos + 1;
    n = end - 1 - (s->pos + 1);
    ndp_buf_reset(out);
    while (i < n) {
        const unsigned char *bs = memchr(raw + i, '\\', n - i);
        size_t run = bs ? (size_t)(bs - (raw + i)) : n - i;
        unsigned char u[4];

        ndp_buf_add(out, raw + i, run);
        i += run;
        if (i < n)
            ndp_buf_add(out, u, decode_escape(raw, n, &i, u));
    }
    s->pos = end;
    return 0;
}

void ndp_jscan_init_inside(struct ndp_jscan *s, const char *buf, size_t len,
                           int max_depth, const char *kinds, size_t pos)
{
    ndp_jscan_init(s, buf, len, max_depth);
    for (; *kinds; kinds++)
        set_kind(s, s->depth++, *kinds == '{');
    s->pos = pos;
    s->newlines_at = pos;
    s->first = false;
}

void ndp_jscan_mark(const struct ndp_jscan *s, struct ndp_jscan_mark *m)
{
    m->pos = s->pos;
    m->depth = s->depth;
    m->first = s->first;
}

void ndp_jscan_rewind(struct ndp_jscan *s, const struct ndp_jscan_mark *m)
{
    s->pos = m->pos;
    s->depth = m->depth;
    s->first = m->first;
    s->err_pos = 0;
    s->err_msg = NULL;
}

bool ndp_jscan_truncated(const struct ndp_jscan *s)
{
    return s->err_msg && s->err_pos >= s->len;
}

int ndp_jscan_end(struct ndp_jscan *s)
{
    if (s->err_msg)
        return NDP_EPARSE;
    if (s->depth != 0)
        NDP_BUG("ndp_jscan_end with containers open");
    s->pos = skip_ws((const unsigned char *)s->buf, s->pos, s->len);
    if (s->pos < s->len)
        return fail_at(s, s->pos, M_TRAILING);
    return 0;
}

bool ndp_jscan_key_is(const char *key, size_t key_len, const char *name)
{
    const unsigned char *raw = (const unsigned char *)key;
    const unsigned char *want = (const unsigned char *)name;
    size_t i = 0, name_len = strlen(name);

    /* Escapes only make a key shorter than it is written: most keys are
     * told apart by their length and bytes alone. */
    if (key_len == name_len && memcmp(key, name, name_len) == 0)
        return !memchr(name, '\\', name_len);
    if (key_len <= name_len || !memchr(key, '\\', key_len))
        return false;
    while (i < key_len) {
        unsigned char u[4];
        size_t k, n;

        if (raw[i] != '\\') {
            u[0] = raw[i++];
            n = 1;
        } else {
            n = decode_escape(raw, key_len, &i, u);
        }
        for (k = 0; k < n; k++) {
            if (u[k] == '\0') /* json-c keeps keys as C strings */
                return *want == '\0';
            if (*want++ != u[k])
                return false;
        }
    }
    return *want == '\0';
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * jscan_impl.h - the scanner's hot loops, included by jscan.c once for
 * each instruction set it is built for: JS_WIDTH 0 (portable C, 8 bytes
 * at a time), 16 (SSE2) or 32 (AVX2, compiled with JS_TARGET so that only
 * this copy needs the CPU to have it).  JS_NAME(x) names this copy's x.
 * Every copy validates and skips exactly the same way; jscan.c picks one
 * at run time (ndp_jscan_use_isa()).  Not a header of its own: it uses
 * jscan.c's static helpers.
 */

/* Skips a run of whitespace; pretty-printed input has long ones. */
JS_TARGET static size_t JS_NAME(skip_ws_run)(const unsigned char *p,
                                             size_t pos, size_t len)
{
#if JS_WIDTH == 32
    const __m256i sp = _mm256_set1_epi8(' '), nl = _mm256_set1_epi8('\n');
    const __m256i cr = _mm256_set1_epi8('\r'), tab = _mm256_set1_epi8('\t');

    while (len - pos >= 32) {
        __m256i v =
            _mm256_loadu_si256((const __m256i *)(const void *)(p + pos));
        __m256i ws = _mm256_or_si256(
            _mm256_or_si256(_mm256_cmpeq_epi8(v, sp), _mm256_cmpeq_epi8(v, nl)),
            _mm256_or_si256(_mm256_cmpeq_epi8(v, cr),
                            _mm256_cmpeq_epi8(v, tab)));
        unsigned other = ~(unsigned)_mm256_movemask_epi8(ws);

        if (other)
            return pos + lowest_bit(other);
        pos += 32;
    }
#elif JS_WIDTH == 16
    while (len - pos >= 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + pos));
        __m128i ws = _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                         _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
            _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')),
                         _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
        unsigned other = (unsigned)_mm_movemask_epi8(ws) ^ 0xFFFFu;

        if (other)
            return pos + lowest_bit(other);
        pos += 16;
    }
#endif
    while (pos < len && (js_class[p[pos]] & JS_WS))
        pos++;
    return pos;
}

JS_TARGET static inline size_t JS_NAME(skip_ws)(const unsigned char *p,
                                                size_t pos, size_t len)
{
    if (pos >= len || !(js_class[p[pos]] & JS_WS))
        return pos;
    if (len - pos < 2 || !(js_class[p[pos + 1]] & JS_WS))
        return pos + 1;
    return JS_NAME(skip_ws_run)(p, pos + 2, len);
}

/*
 * Validates a "-quoted string whose opening quote is just before 'pos';
 * returns the index after the closing quote, or 0 after recording an
 * error.  Reads only inside [pos, len).
 */
JS_TARGET static inline size_t JS_NAME(scan_dq_string)(struct ndp_jscan *s,
                                                       size_t pos)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    const size_t len = s->len;
#if JS_WIDTH == 32
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i bslash = _mm256_set1_epi8('\\');
    const __m256i zero = _mm256_setzero_si256();
#elif JS_WIDTH == 16
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i bslash = _mm_set1_epi8('\\');
    const __m128i zero = _mm_setzero_si128();
#else
    const uint64_t ones = 0x0101010101010101u;
    const uint64_t highs = 0x8080808080808080u;
#endif

    for (;;) {
#if JS_WIDTH == 32
        while (len - pos >= 32) {
            __m256i a =
                _mm256_loadu_si256((const __m256i *)(const void *)(p + pos));
            unsigned q = (unsigned)_mm256_movemask_epi8(
                _mm256_cmpeq_epi8(a, quote));
            /* Other bytes to look at: a backslash, NUL, top bit set. */
            unsigned o = (unsigned)_mm256_movemask_epi8(_mm256_or_si256(
                _mm256_or_si256(_mm256_cmpeq_epi8(a, bslash),
                                _mm256_cmpeq_epi8(a, zero)), a));

            /* Done when no other byte comes before the first quote. */
            if (q && !(o & (q - 1) & ~q))
                return pos + lowest_bit(q) + 1;
            if (o) {
                pos += lowest_bit(o);
                goto special;
            }
            pos += 32;
        }
#elif JS_WIDTH == 16
        while (len - pos >= 16) {
            __m128i a =
                _mm_loadu_si128((const __m128i *)(const void *)(p + pos));
            unsigned q = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(a, quote));
            /* Other bytes to look at: a backslash, NUL, top bit set. */
            unsigned o = (unsigned)_mm_movemask_epi8(_mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(a, bslash),
                             _mm_cmpeq_epi8(a, zero)), a));

            /* Done when no other byte comes before the first quote. */
            if (q && !(o & (q - 1) & ~q))
                return pos + lowest_bit(q) + 1;
            if (o) {
                pos += lowest_bit(o);
                goto special;
            }
            pos += 16;
        }
#else
        while (len - pos >= 8) {
            uint64_t w, q, b;

            memcpy(&w, p + pos, 8);
            q = w ^ (ones * '"');
            b = w ^ (ones * '\\');
            /* Flags the lowest byte of interest exactly; the loop below
             * finds it. */
            if (((w - ones) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b) |
                (w & highs))
                break;
            pos += 8;
        }
#endif
        while (pos < len && !(js_class[p[pos]] & JS_SPECIAL))
            pos++;
        if (pos >= len)
            return fail0(s, len, M_EOF);
        if (p[pos] == '"')
            return pos + 1;
#if JS_WIDTH
special:
#endif
        pos = string_special(s, pos);
        if (!pos)
            return 0;
    }
}

/* Validates the scalar at 'pos' ('c', its first byte); 0 on error. */
JS_TARGET static size_t JS_NAME(scan_scalar)(struct ndp_jscan *s, size_t pos,
                                             unsigned char c)
{
    switch (c) {
    case '"':
        return JS_NAME(scan_dq_string)(s, pos + 1);
    case '-': case '0': case '1': case '2': case '3': case '4': case '5':
    case '6': case '7': case '8': case '9':
        return scan_number(s, pos);
    case 't':
        return scan_word(s, pos, pos, "true");
    case 'f':
        return scan_word(s, pos, pos, "false");
    case 'n':
        return scan_word(s, pos, pos, "null");
    case 'N':
        return scan_word(s, pos, pos, "NaN");
    case 'I':
        return scan_word(s, pos, pos, "Infinity");
    default:
        return fail0_at(s, pos, M_UNEXPECTED);
    }
}

#if JS_WIDTH == 32
/*
 * ---- The AVX2 copy's fast path for containers -------------------------
 *
 * A container is skipped 64 bytes at a time: each block is classified at
 * once (quotes, backslashes, structural bytes, white space, bytes that
 * need a look inside a string), the bytes inside strings are found from
 * the quotes that are not escaped, and the grammar is checked token by
 * token over the block's bit masks, so strings and white space cost
 * nothing of their own.  Escapes, NUL and UTF-8 inside strings are checked
 * where the masks show them, numbers and literals by the scalar code.  At
 * anything it does not accept, it gives up without a trace, and the exact
 * scanner below scans the value from its start and says what is wrong and
 * where: the fast path decides nothing but "valid, and it ends here" and
 * "valid as far as the bytes go" (the end of data, which the exact
 * scanner would report at the same byte).
 */

/* What a block of 64 bytes holds, one bit per byte. */
struct js_block {
    __m256i lo, hi;       /* the bytes */
    uint64_t quote, bslash, structural, ws, look; /* look: NUL, >= 0x80 */
};

/* What the fast path expects next. */
enum js_expect {
    JS_VALUE,          /* a value (after ':' or ',' in an array) */
    JS_VALUE_OR_CLOSE, /* a value or ']' (just after '[') */
    JS_KEY,            /* a key (after ',' in an object) */
    JS_KEY_OR_CLOSE,   /* a key or '}' (just after '{') */
    JS_COLON,
    JS_AFTER           /* ',' or the closing bracket */
};

/* What carries from one block to the next. */
struct js_fast {
    uint64_t in_string;   /* all ones: the block before ended in a string */
    bool escaped;         /* its last byte was an unescaped backslash */
    bool in_scalar;       /* its last byte belonged to a number or literal */
    uint64_t utf8_wants;  /* continuation bytes its last bytes want here */
    enum js_expect expect;
    int depth;
    const char *watch;    /* keys at watch_depth must not be this one */
    size_t watch_len;
    int watch_depth;
};

JS_TARGET static inline uint64_t js_eq64(__m256i lo, __m256i hi, char c)
{
    const __m256i v = _mm256_set1_epi8(c);

    return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, v)) |
           (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, v))
               << 32;
}

/*
 * Brackets, separators and white space by table lookup on the low four
 * bits (as simdjson does): a byte is white space when the white-space
 * table holds it at its low nibble; a bracket or separator when it, with
 * 0x20 set ('[' -> '{', ']' -> '}'), is what the other table holds there.
 * Bytes >= 0x80 look up 0 and match neither.
 */
JS_TARGET static void js_structure(__m256i v, uint32_t *structural,
                                   uint32_t *ws)
{
    const __m256i ws_table = _mm256_setr_epi8(
        ' ', 100, 100, 100, 17, 100, 113, 2, 100, '\t', '\n', 112, 100, '\r',
        100, 100, ' ', 100, 100, 100, 17, 100, 113, 2, 100, '\t', '\n', 112,
        100, '\r', 100, 100);
    const __m256i op_table = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, ':', '{', ',', '}', 0, 0);

    *ws = (uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(v, _mm256_shuffle_epi8(ws_table, v)));
    *structural = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
        _mm256_or_si256(v, _mm256_set1_epi8(0x20)),
        _mm256_shuffle_epi8(op_table, v)));
}

JS_TARGET static void js_classify(const unsigned char *p, struct js_block *b)
{
    __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(p + 32));
    uint32_t s_lo, s_hi, w_lo, w_hi;

    b->lo = lo;
    b->hi = hi;
    b->quote = js_eq64(lo, hi, '"');
    b->bslash = js_eq64(lo, hi, '\\');
    js_structure(lo, &s_lo, &w_lo);
    js_structure(hi, &s_hi, &w_hi);
    b->structural = (uint64_t)s_lo | (uint64_t)s_hi << 32;
    b->ws = (uint64_t)w_lo | (uint64_t)w_hi << 32;
    b->look = (uint64_t)(uint32_t)_mm256_movemask_epi8(lo) |
              (uint64_t)(uint32_t)_mm256_movemask_epi8(hi) << 32 |
              js_eq64(lo, hi, '\0');
}

/* The bytes escaped by a backslash: after each backslash that is not
 * itself escaped (the escape of the block before carries in). */
static inline uint64_t js_escaped(uint64_t bslash, bool *carry)
{
    uint64_t escaped = 0, b = bslash;

    if (*carry) {
        escaped = 1;
        b &= ~(uint64_t)1;
    }
    *carry = false;
    while (b) {
        unsigned i = (unsigned)__builtin_ctzll(b);

        b &= b - 1;
        if (i == 63) {
            *carry = true;
        } else {
            escaped |= (uint64_t)1 << (i + 1);
            b &= ~((uint64_t)1 << (i + 1));
        }
    }
    return escaped;
}

/* Bit i: an odd number of set bits at or below i. */
static inline uint64_t js_prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

/* Bytes whose bits under 'and' are 'value'. */
JS_TARGET static inline uint64_t js_bits64(const struct js_block *b,
                                           char and_mask, char value)
{
    const __m256i m = _mm256_set1_epi8(and_mask);
    const __m256i v = _mm256_set1_epi8(value);

    return (uint64_t)(uint32_t)_mm256_movemask_epi8(
               _mm256_cmpeq_epi8(_mm256_and_si256(b->lo, m), v)) |
           (uint64_t)(uint32_t)_mm256_movemask_epi8(
               _mm256_cmpeq_epi8(_mm256_and_si256(b->hi, m), v))
               << 32;
}

/*
 * The bytes that may follow an escaping backslash, "\/bfnrtu, by two
 * table lookups: one bit per high nibble (2, 5, 6, 7) that the low
 * nibble's entry must share.  Bytes >= 0x80 match nothing.
 */
JS_TARGET static uint32_t js_escape_chars(__m256i v)
{
    const __m256i low = _mm256_setr_epi8(
        0, 0, 1 | 4 | 8, 0, 8, 8, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1,
        0, 0, 1 | 4 | 8, 0, 8, 8, 4, 0, 0, 0, 0, 0, 2, 0, 4, 1);
    const __m256i high = _mm256_setr_epi8(
        0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 1, 0, 0, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0, 0);
    const __m256i nibble = _mm256_set1_epi8(0x0F);
    __m256i hits = _mm256_and_si256(
        _mm256_shuffle_epi8(low, _mm256_and_si256(v, nibble)),
        _mm256_shuffle_epi8(high, _mm256_and_si256(_mm256_srli_epi16(v, 4),
                                                   nibble)));

    return ~(uint32_t)_mm256_movemask_epi8(
        _mm256_cmpeq_epi8(hits, _mm256_setzero_si256()));
}

/*
 * Every escape in a string is one json-c takes: the byte after each
 * escaping backslash is one of "\/bfnrt, or u with four hex digits.
 */
JS_TARGET static bool js_escapes_ok(const struct ndp_jscan *s,
                                    const struct js_block *b, size_t at,
                                    uint64_t escaped)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    uint64_t ok, u;

    if (!escaped)
        return true;
    ok = (uint64_t)js_escape_chars(b->lo) |
         (uint64_t)js_escape_chars(b->hi) << 32;
    if (escaped & ~ok)
        return false;
    u = js_eq64(b->lo, b->hi, 'u');
    for (u &= escaped; u; u &= u - 1) {
        size_t j = at + (size_t)__builtin_ctzll(u);

        if (s->len - j < 5 || !is_hex(p[j + 1]) || !is_hex(p[j + 2]) ||
            !is_hex(p[j + 3]) || !is_hex(p[j + 4]))
            return false;
    }
    return true;
}

/*
 * No NUL, and every byte >= 0x80 in a UTF-8 sequence of json-c's shape:
 * each continuation byte exactly where a lead byte wants one (the wants
 * of the block before carry in, '*carry').  Outside strings such bytes
 * end the fast path anyway.
 */
JS_TARGET static bool js_utf8_ok(const struct js_block *b, uint64_t *carry)
{
    uint64_t cont, lead2, lead3, lead4, want;

    if (!b->look)
        return !*carry;
    if (js_eq64(b->lo, b->hi, '\0') ||
        js_bits64(b, (char)0xF8, (char)0xF8))
        return false;
    cont = js_bits64(b, (char)0xC0, (char)0x80);
    lead2 = js_bits64(b, (char)0xE0, (char)0xC0);
    lead3 = js_bits64(b, (char)0xF0, (char)0xE0);
    lead4 = js_bits64(b, (char)0xF8, (char)0xF0);
    want = (lead2 | lead3 | lead4) << 1 | (lead3 | lead4) << 2 | lead4 << 3 |
           *carry;
    *carry = (lead2 | lead3 | lead4) >> 63 | (lead3 | lead4) >> 62 |
             lead4 >> 61;
    return cont == want;
}

/* Pushes a container; false past the depth limit. */
static inline bool js_open(struct ndp_jscan *s, struct js_fast *f,
                           bool is_object)
{
    if (f->depth >= s->max_depth)
        return false;
    set_kind(s, f->depth++, is_object);
    f->expect = is_object ? JS_KEY_OR_CLOSE : JS_VALUE_OR_CLOSE;
    return true;
}

/* Does the number or literal at 'j' end where its run of bytes ends? */
static bool js_scalar_ok(struct ndp_jscan *s, size_t j)
{
    size_t end = scan_scalar_portable(s, j, (unsigned char)s->buf[j]);

    if (!end)
        return false;
    /* What follows must end it: white space or a bracket or separator. */
    switch (s->buf[end]) {
    case ' ': case '\t': case '\n': case '\r':
    case ',': case ']': case '}':
        return true;
    default:
        return false;
    }
}

/*
 * Is the key that starts at 'k' surely not the watched one?  It is
 * written without escapes and is another.
 */
static bool js_key_differs(const struct ndp_jscan *s, const struct js_fast *f,
                           size_t k)
{
    size_t i;

    for (i = k; i < s->len && s->buf[i] != '"'; i++)
        if (s->buf[i] == '\\')
            return false;
    return i < s->len &&
           (i - k != f->watch_len || memcmp(s->buf + k, f->watch, i - k) != 0);
}

/*
 * One token of the grammar, the byte 'c' at 'j': true to go on; the end
 * of the container, '*done' set; false to give up.
 */
static bool js_token(struct ndp_jscan *s, struct js_fast *f, size_t j,
                     unsigned char c, int base, bool *done)
{
    if ((f->expect == JS_VALUE_OR_CLOSE && c == ']') ||
        (f->expect == JS_KEY_OR_CLOSE && c == '}'))
        goto close;
    switch (f->expect) {
    case JS_VALUE_OR_CLOSE:
    case JS_VALUE:
        /* Any value this deep is too deep, as in the exact scanner. */
        if (f->depth >= s->max_depth)
            return false;
        if (c == '{' || c == '[')
            return js_open(s, f, c == '{');
        if (c == '"') {
            f->expect = JS_AFTER;
            return true;
        }
        if (c == ',' || c == ':' || c == '}' || c == ']')
            return false;
        f->expect = JS_AFTER;
        return js_scalar_ok(s, j);
    case JS_KEY_OR_CLOSE:
    case JS_KEY:
        f->expect = JS_COLON;
        return c == '"' && (!f->watch || f->depth != f->watch_depth ||
                            js_key_differs(s, f, j + 1));
    case JS_COLON:
        f->expect = JS_VALUE;
        return c == ':';
    case JS_AFTER:
        if (c == ',') {
            f->expect = get_kind(s, f->depth - 1) ? JS_KEY : JS_VALUE;
            return true;
        }
        if (c == '}' || c == ']')
            goto close;
        return false;
    }
    return false;
close:
    if ((c == '}') != get_kind(s, f->depth - 1))
        return false;
    f->depth--;
    f->expect = JS_AFTER;
    *done = f->depth == base;
    return true;
}

/* What the fast path found. */
enum js_fast_result {
    JS_FAST_UNSURE,  /* the exact scanner must look */
    JS_FAST_VALID,   /* valid, and it ends at '*end' */
    JS_FAST_OUT      /* valid as far as the bytes go, which end inside it */
};

/*
 * Skips the container whose bracket is at 'pos'.  JS_FAST_OUT is what the
 * exact scanner would find too, an end of data at the last byte: said at
 * once, so that text still arriving is not scanned twice on every try.
 * With JS_FAST_VALID, '*newlines' is the number of '\n' bytes in
 * [pos, *end), counted from the blocks as they go by.
 */
JS_TARGET static enum js_fast_result JS_NAME(fast_walk)(struct ndp_jscan *s,
                                                        size_t pos,
                                                        struct js_fast f,
                                                        int base,
                                                        size_t *end,
                                                        size_t *newlines)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    unsigned char pad[64];
    size_t at, lines = 0;
    size_t tell_at = s->progress ? s->progress->at : SIZE_MAX;

    for (at = pos; at < s->len; at += 64) {
        const unsigned char *block = p + at;
        struct js_block b;
        uint64_t escaped, real, inside, opens, scalar, tokens, bytes = ~0ull;
        uint64_t nl;
        bool done = false;

        if (at >= tell_at)
            tell_at = tell_progress(s, at);
        if (s->len - at < 64) {
            /* The last bytes, padded with spaces (they end nothing). */
            memset(pad, ' ', sizeof(pad));
            memcpy(pad, block, s->len - at);
            block = pad;
            bytes = ((uint64_t)1 << (s->len - at)) - 1;
        }
        js_classify(block, &b);
        escaped = js_escaped(b.bslash, &f.escaped);
        real = b.quote & ~escaped;
        inside = js_prefix_xor(real) ^ f.in_string;
        f.in_string = (uint64_t)0 - (inside >> 63);
        opens = real & inside;
        if (!js_escapes_ok(s, &b, at, escaped & inside & bytes) ||
            !js_utf8_ok(&b, &f.utf8_wants))
            return JS_FAST_UNSURE;
        /* Outside strings: brackets and separators, strings' opening
         * quotes, and the first byte of each number or literal. */
        scalar = ~(inside | real | b.structural | b.ws) & bytes;
        tokens = (b.structural & ~inside & bytes) | opens |
                 (scalar & ~((scalar << 1) | (uint64_t)f.in_scalar));
        f.in_scalar = scalar >> 63;
        nl = js_eq64(b.lo, b.hi, '\n') & bytes;
        while (tokens) {
            size_t j = at + (size_t)__builtin_ctzll(tokens);

            tokens &= tokens - 1;
            if (!js_token(s, &f, j, p[j], base, &done))
                return JS_FAST_UNSURE;
            if (done) {
                /* The block's newlines up to its byte j - at (2 << 63
                 * wraps to 0: the whole block). */
                nl &= ((uint64_t)2 << (j - at)) - 1;
                *newlines = lines + (size_t)__builtin_popcountll(nl);
                *end = j + 1;
                return JS_FAST_VALID;
            }
        }
        lines += (size_t)__builtin_popcountll(nl);
    }
    return JS_FAST_OUT;
}

JS_TARGET static size_t JS_NAME(count_newlines)(const unsigned char *p,
                                                size_t n);

/*
 * A fast walk over [from, end) found 'newlines' of them: the count goes
 * on from where it was, when the walk is not behind it.
 */
JS_TARGET static void JS_NAME(note_walk)(struct ndp_jscan *s, size_t from,
                                         size_t end, size_t newlines)
{
    if (from < s->newlines_at)
        return;
    s->newlines += JS_NAME(count_newlines)(
                       (const unsigned char *)s->buf + s->newlines_at,
                       from - s->newlines_at) +
                   newlines;
    s->newlines_at = end;
}

/* The fast path over the value at 'pos', leaving no error of its own. */
JS_TARGET static enum js_fast_result JS_NAME(try_fast_skip)(
    struct ndp_jscan *s, size_t pos, size_t *end)
{
    struct js_fast f = { 0, false, false, 0, JS_VALUE, s->depth, NULL, 0, 0 };
    size_t newlines;
    enum js_fast_result r = JS_NAME(fast_walk)(s, pos, f, s->depth, end,
                                               &newlines);

    if (r == JS_FAST_VALID)
        JS_NAME(note_walk)(s, pos, *end, newlines);
    s->err_msg = NULL;
    s->err_pos = 0;
    return r;
}

/*
 * The members left in the object the cursor is in, after one of them,
 * and its '}' (see ndp_jscan_skip_rest_of_object()).
 */
JS_TARGET static int JS_NAME(skip_rest)(struct ndp_jscan *s, const char *key)
{
    struct js_fast f = { 0, false, false, 0, JS_AFTER, s->depth, key,
                         key ? strlen(key) : 0, s->depth };
    size_t end, newlines;
    enum js_fast_result r;

    if (s->err_msg || s->depth <= 0 || s->first ||
        !get_kind(s, s->depth - 1))
        return 0;
    r = JS_NAME(fast_walk)(s, s->pos, f, s->depth - 1, &end, &newlines);
    s->err_msg = NULL;
    s->err_pos = 0;
    if (r == JS_FAST_OUT)
        return fail(s, s->len, M_EOF); /* what the walk would end with */
    if (r != JS_FAST_VALID)
        return 0;
    JS_NAME(note_walk)(s, s->pos, end, newlines);
    s->depth--;
    s->first = false;
    s->pos = end;
    return 1;
}
#endif

JS_TARGET static int JS_NAME(skip_value)(struct ndp_jscan *s, size_t *start,
                                          size_t *end)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    const size_t len = s->len;
    const int base = s->depth;
    size_t pos, first;
    size_t tell_at = s->progress ? s->progress->at : SIZE_MAX;
    int depth = base;
    bool in_object = false; /* kind of level depth - 1, when depth > base */
    unsigned char c;

    if (s->err_msg)
        return NDP_EPARSE;
    pos = first = JS_NAME(skip_ws)(p, s->pos, len);
#if JS_WIDTH == 32
    if (pos < len && (p[pos] == '{' || p[pos] == '[')) {
        size_t after;

        switch (JS_NAME(try_fast_skip)(s, pos, &after)) {
        case JS_FAST_VALID:
            s->pos = after;
            if (start)
                *start = first;
            if (end)
                *end = after;
            return 0;
        case JS_FAST_OUT:
            return fail(s, len, M_EOF);
        case JS_FAST_UNSURE:
            break;
        }
    }
#endif

value:
    /* 'pos' is at a value (whitespace skipped) 'depth' containers deep. */
    if (pos >= len)
        return fail(s, len, M_EOF);
    if (depth >= s->max_depth)
        return fail(s, pos, M_DEPTH);
    c = p[pos];
    if (c == '"') {
        pos = JS_NAME(scan_dq_string)(s, pos + 1);
        if (!pos)
            return NDP_EPARSE;
        goto after;
    }
    if (c == '{') {
        pos = JS_NAME(skip_ws)(p, pos + 1, len);
        if (pos < len && p[pos] == '}') {
            pos++;
            goto after;
        }
        set_kind(s, depth++, true);
        in_object = true;
        goto key;
    }
    if (c == '[') {
        pos = JS_NAME(skip_ws)(p, pos + 1, len);
        if (pos < len && p[pos] == ']') {
            pos++;
            goto after;
        }
        set_kind(s, depth++, false);
        in_object = false;
        goto value;
    }
    pos = JS_NAME(scan_scalar)(s, pos, c);
    if (!pos)
        return NDP_EPARSE;
    goto after;

key:
    /* 'pos' is where an object member must start. */
    if (pos < len && p[pos] == '"')
        pos = JS_NAME(scan_dq_string)(s, pos + 1);
    else if (pos < len && p[pos] == '\'')
        pos = scan_sq_string(s, pos + 1);
    else
        return fail_at(s, pos, M_KEY);
    if (!pos)
        return NDP_EPARSE;
    if (pos < len && p[pos] == ':') {
        pos++;
    } else {
        pos = JS_NAME(skip_ws)(p, pos, len);
        if (pos >= len || p[pos] != ':')
            return fail_at(s, pos, M_COLON);
        pos++;
    }
    pos = JS_NAME(skip_ws)(p, pos, len);
    goto value;

after:
    /* A value ended at 'pos'; it was a member of level 'depth' - 1. */
    if (depth == base) {
        s->pos = pos;
        if (start)
            *start = first;
        if (end)
            *end = pos;
        return 0;
    }
    pos = JS_NAME(skip_ws)(p, pos, len);
    if (pos >= len)
        return fail(s, len, M_EOF);
    c = p[pos];
    if (c == ',') {
        if (pos >= tell_at)
            tell_at = tell_progress(s, pos);
        pos = JS_NAME(skip_ws)(p, pos + 1, len);
        if (in_object)
            goto key;
        goto value;
    }
    if (c != (in_object ? '}' : ']'))
        return fail_at(s, pos, in_object ? M_OBJSEP : M_ARRSEP);
    pos++;
    depth--;
    if (depth > base)
        in_object = get_kind(s, depth - 1);
    goto after;
}

/* The newlines in [p, p + n): line numbers for the readers. */
JS_TARGET static size_t JS_NAME(count_newlines)(const unsigned char *p,
                                                size_t n)
{
    size_t count = 0, i = 0;
#if JS_WIDTH == 32
    const __m256i nl = _mm256_set1_epi8('\n');

    /* Byte counters (a match is -1, subtracted), summed every 255 rounds
     * before one could overflow. */
    while (n - i >= 32) {
        __m256i bytes = _mm256_setzero_si256(), sums;
        size_t rounds = 0;

        for (; n - i >= 32 && rounds < 255; i += 32, rounds++) {
            __m256i v =
                _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
            bytes = _mm256_sub_epi8(bytes, _mm256_cmpeq_epi8(v, nl));
        }
        sums = _mm256_sad_epu8(bytes, _mm256_setzero_si256());
        count += (size_t)_mm256_extract_epi64(sums, 0) +
                 (size_t)_mm256_extract_epi64(sums, 1) +
                 (size_t)_mm256_extract_epi64(sums, 2) +
                 (size_t)_mm256_extract_epi64(sums, 3);
    }
#elif JS_WIDTH == 16
    const __m128i nl = _mm_set1_epi8('\n');

    for (; n - i >= 16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        count += (size_t)__builtin_popcount(
            (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)));
    }
#else
    const uint64_t ones = 0x0101010101010101u;
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Fu;

    for (; n - i >= 8; i += 8) {
        uint64_t w, x;

        memcpy(&w, p + i, 8);
        x = w ^ (ones * '\n');
        /* The top bit of each byte of x that is zero, exactly. */
        x = ~(((x & low7) + low7) | x | low7);
        while (x) {
            count++;
            x &= x - 1;
        }
    }
#endif
    for (; i < n; i++)
        count += p[i] == '\n';
    return count;
}

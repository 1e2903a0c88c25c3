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

JS_TARGET static int JS_NAME(skip_value)(struct ndp_jscan *s, size_t *start,
                                          size_t *end)
{
    const unsigned char *p = (const unsigned char *)s->buf;
    const size_t len = s->len;
    const int base = s->depth;
    size_t pos, first;
    int depth = base;
    bool in_object = false; /* kind of level depth - 1, when depth > base */
    unsigned char c;

    if (s->err_msg)
        return NDP_EPARSE;
    pos = first = JS_NAME(skip_ws)(p, s->pos, len);

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

    for (; n - i >= 32; i += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        count += (size_t)__builtin_popcount(
            (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, nl)));
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

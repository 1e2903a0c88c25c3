/*
 * SPDX-License-Identifier: Apache-2.0
 * safe.c - UTF-8 repair and one-line escaping of text from the input (see
 * safe.h for the rule and why it is one rule).  The decoder follows
 * Unicode's Table 3-7 (well-formed byte sequences) byte by byte, so an
 * overlong form, a surrogate or a code point past U+10FFFF is refused at
 * the first byte that makes it so.
 */
#include "common.h"
#include "safe.h"
#include "buf.h"
#include "strutil.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/* The range the second byte of a sequence led by 'lead' must fall in, and
 * the sequence's length; 0 for a byte that leads nothing. */
static size_t lead_info(unsigned char lead, unsigned char *lo,
                        unsigned char *hi)
{
    *lo = 0x80;
    *hi = 0xbf;
    if (lead < 0x80)
        return 1;
    if (lead < 0xc2 || lead > 0xf4)
        return 0;
    if (lead < 0xe0)
        return 2;
    if (lead == 0xe0)
        *lo = 0xa0; /* no overlong three-byte form */
    else if (lead == 0xed)
        *hi = 0x9f; /* no surrogate */
    if (lead < 0xf0)
        return 3;
    if (lead == 0xf0)
        *lo = 0x90; /* no overlong four-byte form */
    else if (lead == 0xf4)
        *hi = 0x8f; /* nothing past U+10FFFF */
    return 4;
}

/*
 * Decodes the UTF-8 sequence at 'p' ('n' > 0 bytes left).  Returns its
 * length (1-4) with the code point in '*cp', or 0 when 'p' starts no valid
 * sequence; then '*bad' is the length (>= 1) of the maximal invalid
 * subpart, to be replaced by one U+FFFD.
 */
static size_t utf8_next(const unsigned char *p, size_t n, uint32_t *cp,
                        size_t *bad)
{
    unsigned char lo, hi;
    size_t len = lead_info(p[0], &lo, &hi), i;
    uint32_t c;

    *bad = 1;
    if (len == 0)
        return 0;
    c = len == 1 ? p[0] : p[0] & (0x7f >> len);
    for (i = 1; i < len; i++) {
        if (i >= n || p[i] < lo || p[i] > hi) {
            *bad = i;
            return 0;
        }
        c = c << 6 | (p[i] & 0x3f);
        lo = 0x80;
        hi = 0xbf;
    }
    *cp = c;
    return len;
}

bool ndp_utf8_valid(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, n, bad;
    uint32_t cp;

    while (i < len) {
        n = utf8_next(p + i, len - i, &cp, &bad);
        if (!n)
            return false;
        i += n;
    }
    return true;
}

/* Whether XML 1.0's Char production excludes 'cp'. */
static bool xml_excluded(uint32_t cp)
{
    return (cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') ||
           cp == 0xfffe || cp == 0xffff;
}

void ndp_utf8_repair(struct ndp_buf *out, const char *s, size_t len,
                     unsigned flags)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, n, bad;
    uint32_t cp;

    while (i < len) {
        n = utf8_next(p + i, len - i, &cp, &bad);
        if (n && !((flags & NDP_UTF8_XML) && xml_excluded(cp))) {
            ndp_buf_add(out, p + i, n);
            i += n;
        } else {
            ndp_buf_adds(out, REPLACEMENT);
            i += n ? n : bad;
        }
    }
}

void ndp_utf8_repair_tail(struct ndp_buf *b, size_t from, unsigned flags)
{
    struct ndp_buf fixed = NDP_BUF_INIT;
    size_t i;

    if (from >= b->len)
        return;
    /* Most text is valid, and scanning is cheaper than copying it. */
    for (i = from; i < b->len && (unsigned char)b->buf[i] >= 0x20 &&
                   (unsigned char)b->buf[i] < 0x80;
         i++)
        ;
    if (!(flags & NDP_UTF8_XML) && ndp_utf8_valid(b->buf + i, b->len - i))
        return;
    ndp_utf8_repair(&fixed, b->buf + i, b->len - i, flags);
    ndp_buf_setlen(b, i);
    ndp_buf_add(b, fixed.buf, fixed.len);
    ndp_buf_release(&fixed);
}

/* Characters that reorder or split a line in a terminal or a log viewer:
 * Unicode line and paragraph separators, bidirectional embeddings,
 * overrides and isolates ("Trojan Source"). */
static bool invisible_control(uint32_t cp)
{
    return cp == 0x2028 || cp == 0x2029 || (cp >= 0x202a && cp <= 0x202e) ||
           (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200e || cp == 0x200f ||
           cp == 0x061c;
}

/* Appends the character 'cp' ('n' bytes at 'p') for a log line. */
static void safe_char(struct ndp_buf *out, const unsigned char *p, size_t n,
                      uint32_t cp)
{
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
        ndp_buf_addf(out, "\\x%02x", (unsigned)cp);
    else if (invisible_control(cp))
        ndp_buf_addf(out, "\\u%04x", (unsigned)cp);
    else
        ndp_buf_add(out, p, n);
}

/*
 * Does a CI log command start at 's'?  GitHub's "##[" and Azure Pipelines'
 * "##vso[" (which the agent honours anywhere in a line, in any case).
 */
static bool log_command_at(const char *s)
{
    return s[0] == '#' && s[1] == '#' &&
           (s[2] == '[' || ndp_strncasecmp(s + 2, "vso[", 4) == 0);
}

void ndp_safe_line(struct ndp_buf *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s), i = 0, n, bad;
    uint32_t cp;

    if (p[0] == ':' && p[1] == ':') {
        ndp_buf_adds(out, "\\x3a"); /* "::cmd" -> "\x3a:cmd" */
        i = 1;
    }
    while (i < len) {
        if (log_command_at((const char *)p + i)) {
            ndp_buf_adds(out, "#\\x23"); /* "##[" -> "#\x23[" */
            i += 2;
            continue;
        }
        n = utf8_next(p + i, len - i, &cp, &bad);
        if (n)
            safe_char(out, p + i, n, cp);
        else
            ndp_buf_adds(out, REPLACEMENT);
        i += n ? n : bad;
    }
}

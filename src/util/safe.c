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

/* ---- the command rule ---- */

static const char *const command_texts[NDP_CMD_COUNT] = {
    [NDP_CMD_GITHUB_ERROR] = "::error ",
    [NDP_CMD_GITHUB_WARNING] = "::warning ",
    [NDP_CMD_GITHUB_NOTICE] = "::notice ",
    [NDP_CMD_GITHUB_GROUP] = "::group::",
    [NDP_CMD_GITHUB_ENDGROUP] = "::endgroup::",
    [NDP_CMD_AZURE_LOGISSUE] = "##vso[task.logissue ",
    [NDP_CMD_AZURE_COMPLETE] = "##vso[task.complete ",
};

/* A '#' or ':' in each kind of output, as its reader shows it. */
const struct ndp_defuse ndp_defuse_text = { "\\x23", "\\x3a" };
const struct ndp_defuse ndp_defuse_json = { "\\u0023", "\\u003a" };
const struct ndp_defuse ndp_defuse_xml = { "&#35;", "&#58;" };
const struct ndp_defuse ndp_defuse_percent = { "%23", "%3A" };

const char *ndp_log_command_text(enum ndp_log_command c)
{
    if ((unsigned)c >= NDP_CMD_COUNT)
        NDP_BUG("no such log command");
    return command_texts[c];
}

void ndp_log_command_start(struct ndp_buf *out, enum ndp_log_command c)
{
    if (out->len && out->buf[out->len - 1] != '\n')
        NDP_BUG("a log command that does not start a line");
    ndp_buf_adds(out, ndp_log_command_text(c));
}

/*
 * Unicode's White_Space (PropList.txt): what .NET's Char.IsWhiteSpace()
 * answers, and so what the Actions runner's String.TrimStart() removes
 * before it looks for "::".
 */
static bool white_space(uint32_t cp)
{
    return (cp >= 0x09 && cp <= 0x0d) || cp == 0x20 || cp == 0x85 ||
           cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) ||
           cp == 0x2028 || cp == 0x2029 || cp == 0x202f || cp == 0x205f ||
           cp == 0x3000;
}

/*
 * What a culture-sensitive comparison (ICU, as .NET uses it on Linux and
 * macOS) gives no weight, so that it matches "##[" across them: the C0
 * and C1 controls, the format characters (Cf) and the other
 * Default_Ignorable_Code_Points of Unicode 15.1, unassigned ones included.
 */
static bool ignorable(uint32_t cp)
{
    static const uint32_t ranges[][2] = {
        { 0x0000, 0x001f }, { 0x007f, 0x009f }, { 0x00ad, 0x00ad },
        { 0x034f, 0x034f }, { 0x0600, 0x0605 }, { 0x061c, 0x061c },
        { 0x06dd, 0x06dd }, { 0x070f, 0x070f }, { 0x0890, 0x0891 },
        { 0x08e2, 0x08e2 }, { 0x115f, 0x1160 }, { 0x17b4, 0x17b5 },
        { 0x180b, 0x180f }, { 0x200b, 0x200f }, { 0x202a, 0x202e },
        { 0x2060, 0x206f }, { 0x3164, 0x3164 }, { 0xfe00, 0xfe0f },
        { 0xfeff, 0xfeff }, { 0xffa0, 0xffa0 }, { 0xfff0, 0xfffb },
        { 0x110bd, 0x110bd }, { 0x110cd, 0x110cd }, { 0x13430, 0x1343f },
        { 0x1bca0, 0x1bca3 }, { 0x1d173, 0x1d17a }, { 0xe0000, 0xe0fff },
    };
    size_t i;

    if (cp < 0x80)
        return cp < 0x20 || cp == 0x7f;
    for (i = 0; i < NDP_ARRAY_SIZE(ranges) && ranges[i][0] <= cp; i++)
        if (cp <= ranges[i][1])
            return true;
    return false;
}

/* Where the first character at 'p' (before 'end') that is not ignorable,
 * nor with 'white' White_Space, starts. */
static const unsigned char *skip_ignorable(const unsigned char *p,
                                           const unsigned char *end,
                                           bool white)
{
    size_t n, bad;
    uint32_t cp;

    while (p < end) {
        n = utf8_next(p, (size_t)(end - p), &cp, &bad);
        if (!n || !(ignorable(cp) || (white && white_space(cp))))
            break;
        p += n;
    }
    return p;
}

/*
 * Do the ASCII 'letters' (lower case) follow at 'p', in any case, with
 * ignorable characters between them?  Sets '*second' to where the second
 * letter is.
 */
static bool marker_at(const unsigned char *p, const unsigned char *end,
                      const char *letters, const unsigned char **second)
{
    size_t k;

    for (k = 0; letters[k]; k++) {
        if (k)
            p = skip_ignorable(p, end, false);
        if (p == end || (*p | (*p >= 'A' && *p <= 'Z' ? 0x20 : 0)) !=
                            (unsigned char)letters[k])
            return false;
        if (k == 1)
            *second = p;
        p++;
    }
    return true;
}

/* A command of 'allowed' at 'p', the start of a line: its length. */
static size_t own_command(const unsigned char *p, const unsigned char *end,
                          unsigned allowed)
{
    size_t c, n;

    for (c = 0; c < NDP_CMD_COUNT; c++) {
        n = strlen(command_texts[c]);
        if ((allowed & 1u << c) && (size_t)(end - p) >= n &&
            memcmp(p, command_texts[c], n) == 0)
            return n;
    }
    return 0;
}

struct defuser {
    struct ndp_buf fixed;           /* the text so far, when changed */
    bool changed;
    const unsigned char *copied;    /* what is in 'fixed' up to here */
    const struct ndp_defuse *how;
};

/* Writes 'with' in place of the character at 'at'. */
static void replace_at(struct defuser *d, const unsigned char *at,
                       const char *with)
{
    ndp_buf_add(&d->fixed, d->copied, (size_t)(at - d->copied));
    ndp_buf_adds(&d->fixed, with);
    d->copied = at + 1;
    d->changed = true;
}

/* The rule on one line, [p, end): 'allowed' commands at its start. */
static void defuse_line(struct defuser *d, const unsigned char *p,
                        const unsigned char *end, unsigned allowed)
{
    const unsigned char *q, *second;
    size_t own = own_command(p, end, allowed);

    if (!own) {
        q = skip_ignorable(p, end, true);
        if (q < end && *q == ':' && marker_at(q, end, "::", &second))
            replace_at(d, q, d->how->colon); /* "::x" -> "\x3a:x" */
    }
    for (q = p + own; q < end; q++) {
        if (*q != '#' || !(marker_at(q, end, "##[", &second) ||
                           marker_at(q, end, "##vso[", &second)))
            continue;
        replace_at(d, second, d->how->hash); /* "##[" -> "#\x23[" */
        q = second;
    }
}

/* The rule on 'len' bytes at 's', the first of them starting a line. */
static void defuse(struct defuser *d, const char *s, size_t len,
                   unsigned allowed)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len, *eol;

    d->copied = p;
    while (p < end) {
        for (eol = p; eol < end && *eol != '\n' && *eol != '\r'; eol++)
            ;
        defuse_line(d, p, eol, allowed);
        p = eol + (eol < end);
    }
}

void ndp_safe_lines(struct ndp_buf *b, size_t from, unsigned allowed,
                    const struct ndp_defuse *how)
{
    struct defuser d = { NDP_BUF_INIT, false, NULL, how };

    if (from >= b->len)
        return;
    defuse(&d, b->buf + from, b->len - from, allowed);
    if (!d.changed)
        return; /* nothing broke the rule */
    ndp_buf_add(&d.fixed, d.copied,
                (size_t)((const unsigned char *)b->buf + b->len - d.copied));
    ndp_buf_setlen(b, from);
    ndp_buf_add(b, d.fixed.buf, d.fixed.len);
    ndp_buf_release(&d.fixed);
}

void ndp_safe_line(struct ndp_buf *out, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s), i = 0, n, bad, start = out->len;
    uint32_t cp;

    while (i < len) {
        n = utf8_next(p + i, len - i, &cp, &bad);
        if (n)
            safe_char(out, p + i, n, cp);
        else
            ndp_buf_adds(out, REPLACEMENT);
        i += n ? n : bad;
    }
    /* The text may start a line: its own start counts as one. */
    ndp_safe_lines(out, start, NDP_CMDS_NONE, &ndp_defuse_text);
}

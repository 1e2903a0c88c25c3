/*
 * SPDX-License-Identifier: Apache-2.0
 * report_markdown_escape.c - text from the input written into Markdown
 * (report_markdown.h), so that it never becomes Markdown.
 *
 * Values, addresses and paths are code spans, prose is backslash-escaped,
 * '@' cannot mention anyone, a scheme's ':' and the '.' of "www." are
 * escaped so that GFM's autolink extension finds no bare URL ("https\://",
 * "www\."), invalid UTF-8 is U+FFFD and control characters are shown as
 * \xNN, so no input can break a table or add a link, an image or HTML.
 * GitHub links its own references after rendering, where no backslash is
 * left: an issue or pull request ("#1", "GH-3", "owner/repo#2", which
 * also posts a "mentioned this" note on it), a user's commit ("user@sha",
 * broken with '@') and a commit SHA (seven or more hex digits).  In prose
 * a zero width space follows the '#' and the '-' before a number, and one
 * goes after every sixth digit of a run of seven or more hex digits, so
 * none of them is found; code spans are never linked.  Inside an HTML
 * block (the <summary> of a <details>), where Markdown is not read, the
 * same text is written with character references instead of backslashes.
 */
#include "common.h"
#include "report.h"
#include "report_markdown.h"
#include "buf.h"
#include "safe.h"

/* U+200B ZERO WIDTH SPACE after '@': "@name" mentions nobody. */
#define ZWSP "\xe2\x80\x8b"
#define NO_MENTION "@" ZWSP
#define SHA_RUN 7 /* GitHub links a commit SHA from this many hex digits */

/* Appends a control character as \xNN; returns whether 'c' was one. */
static bool add_control(struct ndp_buf *out, const unsigned char *p)
{
    if (*p < 0x20 || *p == 0x7f) {
        ndp_buf_addf(out, "\\x%02x", *p);
        return true;
    }
    return false;
}

/* Whether 'p' (inside 's') ends a URL scheme: "https:" before "//", or a
 * word's ':' right before a non-space ("mailto:x").  GFM autolinks after
 * the ':', so escaping it is enough. */
static bool scheme_colon(const unsigned char *s, const unsigned char *p)
{
    return *p == ':' && p > s && (p[-1] | 0x20) >= 'a' &&
           (p[-1] | 0x20) <= 'z' && p[1] > ' ';
}

/* Whether 'p' is the '.' of "www." (any case). */
static bool www_dot(const unsigned char *s, const unsigned char *p)
{
    return *p == '.' && p - s >= 3 && (p[-1] | 0x20) == 'w' &&
           (p[-2] | 0x20) == 'w' && (p[-3] | 0x20) == 'w';
}

static bool is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

static bool is_hex(unsigned char c)
{
    return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* Whether 'p' (inside 's') is the '#' of "#12" or the '-' of "GH-12" (any
 * case): GitHub's issue and pull request references. */
static bool reference_mark(const unsigned char *s, const unsigned char *p)
{
    if (!is_digit(p[1]))
        return false;
    return *p == '#' || (*p == '-' && p - s >= 2 && (p[-1] | 0x20) == 'h' &&
                         (p[-2] | 0x20) == 'g');
}

/* A character of a word, as a regular expression's \w reads ASCII. */
static bool is_word(unsigned char c)
{
    return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
           c == '_';
}

/*
 * Appends the run of hex digits at 'p' (which no word character comes
 * before) with a zero width space after every SHA_RUN - 1 of them when it
 * could be taken for a commit SHA: a word of its own, SHA_RUN digits or
 * more.  Returns its length.
 */
static size_t add_hex_run(struct ndp_buf *out, const unsigned char *p)
{
    size_t n = 0, i;
    bool sha;

    while (is_hex(p[n]))
        n++;
    sha = n >= SHA_RUN && !is_word(p[n]);
    for (i = 0; i < n; i++) {
        if (sha && i && i % (SHA_RUN - 1) == 0)
            ndp_buf_adds(out, ZWSP);
        ndp_buf_addch(out, (char)p[i]);
    }
    return n;
}

/*
 * Copies 's' into 'fixed' repaired to valid UTF-8 and cut to 'width' bytes
 * (0: no cut) on a character boundary; returns whether it was cut.
 */
static bool md_prepare(struct ndp_buf *fixed, const char *s, size_t width)
{
    size_t len;

    ndp_utf8_repair(fixed, s, strlen(s), 0);
    if (!width || fixed->len <= width)
        return false;
    len = width > 3 ? width - 3 : 0;
    while (len && ((unsigned char)fixed->buf[len] & 0xC0) == 0x80)
        len--; /* do not cut a UTF-8 sequence */
    ndp_buf_setlen(fixed, len);
    return true;
}

/* Appends the punctuation at 'p' that Markdown (or, with 'html', HTML)
 * would read, escaped; returns whether it was such. */
static bool add_punctuation(struct ndp_buf *out, const unsigned char *start,
                            const unsigned char *p, bool html)
{
    bool url = scheme_colon(start, p) || www_dot(start, p);

    if (html && (url || strchr("&<>\"'", *p))) {
        ndp_buf_addf(out, "&#%d;", *p); /* a character reference */
        return true;
    }
    if (!html && (url || strchr("\\`*_[]<>|~&$", *p))) {
        ndp_buf_addf(out, "\\%c", *p);
        return true;
    }
    return false;
}

/* Prose from the input, as Markdown or as the text of an HTML element. */
static void add_prose(struct ndp_buf *out, const char *s, size_t width,
                      bool html)
{
    struct ndp_buf fixed = NDP_BUF_INIT;
    bool cut = md_prepare(&fixed, s, width);
    const unsigned char *start = (const unsigned char *)fixed.buf, *p;

    for (p = start; *p; p++) {
        if (add_control(out, p))
            continue;
        if (is_hex(*p) && (p == start || !is_word(p[-1])))
            p += add_hex_run(out, p) - 1;
        else if (reference_mark(start, p))
            ndp_buf_addf(out, "%c" ZWSP, *p);
        else if (*p == '@')
            ndp_buf_adds(out, NO_MENTION);
        else if (!add_punctuation(out, start, p, html))
            ndp_buf_addch(out, (char)*p);
    }
    ndp_buf_adds(out, cut ? "..." : "");
    ndp_buf_release(&fixed);
}

void ndp_report_md_prose(struct ndp_buf *out, const char *s, size_t width)
{
    add_prose(out, s, width, false);
}

void ndp_report_md_html(struct ndp_buf *out, const char *s, size_t width)
{
    add_prose(out, s, width, true);
}

static size_t longest_backtick_run(const char *s)
{
    size_t run = 0, longest = 0;

    for (; *s; s++) {
        run = *s == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    return longest;
}

void ndp_report_md_code_span(struct ndp_buf *out, const char *text,
                             size_t width, bool cell)
{
    struct ndp_buf fixed = NDP_BUF_INIT;
    bool cut = md_prepare(&fixed, text, width);
    const char *s = fixed.buf;
    size_t fence = longest_backtick_run(s) + 1, i, len = fixed.len;
    bool pad = len && (s[0] == '`' || s[len - 1] == '`' || s[0] == ' ');
    const unsigned char *p = (const unsigned char *)s;

    for (i = 0; i < fence; i++)
        ndp_buf_addch(out, '`');
    ndp_buf_adds(out, pad ? " " : "");
    for (i = 0; i < len; i++) {
        if (add_control(out, p + i))
            continue;
        if (cell && p[i] == '|')
            ndp_buf_adds(out, "\\|");
        else
            ndp_buf_addch(out, (char)p[i]);
    }
    ndp_buf_adds(out, cut ? "..." : "");
    ndp_buf_adds(out, pad ? " " : "");
    for (i = 0; i < fence; i++)
        ndp_buf_addch(out, '`');
    ndp_buf_release(&fixed);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * ignore.c - parsing inline ignore comments (see ignore.h).  One pass
 * over at most NDP_IGNORE_SCAN_MAX bytes: quotes are followed so that a
 * '#' or '//' inside a string ("https://...") starts no comment.
 */
#include "common.h"
#include "ignore.h"
#include "strutil.h"

#define MARKER "ndplint:ignore"

static bool blank(char c)
{
    return c == ' ' || c == '\t';
}

static bool letter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

/*
 * Rule ids at 'p': letters then digits ("NDP101"), joined by commas.
 * Returns the end of the list, or NULL if there is none there.
 */
static const char *rule_list(const char *p, const char *end)
{
    for (;;) {
        const char *start = p;
        while (p < end && letter(*p))
            p++;
        if (p == start || p == end || !digit(*p))
            return NULL;
        while (p < end && digit(*p))
            p++;
        if (p == end || *p != ',')
            return p;
        p++;
    }
}

/* Where the comment of the line [p, end) starts (after '#' or '//'). */
static const char *comment_start(const char *p, const char *end, bool hash)
{
    char quote = 0;

    for (; p < end; p++) {
        if (quote) {
            if (*p == '\\' && p + 1 < end)
                p++;
            else if (*p == quote)
                quote = 0;
        } else if (*p == '"' || *p == '\'') {
            quote = *p;
        } else if (hash && *p == '#') {
            return p + 1;
        } else if (*p == '/' && p + 1 < end && p[1] == '/') {
            return p + 2;
        }
    }
    return NULL;
}

enum ndp_ignore_status ndp_ignore_parse(struct ndp_ignore *out,
                                        const char *line, size_t len,
                                        bool hash)
{
    const char *end, *p, *nl;
    size_t n;

    if (len > NDP_IGNORE_SCAN_MAX)
        len = NDP_IGNORE_SCAN_MAX;
    n = strnlen(line, len);
    nl = memchr(line, '\n', n);
    end = nl ? nl : line + n;
    p = comment_start(line, end, hash);
    if (!p)
        return NDP_IGNORE_NONE;
    while (p < end && blank(*p))
        p++;
    if ((size_t)(end - p) < strlen(MARKER) ||
        memcmp(p, MARKER, strlen(MARKER)) != 0)
        return NDP_IGNORE_NONE;
    p += strlen(MARKER);
    if (p < end && !blank(*p) && *p != '\r')
        return NDP_IGNORE_NONE; /* "ndplint:ignored", another word */
    memset(out, 0, sizeof(*out));
    while (p < end && blank(*p))
        p++;
    out->rules = p;
    p = rule_list(p, end);
    if (!p || (p < end && !blank(*p) && *p != '\r'))
        return NDP_IGNORE_NO_RULE;
    out->rules_len = (size_t)(p - out->rules);
    while (p < end && (blank(*p)))
        p++;
    while (end > p && (blank(end[-1]) || end[-1] == '\r'))
        end--;
    out->reason = p;
    out->reason_len = (size_t)(end - p);
    if (out->reason_len > NDP_IGNORE_REASON_MAX) {
        out->truncated = true;
        out->reason_len = NDP_IGNORE_REASON_MAX;
        /* Not inside a UTF-8 character. */
        while (out->reason_len &&
               ((unsigned char)p[out->reason_len] & 0xC0) == 0x80)
            out->reason_len--;
    }
    return out->reason_len ? NDP_IGNORE_OK : NDP_IGNORE_NO_REASON;
}

bool ndp_ignore_names(const struct ndp_ignore *ig, const char *rule_id)
{
    const char *p = ig->rules, *end = ig->rules + ig->rules_len;
    size_t n = strlen(rule_id);

    while (p < end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *stop = comma ? comma : end;
        if ((size_t)(stop - p) == n && ndp_strncasecmp(p, rule_id, n) == 0)
            return true;
        p = stop + 1;
    }
    return false;
}

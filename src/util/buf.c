/*
 * SPDX-License-Identifier: Apache-2.0
 * buf.c - growable byte buffer used for every string ndplint builds:
 * paths, messages, reports.
 */
#include "common.h"
#include "buf.h"

char ndp_buf_empty[1];

void ndp_buf_init(struct ndp_buf *b)
{
    b->buf = ndp_buf_empty;
    b->len = 0;
    b->alloc = 0;
}

void ndp_buf_release(struct ndp_buf *b)
{
    if (b->alloc)
        free(b->buf);
    ndp_buf_init(b);
}

void ndp_buf_reset(struct ndp_buf *b)
{
    ndp_buf_setlen(b, 0);
}

char *ndp_buf_detach(struct ndp_buf *b)
{
    char *s = b->alloc ? b->buf : ndp_xstrdup("");

    ndp_buf_init(b);
    return s;
}

void ndp_buf_grow(struct ndp_buf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    size_t n;

    if (need <= b->alloc)
        return;
    n = b->alloc ? b->alloc : 64;
    while (n < need)
        n *= 2;
    if (b->alloc) {
        b->buf = ndp_xrealloc(b->buf, n);
    } else {
        b->buf = ndp_xmalloc(n);
        b->buf[0] = '\0';
    }
    b->alloc = n;
}

void ndp_buf_setlen(struct ndp_buf *b, size_t len)
{
    if (len > b->len)
        NDP_BUG("ndp_buf_setlen beyond length");
    b->len = len;
    if (b->alloc)
        b->buf[len] = '\0';
}

void ndp_buf_add(struct ndp_buf *b, const void *data, size_t len)
{
    if (len == 0)
        return;
    ndp_buf_grow(b, len);
    memcpy(b->buf + b->len, data, len);
    b->len += len;
    b->buf[b->len] = '\0';
}

void ndp_buf_adds(struct ndp_buf *b, const char *s)
{
    ndp_buf_add(b, s, strlen(s));
}

void ndp_buf_addch(struct ndp_buf *b, char c)
{
    ndp_buf_add(b, &c, 1);
}

void ndp_buf_add_names(struct ndp_buf *b, const char *(*name_at)(size_t),
                       const char *last_sep)
{
    size_t i;

    for (i = 0; name_at(i); i++) {
        if (i)
            ndp_buf_adds(b, name_at(i + 1) ? ", " : last_sep);
        ndp_buf_adds(b, name_at(i));
    }
}

void ndp_buf_vaddf(struct ndp_buf *b, const char *fmt, va_list ap)
{
    va_list cp;
    int n;

    va_copy(cp, ap);
    n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0)
        NDP_BUG("vsnprintf failed");
    ndp_buf_grow(b, (size_t)n);
    vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void ndp_buf_addf(struct ndp_buf *b, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    ndp_buf_vaddf(b, fmt, ap);
    va_end(ap);
}

void ndp_buf_add_json_string(struct ndp_buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    ndp_buf_addch(b, '"');
    for (; *p; p++) {
        switch (*p) {
        case '"': ndp_buf_adds(b, "\\\""); break;
        case '\\': ndp_buf_adds(b, "\\\\"); break;
        case '\n': ndp_buf_adds(b, "\\n"); break;
        case '\r': ndp_buf_adds(b, "\\r"); break;
        case '\t': ndp_buf_adds(b, "\\t"); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                ndp_buf_addf(b, "\\u%04x", *p);
            else
                ndp_buf_addch(b, (char)*p);
        }
    }
    ndp_buf_addch(b, '"');
}

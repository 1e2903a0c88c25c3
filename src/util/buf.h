/*
 * SPDX-License-Identifier: Apache-2.0
 * buf.h - growable NUL-terminated byte buffer (after git's strbuf).
 *
 * Invariants: 'buf' is never NULL (an empty buffer points at a static "");
 * buf[len] == '\0'.  Initialise with NDP_BUF_INIT; release with
 * ndp_buf_release(); ndp_buf_detach() hands the memory to the caller.
 */
#ifndef NDP_BUF_H
#define NDP_BUF_H

#include <stdarg.h>

struct ndp_buf {
    char *buf;
    size_t len;
    size_t alloc;
};

extern char ndp_buf_empty[];
#define NDP_BUF_INIT { ndp_buf_empty, 0, 0 }

void ndp_buf_init(struct ndp_buf *b);
void ndp_buf_release(struct ndp_buf *b);
void ndp_buf_reset(struct ndp_buf *b);
/* Returns the owned string (never NULL); 'b' is left empty. */
char *ndp_buf_detach(struct ndp_buf *b);
void ndp_buf_grow(struct ndp_buf *b, size_t extra);
void ndp_buf_add(struct ndp_buf *b, const void *data, size_t len);
void ndp_buf_adds(struct ndp_buf *b, const char *s);
void ndp_buf_addch(struct ndp_buf *b, char c);
void ndp_buf_addf(struct ndp_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void ndp_buf_vaddf(struct ndp_buf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
void ndp_buf_setlen(struct ndp_buf *b, size_t len);
/* Appends 's' as a JSON string literal, quotes included. */
void ndp_buf_add_json_string(struct ndp_buf *b, const char *s);
/*
 * Appends the names 'name_at' gives for 0, 1, ... until NULL, as messages
 * list choices: "a, b, c", with 'last_sep' (", " or " or ") before the
 * last one.
 */
void ndp_buf_add_names(struct ndp_buf *b, const char *(*name_at)(size_t),
                       const char *last_sep);

#endif

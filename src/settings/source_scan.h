/*
 * SPDX-License-Identifier: Apache-2.0
 * source_scan.h - which bytes of a .tf file or a Bicep/ARM template are
 * code, and which are comments, strings or heredocs, so that the source
 * lookup (locate.c) finds resource blocks, attributes and ndplint:ignore
 * comments only where they are code: a 'resource' line quoted in a
 * heredoc or commented out with '/ * ... * /' is no block, and an ignore
 * comment inside them suppresses nothing.
 *
 * A lexer, not a parser: HCL strings with escapes and ${ } / %{ }
 * interpolation (which may hold strings of their own), heredocs
 * (<<EOT and <<-EOT, to the line holding only the marker), '#' and '//'
 * line comments, '/ * * /' block comments; Bicep and JSON templates
 * with '...', "...", '''...''' strings and '//' and '/ * * /' comments.
 * One pass, linear in the text; interpolation nested past
 * NDP_SOURCE_MAX_DEPTH, an unterminated string, comment or heredoc make
 * the rest of the file not code.
 */
#ifndef NDP_SOURCE_SCAN_H
#define NDP_SOURCE_SCAN_H

#include <stddef.h>

#define NDP_SOURCE_MAX_DEPTH 32

enum ndp_source_lang { NDP_SOURCE_HCL, NDP_SOURCE_TEMPLATE };

enum ndp_source_kind {
    NDP_SOURCE_CODE,
    NDP_SOURCE_STRING,        /* a string literal or heredoc body */
    NDP_SOURCE_LINE_COMMENT,  /* from its marker to the end of the line */
    NDP_SOURCE_BLOCK_COMMENT
};

/* A stretch [start, end) of one kind other than code. */
struct ndp_source_span {
    size_t start, end;
    enum ndp_source_kind kind;
};

/* The stretches of a text that are not code, in order, not overlapping. */
struct ndp_source_map {
    struct ndp_source_span *spans;
    size_t nr, alloc;
};

#define NDP_SOURCE_MAP_INIT { NULL, 0, 0 }

/* Scans 'len' bytes of 'text' into 'out' (empty on entry). */
void ndp_source_map_build(struct ndp_source_map *out, const char *text,
                          size_t len, enum ndp_source_lang lang);

/* What the byte at 'offset' is: code, or the kind of the stretch. */
enum ndp_source_kind ndp_source_kind_at(const struct ndp_source_map *map,
                                        size_t offset);

/*
 * Does a token of code start at 'offset': code, or the opening quote of
 * a string (a quoted name, as JSON and Bicep write keys)?
 */
int ndp_source_token_at(const struct ndp_source_map *map, size_t offset);

/*
 * The line comment that holds 'offset', as [*start, *end), or 0 when
 * 'offset' is not in one.  Returns 1 otherwise.
 */
int ndp_source_line_comment(const struct ndp_source_map *map, size_t offset,
                            size_t *start, size_t *end);

void ndp_source_map_release(struct ndp_source_map *map);

#endif

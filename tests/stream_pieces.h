/*
 * SPDX-License-Identifier: Apache-2.0
 * stream_pieces.h - the pruned reader run on text that arrives in pieces,
 * summed up as one string, for stream_check.c, the input fuzz target and
 * unit_input:
 * the source reveals a few more bytes on each wait, whatever was asked
 * for, so every scan runs out of bytes again and again and has to go back
 * to its mark.  Piece size 0 parses the whole text at once; then 'split'
 * >= 0 has a second thread take the far part of a long list, starting
 * after 'split' percent of the rest, and -1 keeps it to one thread.
 */
#ifndef NDP_STREAM_PIECES_H
#define NDP_STREAM_PIECES_H

#include "buf.h"
#include "input.h"
#include "input/input_internal.h"

#include <json-c/json.h>

struct pieces {
    size_t total;   /* bytes of the whole text */
    size_t shown;   /* bytes revealed so far */
    size_t piece;   /* revealed on each wait */
};

static size_t reveal(void *ctx, size_t want, bool *complete)
{
    struct pieces *src = ctx;

    (void)want;
    src->shown += src->piece;
    if (src->shown >= src->total)
        src->shown = src->total;
    *complete = src->shown == src->total;
    return src->shown;
}

/* One parse, summed up as text: "rc pos msg seen tree". */
static char *summary(const char *text, size_t len, size_t piece, int split)
{
    struct json_object *root = NULL;
    struct pieces src = { len, 0, piece };
    struct ndp_text_source source = { reveal, &src };
    struct ndp_input_tuning tuning = { .split_min_bytes = SIZE_MAX };
    struct ndp_buf out = NDP_BUF_INIT;
    size_t seen = 0, pos = 0;
    const char *msg = NULL;
    int rc;

    if (split >= 0) {
        tuning.split_min_bytes = 0;
        tuning.split_percent = tuning.early_percent = (unsigned)split;
    }
    if (piece)
        rc = ndp_parse_pruned_stream(&root, &seen, text, &source, &pos,
                                     &msg);
    else
        rc = ndp_parse_pruned(&root, &seen, text, len, NULL, &tuning, &pos,
                              &msg);
    if (rc)
        ndp_buf_addf(&out, "error %d at %zu: %s", rc, pos, msg);
    else
        ndp_buf_addf(&out, "seen %zu: %s", seen,
                     json_object_to_json_string_ext(root,
                                                    JSON_C_TO_STRING_PLAIN));
    json_object_put(root);
    return ndp_buf_detach(&out);
}

#endif

/*
 * input_load.h - an input's bytes, as the input stage reads them.
 *
 * A regular file is mapped, not copied (a 240 MB plan costs no read()
 * copy and no second 240 MB of heap); standard input and other streams
 * are read.  Either way 'text' ends up UTF-8 without a byte order mark and
 * NUL-terminated, and must be treated as read-only.
 */
#ifndef NDP_INPUT_LOAD_H
#define NDP_INPUT_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"

struct ndp_error;
struct ndp_stream;

struct ndp_input_bytes {
    struct ndp_buf text;  /* what the later stages read (a view: never
                             released through this member) */
    struct ndp_buf owned; /* the bytes read, or re-encoded */
    void *map;            /* or the file mapped, 'map_len' bytes */
    size_t map_len;
    struct ndp_stream *stream; /* standard input still being read */
};
#define NDP_INPUT_BYTES_INIT { NDP_BUF_INIT, NDP_BUF_INIT, NULL, 0, NULL }

/*
 * Loads 'path' ("-": standard input), refusing more than 'max_bytes'.  A
 * pipe on standard input is read by a thread while the caller goes on:
 * the bytes come in through ndp_input_bytes_wait() (an ndp_text_source
 * callback, 'ctx' being 'in'), and ndp_input_bytes_finish() waits for the
 * end and reports a read error or an input over the limit.  Until then
 * 'text.len' is 0.
 */
int ndp_input_bytes_load(struct ndp_input_bytes *in, const char *path,
                         size_t max_bytes, struct ndp_error *err);
bool ndp_input_bytes_streaming(const struct ndp_input_bytes *in);
size_t ndp_input_bytes_wait(void *ctx, size_t want, bool *complete);
/*
 * Asks the reading thread to read no more (the text already read cannot
 * be a document); ndp_input_bytes_finish() then waits only for the read
 * under way.  The thread stops by itself too, on the first bytes that no
 * JSON text starts with and on a NUL byte outside UTF-16.
 */
void ndp_input_bytes_stop(struct ndp_input_bytes *in);
/* Waits for the whole input; does nothing when it is all there. */
int ndp_input_bytes_finish(struct ndp_input_bytes *in, size_t max_bytes,
                           struct ndp_error *err);
/* Copies 'len' bytes already in memory. */
void ndp_input_bytes_copy(struct ndp_input_bytes *in, const void *bytes,
                          size_t len);
/* Turns UTF-16 or BOM-prefixed UTF-8 into plain UTF-8. */
int ndp_input_bytes_to_utf8(struct ndp_input_bytes *in, const char *path,
                            struct ndp_error *err);
void ndp_input_bytes_release(struct ndp_input_bytes *in);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * load.h - a file's bytes, the way every file ndplint reads is loaded.
 *
 * Plans and what-if results (src/input/), the settings file, cluster
 * state and baselines all come in through here, so each gets the same
 * byte cap, the same UTF-16 and byte order mark handling and the same
 * messages for a file that is not JSON (empty, binary, a zip archive,
 * text output).  The input stage then validates and prunes a document
 * itself; a small file is parsed whole by ndp_load_json().  Below every
 * stage: nothing here knows what a plan or a setting is.
 */
#ifndef NDP_LOAD_H
#define NDP_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include <sys/stat.h>

#include "buf.h"

struct json_object;
struct ndp_error;
struct ndp_stream;

/* The nesting json-c and the input stage's scanner accept. */
#define NDP_MAX_JSON_DEPTH 512

/*
 * Bytes borrowed from their owner (a mapped file, or a buffer that owns
 * them): read them, never resize or free them through this.
 */
struct ndp_bytes {
    const char *data;
    size_t len;
};
#define NDP_BYTES_INIT { "", 0 }

/* A view of the bytes 'b' holds, valid until 'b' changes. */
static inline struct ndp_bytes ndp_bytes_of_buf(const struct ndp_buf *b)
{
    struct ndp_bytes view = { b->buf, b->len };

    return view;
}

/*
 * A regular file is mapped, not copied (a 240 MB plan costs no read()
 * copy and no second 240 MB of heap); standard input and other streams
 * are read.  Either way 'text' ends up UTF-8 without a byte order mark and
 * NUL-terminated, and is borrowed from 'owned' or 'map'.  A regular file
 * stays open until released, so that ndp_load_check_unchanged() can tell
 * whether another process changed it while it was read.
 */
struct ndp_load {
    struct ndp_bytes text; /* what the later stages read */
    struct ndp_buf owned;  /* the bytes read, or re-encoded */
    void *map;             /* or the file mapped, 'map_len' bytes (also
                              the room standard input is read into) */
    size_t map_len;
    bool file_mapped;      /* 'map' is the file itself, read-only */
    struct ndp_stream *stream; /* standard input still being read */
    int guard;             /* 'map''s guard against the file shrinking
                              (map_guard.c), or -1 */
    bool pages_lost;       /* a guarded page vanished before 'map' went */
    int file_fd;           /* the regular file loaded, or -1 */
    struct stat opened;    /* what fstat() said of it when it was opened */
};
#define NDP_LOAD_INIT                                                      \
    { NDP_BYTES_INIT, NDP_BUF_INIT, NULL, 0, false, NULL, -1, false, -1,   \
      { 0 } }

/*
 * Loads 'path' ("-": standard input), refusing more than 'max_bytes'.  A
 * pipe on standard input is read by a thread while the caller goes on:
 * the bytes come in through ndp_load_wait() (a callback for the input
 * stage's pruned parser, 'ctx' being 'in'), and ndp_load_finish() waits
 * for the end and reports a read error or an input over the limit.  Until
 * then 'text.len' is 0.
 */
int ndp_load_file(struct ndp_load *in, const char *path, size_t max_bytes,
                  struct ndp_error *err);
bool ndp_load_streaming(const struct ndp_load *in);
size_t ndp_load_wait(void *ctx, size_t want, bool *complete);
/*
 * Is 'text' a mapped file's own pages, from its first byte (not bytes the
 * program read or wrote)?  Then a walk over it may give them back
 * (struct ndp_load_cursor).
 */
bool ndp_load_mapped(const struct ndp_load *in);
/*
 * Asks the reading thread to read no more (the text already read cannot
 * be a document); ndp_load_finish() then waits only for the read
 * under way.  The thread stops by itself too, on the first bytes that no
 * JSON text starts with and on a NUL byte outside UTF-16.
 */
void ndp_load_stop(struct ndp_load *in);
/* Waits for the whole input; does nothing when it is all there. */
int ndp_load_finish(struct ndp_load *in, size_t max_bytes,
                    struct ndp_error *err);
/*
 * Judges what reading the file 'in' loaded came to ('rc': 0, or an error
 * already in 'err'): when the file changed meanwhile (a page of its
 * mapping vanished under the reader, or fstat() now gives another size,
 * modification time or status change time), what was read is not the
 * file, whatever the reader made of it, and the result is NDP_EIO "'PATH'
 * changed while it was read", in place of 'err''s message.  Otherwise
 * 'rc' as it was.  Standard input read from a pipe never changes.
 */
int ndp_load_check_unchanged(const struct ndp_load *in, const char *path,
                             int rc, struct ndp_error *err);
/* Copies 'len' bytes already in memory. */
void ndp_load_copy(struct ndp_load *in, const void *bytes, size_t len);
/* Turns UTF-16 or BOM-prefixed UTF-8 into plain UTF-8. */
int ndp_load_to_utf8(struct ndp_load *in, const char *path,
                     struct ndp_error *err);
void ndp_load_release(struct ndp_load *in);

/* ---- a mapped file's pages given back behind a walk -------------------- */

/* By default, the pages behind a walk go back this many bytes at a time. */
#define NDP_LOAD_GIVE_BACK_STEP ((size_t)4 << 20)

/*
 * A walk over a mapped file's text (ndp_load_mapped()) gives the pages it
 * has left behind back to the system as it goes, 'step' bytes or more at
 * a time (ndp_drop_file_pages()): a 240 MB plan then never holds more
 * than a few megabytes of it, and each thread gives back what it read
 * instead of one thread tearing the whole mapping down at the end.  Read
 * again (a message, a second look, the other thread), the pages come back
 * from the file.  One cursor per thread that walks the text.
 */
struct ndp_load_cursor {
    const char *text;   /* NULL: nothing to give back */
    size_t step;
    size_t given_back;  /* pages given back up to here (SIZE_MAX: where
                           the walk starts) */
};

/*
 * A cursor over 'text' (borrowed, a mapped file's; NULL: a cursor that
 * does nothing), giving pages back 'step' bytes at a time.
 */
void ndp_load_cursor_start(struct ndp_load_cursor *c, const char *text,
                           size_t step);
/*
 * The walk is at byte 'pos': gives back the pages between where it last
 * gave back and 'pos' once they are 'step' bytes or more.  A 'pos' before
 * that (a walk started again further back) starts counting anew.  Returns
 * the byte at which to call again (SIZE_MAX: never).
 */
size_t ndp_load_cursor_reach(struct ndp_load_cursor *c, size_t pos);

/* ---- text that should be JSON ------------------------------------------ */

/*
 * Refuses 'text' when it holds a NUL byte ("... contains a NUL byte at
 * offset N; not a JSON text file"); 0 otherwise.
 */
int ndp_load_refuse_nul(const struct ndp_bytes *text, const char *path,
                        struct ndp_error *err);

/*
 * Refuses what is plainly not a JSON document, saying what it looks like
 * instead: empty, a binary Terraform plan, terraform's output behind the
 * '[command]' line of hashicorp/setup-terraform's wrapper, a NUL byte,
 * text that starts no JSON value (an error message, text output).  'expected' says what
 * the file should have been ("'terraform show -json PLANFILE' ...
 * output"), for the messages.  0 when it may be JSON.
 */
int ndp_load_check_not_json(const struct ndp_bytes *text, const char *path,
                            const char *expected, struct ndp_error *err);

/* The 1-based line of byte 'offset' of 'text', for messages. */
long ndp_load_line_at(const struct ndp_bytes *text, size_t offset);

/*
 * Parses 'text' with json-c, strictly (or, with 'lenient', with the
 * comments ARM templates may hold), at most NDP_MAX_JSON_DEPTH deep.
 * Returns 0 with '*out' owned by the caller, or NDP_EPARSE with 'err'
 * saying where the text went wrong.
 */
int ndp_load_parse_json(struct json_object **out,
                        const struct ndp_bytes *text, const char *path,
                        bool lenient, struct ndp_error *err);

/*
 * Loads a small JSON file whole (cluster state, settings, a baseline):
 * the byte cap 'max_bytes', the checks and messages above, then one json-c
 * tree owned by the caller.  'expected' says what the file should be.
 */
int ndp_load_json(struct json_object **out, const char *path,
                  size_t max_bytes, const char *expected,
                  struct ndp_error *err);

#endif

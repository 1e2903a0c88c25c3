/*
 * SPDX-License-Identifier: Apache-2.0
 * readahead.h - a mapped file read ahead of the walk over it.
 *
 * A large plan is mapped (load.c), and each page of a mapping is brought
 * in by a page fault: in a virtual machine that sets up page tables
 * through its host, that costs more than the whole scan.  A cursor reads
 * the part of the file a walk is about to cross, a chunk at a time, into
 * fresh memory (huge pages where the system gives them) with pread(), and
 * moves those pages over the mapping of that chunk in one step; the
 * chunks behind the walk are mapped from the file again, which gives
 * their memory back.  Every byte of the text reads the same at any
 * moment, from any thread: a chunk is either the file's mapping or a copy
 * of it, swapped in one call.  Where the system cannot move pages
 * (compat.h), the cursor only gives back the file's pages behind the walk.
 */
#ifndef NDP_READAHEAD_H
#define NDP_READAHEAD_H

#include <stdbool.h>
#include <stddef.h>

/* The file behind a mapped text, owned by its struct ndp_load. */
struct ndp_readahead {
    int fd;           /* read with pread(); closed by ndp_load_release() */
    const char *text; /* the mapping, at a multiple of 'chunk' */
    size_t len;       /* the file's size */
    size_t chunk;     /* bytes read at a time, a multiple of the page;
                         0: not read ahead, only given back */
};
#define NDP_READAHEAD_INIT { -1, NULL, 0, 0 }

/* One walk's reading ahead: one per thread that walks the text. */
struct ndp_readahead_cursor {
    const struct ndp_readahead *ra; /* NULL: nothing to do */
    char *scratch_map;    /* the room chunks are read into ... */
    size_t scratch_len;
    char *scratch;        /* ... at a multiple of 'chunk' */
    size_t lo, hi;        /* chunks [lo, hi) this cursor copied in */
    size_t given_back;    /* no moves: file pages given back up to here
                             (SIZE_MAX: where the walk starts) */
    bool moving;          /* chunks are copied in (else only given back) */
};

/* Chunk size for a file of 'len' bytes: 0 when reading ahead would not pay. */
size_t ndp_readahead_chunk(size_t len);

/* The first multiple of 'chunk' at or after 'p' (a chunk's room must
 * reach it): where a chunk may sit on a huge page. */
char *ndp_readahead_align(char *p, size_t chunk);

/* A cursor for 'ra' (NULL: one that does nothing). */
void ndp_readahead_start(struct ndp_readahead_cursor *c,
                         const struct ndp_readahead *ra);

/*
 * The walk is at byte 'pos': copies in the chunk it is in and the next,
 * and gives back the chunks it has left behind (all but the one before).
 * Returns the byte at which to call again (SIZE_MAX: never).
 */
size_t ndp_readahead_reach(struct ndp_readahead_cursor *c, size_t pos);

/* Gives back the cursor's chunks and its room. */
void ndp_readahead_stop(struct ndp_readahead_cursor *c);

/* Tests: read in chunks of 'bytes' (0: the default) from now on, and
 * how many chunks have been copied in so far. */
void ndp_readahead_tune(size_t bytes);
size_t ndp_readahead_copied(void);

#endif

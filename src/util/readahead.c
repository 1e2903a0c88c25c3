/*
 * SPDX-License-Identifier: Apache-2.0
 * readahead.c - a mapped file read ahead of the walk over it
 * (readahead.h): chunks copied in ahead of a cursor, given back behind it.
 */
#include "common.h"
#include "readahead.h"
#include "compat.h"
#include "util_internal.h"

#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

/* Huge pages are this large on x86-64 and on most arm64 systems. */
#define DEFAULT_CHUNK ((size_t)2 << 20)
/* No moves: the file's pages behind the walk go back this many at once. */
#define GIVE_BACK_STEP ((size_t)4 << 20)

static size_t tuned_chunk;
static atomic_size_t chunks_copied;

size_t ndp_readahead_copied(void)
{
    return atomic_load(&chunks_copied);
}

void ndp_readahead_tune(size_t bytes)
{
    tuned_chunk = bytes;
}

size_t ndp_readahead_chunk(size_t len)
{
    size_t chunk = tuned_chunk ? tuned_chunk : DEFAULT_CHUNK;

    /* A file of a few chunks is read before a chunk could be. */
    return len / chunk >= 4 ? chunk : 0;
}

char *ndp_readahead_align(char *p, size_t chunk)
{
    return p + (chunk - (uintptr_t)p % chunk) % chunk;
}

/* Room for one chunk at a multiple of the chunk size. */
static bool make_scratch(struct ndp_readahead_cursor *c)
{
    size_t chunk = c->ra->chunk;
    char *map;

    c->scratch_len = 2 * chunk;
    map = ndp_map_zeros(c->scratch_len, PROT_READ | PROT_WRITE, true);
    if (map == MAP_FAILED)
        return false;
    c->scratch_map = map;
    c->scratch = ndp_readahead_align(map, chunk);
    ndp_advise_huge_pages(c->scratch, chunk);
    return true;
}

void ndp_readahead_start(struct ndp_readahead_cursor *c,
                         const struct ndp_readahead *ra)
{
    memset(c, 0, sizeof(*c));
    c->ra = ra;
    c->given_back = SIZE_MAX;
    c->moving = ra && ra->chunk && ndp_can_move_pages() && make_scratch(c);
}

/* The file's own mapping again over chunk 'k', which gives back the copy. */
static void give_back_chunk(struct ndp_readahead_cursor *c, size_t k)
{
    const struct ndp_readahead *ra = c->ra;

    (void)ndp_map_file_part_at((char *)ra->text + k * ra->chunk, ra->chunk,
                               ra->fd, k * ra->chunk);
}

static void give_back_chunks(struct ndp_readahead_cursor *c, size_t upto)
{
    while (c->lo < c->hi && c->lo < upto)
        give_back_chunk(c, c->lo++);
}

/* Copies chunk 'k' in; false (the mapping stays) when it could not. */
static bool copy_in_chunk(struct ndp_readahead_cursor *c, size_t k)
{
    const struct ndp_readahead *ra = c->ra;

    if (!ndp_move_read_pages(c->scratch, (char *)ra->text + k * ra->chunk,
                             ra->chunk, ra->fd, k * ra->chunk))
        return false;
    atomic_fetch_add(&chunks_copied, 1);
    return true;
}

/* No moves: the file's pages behind 'pos' go back, a step at a time. */
static size_t give_back_pages(struct ndp_readahead_cursor *c, size_t pos)
{
    if (c->given_back == SIZE_MAX || pos < c->given_back)
        c->given_back = pos; /* where this walk starts, or starts again */
    if (pos >= c->given_back + GIVE_BACK_STEP) {
        ndp_drop_file_pages(c->ra->text + c->given_back,
                            pos - c->given_back);
        c->given_back = pos;
    }
    return c->given_back + GIVE_BACK_STEP;
}

size_t ndp_readahead_reach(struct ndp_readahead_cursor *c, size_t pos)
{
    size_t at, want_hi, k, chunks;

    if (!c->ra)
        return SIZE_MAX;
    if (!c->moving)
        return give_back_pages(c, pos);
    chunks = c->ra->len / c->ra->chunk;
    at = pos / c->ra->chunk;
    if (at >= chunks)
        return SIZE_MAX; /* the rest is the last part of a chunk */
    /* The one before stays: a message or a second look may read it. */
    if (at >= c->hi + 1 || at + 1 < c->lo)
        give_back_chunks(c, SIZE_MAX); /* a jump: start anew */
    if (c->lo == c->hi)
        c->lo = c->hi = at;
    if (at > c->lo + 1)
        give_back_chunks(c, at - 1);
    want_hi = at + 2 < chunks ? at + 2 : chunks;
    for (k = c->hi; k < want_hi; k++) {
        if (!copy_in_chunk(c, k)) {
            /* The mapping alone from now on; the copies go back first,
             * as only the file's own pages may be dropped. */
            give_back_chunks(c, SIZE_MAX);
            c->moving = false;
            return give_back_pages(c, pos);
        }
        c->hi = k + 1;
    }
    return (at + 1) * c->ra->chunk;
}

void ndp_readahead_stop(struct ndp_readahead_cursor *c)
{
    if (c->ra && c->lo < c->hi)
        give_back_chunks(c, SIZE_MAX);
    if (c->scratch_map)
        munmap(c->scratch_map, c->scratch_len);
    memset(c, 0, sizeof(*c));
}

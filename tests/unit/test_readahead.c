/*
 * SPDX-License-Identifier: Apache-2.0
 * test_readahead.c - a mapped file read ahead of a walk (readahead.h):
 * wherever cursors go, in one thread or two, every byte of the text reads
 * as the file's, at every moment; the chunk a cursor is in is a copy and
 * the chunks far behind it are the file's mapping again (where the
 * system moves pages); a read that comes short gives the copies back; a
 * file too small to be read ahead is only given back.
 */
#include "test_common.h"
#include "compat.h"
#include "error.h"
#include "load.h"
#include "readahead.h"
#include "util/util_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

/* Chunks of the tests: 16 pages, so that a small file has many. */
static size_t chunk_bytes(void)
{
    return 16 * (size_t)sysconf(_SC_PAGESIZE);
}

struct test_file {
    char path[64];
    char *bytes;
    size_t len;
    struct ndp_load in;
    const struct ndp_readahead *ra;
};

/* A file of 'len' pseudo-random bytes, loaded (mapped) as a plan is. */
static void open_test_file(struct test_file *f, size_t len)
{
    struct ndp_error err = NDP_ERROR_INIT;
    unsigned state = 12345;
    size_t i;
    int fd;

    ndp_readahead_tune(chunk_bytes());
    snprintf(f->path, sizeof(f->path), "/tmp/ndplint-readahead-XXXXXX");
    fd = mkstemp(f->path);
    assert_true(fd >= 0);
    f->len = len;
    f->bytes = ndp_xmalloc(len);
    for (i = 0; i < len; i++) {
        state = state * 1103515245u + 12345u;
        f->bytes[i] = (char)(state >> 16);
    }
    assert_int_equal(write(fd, f->bytes, len), (ssize_t)len);
    close(fd);
    f->in = (struct ndp_load)NDP_LOAD_INIT;
    assert_int_equal(ndp_load_file(&f->in, f->path, SIZE_MAX, &err), 0);
    f->ra = ndp_load_readahead(&f->in);
    assert_non_null(f->ra);
}

static void close_test_file(struct test_file *f)
{
    ndp_load_release(&f->in);
    unlink(f->path);
    free(f->bytes);
    ndp_readahead_tune(0);
}

static void assert_reads_as_file(const struct test_file *f)
{
    assert_memory_equal(f->in.text.data, f->bytes, f->len);
    assert_int_equal(f->in.text.data[f->len], 0);
}

/*
 * Is the page at 'addr' mapped from a file (/proc/self/maps names one)?
 * -1 where the system does not say.
 */
static int mapped_from_file(const void *addr)
{
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[512];
    int found = -1;

    if (!maps)
        return -1;
    while (found < 0 && fgets(line, sizeof(line), maps)) {
        unsigned long lo, hi, inode;
        int path_at = 0;

        if (sscanf(line, "%lx-%lx %*s %*s %*s %lu %n", &lo, &hi, &inode,
                   &path_at) < 3)
            continue;
        if ((uintptr_t)addr >= lo && (uintptr_t)addr < hi)
            found = inode != 0;
    }
    fclose(maps);
    return found;
}

/*
 * One cursor forward a third of a chunk at a time, then back to the
 * start, past the end and to the last chunk: every byte reads as the
 * file's after each step; where pages move, the chunk the cursor is in
 * and the next are copies, and a chunk three behind is the file again.
 * (prune_check wants chunks moved wherever the build says pages move.)
 */
static void cursor__keeps_every_byte_as_the_file(void **state)
{
    struct test_file f;
    struct ndp_readahead_cursor c;
    size_t chunk = chunk_bytes(), pos, jumps[4], i;
    size_t copied = ndp_readahead_copied();
    bool moves;

    (void)state;
    open_test_file(&f, 10 * chunk + 123);
    assert_int_equal(f.ra->chunk, chunk);
    assert_int_equal((uintptr_t)f.in.text.data % chunk, 0);
    ndp_readahead_start(&c, f.ra);
    /* Under valgrind, which has no MREMAP_DONTUNMAP, the first move fails
     * and the cursor goes on as where pages cannot move. */
    ndp_readahead_reach(&c, 0);
    moves = c.moving;
    for (pos = 0; pos < f.len; pos += chunk / 3) {
        size_t at = pos / chunk;

        ndp_readahead_reach(&c, pos);
        assert_reads_as_file(&f);
        if (!moves || at >= f.len / chunk)
            continue;
        assert_int_equal(mapped_from_file(f.in.text.data + at * chunk), 0);
        if (at >= 3)
            assert_int_equal(
                mapped_from_file(f.in.text.data + (at - 3) * chunk), 1);
    }
    jumps[0] = 0;
    jumps[1] = f.len + 5;
    jumps[2] = 9 * chunk + 1;
    jumps[3] = 2 * chunk;
    for (i = 0; i < NDP_ARRAY_SIZE(jumps); i++) {
        ndp_readahead_reach(&c, jumps[i]);
        assert_reads_as_file(&f);
    }
    ndp_readahead_stop(&c);
    assert_reads_as_file(&f);
    if (moves) {
        assert_true(ndp_readahead_copied() > copied);
        for (i = 0; i < f.len / chunk; i++)
            assert_int_equal(mapped_from_file(f.in.text.data + i * chunk), 1);
    }
    close_test_file(&f);
}

/*
 * The file cut short while it is read (a read comes short): the cursor
 * gives its copies back and goes on with the mapping alone, which still
 * reads as the file as far as it goes.
 */
static void short_read__gives_the_copies_back(void **state)
{
    struct test_file f;
    struct ndp_readahead_cursor c;
    size_t chunk = chunk_bytes(), i;

    (void)state;
    open_test_file(&f, 10 * chunk);
    ndp_readahead_start(&c, f.ra);
    ndp_readahead_reach(&c, 0);
    if (!c.moving) { /* valgrind: no moves at all */
        ndp_readahead_stop(&c);
        close_test_file(&f);
        skip();
    }
    assert_int_equal(truncate(f.path, (off_t)(3 * chunk)), 0);
    ndp_readahead_reach(&c, 2 * chunk); /* chunk 3 is no longer there */
    assert_false(c.moving);
    assert_int_equal(c.lo, c.hi);
    for (i = 0; i < 3; i++)
        assert_int_equal(mapped_from_file(f.in.text.data + i * chunk), 1);
    assert_memory_equal(f.in.text.data, f.bytes, 3 * chunk);
    ndp_readahead_reach(&c, 3 * chunk - 1);
    ndp_readahead_stop(&c);
    close_test_file(&f);
}

struct walker {
    struct test_file *f;
    int rounds;
    size_t step;
    atomic_bool *done;
};

static void *walk(void *arg)
{
    struct walker *w = arg;
    struct ndp_readahead_cursor c;
    int r;

    for (r = 0; r < w->rounds; r++) {
        size_t pos;

        ndp_readahead_start(&c, w->f->ra);
        for (pos = 0; pos < w->f->len; pos += w->step)
            ndp_readahead_reach(&c, pos);
        ndp_readahead_stop(&c);
    }
    atomic_store(w->done, true);
    return NULL;
}

/*
 * Two cursors in two threads over the same chunks, copying in and giving
 * back, while this thread reads the whole text again and again: never a
 * hole (a fault), never a byte that is not the file's.
 */
static void cursors_in_two_threads__never_show_other_bytes(void **state)
{
    struct test_file f;
    atomic_bool done[2];
    struct walker w[2];
    pthread_t t[2];
    size_t reads = 0;
    int i;

    (void)state;
    open_test_file(&f, 12 * chunk_bytes() + 77);
    for (i = 0; i < 2; i++) {
        atomic_init(&done[i], false);
        w[i].f = &f;
        w[i].rounds = 40;
        w[i].step = chunk_bytes() / (size_t)(2 + i);
        w[i].done = &done[i];
        assert_int_equal(pthread_create(&t[i], NULL, walk, &w[i]), 0);
    }
    while (!atomic_load(&done[0]) || !atomic_load(&done[1]) || reads < 3) {
        assert_reads_as_file(&f);
        reads++;
    }
    for (i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    assert_reads_as_file(&f);
    close_test_file(&f);
}

/*
 * A file of fewer than four chunks is not read ahead: its cursor only
 * gives pages back, and every byte still reads as the file's.
 */
static void small_file__is_only_given_back(void **state)
{
    struct test_file f;
    struct ndp_readahead_cursor c;
    size_t pos;

    (void)state;
    open_test_file(&f, 3 * chunk_bytes() + 9);
    assert_int_equal(f.ra->chunk, 0);
    ndp_readahead_start(&c, f.ra);
    assert_false(c.moving);
    for (pos = 0; pos < f.len; pos += 1000) {
        ndp_readahead_reach(&c, pos);
        assert_reads_as_file(&f);
    }
    ndp_readahead_stop(&c);
    close_test_file(&f);
}

/* A cursor without a file does nothing and never asks again. */
static void no_file__nothing_to_do(void **state)
{
    struct ndp_readahead_cursor c;

    (void)state;
    ndp_readahead_start(&c, NULL);
    assert_int_equal(ndp_readahead_reach(&c, 12345), SIZE_MAX);
    ndp_readahead_stop(&c);
}

int main(void)
{
    static struct test_list list;

    ADD_TEST(&list, cursor__keeps_every_byte_as_the_file);
    ADD_TEST(&list, cursors_in_two_threads__never_show_other_bytes);
    ADD_TEST(&list, short_read__gives_the_copies_back);
    ADD_TEST(&list, small_file__is_only_given_back);
    ADD_TEST(&list, no_file__nothing_to_do);
    return cmocka_run_group_tests_name("readahead", list.items, NULL, NULL);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * test_load.c - a mapped file's pages given back behind a walk (load.h):
 * a cursor asks again where its contract says, gives back what the walk
 * has left behind (where the system gives pages back: the mapping's
 * resident size falls), and every byte still reads as the file's, at every
 * moment, from any thread; only a file's own mapping is handed to a
 * cursor.
 */
#include "test_common.h"
#include "compat.h"
#include "error.h"
#include "load.h"
#include "platform_config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

/* Steps of the tests: 16 pages, so that a small file has many. */
static size_t step_bytes(void)
{
    return 16 * (size_t)sysconf(_SC_PAGESIZE);
}

struct test_file {
    char path[64];
    char *bytes;
    size_t len;
    struct ndp_load in;
};

/* A file of 'len' bytes, the 'n' of 'head' then pseudo-random ones,
 * loaded as a plan is. */
static void open_test_file(struct test_file *f, const char *head, size_t n,
                           size_t len)
{
    struct ndp_error err = NDP_ERROR_INIT;
    unsigned state = 12345;
    size_t i;
    int fd;

    snprintf(f->path, sizeof(f->path), "/tmp/ndplint-load-XXXXXX");
    fd = mkstemp(f->path);
    assert_true(fd >= 0);
    f->len = len;
    f->bytes = ndp_xmalloc(len);
    memcpy(f->bytes, head, n);
    for (i = n; i < len; i++) {
        state = state * 1103515245u + 12345u;
        f->bytes[i] = (char)(state >> 16);
    }
    assert_int_equal(write(fd, f->bytes, len), (ssize_t)len);
    close(fd);
    f->in = (struct ndp_load)NDP_LOAD_INIT;
    assert_int_equal(ndp_load_file(&f->in, f->path, SIZE_MAX, &err), 0);
}

static void close_test_file(struct test_file *f)
{
    ndp_load_release(&f->in);
    unlink(f->path);
    free(f->bytes);
}

static void assert_reads_as_file(const struct test_file *f)
{
    assert_memory_equal(f->in.text.data, f->bytes, f->len);
    assert_int_equal(f->in.text.data[f->len], 0);
}

/*
 * The contract of ndp_load_cursor_reach(): where to call again, pages
 * given back once a step is behind, a walk started again further back
 * counted anew, and a cursor without text never asked again.
 */
static void cursor__asks_again_a_step_on(void **state)
{
    struct ndp_load_cursor c;
    size_t step = step_bytes();
    static const char text[1] = "";

    (void)state;
    ndp_load_cursor_start(&c, NULL, step);
    assert_int_equal(ndp_load_cursor_reach(&c, 12345), SIZE_MAX);
    ndp_load_cursor_start(&c, text, 0);
    assert_int_equal(c.step, NDP_LOAD_GIVE_BACK_STEP);
    ndp_load_cursor_start(&c, text, step);
    assert_int_equal(c.step, step);
    /* Nothing is given back here: the pointer is never read. */
    assert_int_equal(ndp_load_cursor_reach(&c, 100), 100 + step);
    assert_int_equal(ndp_load_cursor_reach(&c, 99 + step), 100 + step);
    assert_int_equal(c.given_back, 100);
    assert_int_equal(ndp_load_cursor_reach(&c, 50), 50 + step);
    assert_int_equal(c.given_back, 50);
}

/*
 * One walk over a file of twelve steps: where pages go back, the mapping
 * holds little more than the steps around the walk once it is at the end
 * (reading a byte maps the pages around it too),
 * and the whole text still reads as the file's (the pages come back).
 * A second walk from the start gives back again.
 */
static void cursor__gives_back_the_pages_behind_the_walk(void **state)
{
    struct test_file f;
    struct ndp_load_cursor c;
    size_t step = step_bytes(), pos, at = 0, before, after;
    int round;

    (void)state;
    open_test_file(&f, "", 0, 12 * step + 123);
    assert_true(ndp_load_mapped(&f.in));
    for (round = 0; round < 2; round++) {
        assert_reads_as_file(&f);
        before = test_resident_bytes(f.in.text.data);
        ndp_load_cursor_start(&c, f.in.text.data, step);
        at = 0;
        for (pos = 0; pos <= f.len; pos += step / 3) {
            if (pos >= at)
                at = ndp_load_cursor_reach(&c, pos);
            assert_true(at > pos);
            assert_int_equal(f.in.text.data[pos], pos < f.len ? f.bytes[pos]
                                                              : 0);
        }
        after = test_resident_bytes(f.in.text.data);
#if NDP_HAVE_MADV_DONTNEED
        if (before != SIZE_MAX && after != SIZE_MAX) {
            assert_true(before >= 10 * step);
            assert_true(after <= 4 * step);
        }
#else
        (void)before;
        (void)after;
#endif
    }
    assert_reads_as_file(&f);
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
    struct ndp_load_cursor c;
    int r;

    for (r = 0; r < w->rounds; r++) {
        size_t pos;

        ndp_load_cursor_start(&c, w->f->in.text.data, step_bytes());
        for (pos = 0; pos < w->f->len; pos += w->step)
            ndp_load_cursor_reach(&c, pos);
    }
    atomic_store(w->done, true);
    return NULL;
}

/*
 * Two cursors in two threads giving back the same pages while this thread
 * reads the whole text again and again: never a byte that is not the
 * file's.
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
    open_test_file(&f, "", 0, 12 * step_bytes() + 77);
    for (i = 0; i < 2; i++) {
        atomic_init(&done[i], false);
        w[i].f = &f;
        w[i].rounds = 40;
        w[i].step = step_bytes() / (size_t)(2 + i);
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
 * Only a file's own mapping may be given back: not bytes the program
 * copied, not a text that starts after a byte order mark or was turned
 * from UTF-16 into UTF-8 (the program's own memory).
 */
static void mapped__only_a_file_s_own_pages(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_load copy = NDP_LOAD_INIT;
    struct test_file f;

    (void)state;
    open_test_file(&f, "{}", 2, 3 * step_bytes());
    assert_true(ndp_load_mapped(&f.in));
    close_test_file(&f);
    open_test_file(&f, "\xEF\xBB\xBF{}", 5, 2 * step_bytes());
    assert_true(ndp_load_mapped(&f.in));
    assert_int_equal(ndp_load_to_utf8(&f.in, f.path, &err), 0);
    assert_false(ndp_load_mapped(&f.in));
    close_test_file(&f);
    open_test_file(&f, "\xFF\xFE{\0}\0", 6, 6);
    assert_int_equal(ndp_load_to_utf8(&f.in, f.path, &err), 0);
    assert_string_equal(f.in.text.data, "{}");
    assert_false(ndp_load_mapped(&f.in));
    close_test_file(&f);
    ndp_load_copy(&copy, "{}", 2);
    assert_false(ndp_load_mapped(&copy));
    ndp_load_release(&copy);
}

int main(void)
{
    static struct test_list list;

    ADD_TEST(&list, cursor__asks_again_a_step_on);
    ADD_TEST(&list, cursor__gives_back_the_pages_behind_the_walk);
    ADD_TEST(&list, cursors_in_two_threads__never_show_other_bytes);
    ADD_TEST(&list, mapped__only_a_file_s_own_pages);
    return cmocka_run_group_tests_name("load", list.items, NULL, NULL);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * test_load.c - a mapped file's pages given back behind a walk (load.h):
 * a cursor asks again where its contract says, gives back what the walk
 * has left behind (where the system gives pages back: the mapping's
 * resident size falls), and every byte still reads as the file's, at every
 * moment, from any thread; only a file's own mapping is handed to a
 * cursor.  And a file that changes while it is read (map_guard.c,
 * ndp_load_check_unchanged()): truncated under the mapping, its lost
 * pages read as zeros in any thread and the load says it changed; grown,
 * shrunk or touched, fstat says so; any other SIGBUS still ends the
 * process.
 */
#include "test_common.h"
#include "compat.h"
#include "error.h"
#include "load.h"
#include "platform_config.h"
#include "util_internal.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* A file of 'len' bytes, the 'n' of 'head' then pseudo-random ones. */
static void write_test_file(struct test_file *f, const char *head, size_t n,
                            size_t len)
{
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
}

/* The same, loaded as a plan is. */
static void open_test_file(struct test_file *f, const char *head, size_t n,
                           size_t len)
{
    struct ndp_error err = NDP_ERROR_INIT;

    write_test_file(f, head, n, len);
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

/* ---- a file that changes while it is read ------------------------------ */

/* SIGBUS's action now. */
static struct sigaction sigbus_action(void)
{
    struct sigaction now;

    assert_int_equal(sigaction(SIGBUS, NULL, &now), 0);
    return now;
}

static bool same_action(const struct sigaction *a, const struct sigaction *b)
{
    if ((a->sa_flags & SA_SIGINFO) != (b->sa_flags & SA_SIGINFO))
        return false;
    return (a->sa_flags & SA_SIGINFO) ? a->sa_sigaction == b->sa_sigaction
                                      : a->sa_handler == b->sa_handler;
}

/* Every byte of the test file's text up to 'cut', then zeros. */
static void assert_reads_as_cut_at(const struct test_file *f, size_t cut)
{
    size_t i;

    assert_memory_equal(f->in.text.data, f->bytes, cut);
    for (i = cut; i <= f->len; i++)
        if (f->in.text.data[i] != 0)
            fail_msg("byte %zu of a file cut at %zu is %d", i, cut,
                     f->in.text.data[i]);
}

/* ndp_load_check_unchanged() on 'f' after 'rc' gives "changed". */
static void assert_said_changed(const struct test_file *f, int rc,
                                struct ndp_error *err)
{
    char want[160];

    snprintf(want, sizeof(want), "'%s' changed while it was read (another "
             "process wrote or truncated it)", f->path);
    assert_int_equal(ndp_load_check_unchanged(&f->in, f->path, rc, err),
                     NDP_EIO);
    assert_string_equal(err->msg, want);
}

/*
 * A mapped file truncated by another process while it is read: the pages
 * it no longer has read as zeros (not SIGBUS), the guard is tripped, and
 * whatever the reader made of the text, the load says the file changed.
 * SIGBUS has the handler only while the file is mapped.
 */
static void guard__a_truncated_file_reads_as_zeros(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;
    struct sigaction before = sigbus_action(), now;
    struct test_file f;
    size_t cut = 3 * step_bytes() + 100;

    (void)state;
    open_test_file(&f, "{", 1, 12 * step_bytes() + 77);
    assert_true(ndp_load_mapped(&f.in));
    now = sigbus_action();
    assert_false(same_action(&now, &before));
    assert_false(ndp_guard_tripped(f.in.guard));
    assert_int_equal(truncate(f.path, (off_t)cut), 0);
    assert_reads_as_cut_at(&f, cut);
    assert_true(ndp_guard_tripped(f.in.guard));
    ndp_error_set(&err, NDP_EPARSE, "'%s' contains a NUL byte", f.path);
    assert_said_changed(&f, NDP_EPARSE, &err);
    close_test_file(&f);
    now = sigbus_action();
    assert_true(same_action(&now, &before));
}

struct half_reader {
    const struct test_file *f;
    size_t from, cut;
};

static void *read_half(void *arg)
{
    const struct half_reader *h = arg;
    size_t i;
    bool ok = true;

    for (i = h->from; i <= h->f->len; i++)
        ok &= h->f->in.text.data[i] == (i < h->cut ? h->f->bytes[i] : 0);
    return ok ? (void *)h : NULL;
}

/*
 * The scan runs in two threads on a long list (input_split.c): each
 * thread that reads a vanished page finds zeros, whichever faults first.
 */
static void guard__two_threads_read_zeros(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;
    struct test_file f;
    struct half_reader h[2];
    pthread_t t[2];
    void *result;
    int i;

    (void)state;
    open_test_file(&f, "[", 1, 40 * step_bytes());
    assert_int_equal(truncate(f.path, (off_t)(5 * step_bytes())), 0);
    for (i = 0; i < 2; i++) {
        h[i].f = &f;
        h[i].from = i ? 20 * step_bytes() : 0;
        h[i].cut = 5 * step_bytes();
        assert_int_equal(pthread_create(&t[i], NULL, read_half, &h[i]), 0);
    }
    for (i = 0; i < 2; i++) {
        assert_int_equal(pthread_join(t[i], &result), 0);
        assert_ptr_equal(result, &h[i]);
    }
    assert_said_changed(&f, 0, &err);
    close_test_file(&f);
}

/* The action SIGBUS had before the guard: it says it ran. */
static void sigbus_before_guard(int sig)
{
    (void)sig;
    _exit(42);
}

/*
 * A child with a guarded file takes a SIGBUS that is not a page of it: a
 * page of another mapping of a truncated file ('fault'), or a signal
 * sent.  Does not return.
 */
static void child_takes_another_sigbus(struct test_file *guarded,
                                       const struct test_file *other,
                                       bool fault)
{
    struct ndp_error err = NDP_ERROR_INIT;
    const volatile char *p;
    int fd = open(other->path, O_RDONLY);

    if (fd < 0 || signal(SIGBUS, sigbus_before_guard) == SIG_ERR ||
        ndp_load_file(&guarded->in, guarded->path, SIZE_MAX, &err) != 0 ||
        guarded->in.guard < 0)
        _exit(3);
    p = mmap(NULL, other->len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED || truncate(other->path, 1) != 0)
        _exit(3);
    if (fault)
        (void)p[2 * step_bytes()];
    else
        raise(SIGBUS);
    _exit(0); /* taken for the guard's */
}

/*
 * A SIGBUS that is not a page of a guarded mapping (another mapping of a
 * truncated file, a signal sent) goes to the action SIGBUS had before
 * the guard (the default one: the process ends, as it always did), not
 * taken for the guard's: a child tries each.
 */
static void guard__another_sigbus_gets_the_action_before(void **state)
{
    struct test_file guarded, other;
    int fault, status;

    (void)state;
    write_test_file(&guarded, "{", 1, 4 * step_bytes());
    write_test_file(&other, "{", 1, 4 * step_bytes());
    for (fault = 0; fault < 2; fault++) {
        pid_t pid = fork();

        assert_true(pid >= 0);
        if (pid == 0)
            child_takes_another_sigbus(&guarded, &other, fault);
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 42);
    }
    close_test_file(&other);
    close_test_file(&guarded);
}

/*
 * Told without a fault: a file that grew, shrank behind the reader or was
 * touched (another modification time) since it was opened; a file left
 * alone gives back the reader's own result, success or error.
 */
static void unchanged__told_by_fstat_too(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;
    struct timespec times[2] = { { 0, UTIME_OMIT }, { 12345, 0 } };
    struct test_file f;
    int fd;

    (void)state;
    open_test_file(&f, "{}", 2, 2 * step_bytes());
    assert_int_equal(ndp_load_check_unchanged(&f.in, f.path, 0, &err), 0);
    ndp_error_set(&err, NDP_EPARSE, "the reader's own");
    assert_int_equal(ndp_load_check_unchanged(&f.in, f.path, NDP_EPARSE,
                                              &err), NDP_EPARSE);
    assert_string_equal(err.msg, "the reader's own");
    fd = open(f.path, O_WRONLY | O_APPEND);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, " ", 1), 1);
    close(fd);
    assert_said_changed(&f, 0, &err);
    assert_false(ndp_guard_tripped(f.in.guard));
    close_test_file(&f);

    open_test_file(&f, "{}", 2, 2 * step_bytes());
    assert_int_equal(truncate(f.path, 1), 0);
    ndp_error_clear(&err);
    assert_said_changed(&f, 0, &err);
    assert_false(ndp_guard_tripped(f.in.guard));
    close_test_file(&f);

    open_test_file(&f, "{}", 2, 2 * step_bytes());
    assert_int_equal(utimensat(AT_FDCWD, f.path, times, 0), 0);
    ndp_error_clear(&err);
    assert_said_changed(&f, 0, &err);
    close_test_file(&f);
}

/*
 * Standard input that is a regular file ('- < plan.json') is watched the
 * same way; a pipe or bytes in memory never change.
 */
static void unchanged__standard_input_file_and_copies(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_load in = NDP_LOAD_INIT, copy = NDP_LOAD_INIT;
    struct test_file f;
    int saved = dup(0), fd;

    (void)state;
    open_test_file(&f, "{}", 2, 2 * step_bytes());
    fd = open(f.path, O_RDONLY);
    assert_true(saved >= 0 && fd >= 0);
    assert_int_equal(dup2(fd, 0), 0);
    close(fd);
    assert_int_equal(ndp_load_file(&in, "-", SIZE_MAX, &err), 0);
    assert_true(dup2(saved, 0) == 0);
    close(saved);
    assert_true(ndp_load_mapped(&in));
    assert_int_equal(ndp_load_check_unchanged(&in, "-", 0, &err), 0);
    assert_int_equal(truncate(f.path, 1), 0);
    assert_int_equal(ndp_load_check_unchanged(&in, "-", 0, &err), NDP_EIO);
    assert_string_equal(err.msg, "'-' changed while it was read (another "
                        "process wrote or truncated it)");
    ndp_load_release(&in);
    close_test_file(&f);
    ndp_load_copy(&copy, "{}", 2);
    assert_int_equal(ndp_load_check_unchanged(&copy, "x", 0, &err), 0);
    ndp_load_release(&copy);
}

int main(void)
{
    static struct test_list list;

    ADD_TEST(&list, cursor__asks_again_a_step_on);
    ADD_TEST(&list, cursor__gives_back_the_pages_behind_the_walk);
    ADD_TEST(&list, cursors_in_two_threads__never_show_other_bytes);
    ADD_TEST(&list, mapped__only_a_file_s_own_pages);
    ADD_TEST(&list, guard__a_truncated_file_reads_as_zeros);
    ADD_TEST(&list, guard__two_threads_read_zeros);
    ADD_TEST(&list, guard__another_sigbus_gets_the_action_before);
    ADD_TEST(&list, unchanged__told_by_fstat_too);
    ADD_TEST(&list, unchanged__standard_input_file_and_copies);
    return cmocka_run_group_tests_name("load", list.items, NULL, NULL);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * test_compat.c - the fallbacks of compat.h, which a macOS or BSD build
 * (and a -DNDP_PORTABLE=ON build here) runs instead of Linux's calls:
 * ndp_memmem_portable() against the C library's memmem() (where the
 * build found one) and a brute-force search on random inputs, and the
 * /dev/zero mapping with a file mapped over its start, as the input stage
 * maps a plan, and zeros mapped over a file's pages, as the guard of a
 * mapped file does when the file shrinks.
 */
#include "test_common.h"
#include "compat.h"
#include "platform_config.h"
#include "util/util_internal.h"

#include <unistd.h>

/* The obvious search, the reference every other search must agree with. */
static const unsigned char *brute_force(const unsigned char *hay,
                                        size_t hay_len,
                                        const unsigned char *needle,
                                        size_t needle_len)
{
    size_t i;

    for (i = 0; i + needle_len <= hay_len; i++)
        if (memcmp(hay + i, needle, needle_len) == 0)
            return hay + i;
    return NULL;
}

struct memmem_case {
    const char *name;
    const char *hay;
    size_t hay_len;
    const char *needle;
    size_t needle_len;
    long at; /* offset of the match, or -1 */
};

#define BYTES(s) s, sizeof(s) - 1
static const struct memmem_case memmem_cases[] = {
    { "memmem: an empty needle is found at the start", BYTES("abc"),
      BYTES(""), 0 },
    { "memmem: an empty needle in an empty haystack", BYTES(""), BYTES(""),
      0 },
    { "memmem: nothing is found in an empty haystack", BYTES(""),
      BYTES("a"), -1 },
    { "memmem: a needle longer than the haystack", BYTES("ab"),
      BYTES("abc"), -1 },
    { "memmem: the whole haystack", BYTES("},{\""), BYTES("},{\""), 0 },
    { "memmem: at the very end", BYTES("xxxx},{\""), BYTES("},{\""), 4 },
    { "memmem: the first of two", BYTES("a},{\"b},{\""), BYTES("},{\""),
      1 },
    { "memmem: after a partial match that overlaps it", BYTES("aaab"),
      BYTES("aab"), 1 },
    { "memmem: NUL bytes are ordinary bytes", BYTES("a\0b\0c"),
      BYTES("\0c"), 3 },
    { "memmem: a last byte that differs", BYTES("abcabd"), BYTES("abd"),
      3 },
    { "memmem: a prefix at the end is no match", BYTES("xxab"),
      BYTES("abc"), -1 },
    { "memmem: bytes over 0x7f", BYTES("\xff\xfe\xff\xff"),
      BYTES("\xff\xff"), 2 },
};
#undef BYTES

static void memmem__finds_the_table(void **state)
{
    const struct memmem_case *c = *state;
    const char *got = ndp_memmem_portable(c->hay, c->hay_len, c->needle,
                                          c->needle_len);

    if (c->at < 0)
        assert_null(got);
    else
        assert_ptr_equal(got, c->hay + c->at);
    assert_ptr_equal(ndp_memmem(c->hay, c->hay_len, c->needle,
                                c->needle_len), got);
}

/* xorshift32: the same inputs on every run and every system. */
static uint32_t next_random(uint32_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    return *x;
}

/* 'len' bytes from a three-letter alphabet, so that matches are common. */
static void random_bytes(unsigned char *out, size_t len, uint32_t *seed)
{
    static const unsigned char alphabet[] = { 'a', 'b', '\0' };
    size_t i;

    for (i = 0; i < len; i++)
        out[i] = alphabet[next_random(seed) % sizeof(alphabet)];
}

/*
 * 'want' and 'got' found the same place, or both nothing; on a difference
 * the inputs are printed so the case can be added to the table.
 */
static void assert_same_match(const char *who, const void *want,
                              const void *got, const unsigned char *hay,
                              size_t hay_len, size_t needle_len)
{
    if (want == got)
        return;
    fail_msg("%s: haystack of %zu bytes, needle of %zu: want offset %ld, "
             "got %ld", who, hay_len, needle_len,
             want ? (long)((const unsigned char *)want - hay) : -1L,
             got ? (long)((const unsigned char *)got - hay) : -1L);
}

static void memmem__agrees_with_the_c_library_on_random_inputs(void **state)
{
    unsigned char hay[96], needle[8];
    uint32_t seed = 2463534242u;
    int round;

    (void)state;
    for (round = 0; round < 200000; round++) {
        size_t hay_len = next_random(&seed) % sizeof(hay);
        size_t needle_len = next_random(&seed) % sizeof(needle);
        const void *got;

        random_bytes(hay, hay_len, &seed);
        random_bytes(needle, needle_len, &seed);
        /* A needle cut from the haystack half of the time: a hit. */
        if (round % 2 && needle_len <= hay_len) {
            size_t from = next_random(&seed) % (hay_len - needle_len + 1);

            memcpy(needle, hay + from, needle_len);
        }
        got = ndp_memmem_portable(hay, hay_len, needle, needle_len);
        assert_same_match("brute force", brute_force(hay, hay_len, needle,
                                                     needle_len),
                          got, hay, hay_len, needle_len);
#if NDP_HAVE_MEMMEM
        assert_same_match("memmem()", memmem(hay, hay_len, needle,
                                             needle_len),
                          got, hay, hay_len, needle_len);
#endif
    }
}

static size_t page_size(void)
{
    return (size_t)sysconf(_SC_PAGESIZE);
}

/* Every byte of 'p' is zero, and each page takes a write. */
static void assert_zero_and_writable(unsigned char *p, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        if (p[i] != 0)
            fail_msg("byte %zu of the mapping is %d, not 0", i, p[i]);
    for (i = 0; i < len; i += page_size())
        p[i] = 1;
    p[len - 1] = 1;
}

static void map_zeros__gives_writable_zero_bytes(void **state)
{
    size_t len = 3 * page_size() + 5;
    void *portable = ndp_map_zeros_portable(len, PROT_READ | PROT_WRITE,
                                            false);
    void *reserved = ndp_map_zeros_portable(len, PROT_READ | PROT_WRITE,
                                            true);
    void *native = ndp_map_zeros(len, PROT_READ | PROT_WRITE, true);

    (void)state;
    assert_ptr_not_equal(portable, MAP_FAILED);
    assert_ptr_not_equal(reserved, MAP_FAILED);
    assert_ptr_not_equal(native, MAP_FAILED);
    assert_zero_and_writable(portable, len);
    assert_zero_and_writable(reserved, len);
    assert_zero_and_writable(native, len);
    assert_int_equal(munmap(portable, len), 0);
    assert_int_equal(munmap(reserved, len), 0);
    assert_int_equal(munmap(native, len), 0);
}

/* A temporary file holding 'len' bytes of 'text', open for reading. */
static int temp_file(const char *text, size_t len)
{
    char path[] = "/tmp/ndplint-compat-XXXXXX";
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    unlink(path);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    return fd;
}

/*
 * What the input stage does with a plan: zero bytes one longer than the
 * file, the file mapped over their start; the text reads back, followed
 * by a zero byte, also when it fills its last page exactly.
 */
static void map_file_at__reads_the_file_then_zeros(void **state)
{
    size_t sizes[] = { 1, 1000, page_size(), 2 * page_size() + 7 };
    size_t i, j;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(sizes); i++) {
        size_t size = sizes[i];
        char *text = ndp_xmalloc(size);
        unsigned char *base;
        int fd;

        for (j = 0; j < size; j++)
            text[j] = (char)('a' + j % 26);
        fd = temp_file(text, size);
        base = ndp_map_zeros_portable(size + 1, PROT_READ, false);
        assert_ptr_not_equal(base, MAP_FAILED);
        assert_true(ndp_map_file_at(base, size, fd));
        assert_memory_equal(base, text, size);
        assert_int_equal(base[size], 0);
        assert_int_equal(munmap(base, size + 1), 0);
        close(fd);
        free(text);
    }
}

/*
 * Pages of a mapped file given back (what the pruned reader does behind
 * its walk) read back as the file, however the range falls on pages, and
 * the file's end still reads as zeros.
 */
static void drop_file_pages__the_file_reads_back(void **state)
{
    size_t size = 5 * page_size() + 123, j;
    size_t ranges[][2] = { { 0, 5 * page_size() + 123 },
                           { 7, 2 * page_size() },
                           { page_size(), page_size() },
                           { 3 * page_size() - 1, 2 },
                           { 0, 0 } };
    char *text = ndp_xmalloc(size);
    unsigned char *base;
    int fd, i;

    (void)state;
    for (j = 0; j < size; j++)
        text[j] = (char)('A' + j % 31);
    fd = temp_file(text, size);
    base = ndp_map_zeros(size + 1, PROT_READ, false);
    assert_ptr_not_equal(base, MAP_FAILED);
    assert_true(ndp_map_file_at(base, size, fd));
    for (i = 0; i < (int)NDP_ARRAY_SIZE(ranges); i++) {
        assert_memory_equal(base, text, size);
        ndp_drop_file_pages(base + ranges[i][0], ranges[i][1]);
        assert_memory_equal(base, text, size);
        assert_int_equal(base[size], 0);
    }
    assert_int_equal(munmap(base, size + 1), 0);
    close(fd);
    free(text);
}

/*
 * What the SIGBUS handler of map_guard.c does to a file whose pages went:
 * zeros mapped over the pages of a mapped file from the second on; the
 * first still reads as the file.
 */
static void map_zeros_over__zeros_in_place_of_the_file(void **state)
{
    size_t size = 3 * page_size() + 9, j;
    char *text = ndp_xmalloc(size);
    unsigned char *base;
    int fd;

    (void)state;
    for (j = 0; j < size; j++)
        text[j] = (char)('a' + j % 26);
    fd = temp_file(text, size);
    base = ndp_map_zeros(size + 1, PROT_READ, false);
    assert_ptr_not_equal(base, MAP_FAILED);
    assert_true(ndp_map_file_at(base, size, fd));
    assert_true(ndp_map_zeros_over(base + page_size(), 3 * page_size()));
    assert_memory_equal(base, text, page_size());
    for (j = page_size(); j <= size; j++)
        if (base[j] != 0)
            fail_msg("byte %zu is %d, not 0", j, base[j]);
    assert_int_equal(munmap(base, size + 1), 0);
    close(fd);
    free(text);
}

/*
 * The Linux-only hints: the pipe grows where the system can grow it, and
 * where a hint does nothing it does nothing harmful.
 */
static void hints__leave_the_bytes_alone(void **state)
{
    size_t len = 4 * page_size();
    unsigned char *p = ndp_map_zeros(len, PROT_READ | PROT_WRITE, true);
    int fds[2];

    (void)state;
    assert_ptr_not_equal(p, MAP_FAILED);
    ndp_advise_huge_pages(p, len);
    assert_zero_and_writable(p, len);
    assert_int_equal(munmap(p, len), 0);
    assert_int_equal(pipe(fds), 0);
    ndp_grow_pipe(fds[0], 1 << 20);
#if NDP_HAVE_F_SETPIPE_SZ
    assert_true(fcntl(fds[0], F_GETPIPE_SZ) >= 1 << 20);
#endif
    assert_int_equal(write(fds[1], "x", 1), 1);
    close(fds[0]);
    close(fds[1]);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, memmem_cases, memmem__finds_the_table);
    ADD_TEST(&list, memmem__agrees_with_the_c_library_on_random_inputs);
    ADD_TEST(&list, map_zeros__gives_writable_zero_bytes);
    ADD_TEST(&list, map_file_at__reads_the_file_then_zeros);
    ADD_TEST(&list, drop_file_pages__the_file_reads_back);
    ADD_TEST(&list, map_zeros_over__zeros_in_place_of_the_file);
    ADD_TEST(&list, hints__leave_the_bytes_alone);
    return cmocka_run_group_tests_name("compat", list.items, NULL, NULL);
}

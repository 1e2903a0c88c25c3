/*
 * SPDX-License-Identifier: Apache-2.0
 * compat.c - the calls beyond POSIX.1-2008, each behind the build's
 * feature check, and their fallbacks (see compat.h).
 *
 * Sits at the bottom of the program beside xalloc.c: load.c maps files
 * and reserves room for standard input through it (util_internal.h), the
 * input stage's line locator and pruned parser search bytes with it.
 */
#include "common.h"
#include "compat.h"
#include "platform_config.h"
#include "util_internal.h"

#include <unistd.h>

#if NDP_HAVE_X86_CPU_FEATURES
#include <sys/platform/x86.h>
#endif

void *ndp_memmem_portable(const void *hay, size_t hay_len, const void *needle,
                          size_t needle_len)
{
    const unsigned char *p = hay, *first = needle;
    const unsigned char *last;

    if (needle_len == 0)
        return (void *)p;
    if (hay_len < needle_len)
        return NULL;
    last = p + (hay_len - needle_len);
    while (p <= last &&
           (p = memchr(p, *first, (size_t)(last - p) + 1)) != NULL) {
        if (memcmp(p + 1, first + 1, needle_len - 1) == 0)
            return (void *)p;
        p++;
    }
    return NULL;
}

void *ndp_memmem(const void *hay, size_t hay_len, const void *needle,
                 size_t needle_len)
{
#if NDP_HAVE_MEMMEM
    return memmem(hay, hay_len, needle, needle_len);
#else
    return ndp_memmem_portable(hay, hay_len, needle, needle_len);
#endif
}

/* MAP_PRIVATE, and MAP_NORESERVE for a 'reserve' where there is one. */
static int private_flags(bool reserve)
{
#if NDP_HAVE_MAP_NORESERVE
    return MAP_PRIVATE | (reserve ? MAP_NORESERVE : 0);
#else
    (void)reserve;
    return MAP_PRIVATE;
#endif
}

void *ndp_map_zeros_portable(size_t len, int prot, bool reserve)
{
    int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
    void *base;

    if (fd < 0)
        return MAP_FAILED;
    base = mmap(NULL, len, prot, private_flags(reserve), fd, 0);
    close(fd);
    return base;
}

void *ndp_map_zeros(size_t len, int prot, bool reserve)
{
#if NDP_HAVE_MAP_ANONYMOUS
    return mmap(NULL, len, prot, private_flags(reserve) | MAP_ANONYMOUS, -1, 0);
#else
    return ndp_map_zeros_portable(len, prot, reserve);
#endif
}

bool ndp_map_zeros_over(void *addr, size_t len)
{
#if NDP_HAVE_MAP_ANONYMOUS
    return mmap(addr, len, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS,
                -1, 0) != MAP_FAILED;
#else
    int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
    bool mapped;

    if (fd < 0)
        return false;
    mapped = mmap(addr, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) !=
             MAP_FAILED;
    close(fd);
    return mapped;
#endif
}

/*
 * Not MAP_POPULATE: that maps every page in this thread before the scan
 * starts, while without it the two scanning threads fault their own
 * halves in as they go (about 5 % of the wall time of a 240 MB plan).
 */
bool ndp_map_file_at(void *addr, size_t len, int fd)
{
    if (mmap(addr, len, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) ==
        MAP_FAILED)
        return false;
    (void)posix_madvise(addr, len, POSIX_MADV_SEQUENTIAL);
    return true;
}

void ndp_advise_huge_pages(void *addr, size_t len)
{
#if NDP_HAVE_MADV_HUGEPAGE
    (void)madvise(addr, len, MADV_HUGEPAGE);
#else
    (void)addr;
    (void)len;
#endif
}

void ndp_drop_file_pages(const void *addr, size_t len)
{
#if NDP_HAVE_MADV_DONTNEED
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t start = (uintptr_t)addr, end = start + len;

    start = (start + page - 1) & ~(page - 1);
    end &= ~(page - 1);
    if (end > start)
        (void)madvise((void *)start, end - start, MADV_DONTNEED);
#else
    (void)addr;
    (void)len;
#endif
}

void ndp_grow_pipe(int fd, int bytes)
{
#if NDP_HAVE_F_SETPIPE_SZ
    (void)fcntl(fd, F_SETPIPE_SZ, bytes);
#else
    (void)fd;
    (void)bytes;
#endif
}

bool ndp_cpu_has_avx2(void)
{
#if NDP_HAVE_X86_CPU_FEATURES
    return CPU_FEATURE_ACTIVE(AVX2);
#elif defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

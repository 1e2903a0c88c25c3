/*
 * SPDX-License-Identifier: Apache-2.0
 * compat.h - the few system calls that differ between Linux, macOS and
 * the BSDs, each with a POSIX.1-2008 fallback (compat.c).  This header
 * has what the whole program may use: memmem(), the open() flags and
 * giving back the pages of a mapped file; the other mapping and pipe
 * helpers are for loading files alone (util_internal.h).
 *
 * Everything beyond POSIX that the program uses is named here, behind a
 * feature check of the build (platform_config.h, NDP_HAVE_*); no other
 * file of the program tests NDP_HAVE_* or calls memmem(), madvise() or
 * the Linux fcntl() and mmap() extensions.  The fallbacks lose speed, never behaviour:
 * without huge pages or a larger pipe buffer there are more page faults
 * and wake-ups.  -DNDP_PORTABLE=ON builds every fallback on Linux as well.
 */
#ifndef NDP_COMPAT_H
#define NDP_COMPAT_H

#include <stdbool.h>
#include <stddef.h>

#include <fcntl.h>

/* POSIX.1-2008 open() flags that older systems lack: no flag there. */
#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif
#ifndef O_NOCTTY
#define O_NOCTTY 0
#endif

/*
 * The first occurrence of the 'needle_len' bytes at 'needle' in the
 * 'hay_len' bytes at 'hay', or NULL; an empty needle is found at 'hay'.
 * Borrows both; the result points into 'hay'.  The C library's memmem()
 * where there is one, else ndp_memmem_portable().
 */
void *ndp_memmem(const void *hay, size_t hay_len, const void *needle,
                 size_t needle_len);
/* The fallback itself, built everywhere so that tests can compare it. */
void *ndp_memmem_portable(const void *hay, size_t hay_len, const void *needle,
                          size_t needle_len);

/*
 * Does the processor run AVX2 code (and the system save its registers)?
 * glibc's CPU_FEATURE_ACTIVE() reads what glibc found at start-up; else
 * the compiler's __builtin_cpu_supports(), whose start-up check asks the
 * processor again (CPUID, slow in a virtual machine).  False elsewhere.
 */
bool ndp_cpu_has_avx2(void);

/*
 * Gives back to the system the pages wholly inside [addr, addr + len) of
 * a private, read-only mapping of a file (madvise(MADV_DONTNEED)): read
 * again, they come back from the file, so nothing changes but the time
 * and memory.  Never call it on memory the program wrote.  Does nothing
 * where there is no MADV_DONTNEED.
 */
void ndp_drop_file_pages(const void *addr, size_t len);

#endif

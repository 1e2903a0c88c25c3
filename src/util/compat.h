/*
 * SPDX-License-Identifier: Apache-2.0
 * compat.h - the few system calls that differ between Linux, macOS and
 * the BSDs, each with a POSIX.1-2008 fallback.
 *
 * Everything beyond POSIX that the program uses is named here, behind a
 * feature check of the build (platform_config.h, NDP_HAVE_*); no other
 * file of the program tests NDP_HAVE_* or calls memmem(), madvise() or
 * the Linux fcntl() and mmap() extensions.  The fallbacks lose speed, never behaviour:
 * without MAP_POPULATE a mapped file is faulted in as it is read, without
 * huge pages or a larger pipe buffer there are more page faults and
 * wake-ups.  -DNDP_PORTABLE=ON builds every fallback on Linux as well.
 */
#ifndef NDP_COMPAT_H
#define NDP_COMPAT_H

#include <stdbool.h>
#include <stddef.h>

#include <fcntl.h>
#include <sys/mman.h>

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
 * A private mapping of 'len' zero bytes with protection 'prot' (PROT_*),
 * or MAP_FAILED.  With 'reserve' the system is asked not to set aside
 * swap for it (MAP_NORESERVE, where there is one): address space for
 * text that may never come.  MAP_ANONYMOUS where there is one, else a
 * mapping of /dev/zero (ndp_map_zeros_portable()).  Free with munmap().
 */
void *ndp_map_zeros(size_t len, int prot, bool reserve);
/* The /dev/zero fallback itself, built everywhere for the tests. */
void *ndp_map_zeros_portable(size_t len, int prot, bool reserve);

/*
 * Maps the first 'len' bytes of 'fd' read-only, privately, at exactly
 * 'addr' (MAP_FIXED, over a mapping the caller made), asking for the
 * pages to be read in at once where the system can (MAP_POPULATE), and
 * tells the system they will be read in order.  Returns false on failure.
 */
bool ndp_map_file_at(void *addr, size_t len, int fd);

/* Hints that 'len' bytes at 'addr' be backed by huge pages (Linux). */
void ndp_advise_huge_pages(void *addr, size_t len);

/* Asks for a pipe buffer of 'bytes' on 'fd' (Linux); failure is harmless. */
void ndp_grow_pipe(int fd, int bytes);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * util_internal.h - what the files of src/util/ share and nothing else
 * sees (but their tests): the mapping and pipe helpers of compat.c, which
 * only load.c uses to bring a file or a stream into memory.  Like the rest
 * of compat.c, each has a POSIX.1-2008 fallback (compat.h says which
 * calls they stand for).
 */
#ifndef NDP_UTIL_INTERNAL_H
#define NDP_UTIL_INTERNAL_H

#ifndef NDP_INSIDE_UTIL
#error "util_internal.h is internal to src/util/ and its tests"
#endif

#include <stdbool.h>
#include <stddef.h>

#include <sys/mman.h>

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
 * 'addr' (MAP_FIXED, over a mapping the caller made), and tells the
 * system the pages will be read in order.  Returns false on failure.
 */
bool ndp_map_file_at(void *addr, size_t len, int fd);

/* Hints that 'len' bytes at 'addr' be backed by huge pages (Linux). */
void ndp_advise_huge_pages(void *addr, size_t len);

/* Asks for a pipe buffer of 'bytes' on 'fd' (Linux); failure is harmless. */
void ndp_grow_pipe(int fd, int bytes);

#endif

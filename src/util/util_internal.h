/*
 * SPDX-License-Identifier: Apache-2.0
 * util_internal.h - what the files of src/util/ share and nothing else
 * sees (but their tests): the mapping and pipe helpers of compat.c, which
 * only load.c uses to bring a file or a stream into memory, and the guard
 * of map_guard.c over a mapped file that shrinks while it is read.  Like
 * the rest of compat.c, each helper has a POSIX.1-2008 fallback (compat.h
 * says which calls they stand for).
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

/*
 * Maps 'len' zero bytes, read-only and private, at exactly 'addr' (a
 * multiple of the page size), over whatever was mapped there; false on
 * failure.  Makes system calls only (mmap(), and open() and close() of
 * /dev/zero without MAP_ANONYMOUS), never a lock or the heap: the SIGBUS
 * handler of map_guard.c calls it.
 */
bool ndp_map_zeros_over(void *addr, size_t len);

/* Hints that 'len' bytes at 'addr' be backed by huge pages (Linux). */
void ndp_advise_huge_pages(void *addr, size_t len);

/*
 * Guards the 'len' bytes of a file mapped at 'addr' (page-aligned) against
 * the file shrinking under the reader (map_guard.c): a read of a page the
 * file no longer has finds zeros there instead of ending the process with
 * SIGBUS, and the guard is tripped.  Returns the guard's number, or -1
 * when none is left or SIGBUS cannot be handled (the mapping is then read
 * unguarded, as before).  Give it back with ndp_guard_release() (-1: does
 * nothing) before unmapping; the last one given back puts SIGBUS's action
 * back.
 */
int ndp_guard_mapping(void *addr, size_t len);
/* Has a page of guard 'id' (-1: none) vanished under a reader? */
bool ndp_guard_tripped(int id);
void ndp_guard_release(int id);

/* Asks for a pipe buffer of 'bytes' on 'fd' (Linux); failure is harmless. */
void ndp_grow_pipe(int fd, int bytes);

#endif

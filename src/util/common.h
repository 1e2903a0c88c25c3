/*
 * SPDX-License-Identifier: Apache-2.0
 * common.h - included first by every ndplint source file.
 *
 * The standard headers nearly every module needs, and the project-wide
 * error codes.  Keep this small: module-specific types go in the module's
 * own header.  The feature-test macros (cmake/platform.cmake) and
 * NDP_VERSION come from the build, not from here; calls beyond POSIX go
 * through compat.h.
 */
#ifndef NDP_COMMON_H
#define NDP_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Return codes of fallible functions: 0 on success, one of these on failure. */
enum ndp_errcode {
    NDP_OK = 0,
    NDP_EIO = -1,     /* file could not be read or written */
    NDP_EPARSE = -2,  /* input is not well-formed JSON */
    NDP_ESCHEMA = -3, /* input is JSON, but not of a shape ndplint reads */
    NDP_ERULE = -4,   /* a rule file is broken */
    NDP_EUSAGE = -5,  /* bad command line */
    NDP_ELIMIT = -6,  /* input exceeds a documented limit */
    NDP_ECONFIG = -7  /* the settings file (.ndplint.json) is wrong */
};

/* Exit statuses of the ndplint command (README "Exit status"). */
enum ndp_exit {
    NDP_EXIT_CLEAN = 0,
    NDP_EXIT_FINDINGS = 1,
    NDP_EXIT_ERROR = 2
};

#define NDP_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define NDP_BUG(msg) ndp_bug(__FILE__, __LINE__, (msg))
_Noreturn void ndp_bug(const char *file, int line, const char *msg);

/* Allocation that never returns NULL: out of memory ends the process. */
void *ndp_xmalloc(size_t size);
void *ndp_xcalloc(size_t nmemb, size_t size);
void *ndp_xrealloc(void *ptr, size_t size);
char *ndp_xstrdup(const char *s);
char *ndp_xstrndup(const char *s, size_t n);

/* Grow '*items' (of '*alloc' elements of 'size' bytes) to hold 'need'. */
void ndp_grow(void **items, size_t *alloc, size_t need, size_t size);
#define NDP_GROW(items, alloc, need)                                       \
    ndp_grow((void **)&(items), &(alloc), (need), sizeof(*(items)))

/* Nearly every module compares names case-insensitively. */
#include "strutil.h"

#endif

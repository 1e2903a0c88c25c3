/*
 * SPDX-License-Identifier: Apache-2.0
 * xalloc.c - allocation wrappers and the internal-bug trap, shared by
 * every module.
 *
 * Out of memory is not an error ndplint can report usefully, so these die
 * with a message instead of returning NULL; callers never check.
 */
#include "common.h"

void ndp_bug(const char *file, int line, const char *msg)
{
    fprintf(stderr, "ndplint: internal error at %s:%d: %s\n", file, line, msg);
    abort();
}

static void *die_oom(size_t size)
{
    fprintf(stderr, "ndplint: out of memory allocating %zu bytes\n", size);
    exit(NDP_EXIT_ERROR);
}

void *ndp_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    return p ? p : die_oom(size);
}

void *ndp_xcalloc(size_t nmemb, size_t size)
{
    void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
    return p ? p : die_oom(nmemb * size);
}

void *ndp_xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    return p ? p : die_oom(size);
}

char *ndp_xstrdup(const char *s)
{
    return ndp_xstrndup(s, strlen(s));
}

char *ndp_xstrndup(const char *s, size_t n)
{
    char *p = ndp_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void ndp_grow(void **items, size_t *alloc, size_t need, size_t size)
{
    size_t n;

    if (need <= *alloc)
        return;
    n = *alloc ? *alloc : 8;
    while (n < need)
        n *= 2;
    if (n > SIZE_MAX / size)
        die_oom(SIZE_MAX);
    *items = ndp_xrealloc(*items, n * size);
    *alloc = n;
}

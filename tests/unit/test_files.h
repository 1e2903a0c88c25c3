/*
 * SPDX-License-Identifier: Apache-2.0
 * test_files.h - a temporary directory for the unit tests that read files
 * (test_config.c, test_state.c): made by a group setup, removed with all
 * it holds by the group teardown, and files written into it from text.
 */
#ifndef NDP_TEST_FILES_H
#define NDP_TEST_FILES_H

#include "test_common.h"
#include "buf.h"

#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

/* The directory of the running group ("" outside it). */
static char test_dir[64];

/* Group setup: a new directory under /tmp. */
static inline int test_dir_make(void **state)
{
    (void)state;
    snprintf(test_dir, sizeof(test_dir), "/tmp/ndp-unit-XXXXXX");
    if (!mkdtemp(test_dir)) {
        perror("mkdtemp");
        return -1;
    }
    return 0;
}

static inline int test_dir_remove_one(const char *path, const struct stat *st,
                                      int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Group teardown: the directory and everything in it. */
static inline int test_dir_remove(void **state)
{
    (void)state;
    return nftw(test_dir, test_dir_remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* DIR/NAME, returned owned. */
static inline char *test_path(const char *name)
{
    struct ndp_buf b = NDP_BUF_INIT;

    ndp_buf_addf(&b, "%s/%s", test_dir, name);
    return ndp_buf_detach(&b);
}

/* Makes DIR/NAME a directory (its parent must exist). */
static inline void test_mkdir(const char *name)
{
    char *path = test_path(name);

    if (mkdir(path, 0700) != 0)
        fail_msg("mkdir '%s' failed", path);
    free(path);
}

/* Writes 'len' bytes to DIR/NAME; returns its path, owned. */
static inline char *test_write_bytes(const char *name, const void *bytes,
                                     size_t len)
{
    char *path = test_path(name);
    FILE *f = fopen(path, "wb");

    if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0)
        fail_msg("cannot write '%s'", path);
    return path;
}

/* Writes 'text' to DIR/NAME, ' turned to " (tables stay readable in C). */
static inline char *test_write_json(const char *name, const char *text)
{
    char *copy = ndp_xstrdup(text), *p, *path;

    for (p = copy; *p; p++)
        if (*p == '\'')
            *p = '"';
    path = test_write_bytes(name, copy, strlen(copy));
    free(copy);
    return path;
}

/*
 * 'want' with every "FILE" replaced by 'path': messages name the file,
 * which the table cannot know.
 */
static inline char *test_with_path(const char *want, const char *path)
{
    struct ndp_buf b = NDP_BUF_INIT;
    const char *p;

    while ((p = strstr(want, "FILE")) != NULL) {
        ndp_buf_add(&b, want, (size_t)(p - want));
        ndp_buf_adds(&b, path);
        want = p + 4;
    }
    ndp_buf_adds(&b, want);
    return ndp_buf_detach(&b);
}

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * stream_check.c - the pruned reader on text that arrives in pieces
 * (standard input) against the same reader on the whole text: for every
 * file named and for several piece sizes, the result must be the same:
 * the tree (as JSON), the entry count, and for a bad document the error
 * and its byte offset (see stream_pieces.h).  Likewise with a long list
 * split between two threads at several points.
 *   usage: stream_check FILE...
 */
#include "common.h"
#include "stream_pieces.h"

static bool read_all(struct ndp_buf *out, const char *path)
{
    FILE *f = fopen(path, "rb");
    char chunk[65536];
    size_t n;

    if (!f)
        return false;
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        ndp_buf_add(out, chunk, n);
    fclose(f);
    return true;
}

/* Compares a result with the whole-text one (and frees it). */
static int differs(const char *path, const char *how, const char *whole,
                   char *other)
{
    int rc = strcmp(whole, other) != 0;

    if (rc)
        fprintf(stderr, "stream_check: %s %s differs:\n  whole text, one "
                "thread: %.300s\n  this way:              %.300s\n",
                path, how, whole, other);
    free(other);
    return rc;
}

/* Small pieces cost a rescan of the current entry each: large files get
 * the larger sizes only. */
static int check_file(const char *path)
{
    static const size_t pieces[] = { 1, 3, 17, 4096, 1 << 20 };
    static const int splits[] = { 0, 10, 25, 45, 60, 80, 95 };
    struct ndp_buf text = NDP_BUF_INIT;
    char *whole;
    char how[64];
    size_t i, taken, early, early_now;
    int failed = 0;

    if (!read_all(&text, path)) {
        fprintf(stderr, "stream_check: cannot read %s\n", path);
        return 1;
    }
    whole = summary(text.buf, text.len, 0, -1);
    for (i = 0; i < NDP_ARRAY_SIZE(pieces); i++) {
        if (pieces[i] < 4096 && text.len > (256 << 10))
            continue;
        snprintf(how, sizeof(how), "in pieces of %zu", pieces[i]);
        failed |= differs(path, how, whole,
                          summary(text.buf, text.len, pieces[i], -1));
    }
    taken = ndp_prune_splits_taken(&early);
    for (i = 0; i < NDP_ARRAY_SIZE(splits); i++) {
        snprintf(how, sizeof(how), "split after %d%%", splits[i]);
        failed |= differs(path, how, whole,
                          summary(text.buf, text.len, 0, splits[i]));
    }
    /* The run script wants the large generated inputs to have split. */
    taken = ndp_prune_splits_taken(&early_now) - taken;
    if (text.len > (256 << 10))
        printf("stream_check: %s: %zu of %zu splits taken, %zu started "
               "early\n", path, taken, NDP_ARRAY_SIZE(splits),
               early_now - early);
    free(whole);
    ndp_buf_release(&text);
    return failed;
}

int main(int argc, char **argv)
{
    int i, failed = 0;

    for (i = 1; i < argc; i++)
        failed += check_file(argv[i]);
    printf("stream_check: %d files, %d differ\n", argc - 1, failed);
    return failed ? 1 : 0;
}

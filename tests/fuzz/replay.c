/*
 * SPDX-License-Identifier: Apache-2.0
 * replay.c - runs a fuzz target's LLVMFuzzerTestOneInput over every file
 * of the directories (or files) named on the command line, so ctest
 * replays each committed corpus with the ordinary compiler: no fuzzing
 * time in CI, and every past crasher stays a regression test.
 */
#include "common.h"
#include "buf.h"

#include <dirent.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    struct ndp_buf bytes = NDP_BUF_INIT;
    FILE *f = fopen(path, "rb");
    char chunk[65536];
    size_t n;

    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return -1;
    }
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
        ndp_buf_add(&bytes, chunk, n);
    fclose(f);
    LLVMFuzzerTestOneInput((const uint8_t *)bytes.buf, bytes.len);
    ndp_buf_release(&bytes);
    return 0;
}

static int replay_dir(const char *dir, size_t *count)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    struct ndp_buf path = NDP_BUF_INIT;
    int rc = 0;

    if (!d) {
        fprintf(stderr, "replay: cannot open directory %s\n", dir);
        return -1;
    }
    while ((de = readdir(d)) != NULL && rc == 0) {
        struct stat st;
        if (de->d_name[0] == '.')
            continue;
        ndp_buf_reset(&path);
        ndp_buf_addf(&path, "%s/%s", dir, de->d_name);
        if (stat(path.buf, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        rc = replay_file(path.buf);
        (*count)++;
    }
    closedir(d);
    ndp_buf_release(&path);
    return rc;
}

int main(int argc, char **argv)
{
    size_t count = 0;
    int i, rc = 0;

    for (i = 1; i < argc && rc == 0; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            rc = replay_dir(argv[i], &count);
        } else {
            rc = replay_file(argv[i]);
            count++;
        }
    }
    printf("replayed %zu inputs\n", count);
    if (rc == 0 && count == 0) {
        fprintf(stderr, "replay: no input replayed\n");
        return 1;
    }
    return rc == 0 ? 0 : 1;
}

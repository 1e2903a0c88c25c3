/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_common.h - what the fuzz targets share: the built-in rule set,
 * loaded once per process, and the checks of safe.h's output rule on what
 * a target produces (valid UTF-8; for a log line no control character but
 * LF, no line starting "::", no "##[").
 */
#ifndef NDP_FUZZ_COMMON_H
#define NDP_FUZZ_COMMON_H

#include "common.h"
#include "buf.h"
#include "error.h"
#include "rules.h"
#include "safe.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline struct ndp_ruleset *fuzz_rules(void)
{
    static struct ndp_ruleset *rs;
    struct ndp_error err = NDP_ERROR_INIT;

    if (!rs && ndp_rules_load_embedded(&rs, &err) != 0)
        NDP_BUG("built-in rules do not load");
    return rs;
}

static char fuzz_dir_path[] = "/tmp/ndp-fuzz-root-XXXXXX";

static void fuzz_dir_remove(void)
{
    rmdir(fuzz_dir_path);
}

/*
 * An empty directory for the run's --source-root, made once per process
 * and removed at exit: ndp_run() looks for .tf files there, and a fuzz
 * target must read nothing but its input.
 */
static inline const char *fuzz_empty_dir(void)
{
    static const char *dir;

    if (!dir) {
        if (!mkdtemp(fuzz_dir_path))
            NDP_BUG("no temporary directory");
        atexit(fuzz_dir_remove);
        dir = fuzz_dir_path;
    }
    return dir;
}

static inline void broken(const char *what, const struct ndp_buf *text)
{
    fprintf(stderr, "%s breaks the output rule:\n%.2000s\n", what,
            text->buf);
    abort();
}

/* Text for a log: no control character but LF, no workflow command. */
static inline void check_log(const char *what, const struct ndp_buf *text)
{
    const unsigned char *p = (const unsigned char *)text->buf;
    size_t i;

    for (i = 0; i < text->len; i++) {
        bool line_start = i == 0 || p[i - 1] == '\n';
        if ((p[i] < 0x20 && p[i] != '\n') || p[i] == 0x7f ||
            (p[i] == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] < 0xa0) ||
            (line_start && p[i] == ':' && p[i + 1] == ':') ||
            (p[i] == '#' && p[i + 1] == '#' && p[i + 2] == '['))
            broken(what, text);
    }
}

/* Every byte of 'text' is valid UTF-8, and for XML an allowed character. */
static inline void check_utf8(const char *what, const struct ndp_buf *text,
                       unsigned flags)
{
    struct ndp_buf fixed = NDP_BUF_INIT;

    if (!ndp_utf8_valid(text->buf, text->len))
        broken(what, text);
    ndp_utf8_repair(&fixed, text->buf, text->len, flags);
    if (fixed.len != text->len || memcmp(fixed.buf, text->buf, text->len))
        broken(what, text);
    ndp_buf_release(&fixed);
}

/* An error message, as ndp_error_print() writes it, is one safe line. */
static inline void check_message(const struct ndp_error *err)
{
    struct ndp_buf line = NDP_BUF_INIT;

    ndp_buf_adds(&line, "ndplint: ");
    ndp_safe_line(&line, err->msg);
    check_utf8("error message", &line, 0);
    check_log("error message", &line);
    ndp_buf_release(&line);
}

#endif

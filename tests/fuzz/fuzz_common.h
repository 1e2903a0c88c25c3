/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_common.h - what the fuzz targets share: the built-in rule set,
 * loaded once per process, and the checks of safe.h's output rule on what
 * a target produces (valid UTF-8; for a log line no control character but
 * LF; on every line the command rule: no "::" after a leading run of white
 * space and ignorable characters, no "##[" or "##vso[" across ignorable
 * characters, but a format's own commands at column 0).
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

/*
 * The command rule, written out apart from safe.c (which it checks): the
 * code point at 'p' (valid UTF-8), and its length in '*n'.
 */
static inline uint32_t fuzz_decode(const unsigned char *p, size_t *n)
{
    if (p[0] < 0x80) {
        *n = 1;
        return p[0];
    }
    if (p[0] < 0xe0) {
        *n = 2;
        return (uint32_t)(p[0] & 0x1f) << 6 | (p[1] & 0x3f);
    }
    if (p[0] < 0xf0) {
        *n = 3;
        return (uint32_t)(p[0] & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 |
               (p[2] & 0x3f);
    }
    *n = 4;
    return (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12 |
           (uint32_t)(p[2] & 0x3f) << 6 | (p[3] & 0x3f);
}

/* What the runners skip: White_Space before a line's "::" ('white'), and
 * controls, format characters and Default_Ignorable_Code_Points anywhere. */
static inline bool fuzz_skipped(uint32_t c, bool white)
{
    if (white && ((c >= 0x09 && c <= 0x0d) || c == 0x20 || c == 0x85 ||
                  c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
                  c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f ||
                  c == 0x3000))
        return true;
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0xad || c == 0x34f ||
           (c >= 0x600 && c <= 0x605) || c == 0x61c || c == 0x6dd ||
           c == 0x70f || c == 0x890 || c == 0x891 || c == 0x8e2 ||
           c == 0x115f || c == 0x1160 || c == 0x17b4 || c == 0x17b5 ||
           (c >= 0x180b && c <= 0x180f) || (c >= 0x200b && c <= 0x200f) ||
           (c >= 0x202a && c <= 0x202e) || (c >= 0x2060 && c <= 0x206f) ||
           c == 0x3164 || (c >= 0xfe00 && c <= 0xfe0f) || c == 0xfeff ||
           c == 0xffa0 || (c >= 0xfff0 && c <= 0xfffb) || c == 0x110bd ||
           c == 0x110cd || (c >= 0x13430 && c <= 0x1343f) ||
           (c >= 0x1bca0 && c <= 0x1bca3) || (c >= 0x1d173 && c <= 0x1d17a) ||
           (c >= 0xe0000 && c <= 0xe0fff);
}

/* Do 'letters' follow at 'p' (before 'end'), any case, with skipped
 * characters between them? */
static inline bool fuzz_marker(const unsigned char *p,
                               const unsigned char *end, const char *letters)
{
    size_t n;

    for (; *letters; letters++) {
        while (p < end && fuzz_skipped(fuzz_decode(p, &n), false))
            p += n;
        if (p == end || (*p >= 'A' && *p <= 'Z' ? *p + 32 : *p) !=
                            (unsigned char)*letters)
            return false;
        p++;
    }
    return true;
}

/* Every line of 'text' holds to the command rule; the commands of
 * 'allowed' (safe.h NDP_CMDS_*, from its list) may start a line. */
static inline void check_commands(const char *what,
                                  const struct ndp_buf *text,
                                  unsigned allowed)
{
    const unsigned char *p = (const unsigned char *)text->buf;
    const unsigned char *end = p + text->len, *eol, *q;
    size_t n, own;
    int c;

    for (; p < end; p = eol + 1) {
        for (eol = p; eol < end && *eol != '\n' && *eol != '\r'; eol++)
            ;
        own = 0;
        for (c = 0; c < NDP_CMD_COUNT; c++) {
            const char *cmd = ndp_log_command_text((enum ndp_log_command)c);
            if ((allowed & 1u << c) && (size_t)(eol - p) >= strlen(cmd) &&
                memcmp(p, cmd, strlen(cmd)) == 0)
                own = strlen(cmd);
        }
        q = p;
        while (!own && q < eol && fuzz_skipped(fuzz_decode(q, &n), true))
            q += n;
        if (!own && fuzz_marker(q, eol, "::"))
            broken(what, text);
        for (q = p + own; q < eol; q++)
            if (*q == '#' &&
                (fuzz_marker(q, eol, "##[") || fuzz_marker(q, eol, "##vso[")))
                broken(what, text);
        if (eol == end)
            break;
    }
}

/* Text for a log: no control character but LF, no command. */
static inline void check_log(const char *what, const struct ndp_buf *text)
{
    const unsigned char *p = (const unsigned char *)text->buf;
    size_t i;

    for (i = 0; i < text->len; i++)
        if ((p[i] < 0x20 && p[i] != '\n') || p[i] == 0x7f ||
            (p[i] == 0xc2 && p[i + 1] >= 0x80 && p[i + 1] < 0xa0))
            broken(what, text);
    check_commands(what, text, NDP_CMDS_NONE);
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

/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_input.c - fuzz target: arbitrary bytes as an input file, through
 * every stage (reader, linker, engine, evaluator, every report format and
 * --window-check), and the pruned reader on the same bytes arriving in
 * pieces against the whole text.  The output rule of safe.h is asserted on
 * everything produced: every report and every error message is valid UTF-8,
 * JUnit has no character XML 1.0 refuses, every line of every output
 * holds to the command rule (no log command but a format's own, at column
 * 0), and the text report, the window check and error messages (as
 * printed) have no control character but the line feed.
 * Built as a libFuzzer target with clang (-DNDP_FUZZ=ON) and, always, as a
 * replay program that ctest runs over tests/fuzz/corpus/input.
 */
#include "fuzz_common.h"
#include "buf.h"
#include "error.h"
#include "report.h"
#include "report/report_internal.h"
#include "rules.h"
#include "run.h"
#include "safe.h"
#include "../stream_pieces.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void report(const struct ndp_result *result)
{
    struct ndp_report_options ro = { .fail_on = NDP_SEVERITY_WARNING };
    struct ndp_report r;
    struct ndp_buf out = NDP_BUF_INIT;
    size_t i;

    ndp_report_init(&r, result, &ro);
    /* Every reporter of the table. */
    for (i = 0; ndp_reporter_name(i); i++) {
        const struct ndp_reporter *rep =
            ndp_reporter_find(ndp_reporter_name(i));
        ndp_buf_reset(&out);
        ndp_report_render(&out, rep, &r);
        check_utf8(rep->name, &out, rep->utf8_flags);
        check_commands(rep->name, &out, rep->commands);
        if (rep == &ndp_report_text)
            check_log("text report", &out);
    }
    ro.quiet = true;
    ndp_report_init(&r, result, &ro);
    ndp_buf_reset(&out);
    ndp_report_render(&out, &ndp_report_text, &r);
    check_log("quiet text report", &out);
    ndp_buf_reset(&out);
    ndp_report_markdown_summary(&out, &r, 4096);
    check_utf8("step summary", &out, 0);
    check_commands("step summary", &out, NDP_CMDS_NONE);
    if (out.len > 4096)
        broken("step summary over its budget", &out);
    ndp_buf_reset(&out);
    ndp_report_window_check(&out, &r);
    check_utf8("window check", &out, 0);
    check_log("window check", &out);
    ndp_buf_release(&out);
}

/* The rule itself, on the raw bytes: repaired text is valid, and a log
 * line made of them is safe. */
static void check_rule(const uint8_t *data, size_t size)
{
    struct ndp_buf text = NDP_BUF_INIT, out = NDP_BUF_INIT;

    ndp_buf_add(&text, data, size);
    ndp_utf8_repair(&out, text.buf, text.len, NDP_UTF8_XML);
    check_utf8("repaired bytes", &out, NDP_UTF8_XML);
    ndp_buf_reset(&out);
    ndp_safe_line(&out, text.buf);
    check_utf8("safe line", &out, 0);
    check_log("safe line", &out);
    ndp_buf_release(&out);
    ndp_buf_release(&text);
}

/* The pruned reader gives the same result on the text in pieces (as
 * standard input arrives), and with a list split between two threads, as
 * on the whole text with one. */
static void check_streaming(const uint8_t *data, size_t size)
{
    size_t piece = size ? 1 + data[size - 1] % 61 : 1;
    int split = size ? data[0] % 100 : 0;
    char *whole = summary((const char *)data, size, 0, -1);
    char *streamed = summary((const char *)data, size, piece, -1);
    char *two = summary((const char *)data, size, 0, split);

    if (strcmp(whole, streamed) != 0 || strcmp(whole, two) != 0) {
        fprintf(stderr, "pieces of %zu or a split at %d%% differ:\n"
                "  whole:    %.300s\n  streamed: %.300s\n  split:    "
                "%.300s\n", piece, split, whole, streamed, two);
        abort();
    }
    free(whole);
    free(streamed);
    free(two);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ndp_result result = NDP_RESULT_INIT;
    struct ndp_run_input input = { "fuzz.json", data, size };
    struct ndp_run_options ro = {
        .inputs = &input,
        .nr_inputs = 1,
        .input = { .max_bytes = 1 << 24 },
        .at = 1796472000,
        .have_profile = true,
        .profile = NDP_PROFILE_WINDOW,
        .source_root = fuzz_empty_dir(),
    };

    if (ndp_run(&result, &ro, fuzz_rules()) == 0)
        report(&result);
    else
        check_message(&result.errors[0]);
    ndp_result_release(&result);
    check_streaming(data, size);
    check_rule(data, size);
    return 0;
}

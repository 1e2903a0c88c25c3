/*
 * fuzz_input.c - fuzz target: arbitrary bytes as an input file, through
 * every stage (reader, linker, engine, evaluator, text and JSON reports),
 * and the pruned reader on the same bytes arriving in pieces against the
 * whole text.
 * Built as a libFuzzer target with clang (-DNDP_FUZZ=ON) and, always, as a
 * replay program that ctest runs over tests/fuzz/corpus/input.
 */
#include "fuzz_common.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "error.h"
#include "evaluate.h"
#include "finding.h"
#include "input.h"
#include "linker.h"
#include "report.h"
#include "rules.h"
#include "../stream_pieces.h"

#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void report(const struct ndp_changeset *set,
                   const struct ndp_clusters *clusters,
                   const struct ndp_findings *findings, int64_t at)
{
    struct ndp_report r;
    struct ndp_buf out = NDP_BUF_INIT;

    memset(&r, 0, sizeof(r));
    r.set = set;
    r.clusters = clusters;
    r.findings = findings;
    r.evaluated_at = at;
    ndp_report_count(&r);
    ndp_report_text.write(&out, &r);
    ndp_report_json.write(&out, &r);
    ndp_report_window_check(&out, &r);
    ndp_buf_release(&out);
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
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_clusters clusters = NDP_CLUSTERS_INIT;
    struct ndp_findings findings = NDP_FINDINGS_INIT;
    struct ndp_input_options in = { 1 << 24, NULL, false };
    struct ndp_eval_options eo = { 1796472000, true, NDP_PROFILE_WINDOW,
                                   NULL, NULL };
    struct ndp_error err = NDP_ERROR_INIT;

    if (ndp_input_read_bytes(&set, "fuzz.json", data, size, &in, &err) == 0) {
        ndp_judge(&findings, &clusters, &set, fuzz_rules(), &eo);
        report(&set, &clusters, &findings, eo.at);
    }
    ndp_findings_release(&findings);
    ndp_clusters_release(&clusters);
    ndp_changeset_release(&set);
    check_streaming(data, size);
    return 0;
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * prune_check.c - the streaming reader against the whole-tree reader: for
 * every file named, the JSON report built from the pruned tree (what
 * ndplint does) must equal, byte for byte, the one built from a json-c
 * tree of the whole document (with long lists split between two threads
 * whatever their size, and the pages of the mapped file given back every
 * 16 pages behind each walk, as a large plan's are every 4 MiB).  Run by
 * ctest over a generated plan of a few megabytes (run_prune_check.sh) and
 * over the fixtures.
 */
#include "common.h"
#include "buf.h"
#include "error.h"
#include "input.h"
#include "report.h"
#include "report/report_internal.h"
#include "rules.h"
#include "run.h"

#include <unistd.h>

/* The JSON report of 'path', or the error message; owned by the caller. */
static char *judge(const char *path, const struct ndp_ruleset *rs,
                   bool whole_tree)
{
    /* Whatever the size, the pruned reader splits long lists between
     * two threads, as it does for large plans, and gives back the pages
     * behind each walk often. */
    struct ndp_input_tuning tuning = { 0, 45, 45,
                                       16 * (size_t)sysconf(_SC_PAGESIZE) };
    struct ndp_result result = NDP_RESULT_INIT;
    struct ndp_run_input input = { path, NULL, 0 };
    struct ndp_run_options ro = {
        .inputs = &input,
        .nr_inputs = 1,
        .input = { .max_bytes = NDP_DEFAULT_MAX_INPUT_BYTES,
                   .whole_tree = whole_tree,
                   .tuning = &tuning },
        .at = 1796472000,
    };
    struct ndp_report_options options = { .rules = NULL };
    struct ndp_buf out = NDP_BUF_INIT;
    struct ndp_report r;

    if (ndp_run(&result, &ro, rs) != 0) {
        ndp_buf_addf(&out, "error: %s\n", result.errors[0].msg);
    } else {
        ndp_report_init(&r, &result, &options);
        ndp_report_json.write(&out, &r);
    }
    ndp_result_release(&result);
    return ndp_buf_detach(&out);
}

int main(int argc, char **argv)
{
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    int i, failed = 0;

    if (ndp_rules_load_embedded(&rs, &err) != 0) {
        fprintf(stderr, "prune_check: %s\n", err.msg);
        return 1;
    }
    for (i = 1; i < argc; i++) {
        char *pruned = judge(argv[i], rs, false);
        char *whole = judge(argv[i], rs, true);
        /* Error texts differ by design (the scanner words them); their
         * presence must not. */
        bool same = strcmp(pruned, whole) == 0 ||
                    (strncmp(pruned, "error:", 6) == 0 &&
                     strncmp(whole, "error:", 6) == 0);
        if (!same) {
            printf("prune_check: %s: the pruned and the whole-tree reports "
                   "differ\n--- pruned\n%.2000s\n--- whole\n%.2000s\n",
                   argv[i], pruned, whole);
            failed++;
        }
        free(pruned);
        free(whole);
    }
    ndp_ruleset_free(rs);
    printf("prune_check: %d passed, %d failed\n", argc - 1 - failed, failed);
    return failed ? 1 : 0;
}

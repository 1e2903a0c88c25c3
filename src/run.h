/*
 * SPDX-License-Identifier: Apache-2.0
 * run.h - one run of ndplint as a library call: the inputs read and
 * judged into one struct ndp_result, which the reports then read.  The
 * command (main.c), the tests and the fuzzers all take this path; the
 * stages are called in ndp_run(), in the order architecture §2 draws
 * them.
 *
 * The result owns everything the run made (the change set, the cluster
 * state, the clusters, what the evaluator resolved, the impacts and the
 * findings) and frees it all in ndp_result_release(); a report borrows
 * it.
 */
#ifndef NDP_RUN_H
#define NDP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "change.h"
#include "error.h"
#include "evaluate.h"
#include "finding.h"
#include "impact.h"
#include "input.h"
#include "linker.h"
#include "state.h"

struct ndp_config;
struct ndp_ruleset;

/* One input: the file 'path' ("-": standard input), or 'bytes' already in
 * memory that 'path' names. */
struct ndp_run_input {
    const char *path;
    const void *bytes;          /* NULL: read 'path' */
    size_t size;
};

/* What a run reads and how it judges; every pointer is borrowed. */
struct ndp_run_options {
    const struct ndp_run_input *inputs;
    size_t nr_inputs;
    const char *const *cluster_states; /* --cluster-state files */
    size_t nr_cluster_states;
    struct ndp_input_options input;    /* byte cap, format, whole tree */
    int64_t at;                        /* the instant judged */
    bool at_next_window;               /* --at next-window: each cluster at
                                          its window (evaluate.h) */
    bool have_profile;                 /* --profile given */
    enum ndp_profile profile;
    const struct ndp_config *config;   /* the settings file, or NULL */
    bool no_waivers;                   /* --no-waivers */
    const char *source_root;           /* --source-root, or NULL: "." */
    bool follow_links;                 /* --follow-links: read a file a
                                          link of the working tree leads
                                          out of it to (worktree.h) */
    const char *template_path;         /* --template, or NULL */
    const char *baseline;              /* --baseline FILE, or NULL */
    const char *write_baseline;        /* --write-baseline FILE, or NULL */
};

struct ndp_result {
    struct ndp_changeset set;
    struct ndp_states states;
    struct ndp_clusters clusters;
    struct ndp_resolutions resolved;  /* per cluster, by index */
    struct ndp_impacts impacts;       /* per cluster, by index */
    struct ndp_findings findings;     /* in report order after ndp_run() */
    int64_t at;                       /* the instant judged: the run's;
                                         each cluster's is in its
                                         resolution (evaluate.h) */
    bool next_window;                 /* --at next-window */
    size_t baseline_known;            /* findings the baseline listed */
    /* Why the run stopped: every input and cluster state that could not
     * be read (each is tried, so each is named), else the one failure
     * that ended it. */
    struct ndp_error *errors;
    size_t nr_errors;
};

#define NDP_RESULT_INIT                                                   \
    { NDP_CHANGESET_INIT, NDP_STATES_INIT, NDP_CLUSTERS_INIT,             \
      NDP_RESOLUTIONS_INIT, NDP_IMPACTS_INIT, NDP_FINDINGS_INIT, 0,       \
      false, 0, NULL, 0 }

/*
 * The whole run into 'out' (NDP_RESULT_INIT on entry): refuse every file
 * it would read that a symbolic link of the working tree leads out of it
 * to (unless 'follow_links'), read the inputs
 * and the cluster state, judge them with 'rs', locate the findings in
 * the source, apply waivers and severity overrides, put the findings in
 * report order (once), and take out what the baseline lists (writing the
 * baseline first when asked).  Warnings go to standard error as they
 * arise.  Returns 0, or the NDP_E* code of the first error in
 * out->errors; the result is released by the caller either way.
 */
int ndp_run(struct ndp_result *out, const struct ndp_run_options *o,
            const struct ndp_ruleset *rs);

/*
 * The middle of ndp_run() for a change set already in r->set (tests
 * build one by hand): link, rules, evaluator.  Fills r->clusters,
 * r->resolved, r->impacts and r->findings (not yet in report order).
 */
void ndp_result_judge(struct ndp_result *r, const struct ndp_ruleset *rs,
                      const struct ndp_eval_options *eo);

/* Frees everything 'r' owns and leaves it as NDP_RESULT_INIT. */
void ndp_result_release(struct ndp_result *r);

#endif

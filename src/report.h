/*
 * SPDX-License-Identifier: Apache-2.0
 * report.h - the last pipeline stage: one reporter per output format, all
 * fed the same data.  Reporters format; they decide nothing.  The command
 * finds a reporter by name and renders through it; the reporters
 * themselves and what they share are in src/report/.
 */
#ifndef NDP_REPORT_H
#define NDP_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rules.h" /* NDP_HOMEPAGE */

struct ndp_buf;
struct ndp_result;
struct ndp_ruleset;

/* How the reports are to be written: the command line's say. */
struct ndp_report_options {
    const struct ndp_ruleset *rules;    /* rule texts for SARIF; may be NULL */
    const char *source_root;            /* --source-root; NULL: current dir */
    int fail_on;                        /* enum ndp_severity (--fail-on) */
    bool at_given;                      /* --at: say "at <instant>", not "now" */
    bool quiet;                         /* text: summary and failing findings */
    bool color;                         /* ANSI colour in text output */
    bool show_suppressed;               /* text: list them too */
    const char *baseline;               /* --baseline FILE, or NULL */
};

/* The findings by severity, as ndp_report_init() counts them. */
struct ndp_report_counts {
    int errors, warnings, notes;
    int suppressed;                     /* waived findings (not counted above) */
};

/*
 * What every reporter is fed: the run's result (run.h), the options and
 * the counts.  The report owns nothing: the result and every string are
 * borrowed (the caller keeps them until the last report is written), and
 * a reporter only reads them.
 */
struct ndp_report {
    const struct ndp_result *result;
    struct ndp_report_options options;
    struct ndp_report_counts counts;
};

/*
 * A reporter: one per output format, found by its name.  What it is made
 * of is the report subsystem's own (src/report/report_internal.h).
 */
struct ndp_reporter;

/*
 * Appends the report 'rep' writes for 'report' to 'out', repaired to valid
 * UTF-8 (and to what its consumer accepts, safe.h) and held to the command
 * rule (safe.h: no log command on any line but the format's own): how
 * every report is written, so that no reporter can let invalid text or a
 * command through.  'out' is empty or ends a line.
 */
void ndp_report_render(struct ndp_buf *out, const struct ndp_reporter *rep,
                       const struct ndp_report *report);

/* The reporter called 'name', or NULL. */
const struct ndp_reporter *ndp_reporter_find(const char *name);
/*
 * The name of reporter 'i' (0, 1, ...) in table order, or NULL past the
 * last: how --help and the option messages list the formats.  The string
 * is static.
 */
const char *ndp_reporter_name(size_t i);

/* The --window-check report (report_window.c). */
void ndp_report_window_check(struct ndp_buf *out,
                             const struct ndp_report *report);

/*
 * The Markdown summary (report_markdown.c) for GITHUB_STEP_SUMMARY: the
 * 'markdown' report, with finding rows left out (and counted) once 'out'
 * would grow past 'budget' bytes.
 */
void ndp_report_markdown_summary(struct ndp_buf *out,
                                 const struct ndp_report *report,
                                 size_t budget);

/*
 * Sets 'out' up to report 'result' (borrowed) as 'options' (copied) say,
 * and counts its findings.
 */
void ndp_report_init(struct ndp_report *out, const struct ndp_result *result,
                     const struct ndp_report_options *options);

/* How many findings of 'r' are at or above its --fail-on level. */
size_t ndp_report_failing(const struct ndp_report *r);

#endif

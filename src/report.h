/*
 * report.h - the last pipeline stage: one reporter per output format, all
 * fed the same data.  Reporters format; they decide nothing.
 */
#ifndef NDP_REPORT_H
#define NDP_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ndp_buf;
struct ndp_changeset;
struct ndp_clusters;
struct ndp_findings;

struct ndp_report {
    const struct ndp_changeset *set;    /* inputs */
    const struct ndp_clusters *clusters;
    const struct ndp_findings *findings;
    int64_t evaluated_at;
    bool color;                         /* ANSI colour in text output */
    int errors, warnings, notes;
};

struct ndp_reporter {
    const char *name;
    void (*write)(struct ndp_buf *out, const struct ndp_report *report);
};

extern const struct ndp_reporter ndp_report_text;
extern const struct ndp_reporter ndp_report_json;

/* The reporter called 'name', or NULL. */
const struct ndp_reporter *ndp_reporter_find(const char *name);
/* Comma-separated names of all formats, for --help. */
const char *ndp_reporter_names(void);

/* The --window-check report (report_window.c). */
void ndp_report_window_check(struct ndp_buf *out,
                             const struct ndp_report *report);

/* Counts findings by severity into the report. */
void ndp_report_count(struct ndp_report *report);

#endif

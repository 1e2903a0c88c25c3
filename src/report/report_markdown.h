/*
 * SPDX-License-Identifier: Apache-2.0
 * report_markdown.h - the parts of the Markdown report (report_markdown.c
 * puts them together within a size budget): text from the input written
 * so that it never becomes Markdown (report_markdown_escape.c), and a
 * cluster's row of the summary table, its collapsed detail and its
 * findings as short lines (report_markdown_cluster.c).  Only files of
 * src/report/ include it.
 */
#ifndef NDP_REPORT_MARKDOWN_H
#define NDP_REPORT_MARKDOWN_H

#ifndef NDP_INSIDE_REPORT
#error "report_markdown.h is internal to src/report/ and its tests"
#endif

#include <stdbool.h>
#include <stddef.h>

struct ndp_buf;
struct ndp_finding;
struct ndp_report;

#define NDP_MD_VALUE_WIDTH 60    /* a value, before or after */
#define NDP_MD_NAME_WIDTH 256    /* an address, a path, an input */
#define NDP_MD_CELL_WIDTH 40     /* a name in a cell of the table */
#define NDP_MD_PROSE_WIDTH 2048  /* a note, a window, a message */

/* Prose from the input, inline, at most about 'width' bytes of it (0: all):
 * Markdown punctuation escaped, no mention, no autolink, no reference. */
void ndp_report_md_prose(struct ndp_buf *out, const char *s, size_t width);

/* The same for the text of an HTML element (a <summary>): '&', '<', '>',
 * quotes and a URL's ':' or "www." as character references. */
void ndp_report_md_html(struct ndp_buf *out, const char *s, size_t width);

/*
 * A code span of 's' (at most 'width' bytes when 'width' > 0).  In a table
 * cell ('cell') '|' is escaped, as GFM tables require even inside code.
 */
void ndp_report_md_code_span(struct ndp_buf *out, const char *s,
                             size_t width, bool cell);

/* What the table says of a cluster, counted in one pass (unwaived
 * findings, but 'refused' counts waived ones too: a waiver silences
 * ndplint, not AKS).  A change is refused when the policy refuses it at
 * the evaluation instant or AKS or azurerm refuses it whatever the time. */
struct ndp_md_counts {
    size_t refused, rollouts, errors, warnings, notes, waived;
};

/* Fills 'counts' (one per cluster of 'r'). */
void ndp_report_md_count(struct ndp_md_counts *counts,
                         const struct ndp_report *r);

/* The most severe unwaived finding of a cluster: 0 error, 1 warning,
 * 2 note, 3 none. */
int ndp_report_md_worst(const struct ndp_md_counts *c);

/* The head of the summary table, and cluster 'index's row of it. */
void ndp_report_md_table_head(struct ndp_buf *out);
void ndp_report_md_cluster_row(struct ndp_buf *out,
                               const struct ndp_report *r, size_t index,
                               const struct ndp_md_counts *c);

/*
 * Opens cluster 'index's collapsed detail: "<details><summary>" with its
 * name and counts, then its address or full ARM id, input, profile,
 * window and impact.  The caller closes it with "</details>".
 */
void ndp_report_md_cluster_detail(struct ndp_buf *out,
                                  const struct ndp_report *r, size_t index,
                                  const struct ndp_md_counts *c);

/*
 * One finding as a short list item: severity and verdict, the rule
 * linked to its docs and its source, `attribute` `before → after`, then
 * the message and what to do.
 */
void ndp_report_md_finding(struct ndp_buf *out, const struct ndp_report *r,
                           const struct ndp_finding *f);

/* A waived finding in one line, with its waiver. */
void ndp_report_md_waived(struct ndp_buf *out, const struct ndp_finding *f);

#endif

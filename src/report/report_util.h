/*
 * SPDX-License-Identifier: Apache-2.0
 * report_util.h - what the CI reporters (SARIF, GitHub, JUnit, Markdown)
 * share: repository-relative artifact paths, a stable fingerprint per
 * finding (SHA-256, from sha256.h), the location of a finding, and
 * the one-line description of a finding.
 */
#ifndef NDP_REPORT_UTIL_H
#define NDP_REPORT_UTIL_H

#ifndef NDP_INSIDE_REPORT
#error "report_util.h is internal to src/report/ and its tests"
#endif

#include <stddef.h>
#include <stdint.h>

#include "sha256.h" /* the reporters hash with ndp_sha256_hex() */

struct ndp_buf;
struct ndp_cluster;
struct ndp_finding;
struct ndp_report;

#define NDP_ARROW "\xe2\x86\x92" /* U+2192, between before and after */

/*
 * Appends the path of 'input' relative to 'source_root' (NULL: the current
 * directory), '/'-separated, without percent-encoding.  An input outside
 * the root keeps its absolute path; "-" (standard input) is appended as
 * "-".  Returns 1 when the path is relative to the root, 0 when absolute,
 * -1 for standard input.
 */
int ndp_report_relative_path(struct ndp_buf *out, const char *input,
                             const char *source_root);

/*
 * Appends the fingerprint of 'f' (64 hex digits): the SHA-256 of its rule,
 * the input's repository-relative path 'where', its cluster, resource, path
 * and the SHA-256 of its (redacted) new value.  Line numbers and input
 * order do not enter it, so unrelated edits of the plan leave it alone.
 */
void ndp_report_fingerprint(struct ndp_buf *out, const struct ndp_finding *f,
                            const char *where);

/*
 * The one location every format gives 'f': appends to 'file' the path of
 * the .tf file or template the finding was located in (see locate.h), else
 * of its input, relative to --source-root as ndp_report_relative_path()
 * does, and sets '*line' to the line there (0: unknown).  Returns what
 * ndp_report_relative_path() returns (-1: standard input, no file).
 */
int ndp_report_location(struct ndp_buf *file, long *line,
                        const struct ndp_report *r,
                        const struct ndp_finding *f);

/*
 * Appends "VERDICT: PATH BEFORE ARROW AFTER in RESOURCE (cluster CLUSTER)"
 * for 'f' ("in cluster CLUSTER" when the resource is the cluster; no path
 * part when there is none); no message, nothing escaped.
 */
/*
 * "aks-prod in rg-platform", "aks-prod" or "in rg-platform": the cluster's
 * Azure name and resource group as far as they are known, unescaped (the
 * caller escapes it for its format); nothing when neither is known.
 */
void ndp_report_cluster_names(struct ndp_buf *out,
                              const struct ndp_cluster *c);

void ndp_report_describe(struct ndp_buf *out, const struct ndp_finding *f,
                         const char *arrow);

/*
 * Appends the description above, ". ", and the finding's message with its
 * first letter capitalised: the whole finding in one line of text.
 */
void ndp_report_describe_all(struct ndp_buf *out, const struct ndp_finding *f,
                             const char *arrow);


/*
 * Where a summary line says the instant it judged at: "judged at
 * <instant>", or with --at next-window "judged at the next window of
 * each cluster (from <instant>)".
 */
void ndp_report_add_judged(struct ndp_buf *out, const struct ndp_report *r);

/*
 * Cluster 'index's instant in words, for --at next-window:
 * "2026-12-05T01:00:00Z, the first instant inside its window", "...,
 * no window gates it", "..., no opening of its window can be named";
 * an instant taken from a sensitive window is not shown.
 */
void ndp_report_cluster_judged(struct ndp_buf *out,
                               const struct ndp_report *r, size_t index);

/*
 * The one-line summary the CI log formats (github, azure) end with:
 * "ndplint: N errors, ... (M inputs); K at or above --fail-on LEVEL;
 * ...; judged at <instant>", and a newline.  Only counts and names of
 * ndplint's own: nothing from the input, so nothing to escape.
 */
void ndp_report_log_summary(struct ndp_buf *out, const struct ndp_report *r);

/*
 * Findings grouped by cluster in one pass: 'order' lists finding indexes
 * cluster by cluster (keeping their sorted order), 'start[c]' is where
 * cluster c's run begins (nr_clusters + 1 entries).  Linear in clusters +
 * findings.  The arrays are owned; ndp_report_by_cluster_release() frees
 * them.
 */
struct ndp_report_by_cluster {
    size_t *order;
    size_t *start;
};

void ndp_report_group_by_cluster(struct ndp_report_by_cluster *g,
                                 const struct ndp_report *r);
void ndp_report_by_cluster_release(struct ndp_report_by_cluster *g);

#endif

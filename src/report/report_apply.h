/*
 * SPDX-License-Identifier: Apache-2.0
 * report_apply.h - "when can this apply?" as every reporter words it
 * (report_apply.c): per cluster and for the whole plan, from the findings
 * refused now (rejected, outside-window) and the windows the evaluator
 * resolved, through the pure search of apply_window.h.  Only files of
 * src/report/ include it.
 *
 * Nothing read from a window under a sensitive mask is written: where a
 * time would come from such a window, JSON gives null ("reason": "window")
 * and the sentence says the times are not shown.
 */
#ifndef NDP_REPORT_APPLY_H
#define NDP_REPORT_APPLY_H

#ifndef NDP_INSIDE_REPORT
#error "report_apply.h is internal to src/report/ and its tests"
/*
 * Whether the plan can be applied at the evaluation instant: nothing is
 * refused then and nothing depends on a value known only after apply
 * (the sentence's "Apply now").
 */
bool ndp_report_apply_now(const struct ndp_report *r);

#endif

#include <stdbool.h>
#include <stddef.h>

struct ndp_buf;
struct ndp_report;

/* Index that asks for the whole plan rather than one cluster. */
#define NDP_APPLY_PLAN ((size_t)-1)

/*
 * Appends {"from": ..., "until": ..., "reason": ...} for cluster 'index'
 * of 'r', or for the whole plan (NDP_APPLY_PLAN), compact.
 */
void ndp_report_apply_json(struct ndp_buf *out, const struct ndp_report *r,
                           size_t index);

/*
 * Appends the one sentence that ends the human reports, without a final
 * newline: "Apply between 2026-12-06T01:00:00Z and 2026-12-06T05:00:00Z
 * (Sat 20:00–24:00 UTC-05:00)", or why not.  Cluster ids go through
 * 'add_name' (the reporter's escaping for text from the input).
 */
void ndp_report_apply_sentence(struct ndp_buf *out,
                               const struct ndp_report *r,
                               void (*add_name)(struct ndp_buf *out,
                                                const char *s));

/*
 * The same sentence with at most 'max_names' cluster ids in each list of
 * them; the others are counted ("a, b and 3 more clusters are frozen";
 * with 0, "5 clusters are frozen"), and only the clusters named get their
 * details (a freeze date, a window).  Its advice is always whole: how a
 * report with a size budget shortens the sentence instead of cutting it.
 */
void ndp_report_apply_sentence_names(struct ndp_buf *out,
                                     const struct ndp_report *r,
                                     void (*add_name)(struct ndp_buf *out,
                                                      const char *s),
                                     size_t max_names);

/*
 * Whether the plan can be applied at the evaluation instant: nothing is
 * refused then and nothing depends on a value known only after apply
 * (the sentence's "Apply now").
 */
bool ndp_report_apply_now(const struct ndp_report *r);

#endif

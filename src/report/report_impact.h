/*
 * SPDX-License-Identifier: Apache-2.0
 * report_impact.h - a cluster's impact in the reports' words (internal to
 * src/report/; the tests of the evaluator read it too).
 */
#ifndef NDP_REPORT_IMPACT_H
#define NDP_REPORT_IMPACT_H

#ifndef NDP_INSIDE_REPORT
#error "report_impact.h is internal to src/report/ and its tests"
#endif

struct ndp_buf;
struct ndp_impact;

/*
 * Appends the impact as a JSON object (the rebuilt pools, how each is
 * rolled, their nodes, surge or unavailable nodes, batches, extra nodes,
 * drain and soak minutes, the extra nodes at the peak, the worst-case
 * rebuild in minutes and the minutes left in the window, the created
 * pools as "created"), or "null" when nothing is rebuilt.  Nothing
 * read under a sensitive mask is written.
 */
void ndp_report_impact_json(struct ndp_buf *out,
                            const struct ndp_impact *impact);

/*
 * Appends the same in words ("rebuilds system (3 nodes, ...)"; "up to 2
 * extra nodes at the peak"; "pool 'x' is created (not rebuilt)"), or
 * nothing when nothing is rebuilt.
 */
void ndp_report_impact_words(struct ndp_buf *out,
                             const struct ndp_impact *impact);

struct ndp_impacts;

/*
 * Appends the extra nodes at the peak of the whole apply (rollout.h,
 * ndp_rollout_plan_extra_nodes()): a number, or null when unknown.
 */
void ndp_report_plan_extra_json(struct ndp_buf *out,
                                const struct ndp_impacts *impacts);

/*
 * Appends the same in words when the pools of two clusters or more are
 * rebuilt ("pools of 2 clusters are rebuilt: up to 5 extra nodes at the
 * peak, ..."), nothing otherwise: each cluster's impact says its own.
 */
void ndp_report_plan_extra_words(struct ndp_buf *out,
                                 const struct ndp_impacts *impacts);

#endif

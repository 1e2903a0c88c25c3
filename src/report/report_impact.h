/*
 * SPDX-License-Identifier: Apache-2.0
 * report_impact.h - a cluster's impact in the reports' words (internal to
 * src/report/; the tests of the evaluator read it too).
 */
#ifndef NDP_REPORT_IMPACT_H
#define NDP_REPORT_IMPACT_H

struct ndp_buf;
struct ndp_impact;

/*
 * Appends the impact as a JSON object (the rebuilt pools, their nodes,
 * batches, drain and soak minutes, the worst-case rebuild in minutes and
 * the minutes left in the window, the created pools as "created"), or
 * "null" when nothing is rebuilt.  Nothing read under a sensitive mask is
 * written.
 */
void ndp_report_impact_json(struct ndp_buf *out,
                            const struct ndp_impact *impact);

/*
 * Appends the same in words ("rebuilds system (3 nodes, ...)"; "pool 'x'
 * is created (not rebuilt)"), or nothing when nothing is rebuilt.
 */
void ndp_report_impact_words(struct ndp_buf *out,
                             const struct ndp_impact *impact);

#endif

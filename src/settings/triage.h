/*
 * SPDX-License-Identifier: Apache-2.0
 * triage.h - after the verdicts: waivers from .ndplint.json and the
 * baseline decide which findings count.
 *
 * A waived finding stays in the report, marked suppressed (JSON and SARIF
 * keep it; text shows it with --show-suppressed) and does not fail the
 * run; an expired waiver stops suppressing and adds a warning naming it.
 * A baseline file (--write-baseline) lists findings by a fingerprint of
 * rule, cluster, resource, path and new value, so --baseline reports only
 * findings that are not in it, however the plan around them moved.
 */
#ifndef NDP_TRIAGE_H
#define NDP_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ndp_clusters;
struct ndp_config;
struct ndp_error;
struct ndp_findings;
struct ndp_ruleset;

/* Marks waived findings and adds a warning per expired waiver. */
void ndp_triage_waivers(struct ndp_findings *findings,
                        const struct ndp_clusters *clusters,
                        const struct ndp_config *config,
                        const struct ndp_ruleset *rs, int64_t at);

/* Writes the fingerprints of the unsuppressed findings to 'path'. */
int ndp_baseline_write(const char *path, const struct ndp_findings *findings,
                       struct ndp_error *err);

/*
 * Removes from 'findings' those whose fingerprint 'path' lists; '*known'
 * receives how many.  0, or NDP_E* with 'err' naming the file.
 */
int ndp_baseline_apply(struct ndp_findings *findings, const char *path,
                       size_t *known, struct ndp_error *err);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * overrides.h - a team's severities: the settings file's
 * "severity_overrides" set the severity of every finding of a rule or of
 * a verdict, or turn them off (suppressed, counted as a waived finding
 * is).  A rule's override wins over its verdict's.  Every overridden
 * finding says so, with the reason, in every report.
 */
#ifndef NDP_OVERRIDES_H
#define NDP_OVERRIDES_H

struct ndp_config;
struct ndp_error;
struct ndp_findings;
struct ndp_ruleset;

/*
 * Refuses an override of a rule 'rs' does not have, and two overrides of
 * the same rule or verdict.  0, or NDP_ECONFIG with 'err' naming the file.
 */
int ndp_overrides_check(const struct ndp_config *config,
                        const struct ndp_ruleset *rs, struct ndp_error *err);

/* Applies the overrides of 'config' to 'findings'. */
void ndp_overrides_apply(struct ndp_findings *findings,
                         const struct ndp_config *config);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * waivers.h - which findings each waiver of .ndplint.json covers, without
 * trying every waiver on every finding (triage.c decides what follows).
 *
 * Waivers are grouped by their exact condition (rule, category, match);
 * a finding meets only the groups that can cover it:
 *   - without 'match': looked up by the finding's rule and category;
 *   - a literal 'match' (no '*', '?', '[' or '\'): looked up by rule,
 *     category and the finding's resource or cluster id;
 *   - a glob: indexed by the rarest of its literal runs (the text between
 *     wildcards, brackets and escapes, cut to 16 bytes; ARM ids folded),
 *     so it is tried only on findings whose resource or cluster id
 *     contains that run: 10,000 waivers for 10,000 for_each instances
 *     ('pool?"p1"?', ...) meet one finding each.  A glob with no literal
 *     run ('*', '?*', '[ab]*') is tried on every finding.
 * Cost: O(F * L * 16^2 + W * P) for F findings with ids of length L and
 * W waivers of length P, plus one fnmatch for every (finding, glob) pair
 * the index lets through.  What stays unbounded: globs without a literal
 * run, and many distinct globs whose rarest run is the same and occurs in
 * many ids, are each tried on every such finding (F x those globs).
 */
#ifndef NDP_WAIVERS_H
#define NDP_WAIVERS_H

#include <stddef.h>
#include <stdint.h>

struct ndp_config;
struct ndp_findings;

/*
 * For findings 0..findings->nr-1: 'waiver_of[j]' receives the index (in
 * config->waivers) of the first waiver in file order that covers finding
 * j and has not expired at 'at', or SIZE_MAX; 'first_of[w]' receives the
 * first finding in report order (ndp_finding_compare) that waiver w
 * covers, or SIZE_MAX.  Both arrays are
 * allocated by the caller.
 */
void ndp_waivers_match(size_t *waiver_of, size_t *first_of,
                       const struct ndp_findings *findings,
                       const struct ndp_config *config, int64_t at);

#endif

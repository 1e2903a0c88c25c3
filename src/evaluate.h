/*
 * evaluate.h - the evaluator: per cluster the node disruption profile and
 * the maintenance window in force, per hit a verdict (architecture §5).
 */
#ifndef NDP_EVALUATE_H
#define NDP_EVALUATE_H

#include <stdbool.h>
#include <stdint.h>

#include "linker.h"

struct ndp_changeset;
struct ndp_findings;
struct ndp_hits;
struct ndp_ruleset;
struct ndp_states;
struct ndp_config;

struct ndp_eval_options {
    int64_t at;                 /* evaluation instant, seconds since the epoch */
    bool have_profile;          /* --profile given */
    enum ndp_profile profile;   /* its value */
    struct ndp_states *states;  /* --cluster-state files, or NULL; the
                                   evaluator marks what it matched */
    const struct ndp_config *config; /* .ndplint.json, or NULL */
};

/*
 * Fills the policy and window fields of every cluster in 'clusters' and
 * appends findings for 'hits', replacements and policy/window problems to
 * 'out'.  Borrows everything else.
 */
void ndp_evaluate(struct ndp_findings *out, struct ndp_clusters *clusters,
                  const struct ndp_changeset *set, const struct ndp_hits *hits,
                  const struct ndp_ruleset *rs,
                  const struct ndp_eval_options *opt);

/*
 * The middle of the pipeline in one call: links 'set' into 'clusters'
 * (empty on entry), runs the rule engine and evaluates its hits into 'out'.
 * The hits live only inside.
 */
void ndp_judge(struct ndp_findings *out, struct ndp_clusters *clusters,
               struct ndp_changeset *set, const struct ndp_ruleset *rs,
               const struct ndp_eval_options *opt);

#endif

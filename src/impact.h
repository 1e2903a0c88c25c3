/*
 * impact.h - the size of the disruption: which node pools a cluster's
 * findings rebuild, how many nodes, and in how many rolling batches.
 */
#ifndef NDP_IMPACT_H
#define NDP_IMPACT_H

#include <stdbool.h>
#include <stddef.h>

struct ndp_change;
struct ndp_changeset;
struct ndp_clusters;
struct ndp_findings;

/*
 * Fills every cluster's 'impact_json' and 'impact_text' from its findings
 * that rebuild nodes when applied (allowed, bypassed, rotate, may-reimage;
 * a refused change rebuilds nothing) and from the pools the input and the
 * cluster state describe.  A pool this apply creates or deletes is never
 * rebuilt nor counted; created ones are listed ("created" in the JSON,
 * "pool 'x' is created (not rebuilt)" in the text).  Leaves both NULL
 * when nothing is rebuilt.  Linear in changes, findings and pools.
 */
void ndp_impact_compute_all(struct ndp_clusters *clusters,
                            const struct ndp_changeset *set,
                            const struct ndp_findings *findings);

/*
 * True when the pools 'ch' describes are (in part) under a sensitive
 * mask: the names and sizes of its pools are then never printed.  Coarse
 * on purpose: any marked value in a pool block, in the agentPoolProfiles
 * of a cluster body, or in a pool resource's name, sizes, surge or OS
 * counts.
 */
bool ndp_impact_pool_sensitive(const struct ndp_change *ch);

/*
 * Surge nodes for a pool of 'nodes' under maxSurge 'surge' ("3", "33%",
 * NULL for the AKS default of 1): a percentage rounds up; at least 1, at
 * most 'nodes' (when known, i.e. > 0).
 */
long ndp_impact_surge_nodes(const char *surge, long nodes);

/*
 * Batches of 'surge' nodes a rolling rebuild of 'nodes' takes (rounded
 * up, without overflow for any count), or -1 when 'nodes' is unknown.
 */
long ndp_impact_batches(long nodes, long surge);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * policy.h - the words of the AKS node disruption policy: the profiles,
 * the maintenance configuration that gates them and the Kubernetes minor
 * version from which it gates version-bound changes.
 *
 * The bottom of the program: settings, live state, the evaluator and the
 * reporters all speak this vocabulary, so it depends on nothing of theirs.
 * Every string returned here is static; nothing is to be freed.
 */
#ifndef NDP_POLICY_H
#define NDP_POLICY_H

#include <stddef.h>

/* The only maintenance configuration the node disruption policy reads. */
#define NDP_NODE_OS_WINDOW "aksManagedNodeOSUpgradeSchedule"

/* Ordered from the most to the least permissive: the stricter is larger. */
enum ndp_profile {
    NDP_PROFILE_ALLOW,
    NDP_PROFILE_WINDOW, /* AllowDuringMaintenanceWindow */
    NDP_PROFILE_BLOCK
};

/* Parses a profile name case-insensitively; -1 when unknown. */
int ndp_profile_parse(const char *name);

/* The profile's name as AKS spells it ("AllowDuringMaintenanceWindow"). */
const char *ndp_profile_name(enum ndp_profile profile);

/*
 * The 'i'th profile name, from the most permissive, or NULL past the
 * last: for help texts and error messages that list the choices.
 */
const char *ndp_profile_choice(size_t i);

/*
 * The first Kubernetes minor version (as ndp_k8s_minor() counts it) on
 * which the policy gates version-gated changes: 1.37.  Before it they
 * take effect only on a node image upgrade, which the policy does not
 * gate.
 */
#define NDP_FIRST_GATED_MINOR 137

/* Kubernetes "1.37.2" -> 137 (major*100 + minor); -1 when unparsable. */
int ndp_k8s_minor(const char *version);

#endif

/*
 * SPDX-License-Identifier: Apache-2.0
 * k8s_version.h - Kubernetes versions as AKS and azurerm write them, read
 * and ordered: "1.30" (an alias: AKS picks the latest patch of that
 * minor), "1.30.5", with a leading "v" and a pre-release or build suffix
 * ("1.30.5-preview", "1.30.5+abc") tolerated.  Anything else ("latest",
 * "1.30.x", " 1.30", a number of more than six digits) is not a version.
 *
 * Reading and ordering only: which versions AKS offers, and which are
 * long-term support targets, is service data and is never held here
 * (put-time-limits, settled readings).  Beside ndp_k8s_minor() of
 * policy.h, which the version-gated categories read; this module adds
 * what comparing two versions needs: the patch, the alias, the suffix.
 * Pure functions of their arguments; nothing is allocated.
 */
#ifndef NDP_K8S_VERSION_H
#define NDP_K8S_VERSION_H

#include <stdbool.h>

/* The most digits a component may have: 999999 at most. */
#define NDP_K8S_VERSION_DIGITS 6

struct ndp_k8s_version {
    long major, minor;
    long patch;      /* -1: an alias, major.minor only */
    bool suffixed;   /* a pre-release or build suffix follows the numbers */
};

/*
 * Reads 'text' (may be NULL) into 'out': true when it is a version as
 * above, false (and 'out' zeroed) otherwise.  A version that passes holds
 * only digits, '.', a leading 'v' or 'V' and, after '-' or '+', letters,
 * digits, '.', '-' and '+' (at most 32 of them), so it may be printed as
 * it stands.
 */
bool ndp_k8s_version_parse(struct ndp_k8s_version *out, const char *text);

/* How version 'a' stands to version 'b'. */
enum ndp_k8s_order {
    NDP_K8S_LOWER,
    NDP_K8S_SAME,
    NDP_K8S_HIGHER,
    /* The same major and minor, and which is higher is not known: an
     * alias beside a patch of its minor (AKS reads "1.30" on a cluster at
     * 1.30.5 as no change), or the same numbers with a suffix on either
     * side (suffixes are not ordered). */
    NDP_K8S_SAME_MINOR
};

enum ndp_k8s_order ndp_k8s_version_order(const struct ndp_k8s_version *a,
                                         const struct ndp_k8s_version *b);

/*
 * Minor versions from 'from' up to 'to' (1.29 -> 1.31 is 2, 1.31 -> 1.29
 * is -2), when both have the same major; false when the majors differ
 * (how many minors a major holds is not known).
 */
bool ndp_k8s_minors_between(long *out, const struct ndp_k8s_version *from,
                            const struct ndp_k8s_version *to);

#endif

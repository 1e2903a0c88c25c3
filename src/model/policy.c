/*
 * SPDX-License-Identifier: Apache-2.0
 * policy.c - the names of the node disruption profiles and the reading of
 * a Kubernetes version, shared by every stage that meets them.
 */
#include "common.h"
#include "policy.h"

static const char *const profile_names[] = {
    [NDP_PROFILE_ALLOW] = "Allow",
    [NDP_PROFILE_WINDOW] = "AllowDuringMaintenanceWindow",
    [NDP_PROFILE_BLOCK] = "Block",
};

int ndp_profile_parse(const char *name)
{
    size_t i;

    for (i = 0; i < NDP_ARRAY_SIZE(profile_names); i++)
        if (ndp_strcasecmp(name, profile_names[i]) == 0)
            return (int)i;
    return -1;
}

const char *ndp_profile_name(enum ndp_profile profile)
{
    return profile_names[profile];
}

const char *ndp_profile_choice(size_t i)
{
    return i < NDP_ARRAY_SIZE(profile_names) ? profile_names[i] : NULL;
}

int ndp_k8s_minor(const char *version)
{
    long major, minor;
    char *end;

    if (!version)
        return -1;
    if (*version == 'v' || *version == 'V')
        version++;
    major = strtol(version, &end, 10);
    if (end == version || *end != '.' || major < 0 || major > 99)
        return -1;
    version = end + 1;
    minor = strtol(version, &end, 10);
    if (end == version || minor < 0 || minor > 99)
        return -1;
    return (int)(major * 100 + minor);
}

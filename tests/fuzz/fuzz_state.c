/*
 * SPDX-License-Identifier: Apache-2.0
 * fuzz_state.c - fuzz target: arbitrary bytes as a --cluster-state file, a
 * settings file (.ndplint.json) and a baseline, each read the way the
 * command reads it (from a file).  What reads is then used: the state and
 * the settings judge a small plan.  Every error message (the settings
 * file's unknown keys, a state's id or policy) must be one safe line as
 * printed (fuzz_common.h).
 */
#include "fuzz_common.h"
#include "buf.h"
#include "change.h"
#include "config.h"
#include "engine.h"
#include "error.h"
#include "evaluate.h"
#include "finding.h"
#include "impact.h"
#include "input.h"
#include "linker.h"
#include "rules.h"
#include "state.h"
#include "triage.h"

#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char plan[] =
    "{\"format_version\":\"1.2\",\"resource_changes\":[{\"address\":"
    "\"azurerm_kubernetes_cluster.main\",\"mode\":\"managed\",\"type\":"
    "\"azurerm_kubernetes_cluster\",\"change\":{\"actions\":[\"update\"],"
    "\"before\":{\"id\":\"/subscriptions/s/resourcegroups/rg/providers/"
    "Microsoft.ContainerService/managedClusters/aks\",\"network_profile\":"
    "[{\"network_policy\":\"\"}]},\"after\":{\"id\":\"/subscriptions/s/"
    "resourcegroups/rg/providers/Microsoft.ContainerService/managedClusters/"
    "aks\",\"network_profile\":[{\"network_policy\":\"azure\"}]}}}]}";

static void judge(struct ndp_states *states, const struct ndp_config *config)
{
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_clusters clusters = NDP_CLUSTERS_INIT;
    struct ndp_resolutions resolved = NDP_RESOLUTIONS_INIT;
    struct ndp_impacts impacts = NDP_IMPACTS_INIT;
    struct ndp_findings findings = NDP_FINDINGS_INIT;
    struct ndp_input_options in = { 1 << 20, NULL, false };
    struct ndp_eval_options eo = { 1796472000, false, NDP_PROFILE_ALLOW,
                                   states, config };
    struct ndp_error err = NDP_ERROR_INIT;

    if (ndp_input_read_bytes(&set, "plan.json", plan, sizeof(plan) - 1, &in,
                             &err) == 0) {
        ndp_judge(&findings, &clusters, &resolved, &impacts, &set,
                  fuzz_rules(), &eo);
        ndp_triage_waivers(&findings, &clusters, config, fuzz_rules(), eo.at);
    }
    ndp_findings_release(&findings);
    ndp_impacts_release(&impacts);
    ndp_resolutions_release(&resolved);
    ndp_clusters_release(&clusters);
    ndp_changeset_release(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/ndp-fuzz-state-XXXXXX";
    int fd = mkstemp(path);
    struct ndp_states states = NDP_STATES_INIT;
    struct ndp_config config;
    struct ndp_findings none = NDP_FINDINGS_INIT;
    struct ndp_error err = NDP_ERROR_INIT;
    bool have_config;
    size_t known = 0;

    if (fd < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    if (ndp_state_read(&states, path, 1 << 20, &err) != 0)
        check_message(&err);
    ndp_error_clear(&err);
    have_config = ndp_config_load(&config, path, &err) == 0;
    if (!have_config)
        check_message(&err);
    ndp_error_clear(&err);
    judge(&states, have_config ? &config : NULL);
    if (ndp_baseline_apply(&none, path, &known, &err) != 0)
        check_message(&err);
    if (have_config)
        ndp_config_release(&config);
    ndp_states_release(&states);
    ndp_findings_release(&none);
    unlink(path);
    return 0;
}

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
#include "config.h"
#include "error.h"
#include "finding.h"
#include "rules.h"
#include "run.h"
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

/* The plan judged as the command does, with the state file 'path' (when
 * it reads) and the settings 'config' (may be NULL). */
static void judge(const char *path, const struct ndp_config *config)
{
    struct ndp_result result = NDP_RESULT_INIT;
    struct ndp_run_input input = { "plan.json", plan, sizeof(plan) - 1 };
    const char *const states[] = { path };
    struct ndp_run_options ro = {
        .inputs = &input,
        .nr_inputs = 1,
        .cluster_states = states,
        .nr_cluster_states = path ? 1 : 0,
        .input = { .max_bytes = 1 << 20 },
        .at = 1796472000,
        .config = config,
        .source_root = fuzz_empty_dir(),
    };

    if (ndp_run(&result, &ro, fuzz_rules()) != 0)
        check_message(&result.errors[0]);
    ndp_result_release(&result);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/ndp-fuzz-state-XXXXXX";
    int fd = mkstemp(path);
    struct ndp_states states = NDP_STATES_INIT;
    bool have_states;
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
    have_states = ndp_state_read(&states, path, 1 << 20, &err) == 0;
    if (!have_states)
        check_message(&err);
    ndp_error_clear(&err);
    have_config = ndp_config_load(&config, path, &err) == 0;
    if (!have_config)
        check_message(&err);
    ndp_error_clear(&err);
    judge(have_states ? path : NULL, have_config ? &config : NULL);
    if (ndp_baseline_apply(&none, path, &known, &err) != 0)
        check_message(&err);
    if (have_config)
        ndp_config_release(&config);
    ndp_states_release(&states);
    ndp_findings_release(&none);
    unlink(path);
    return 0;
}

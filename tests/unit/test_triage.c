/*
 * SPDX-License-Identifier: Apache-2.0
 * test_triage.c - the indexes behind waivers and pool lookups: the waiver
 * index (waivers.c) against the plain rule "every waiver tried on every
 * finding", over a table of conditions and ids chosen to hit every kind
 * of group (no match, literal, glob with a prefix, glob that starts with a
 * wildcard, ARM ids in other cases, brackets, escapes, expired waivers);
 * and the keyed map (strmap.c).
 */
#include "test_common.h"
#include "config.h"
#include "finding.h"
#include "strmap.h"
#include "waivers.h"

static const char *const rules[] = { "NDP101", "ndp101", "NDP502", NULL };
static const char *const categories[] = { "network-policy", "rotate", NULL };
static const char *const matches[] = {
    NULL,
    "azurerm_kubernetes_cluster.main",
    "azurerm_kubernetes_cluster.*",
    "azurerm_kubernetes_cluster_node_pool.pool[[]\"p1\"]",
    "azurerm_kubernetes_cluster_node_pool.pool?\"p?\"?",
    "*pool*",
    "*",
    "?zurerm*",
    "azurerm_kubernetes_cluster_node_pool.pool\\[*",
    "/SUBSCRIPTIONS/S/resourceGroups/G/providers/Microsoft.ContainerService/"
    "managedClusters/AKS1",
    "/subscriptions/s/*/managedclusters/aks1/agentpools/*",
    "/subscriptions/s/resourcegroups/g/*",
    "module.prod*",
    "module.prod",
    "",
    "azurerm_kubernetes_cluster_node_pool.pool[",
    "*[]]*",
    "azurerm_kubernetes_cluster_node_pool.pool[!x]*",
    "module\\.prod*",
    "module.prod\\",
    "*main",
    "*[Mm]ain",
    "*AKS1",
};
static const char *const resources[] = {
    "azurerm_kubernetes_cluster.main",
    "azurerm_kubernetes_cluster_node_pool.pool[\"p1\"]",
    "azurerm_kubernetes_cluster_node_pool.pool[\"p2\"]",
    "/subscriptions/s/resourceGroups/g/providers/Microsoft.ContainerService/"
    "managedClusters/aks1",
    "/subscriptions/S/resourceGroups/G/providers/Microsoft.ContainerService/"
    "managedClusters/AKS1/agentPools/apps",
    "module.prod.azurerm_kubernetes_cluster.x",
    "module.prod",
};

/* The rule the index must agree with (triage.c before the index). */
static bool naive_covers(const struct ndp_waiver *w,
                         const struct ndp_finding *f)
{
    if (w->rule && ndp_strcasecmp(w->rule, f->rule_id) != 0)
        return false;
    if (w->category && strcmp(w->category, f->category) != 0)
        return false;
    return !w->match || ndp_glob_match(w->match, f->resource) ||
           ndp_glob_match(w->match, f->cluster);
}

static void check_against_naive(const struct ndp_findings *fs,
                                const struct ndp_config *config, int64_t at)
{
    size_t *waiver_of = calloc(fs->nr + 1, sizeof(size_t));
    size_t *first_of = calloc(config->nr_waivers + 1, sizeof(size_t));
    size_t i, j;

    ndp_waivers_match(waiver_of, first_of, fs, config, at);
    for (j = 0; j < fs->nr; j++) {
        size_t want = SIZE_MAX;
        for (i = 0; i < config->nr_waivers && want == SIZE_MAX; i++)
            if (config->waivers[i].expires >= at &&
                naive_covers(&config->waivers[i], &fs->items[j]))
                want = i;
        if (waiver_of[j] != want)
            fail_msg("finding %zu (%s, %s): waiver %zu, want %zu", j,
                     fs->items[j].rule_id, fs->items[j].resource,
                     waiver_of[j], want);
    }
    for (i = 0; i < config->nr_waivers; i++) {
        size_t want = SIZE_MAX;
        /* The first in report order, whatever the array's order. */
        for (j = 0; j < fs->nr; j++)
            if (naive_covers(&config->waivers[i], &fs->items[j]) &&
                (want == SIZE_MAX ||
                 ndp_finding_compare(&fs->items[j], &fs->items[want]) < 0))
                want = j;
        if (first_of[i] != want)
            fail_msg("waiver %zu (%s): first finding %zu, want %zu", i,
                     config->waivers[i].match ? config->waivers[i].match
                                              : "(none)",
                     first_of[i], want);
    }
    free(waiver_of);
    free(first_of);
}

/* Every rule x category x match, some expired; findings of every id. */
static void waiver_index__agrees_with_every_waiver_on_every_finding(
    void **state)
{
    struct ndp_config config;
    struct ndp_findings fs = NDP_FINDINGS_INIT;
    size_t r, c, m, n = 0, k;
    static char clusters[NDP_ARRAY_SIZE(resources)][16];

    (void)state;
    memset(&config, 0, sizeof(config));
    config.waivers = calloc(NDP_ARRAY_SIZE(rules) * NDP_ARRAY_SIZE(categories)
                                * NDP_ARRAY_SIZE(matches), sizeof(*config.waivers));
    for (m = 0; m < NDP_ARRAY_SIZE(matches); m++)
        for (r = 0; r < NDP_ARRAY_SIZE(rules); r++)
            for (c = 0; c < NDP_ARRAY_SIZE(categories); c++) {
                struct ndp_waiver *w = &config.waivers[n];
                w->rule = rules[r];
                w->category = categories[c];
                w->match = matches[m];
                w->reason = "r";
                w->expires_text = "2026-12-05";
                /* Every third expired: it covers, but never suppresses. */
                w->expires = n % 3 == 1 ? 100 : 1000;
                w->index = n++;
            }
    config.nr_waivers = n;
    for (k = 0; k < 3 * NDP_ARRAY_SIZE(resources); k++) {
        struct ndp_rule rule = { .id = k % 2 ? "NDP502" : "NDP101",
                                 .category = k % 2 ? "rotate"
                                                   : "network-policy" };
        struct ndp_finding_spec spec = {
            .rule = &rule,
            .verdict = NDP_VERDICT_ALLOWED,
            .input = "plan.json",
            .resource = resources[k % NDP_ARRAY_SIZE(resources)],
        };
        snprintf(clusters[k % NDP_ARRAY_SIZE(resources)], 16, "c%zu",
                 k % NDP_ARRAY_SIZE(resources));
        spec.cluster = k % 3 ? resources[(k + 1) % NDP_ARRAY_SIZE(resources)]
                             : clusters[k % NDP_ARRAY_SIZE(resources)];
        ndp_findings_add(&fs, &spec);
    }
    check_against_naive(&fs, &config, 500);
    check_against_naive(&fs, &config, 50);
    ndp_findings_release(&fs);
    free(config.waivers);
}

static void strmap__finds_what_it_holds_and_nothing_else(void **state)
{
    struct ndp_strmap m = NDP_STRMAP_INIT(true);
    char (*keys)[16] = calloc(20000, sizeof(*keys));
    size_t i;

    (void)state;
    for (i = 0; i < 20000; i++) {
        snprintf(keys[i], sizeof(keys[i]), "Pool%zu", i);
        assert_int_equal(ndp_strmap_add(&m, keys[i], i), i);
    }
    assert_int_equal(ndp_strmap_add(&m, "POOL7", 99), 7); /* folded */
    assert_int_equal(ndp_strmap_find(&m, "pool19999"), 19999);
    assert_int_equal(ndp_strmap_find(&m, "pool20000"), SIZE_MAX);
    assert_int_equal(ndp_strmap_find(&m, ""), SIZE_MAX);
    assert_int_equal(m.nr, 20000);
    ndp_strmap_release(&m);
    assert_int_equal(ndp_strmap_find(&m, "pool1"), SIZE_MAX);
    free(keys);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            waiver_index__agrees_with_every_waiver_on_every_finding),
        cmocka_unit_test(strmap__finds_what_it_holds_and_nothing_else),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}

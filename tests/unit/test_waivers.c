/*
 * SPDX-License-Identifier: Apache-2.0
 * test_waivers.c - the waiver index (waivers.c): which waiver of the
 * settings file each finding gets and which finding each waiver covers
 * first in report order, by table: rule (any case), category, both,
 * literal 'match' on the resource or the cluster id, globs (prefix,
 * leading wildcard, '?', brackets of every kind fnmatch reads, escapes,
 * an unclosed '['), ARM ids in another case, file order, expiry to the
 * second, equal conditions, hostile text; then every bracket form
 * against ndp_glob_match, and 10,000 for_each waivers over 10,000
 * findings.
 */
#include "test_common.h"
#include "config.h"
#include "finding.h"
#include "waivers.h"

#define AT 1000
#define LIVE 2000       /* expires after AT */
#define EDGE AT         /* expires at AT: still in force */
#define DEAD (AT - 1)   /* expired one second before AT */
#define NO SIZE_MAX
#define MAXN 6

/* A waiver: rule, category, match (NULL: none) and expiry. */
struct wv {
    const char *rule, *category, *match;
    int64_t expires;
};

/* A finding: rule, category, resource and cluster id. */
struct fd {
    const char *rule, *category, *resource, *cluster;
};

struct row {
    const char *name;
    struct wv w[MAXN];      /* ends at the first with no rule or category */
    struct fd f[MAXN];      /* ends at the first with no rule */
    size_t waiver_of[MAXN]; /* per finding */
    size_t first_of[MAXN];  /* per waiver: its first finding in report
                               order (cluster, then resource, ...) */
};

#define ARM "/subscriptions/s/resourceGroups/g/providers/" \
            "Microsoft.ContainerService/managedClusters/aks1"
#define ARM_UP "/SUBSCRIPTIONS/S/RESOURCEGROUPS/G/PROVIDERS/" \
               "MICROSOFT.CONTAINERSERVICE/MANAGEDCLUSTERS/AKS1"
#define POOL "azurerm_kubernetes_cluster_node_pool.pool"
#define MAIN "azurerm_kubernetes_cluster.main"
#define NP "network-policy"

static const struct row rows[] = {
    { "rule only: every finding of the rule, whatever its resource",
      { { "NDP101", NULL, NULL, LIVE } },
      { { "NDP101", NP, MAIN, MAIN }, { "NDP502", "rotate", POOL, MAIN },
        { "NDP101", NP, POOL "[0]", "c" } },
      { 0, NO, 0 }, { 0 } },
    { "rule: compared in any case",
      { { "ndp101", NULL, NULL, LIVE } },
      { { "NDP101", NP, MAIN, MAIN }, { "NdP101", NP, MAIN, MAIN } },
      { 0, 0 }, { 0 } },
    { "rule: a longer or shorter id is another rule",
      { { "NDP10", NULL, NULL, LIVE }, { "NDP1011", NULL, NULL, LIVE } },
      { { "NDP101", NP, MAIN, MAIN } },
      { NO }, { NO, NO } },
    { "category only: compared exactly",
      { { NULL, "Network-Policy", NULL, LIVE }, { NULL, NP, NULL, LIVE } },
      { { "NDP101", NP, MAIN, MAIN }, { "NDP102", NP, POOL, MAIN },
        { "NDP502", "rotate", MAIN, MAIN } },
      { 1, 1, NO }, { NO, 0 } },
    { "rule and category: both must hold",
      { { "NDP101", "rotate", NULL, LIVE },
        { "NDP502", "rotate", NULL, LIVE } },
      { { "NDP101", NP, MAIN, MAIN }, { "NDP502", "rotate", MAIN, MAIN } },
      { NO, 1 }, { NO, 1 } },
    { "literal match: the resource, or the cluster id",
      { { "NDP101", NULL, MAIN, LIVE } },
      { { "NDP101", NP, POOL, MAIN }, { "NDP101", NP, MAIN, "other" },
        { "NDP101", NP, POOL, "other" } },
      { 0, 0, NO }, { 0 } },
    { "literal match: the whole id, not a part of it",
      { { "NDP101", NULL, "azurerm_kubernetes_cluster.mai", LIVE },
        { "NDP101", NULL, MAIN ".x", LIVE } },
      { { "NDP101", NP, MAIN, MAIN } },
      { NO }, { NO, NO } },
    { "literal match: an ARM id in another case matches",
      { { "NDP101", NULL, ARM_UP, LIVE } },
      { { "NDP101", NP, ARM, ARM },
        { "NDP101", NP, POOL, ARM "/agentPools/a" } },
      { 0, NO }, { 0 } },
    { "literal match: a Terraform address in another case does not",
      { { "NDP101", NULL, "AZURERM_KUBERNETES_CLUSTER.MAIN", LIVE } },
      { { "NDP101", NP, MAIN, MAIN } },
      { NO }, { NO } },
    { "glob: a prefix and a star",
      { { "NDP101", NULL, "azurerm_kubernetes_cluster.*", LIVE } },
      { { "NDP101", NP, MAIN, "c" }, { "NDP101", NP, POOL, "c" },
        { "NDP101", NP, "x", "azurerm_kubernetes_cluster.b" } },
      { 0, NO, 0 }, { 2 } },
    { "glob: a leading star and '?'",
      { { "NDP502", NULL, "*pool?\"p?\"?", LIVE } },
      { { "NDP502", "rotate", POOL "[\"p1\"]", "c" },
        { "NDP502", "rotate", POOL "[\"p12\"]", "c" },
        { "NDP502", "rotate", POOL "[\"p2\"]", "c" } },
      { 0, NO, 0 }, { 0 } },
    { "glob: a literal run longer than the index keeps, after a star",
      { { "NDP502", NULL, "*_kubernetes_cluster_node_pool.pool[[]0]", LIVE } },
      { { "NDP502", "rotate", POOL "[0]", "c" },
        { "NDP502", "rotate", POOL "[1]", "c" },
        { "NDP502", "rotate", "azurerm_kubernetes_cluster_node_poo", "c" } },
      { 0, NO, NO }, { 0 } },
    { "glob: an ARM id in any case, a Terraform address in its own",
      { { "NDP101", NULL, "*/MANAGEDCLUSTERS/aks1", LIVE },
        { "NDP101", NULL, "*MAIN", LIVE } },
      { { "NDP101", NP, ARM_UP, "c" }, { "NDP101", NP, MAIN, "c" } },
      { 0, NO }, { 0, NO } },
    { "glob: wildcards alone are tried on every finding",
      { { "NDP101", NULL, "?*", LIVE }, { "NDP502", NULL, "[am]*", LIVE },
        { "NDP102", NULL, "*", LIVE } },
      { { "NDP101", NP, MAIN, "c" }, { "NDP502", "rotate", POOL, "/x" },
        { "NDP502", "rotate", "x", "y" }, { "NDP102", NP, "", "" } },
      { 0, 1, NO, 2 }, { 0, 1, 3 } },
    { "glob: '\\*' is a star, not a wildcard",
      { { "NDP101", NULL, "module.a\\*", LIVE } },
      { { "NDP101", NP, "module.a*", "c" },
        { "NDP101", NP, "module.ab", "c" } },
      { 0, NO }, { 0 } },
    { "glob: an unclosed '[' is a literal bracket",
      { { "NDP101", NULL, POOL "[*", LIVE } },
      { { "NDP101", NP, POOL "[0]", "c" }, { "NDP101", NP, POOL "0", "c" } },
      { 0, NO }, { 0 } },
    { "glob: ']' first in brackets is a member",
      { { "NDP101", NULL, "a[]x]b", LIVE } },
      { { "NDP101", NP, "a]b", "c" }, { "NDP101", NP, "axb", "c" },
        { "NDP101", NP, "ayb", "c" } },
      { 0, 0, NO }, { 0 } },
    { "glob: '[!]x]' is any character but ']' and 'x'",
      { { "NDP101", NULL, "a[!]x]b", LIVE } },
      { { "NDP101", NP, "acb", "c" }, { "NDP101", NP, "axb", "c" },
        { "NDP101", NP, "a]b", "c" } },
      { 0, NO, NO }, { 0 } },
    { "glob: '[^]]*' is '[!]]*'",
      { { "NDP101", NULL, "[^]]*", LIVE } },
      { { "NDP101", NP, MAIN, "c" }, { "NDP101", NP, "]", "]x" } },
      { 0, NO }, { 0 } },
    { "glob: a character class inside brackets",
      { { "NDP101", NULL, "*l[[][[:digit:]x]]", LIVE } },
      { { "NDP101", NP, POOL "[7]", "c" }, { "NDP101", NP, POOL "[x]", "c" },
        { "NDP101", NP, POOL "[a]", "c" } },
      { 0, 0, NO }, { 0 } },
    { "glob: an escaped ']' inside brackets",
      { { "NDP101", NULL, "x[\\]y]z", LIVE } },
      { { "NDP101", NP, "xyz", "c" }, { "NDP101", NP, "x]z", "c" },
        { "NDP101", NP, "xy]z", "c" } },
      { 0, 0, NO }, { 1 } },
    { "expiry: in force through its last second, not after",
      { { "NDP101", NULL, NULL, DEAD }, { "NDP101", NULL, NULL, EDGE } },
      { { "NDP101", NP, MAIN, MAIN } },
      { 1 }, { 0, 0 } },
    { "expiry: an expired waiver still covers, for first_of",
      { { "NDP101", NULL, MAIN, DEAD } },
      { { "NDP101", NP, POOL, "c" }, { "NDP101", NP, MAIN, "c" } },
      { NO, NO }, { 1 } },
    { "file order: the first waiver in force wins",
      { { NULL, NP, NULL, LIVE }, { "NDP101", NULL, MAIN, LIVE },
        { "NDP101", NULL, NULL, LIVE } },
      { { "NDP101", NP, MAIN, MAIN }, { "NDP101", "x", MAIN, MAIN } },
      { 0, 1 }, { 0, 0, 0 } },
    { "equal conditions: the first of them in force is the one",
      { { "NDP101", NULL, MAIN, DEAD }, { "ndp101", NULL, MAIN, LIVE },
        { "NDP101", NULL, MAIN, LIVE } },
      { { "NDP101", NP, MAIN, "c" } },
      { 1 }, { 0, 0, 0 } },
    { "first finding: the first in report order, not the first made",
      { { "NDP101", NULL, NULL, LIVE }, { "NDP101", NULL, "*", LIVE } },
      { { "NDP101", NP, "b", "c" }, { "NDP101", NP, "z", "a" },
        { "NDP101", NP, "a", "c" } },
      { 0, 0, 0 }, { 1, 1 } },
    { "no findings: no waiver covers anything",
      { { "NDP101", NULL, NULL, LIVE }, { "NDP101", NULL, "*", LIVE } },
      { { NULL } },
      { NO }, { NO, NO } },
    { "no waivers: no finding is waived",
      { { NULL } },
      { { "NDP101", NP, MAIN, MAIN } },
      { NO }, { NO } },
    { "hostile text in ids and patterns is compared as it is",
      { { "NDP101", NULL, "*\n::error::*", LIVE },
        { "NDP101", NULL, "a\"b\x1b[31m", LIVE } },
      { { "NDP101", NP, "x\n::error::FORGED", "c" },
        { "NDP101", NP, "a\"b\x1b[31m", "c" },
        { "NDP101", NP, "a\"b\x1b" "31m", "c" } },
      { 0, 1, NO }, { 0, 1 } },
};

/* A finding of 'rule' and 'category' on 'resource' in 'cluster' (copied). */
static void add_finding(struct ndp_findings *fs, const char *rule,
                        const char *category, const char *resource,
                        const char *cluster)
{
    struct ndp_rule r = { .id = rule, .category = category };
    struct ndp_finding_spec spec = {
        .rule = &r,
        .verdict = NDP_VERDICT_ALLOWED,
        .input = "plan.json",
        .resource = resource,
        .cluster = cluster,
    };

    ndp_findings_add(fs, &spec);
}

static size_t count_waivers(const struct row *row)
{
    size_t n = 0;

    while (n < MAXN && (row->w[n].rule || row->w[n].category))
        n++;
    return n;
}

static size_t count_findings(const struct row *row)
{
    size_t n = 0;

    while (n < MAXN && row->f[n].rule)
        n++;
    return n;
}

/* Runs the index over the row's waivers and findings; checks both ways. */
static void row_test(void **state)
{
    const struct row *row = *state;
    struct ndp_waiver w[MAXN];
    struct ndp_config config;
    struct ndp_findings fs = NDP_FINDINGS_INIT;
    size_t i, nw = count_waivers(row), nf = count_findings(row);
    size_t waiver_of[MAXN], first_of[MAXN];

    memset(&config, 0, sizeof(config));
    memset(w, 0, sizeof(w));
    for (i = 0; i < nw; i++) {
        w[i].rule = row->w[i].rule;
        w[i].category = row->w[i].category;
        w[i].match = row->w[i].match;
        w[i].reason = "r";
        w[i].expires_text = "2030-01-01";
        w[i].expires = row->w[i].expires;
        w[i].index = i;
    }
    config.waivers = w;
    config.nr_waivers = nw;
    for (i = 0; i < nf; i++) {
        add_finding(&fs, row->f[i].rule, row->f[i].category,
                    row->f[i].resource, row->f[i].cluster);
    }
    ndp_waivers_match(waiver_of, first_of, &fs, &config, AT);
    for (i = 0; i < nf; i++)
        if (waiver_of[i] != row->waiver_of[i])
            fail_msg("finding %zu (%s on '%s'): waiver %zu, want %zu", i,
                     row->f[i].rule, row->f[i].resource, waiver_of[i],
                     row->waiver_of[i]);
    for (i = 0; i < nw; i++)
        if (first_of[i] != row->first_of[i])
            fail_msg("waiver %zu ('%s'): first finding %zu, want %zu", i,
                     row->w[i].match ? row->w[i].match : "(no match)",
                     first_of[i], row->first_of[i]);
    ndp_findings_release(&fs);
}

/*
 * Each pattern alone against each id: the index must waive exactly what
 * ndp_glob_match() matches, whatever brackets and escapes the pattern
 * holds (the index files a glob under text every match must contain).
 */
static void brackets__index_agrees_with_glob_match(void **state)
{
    static const char *const patterns[] = {
        "a[]x]b", "a[!]x]b", "a[^]x]b", "[!]]*", "*[!]]", "x[\\]y]z",
        "a[[:alpha:]x]b", "a[[:alpha:]]b*", "a[[.].]x]b", "a[[=a=]]b",
        "a[b", "a[!b", "a[]", "a[!]", "a[\\", "a\\[b]c", "[[]*]x",
        "*[]]*", "a[]-]b", "a[!a-z]b", "ab[c-]d", "a\\", "[x][!y]z",
        "*" POOL "[\"p1\"]", POOL "[[]\"p?\"]", "*/[Mm]anagedClusters/aks1",
        "a[[:upper:]]b",
    };
    static const char *const ids[] = {
        "acb", "axb", "a]b", "a-b", "xyz", "x]z", "xy]z", "a[b", "a[!b",
        "a[]", "a[!]", "a[\\", "a[b]c", "a\\[b]c", "[x", "]x", "[]x", "aab",
        "a.b", "aAb", "abcd", "ab-d", "abd", "a\\", "xaz", "yyz",
        POOL "[\"p1\"]", POOL "[\"p2\"]", ARM, ARM_UP, "azurerm.main", "",
    };
    size_t p, i;

    (void)state;
    for (p = 0; p < NDP_ARRAY_SIZE(patterns); p++) {
        struct ndp_waiver w = { .rule = "NDP101", .match = patterns[p],
                                .reason = "r", .expires = LIVE };
        struct ndp_config config;
        struct ndp_findings fs = NDP_FINDINGS_INIT;
        size_t waiver_of[NDP_ARRAY_SIZE(ids)], first_of[1];

        memset(&config, 0, sizeof(config));
        config.waivers = &w;
        config.nr_waivers = 1;
        for (i = 0; i < NDP_ARRAY_SIZE(ids); i++) {
            add_finding(&fs, "NDP101", NP, ids[i], "");
        }
        ndp_waivers_match(waiver_of, first_of, &fs, &config, AT);
        for (i = 0; i < NDP_ARRAY_SIZE(ids); i++) {
            bool want = ndp_glob_match(patterns[p], ids[i]) ||
                        ndp_glob_match(patterns[p], "");
            if ((waiver_of[i] == 0) != want)
                fail_msg("pattern '%s' on '%s': index says %s, "
                         "ndp_glob_match says %s", patterns[p], ids[i],
                         waiver_of[i] == 0 ? "waived" : "not waived",
                         want ? "match" : "no match");
        }
        ndp_findings_release(&fs);
    }
}

/*
 * 10,000 waivers, one per for_each instance, over 10,000 findings in
 * reverse order: each finding gets its own waiver, and each waiver its
 * own finding.
 */
static void many__each_instance_gets_its_own_waiver(void **state)
{
    enum { N = 10000 };
    struct ndp_config config;
    struct ndp_findings fs = NDP_FINDINGS_INIT;
    char (*patterns)[48] = calloc(N, sizeof(*patterns));
    char (*ids)[64] = calloc(N, sizeof(*ids));
    size_t *waiver_of = calloc(N, sizeof(size_t));
    size_t *first_of = calloc(N, sizeof(size_t));
    size_t i;

    (void)state;
    memset(&config, 0, sizeof(config));
    config.waivers = calloc(N, sizeof(*config.waivers));
    config.nr_waivers = N;
    for (i = 0; i < N; i++) {
        struct ndp_waiver *w = &config.waivers[i];
        snprintf(patterns[i], sizeof(patterns[i]), "*pool?\"p%zu\"?", i);
        w->rule = "NDP502";
        w->match = patterns[i];
        w->reason = "r";
        w->expires = LIVE;
        w->index = i;
    }
    for (i = 0; i < N; i++) {
        snprintf(ids[i], sizeof(ids[i]), POOL "[\"p%zu\"]", N - 1 - i);
        add_finding(&fs, "NDP502", "rotate", ids[i], MAIN);
    }
    ndp_waivers_match(waiver_of, first_of, &fs, &config, AT);
    for (i = 0; i < N; i++) {
        if (waiver_of[i] != N - 1 - i)
            fail_msg("finding '%s': waiver %zu", ids[i], waiver_of[i]);
        if (first_of[i] != N - 1 - i)
            fail_msg("waiver '%s': finding %zu", patterns[i], first_of[i]);
    }
    ndp_findings_release(&fs);
    free(config.waivers);
    free(patterns);
    free(ids);
    free(waiver_of);
    free(first_of);
}

int main(void)
{
    static struct test_list list;

    ADD_ROWS(&list, rows, row_test);
    ADD_TEST(&list, brackets__index_agrees_with_glob_match);
    ADD_TEST(&list, many__each_instance_gets_its_own_waiver);
    return cmocka_run_group_tests_name("waivers", list.items, NULL, NULL);
}

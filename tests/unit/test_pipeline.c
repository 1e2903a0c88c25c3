/*
 * test_pipeline.c - the whole pipeline from a file: the same ARM change
 * written as a Terraform plan (azapi_resource) and as an 'az deployment
 * group what-if --no-pretty-print' result must give the same category,
 * verdict and severity, for every ARM-notation category, cluster-level and
 * agentPools child resources alike; and the same change deferred by
 * Terraform (deferred_changes) is judged the same, its findings saying so.
 */
#include "test_common.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "error.h"
#include "evaluate.h"
#include "finding.h"
#include "input.h"
#include "linker.h"
#include "rules.h"
#include "timeutil.h"

#include <unistd.h>

#define SUB "/subscriptions/00000000-0000-0000-0000-000000000000/" \
            "resourceGroups/rg/providers/Microsoft.ContainerService/"
#define MC_ID SUB "managedClusters/aks"
#define MC "Microsoft.ContainerService/managedClusters"

struct equiv_case {
    const char *name;
    const char *child;   /* NULL: the cluster itself; else an agent pool name */
    const char *before;  /* 'properties' members, ' for " */
    const char *after;
    const char *expect;  /* "RULE/verdict" list, ','-joined, sorted by path */
};

#define BLOCK "'nodeDisruptionProfile':{'nodeDisruptionPolicy':'Block'},'kubernetesVersion':'1.37.1',"

static const struct equiv_case cases[] = {
    { "network policy", NULL, BLOCK "'networkProfile':{'networkPolicy':'none'}",
      BLOCK "'networkProfile':{'networkPolicy':'calico'}", "NDP101/rejected" },
    { "azure to calico", NULL, BLOCK "'networkProfile':{'networkPolicy':'azure'}",
      BLOCK "'networkProfile':{'networkPolicy':'calico'}", "" },
    { "cni overlay", NULL, BLOCK "'networkProfile':{'networkPlugin':'azure'}",
      BLOCK "'networkProfile':{'networkPlugin':'azure','networkPluginMode':'overlay'}", "NDP102/rejected" },
    { "node os channel", NULL, BLOCK "'autoUpgradeProfile':{'nodeOSUpgradeChannel':'NodeImage'}",
      BLOCK "'autoUpgradeProfile':{'nodeOSUpgradeChannel':'Unmanaged'}", "NDP103/rejected" },
    { "dual stack", NULL, BLOCK "'networkProfile':{'ipFamilies':['IPv4']}",
      BLOCK "'networkProfile':{'ipFamilies':['IPv4','IPv6']}", "NDP104/rejected" },
    { "cilium", NULL, BLOCK "'networkProfile':{'networkDataplane':'azure'}",
      BLOCK "'networkProfile':{'networkDataplane':'cilium'}", "NDP105/rejected" },
    { "proxy", NULL, BLOCK "'httpProxyConfig':{'httpProxy':'http://a'}",
      BLOCK "'httpProxyConfig':{'httpProxy':'http://b'}", "NDP106/rejected" },
    { "custom ca", NULL, BLOCK "'securityProfile':{}",
      BLOCK "'securityProfile':{'customCATrustCertificates':['QQ==']}", "NDP109/rejected" },
    { "kubelet identity", NULL, BLOCK "'identityProfile':{'kubeletidentity':{'resourceId':'/a'}}",
      BLOCK "'identityProfile':{'kubeletidentity':{'resourceId':'/b'}}", "NDP110/rejected" },
    { "private dns", NULL, BLOCK "'apiServerAccessProfile':{'privateDNSZone':'system'}",
      BLOCK "'apiServerAccessProfile':{'privateDNSZone':'none'}", "NDP114/rejected" },
    { "vnet integration", NULL, BLOCK "'apiServerAccessProfile':{}",
      BLOCK "'apiServerAccessProfile':{'enableVnetIntegration':true}", "NDP115/rejected" },
    { "ebpf", NULL, BLOCK "'networkProfile':{}",
      BLOCK "'networkProfile':{'advancedNetworking':{'performance':{'accelerationMode':'BpfVeth'}}}", "NDP116/rejected" },
    { "gmsa", NULL, BLOCK "'windowsProfile':{'gmsaProfile':{'enabled':false}}",
      BLOCK "'windowsProfile':{'gmsaProfile':{'enabled':true}}", "NDP204/rejected" },
    { "imds on 1.37", NULL, BLOCK "'networkProfile':{'podLinkLocalAccess':'IMDS'}",
      BLOCK "'networkProfile':{'podLinkLocalAccess':'None'}", "NDP303/rejected" },
    { "outbound with upgrade", NULL, BLOCK "'networkProfile':{'outboundType':'loadBalancer'}",
      "'nodeDisruptionProfile':{'nodeDisruptionPolicy':'Block'},'kubernetesVersion':'1.38.0','networkProfile':{'outboundType':'managedNATGateway'}",
      "NDP306/bypassed" },
    { "pool in body", NULL, BLOCK "'agentPoolProfiles':[{'name':'a','count':2},{'name':'b','count':2}]",
      BLOCK "'agentPoolProfiles':[{'name':'b','count':2},{'name':'a','count':2,'securityProfile':{'enableVTPM':true}}]",
      "NDP202/rejected" },
    { "pool reorder only", NULL, BLOCK "'agentPoolProfiles':[{'name':'a','count':2},{'name':'b','count':3}]",
      BLOCK "'agentPoolProfiles':[{'name':'b','count':3},{'name':'a','count':2}]", "" },
    { "localdns child", "np1", "'count':3", "'count':3,'localDNSProfile':{'mode':'Preferred'}", "NDP201/rejected" },
    { "streaming child", "np1", "'count':3", "'count':3,'artifactStreamingProfile':{'enabled':true}", "NDP203/rejected" },
    { "crg child", "np1", "'count':3", "'count':3,'capacityReservationGroupID':'/x/crg'", "NDP206/rejected" },
    { "ssh child on 1.36", "np1", "'orchestratorVersion':'1.36.0','securityProfile':{'sshAccess':'LocalUser'}",
      "'orchestratorVersion':'1.36.0','securityProfile':{'sshAccess':'Disabled'}", "NDP301/manual-upgrade" },
};

static struct ndp_ruleset *ruleset;

static int setup(void **state)
{
    struct ndp_error err = NDP_ERROR_INIT;

    (void)state;
    return ndp_rules_load_dir(&ruleset, NDP_RULES_DIR, &err);
}

static int teardown(void **state)
{
    (void)state;
    ndp_ruleset_free(ruleset);
    return 0;
}

static void add_quoted(struct ndp_buf *out, const char *s)
{
    for (; *s; s++)
        ndp_buf_addch(out, *s == '\'' ? '"' : *s);
}

static void resource_id(struct ndp_buf *out, const struct equiv_case *c)
{
    ndp_buf_adds(out, MC_ID);
    if (c->child)
        ndp_buf_addf(out, "/agentPools/%s", c->child);
}

/* The cluster's own no-op entry declares Block for agent pool cases. */
static void terraform_plan(struct ndp_buf *out, const struct equiv_case *c)
{
    ndp_buf_adds(out, "{\"format_version\":\"1.2\",\"resource_changes\":[");
    if (c->child) {
        ndp_buf_adds(out, "{\"address\":\"azapi_resource.aks\",\"mode\":"
                     "\"managed\",\"type\":\"azapi_resource\",\"name\":"
                     "\"aks\",\"change\":{\"actions\":[\"no-op\"],"
                     "\"before\":{\"type\":\"" MC "@2026-04-02-preview\","
                     "\"id\":\"" MC_ID "\",\"name\":\"aks\",\"body\":{"
                     "\"properties\":{\"kubernetesVersion\":\"1.37.0\","
                     "\"nodeDisruptionProfile\":{\"nodeDisruptionPolicy\":"
                     "\"Block\"}}}},\"after\":{\"type\":\"" MC
                     "@2026-04-02-preview\",\"id\":\"" MC_ID "\",\"name\":"
                     "\"aks\",\"body\":{\"properties\":{\"kubernetesVersion\":"
                     "\"1.37.0\",\"nodeDisruptionProfile\":{"
                     "\"nodeDisruptionPolicy\":\"Block\"}}}}}},");
    }
    ndp_buf_addf(out, "{\"address\":\"azapi_resource.r\",\"mode\":\"managed\","
                 "\"type\":\"azapi_resource\",\"name\":\"r\",\"change\":{"
                 "\"actions\":[\"update\"],\"before\":{\"type\":\"%s@2025-10-01\","
                 "\"parent_id\":\"%s\",\"id\":\"",
                 c->child ? MC "/agentPools" : MC,
                 c->child ? MC_ID : "/subscriptions/0/resourceGroups/rg");
    resource_id(out, c);
    ndp_buf_adds(out, "\",\"body\":{\"properties\":{");
    add_quoted(out, c->before);
    ndp_buf_addf(out, "}}},\"after\":{\"type\":\"%s@2025-10-01\",\"id\":\"",
                 c->child ? MC "/agentPools" : MC);
    resource_id(out, c);
    ndp_buf_addf(out, "\",\"parent_id\":\"%s\",\"body\":{\"properties\":{",
                 c->child ? MC_ID : "/subscriptions/0/resourceGroups/rg");
    add_quoted(out, c->after);
    ndp_buf_adds(out, "}}},\"after_unknown\":{}}}]}");
}

static void whatif_snapshot(struct ndp_buf *out, const struct equiv_case *c,
                            const char *props)
{
    ndp_buf_adds(out, "{\"id\":\"");
    resource_id(out, c);
    ndp_buf_addf(out, "\",\"type\":\"%s\",\"properties\":{",
                 c->child ? MC "/agentPools" : MC);
    add_quoted(out, props);
    ndp_buf_adds(out, "}}");
}

/* CLI shape ({"changes": ...}) or REST shape ({"properties": {"changes": ...}}). */
static void whatif_result(struct ndp_buf *out, const struct equiv_case *c,
                          bool rest)
{
    ndp_buf_adds(out, rest ? "{\"status\":\"Succeeded\",\"properties\":{"
                             "\"changes\":["
                           : "{\"status\":\"Succeeded\",\"error\":null,"
                             "\"changes\":[");
    if (c->child)
        ndp_buf_adds(out, "{\"resourceId\":\"" MC_ID "\",\"changeType\":"
                     "\"NoChange\",\"before\":{\"properties\":{"
                     "\"kubernetesVersion\":\"1.37.0\",\"nodeDisruptionProfile\":"
                     "{\"nodeDisruptionPolicy\":\"Block\"}}},\"after\":"
                     "{\"properties\":{\"kubernetesVersion\":\"1.37.0\","
                     "\"nodeDisruptionProfile\":{\"nodeDisruptionPolicy\":"
                     "\"Block\"}}},\"delta\":null},");
    ndp_buf_adds(out, "{\"resourceId\":\"");
    resource_id(out, c);
    ndp_buf_adds(out, "\",\"changeType\":\"Modify\",\"before\":");
    whatif_snapshot(out, c, c->before);
    ndp_buf_adds(out, ",\"after\":");
    whatif_snapshot(out, c, c->after);
    ndp_buf_adds(out, rest ? ",\"delta\":[]}]}}" : ",\"delta\":[]}]}");
}

/*
 * The plan with its last resource change moved to deferred_changes, as
 * Terraform 1.10 writes a change it defers to a later round.
 */
static void deferred_plan(struct ndp_buf *out, const struct equiv_case *c)
{
    struct ndp_buf plan = NDP_BUF_INIT;
    const char *last;
    size_t head;

    terraform_plan(&plan, c);
    last = strstr(plan.buf, "{\"address\":\"azapi_resource.r\"");
    assert_non_null(last);
    head = (size_t)(last - plan.buf);
    ndp_buf_add(out, plan.buf, plan.buf[head - 1] == ',' ? head - 1 : head);
    ndp_buf_adds(out, "],\"deferred_changes\":[{\"reason\":"
                 "\"resource_config_unknown\",\"resource_change\":");
    ndp_buf_add(out, last, plan.len - head - 2); /* without "]}" */
    ndp_buf_adds(out, "}],\"applyable\":true,\"complete\":false}");
    ndp_buf_release(&plan);
}

#define DEFERRED_NOTE "; Terraform deferred this change to a later plan " \
                      "and apply round (reason 'resource_config_unknown')"

/* "RULE/verdict" for each finding; "/deferred" after it when its message
 * ends by saying that the change is deferred. */
static void describe(struct ndp_buf *out, const struct ndp_findings *findings)
{
    size_t i, n = strlen(DEFERRED_NOTE);

    for (i = 0; i < findings->nr; i++) {
        const char *msg = findings->items[i].message;
        size_t len = strlen(msg);
        ndp_buf_addf(out, "%s%s/%s%s", i ? "," : "",
                     findings->items[i].rule_id,
                     ndp_verdict_name(findings->items[i].verdict),
                     len >= n && strcmp(msg + len - n, DEFERRED_NOTE) == 0
                         ? "/deferred" : "");
    }
}

/* Runs the pipeline over 'text' as a file; returns "RULE/verdict,...". */
static char *judge(const char *text)
{
    char path[] = "/tmp/ndp-pipeline-XXXXXX";
    int fd = mkstemp(path);
    struct ndp_changeset set = NDP_CHANGESET_INIT;
    struct ndp_clusters clusters = NDP_CLUSTERS_INIT;
    struct ndp_findings findings = NDP_FINDINGS_INIT;
    struct ndp_input_options in = { NDP_DEFAULT_MAX_INPUT_BYTES, NULL, false };
    struct ndp_eval_options eo = { 0, false, NDP_PROFILE_ALLOW, NULL, NULL };
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_buf out = NDP_BUF_INIT;

    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    assert_int_equal(ndp_time_parse_rfc3339(&eo.at, "2026-12-05T12:00:00Z"), 0);
    if (ndp_input_read(&set, path, &in, &err) != 0)
        fail_msg("%s\n%s", err.msg, text);
    ndp_judge(&findings, &clusters, &set, ruleset, &eo);
    describe(&out, &findings);
    ndp_findings_release(&findings);
    ndp_clusters_release(&clusters);
    ndp_changeset_release(&set);
    unlink(path);
    return ndp_buf_detach(&out);
}

static void same_change__same_verdict_from_plan_and_whatif(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(cases); i++) {
        struct ndp_buf plan = NDP_BUF_INIT, cli = NDP_BUF_INIT,
                       rest = NDP_BUF_INIT;
        char *from_plan, *from_cli, *from_rest;

        terraform_plan(&plan, &cases[i]);
        whatif_result(&cli, &cases[i], false);
        whatif_result(&rest, &cases[i], true);
        from_plan = judge(plan.buf);
        from_cli = judge(cli.buf);
        from_rest = judge(rest.buf);
        if (strcmp(from_plan, cases[i].expect) != 0 ||
            strcmp(from_cli, cases[i].expect) != 0 ||
            strcmp(from_rest, cases[i].expect) != 0) {
            print_error("case '%s': expected [%s], plan [%s], what-if CLI "
                        "[%s], REST [%s]\n", cases[i].name, cases[i].expect,
                        from_plan, from_cli, from_rest);
            failures++;
        }
        free(from_plan);
        free(from_cli);
        free(from_rest);
        ndp_buf_release(&plan);
        ndp_buf_release(&cli);
        ndp_buf_release(&rest);
    }
    assert_int_equal(failures, 0);
}

/* Spec 11: judged like resource changes, and the finding says so. */
static void deferred_change__judged_and_marked_deferred(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(cases); i++) {
        struct ndp_buf plan = NDP_BUF_INIT, want = NDP_BUF_INIT;
        const char *p = cases[i].expect;
        char *got;

        while (*p) {
            size_t n = strcspn(p, ",");
            ndp_buf_addf(&want, "%s%.*s/deferred", want.len ? "," : "",
                         (int)n, p);
            p += n + (p[n] == ',');
        }
        deferred_plan(&plan, &cases[i]);
        got = judge(plan.buf);
        if (strcmp(got, want.buf) != 0) {
            print_error("case '%s' deferred: expected [%s], got [%s]\n",
                        cases[i].name, want.buf, got);
            failures++;
        }
        free(got);
        ndp_buf_release(&plan);
        ndp_buf_release(&want);
    }
    assert_int_equal(failures, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_change__same_verdict_from_plan_and_whatif),
        cmocka_unit_test(deferred_change__judged_and_marked_deferred),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}

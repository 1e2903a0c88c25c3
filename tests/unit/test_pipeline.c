/*
 * SPDX-License-Identifier: Apache-2.0
 * test_pipeline.c - the whole pipeline from a file: the same ARM change
 * written as a Terraform plan (azapi_resource) and as an 'az deployment
 * group what-if --no-pretty-print' result must give the same category,
 * verdict and severity, for every ARM-notation category, cluster-level and
 * agentPools child resources alike.
 */
#include "test_helpers.h"
#include "run.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "error.h"
#include "evaluate.h"
#include "finding.h"
#include "input.h"
#include "jsonutil.h"
#include "impact.h"
#include "report/report_impact.h"
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
      "NDP401/rollout,NDP306/bypassed" },
    { "pool in body", NULL, BLOCK "'agentPoolProfiles':[{'name':'a','count':2},{'name':'b','count':2}]",
      BLOCK "'agentPoolProfiles':[{'name':'b','count':2},{'name':'a','count':2,'securityProfile':{'enableVTPM':true}}]",
      "NDP202/rejected" },
    { "pool reorder only", NULL, BLOCK "'agentPoolProfiles':[{'name':'a','count':2},{'name':'b','count':3}]",
      BLOCK "'agentPoolProfiles':[{'name':'b','count':3},{'name':'a','count':2}]", "" },
    { "pool added in body", NULL, BLOCK "'agentPoolProfiles':[{'name':'a','count':2}]",
      BLOCK "'agentPoolProfiles':[{'name':'a','count':2},{'name':'conf2','securityProfile':{'enableVTPM':true}}]", "" },
    { "pool removed from body", NULL, BLOCK "'agentPoolProfiles':[{'name':'a','count':2},{'name':'conf2','securityProfile':{'enableVTPM':true}}]",
      BLOCK "'agentPoolProfiles':[{'name':'a','count':2}]", "" },
    { "pool added with a version beside a change: not bundled", NULL,
      BLOCK "'agentPoolProfiles':[{'name':'a','orchestratorVersion':'1.37.1','securityProfile':{'enableVTPM':false}}]",
      BLOCK "'agentPoolProfiles':[{'name':'conf2','orchestratorVersion':'1.38.0'},{'name':'A','orchestratorVersion':'1.37.1','securityProfile':{'enableVTPM':true}}]",
      /* and a pool created above the control plane is refused */
      "NDP202/rejected,NDP604/refused" },
    { "localdns child", "np1", "'count':3", "'count':3,'localDNSProfile':{'mode':'Preferred'}", "NDP201/rejected" },
    { "streaming child", "np1", "'count':3", "'count':3,'artifactStreamingProfile':{'enabled':true}", "NDP203/rejected" },
    { "crg child", "np1", "'count':3", "'count':3,'capacityReservationGroupID':'/x/crg'", "NDP206/rejected" },
    { "ssh child on 1.36", "np1", "'orchestratorVersion':'1.36.0','securityProfile':{'sshAccess':'LocalUser'}",
      "'orchestratorVersion':'1.36.0','securityProfile':{'sshAccess':'Disabled'}", "NDP301/manual-upgrade" },
};

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

/*
 * Runs the pipeline over 'text' as a file; returns "RULE/verdict,...".
 * With 'impact', also the first cluster's impact JSON ("null" for none).
 */
static char *judge_impact(const char *text, char **impact)
{
    char path[] = "/tmp/ndp-pipeline-XXXXXX";
    int fd = mkstemp(path);
    struct ndp_result result = NDP_RESULT_INIT;
    struct ndp_run_input input = { path, NULL, 0 };
    struct ndp_run_options ro;
    struct ndp_buf out = NDP_BUF_INIT;

    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    memset(&ro, 0, sizeof(ro));
    ro.inputs = &input;
    ro.nr_inputs = 1;
    ro.input.max_bytes = NDP_DEFAULT_MAX_INPUT_BYTES;
    assert_int_equal(ndp_time_parse_rfc3339(&ro.at, "2026-12-05T12:00:00Z"), 0);
    if (ndp_run(&result, &ro, test_ruleset) != 0)
        fail_msg("%s\n%s", result.errors[0].msg, text);
    describe(&out, &result.findings);
    if (impact) {
        struct ndp_buf json = NDP_BUF_INIT;
        if (result.impacts.nr)
            ndp_report_impact_json(&json, &result.impacts.items[0]);
        else
            ndp_buf_adds(&json, "null");
        *impact = ndp_buf_detach(&json);
    }
    ndp_result_release(&result);
    unlink(path);
    return ndp_buf_detach(&out);
}

static char *judge(const char *text)
{
    return judge_impact(text, NULL);
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

/*
 * A what-if Modify with only a delta (the CLI writes "before": null and
 * "after": null): the snapshots are rebuilt from the delta tree at every
 * depth, Array entries included.  The profile comes from a NoEffect entry,
 * as the CLI shows an unchanged property it was sent.
 */
struct delta_case {
    const char *name;
    const char *delta;   /* delta entries, ' for " */
    const char *expect;  /* "RULE/verdict" list */
};

#define ARR(path, kids) "{'path':'" path "','propertyChangeType':'Array','children':[" kids "]}"
#define ELEM(i, kind, value) "{'path':'" i "','propertyChangeType':'" kind "'," value ",'children':null}"
#define PARTS(i, kids) "{'path':'" i "','propertyChangeType':'Modify','before':null,'after':null,'children':[" kids "]}"
#define MOD(path, b, a) "{'path':'" path "','propertyChangeType':'Modify','before':" b ",'after':" a ",'children':null}"
#define NOEFFECT(path, b, a) "{'path':'" path "','propertyChangeType':'NoEffect','before':" b ",'after':" a "}"
#define POLICY_BLOCK NOEFFECT("properties.nodeDisruptionProfile.nodeDisruptionPolicy", "'Block'", "'Block'")

static const struct delta_case delta_cases[] = {
    { "ipFamilies element created",
      ARR("properties.networkProfile.ipFamilies", ELEM("1", "Create", "'after':'IPv6'")),
      "NDP104/rejected" },
    { "ipFamilies element created (REST, no before key)",
      ARR("properties.networkProfile.ipFamilies", "{'path':'1','propertyChangeType':'Create','after':'IPv6'}"),
      "NDP104/rejected" },
    { "custom CA certificate added",
      ARR("properties.securityProfile.customCATrustCertificates", ELEM("2", "Create", "'before':null,'after':'Qg=='")),
      "NDP109/rejected" },
    { "custom CA certificate replaced",
      ARR("properties.securityProfile.customCATrustCertificates", ELEM("0", "Modify", "'before':'QQ==','after':'Qg=='")),
      "NDP109/rejected" },
    { "custom CA certificate deleted and created at one index",
      ARR("properties.securityProfile.customCATrustCertificates", ELEM("0", "Delete", "'before':'QQ=='") "," ELEM("0", "Create", "'after':'Qg=='")),
      "NDP109/rejected" },
    { "noProxy element removed",
      ARR("properties.httpProxyConfig.noProxy", ELEM("3", "Delete", "'before':'.corp.example','after':null")),
      "NDP106/rejected" },
    { "ssh key replaced (object element, relative child path)",
      ARR("properties.linuxProfile.ssh.publicKeys", PARTS("0", MOD("keyData", "'ssh-rsa A'", "'ssh-rsa B'"))),
      "NDP302/rejected" },
    { "pool element modified, no name",
      ARR("properties.agentPoolProfiles", PARTS("1", MOD("securityProfile.enableVTPM", "false", "true"))),
      "NDP202/rejected" },
    { "pool element modified, array inside the element",
      ARR("properties.agentPoolProfiles", PARTS("0", ARR("nodeTaints", ELEM("0", "Create", "'after':'a=b:NoSchedule'")) "," MOD("artifactStreamingProfile.enabled", "null", "true"))),
      "NDP203/rejected" },
    { "pool created",
      ARR("properties.agentPoolProfiles", ELEM("2", "Create", "'after':{'name':'conf2','orchestratorVersion':'1.38.0','securityProfile':{'enableVTPM':true}}")),
      "" },
    { "pool deleted",
      ARR("properties.agentPoolProfiles", ELEM("0", "Delete", "'before':{'name':'old','securityProfile':{'enableVTPM':true}}")),
      "" },
    { "pool created beside a modified pool: not bundled",
      ARR("properties.agentPoolProfiles", PARTS("0", MOD("securityProfile.enableVTPM", "false", "true")) "," ELEM("3", "Create", "'after':{'name':'conf2','orchestratorVersion':'1.38.0'}")),
      "NDP202/rejected" },
    { "NoEffect inside a pool element",
      ARR("properties.agentPoolProfiles", PARTS("1", NOEFFECT("securityProfile.enableVTPM", "false", "true"))),
      "" },
    { "NoEffect array element",
      ARR("properties.networkProfile.ipFamilies", "{'path':'1','propertyChangeType':'NoEffect','before':null,'after':'IPv6'}"),
      "" },
    { "index beyond any AKS list: kept as a change what-if cannot show",
      ARR("properties.securityProfile.customCATrustCertificates", ELEM("4096", "Create", "'after':'Qg=='")),
      "NDP004/may-reimage" },
    { "Array with children null",
      "{'path':'properties.networkProfile.ipFamilies','propertyChangeType':'Array','before':null,'after':null,'children':null}",
      "" },
};

static void delta_result(struct ndp_buf *out, const char *delta)
{
    ndp_buf_adds(out, "{\"status\":\"Succeeded\",\"error\":null,\"changes\":"
                 "[{\"resourceId\":\"" MC_ID "\",\"changeType\":\"Modify\","
                 "\"before\":null,\"after\":null,\"delta\":[");
    add_quoted(out, POLICY_BLOCK);
    ndp_buf_addch(out, ',');
    add_quoted(out, delta);
    ndp_buf_adds(out, "]}]}");
}

static void delta_only__array_changes_judged(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(delta_cases); i++) {
        struct ndp_buf text = NDP_BUF_INIT;
        char *got;

        delta_result(&text, delta_cases[i].delta);
        got = judge(text.buf);
        if (strcmp(got, delta_cases[i].expect) != 0) {
            print_error("case '%s': expected [%s], got [%s]\n",
                        delta_cases[i].name, delta_cases[i].expect, got);
            failures++;
        }
        free(got);
        ndp_buf_release(&text);
    }
    assert_int_equal(failures, 0);
}

/* The rebuilt snapshots themselves, for the shapes that nest. */
static const struct {
    const char *name, *delta, *before, *after;
} rebuilt_cases[] = {
    { "unnamed indexes are null on both sides",
      ARR("p.l", ELEM("2", "Modify", "'before':'a','after':'b'")),
      "{'p':{'l':[null,null,'a']}}", "{'p':{'l':[null,null,'b']}}" },
    { "created at the end: left out of before",
      ARR("p.l", ELEM("1", "Create", "'after':'x'")),
      "{'p':{'l':[null]}}", "{'p':{'l':[null,'x']}}" },
    { "deleted in the middle: null in after",
      ARR("p.l", ELEM("0", "Delete", "'before':'x'") "," ELEM("1", "Modify", "'before':'a','after':'b'")),
      "{'p':{'l':['x','a']}}", "{'p':{'l':[null,'b']}}" },
    { "array in an element in an array",
      ARR("p.l", PARTS("1", ARR("q.m", PARTS("0", MOD("r.s", "1", "2"))))),
      "{'p':{'l':[null,{'q':{'m':[{'r':{'s':1}}]}}]}}",
      "{'p':{'l':[null,{'q':{'m':[{'r':{'s':2}}]}}]}}" },
    { "array of arrays",
      ARR("p.l", "{'path':'0','propertyChangeType':'Array','children':[" ELEM("1", "Create", "'after':7") "]}"),
      "{'p':{'l':[[null]]}}", "{'p':{'l':[[null,7]]}}" },
    { "NoEffect at depth keeps before",
      ARR("p.l", PARTS("0", NOEFFECT("k", "1", "2") "," MOD("j", "null", "3"))),
      "{'p':{'l':[{'k':1}]}}", "{'p':{'l':[{'k':1,'j':3}]}}" },
};

static char *quoted(const char *s)
{
    struct ndp_buf b = NDP_BUF_INIT;

    add_quoted(&b, s);
    return ndp_buf_detach(&b);
}

static void delta_only__snapshots_rebuilt_at_every_depth(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rebuilt_cases); i++) {
        struct ndp_changeset set = NDP_CHANGESET_INIT;
        struct ndp_input_options in = {
            .max_bytes = NDP_DEFAULT_MAX_INPUT_BYTES };
        struct ndp_error err = NDP_ERROR_INIT;
        struct ndp_buf text = NDP_BUF_INIT, b = NDP_BUF_INIT, a = NDP_BUF_INIT;
        char *want_b = quoted(rebuilt_cases[i].before);
        char *want_a = quoted(rebuilt_cases[i].after);

        ndp_buf_adds(&text, "{\"changes\":[{\"resourceId\":\"" MC_ID "\","
                     "\"changeType\":\"Modify\",\"delta\":[");
        add_quoted(&text, rebuilt_cases[i].delta);
        ndp_buf_adds(&text, "]}]}");
        if (ndp_input_read_bytes(&set, "t.json", text.buf, text.len, &in,
                                 &err) != 0)
            fail_msg("%s: %s", rebuilt_cases[i].name, err.msg);
        assert_int_equal(set.nr, 1);
        ndp_json_to_buf(&b, set.items[0]->before);
        ndp_json_to_buf(&a, set.items[0]->after);
        if (strcmp(b.buf, want_b) != 0 || strcmp(a.buf, want_a) != 0)
            fail_msg("case '%s': expected %s -> %s, got %s -> %s",
                     rebuilt_cases[i].name, want_b, want_a, b.buf, a.buf);
        free(want_b);
        free(want_a);
        ndp_buf_release(&text);
        ndp_buf_release(&b);
        ndp_buf_release(&a);
        ndp_changeset_release(&set);
    }
}

/* With snapshots, a NoEffect inside an Array entry still keeps before. */
static void snapshots_with_nested_no_effect__unchanged(void **state)
{
    static const struct {
        const char *kind, *expect;
    } rows[] = {
        { "NoEffect", "" },
        { "Modify", "NDP202/rejected" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct ndp_buf text = NDP_BUF_INIT;
        char *got;

        ndp_buf_adds(&text, "{\"changes\":[{\"resourceId\":\"" MC_ID "\","
                     "\"changeType\":\"Modify\",\"before\":");
        add_quoted(&text, "{'properties':{" BLOCK "'agentPoolProfiles':[{'name':'a'},{'name':'b','securityProfile':{'enableVTPM':false}}]}}");
        ndp_buf_adds(&text, ",\"after\":");
        add_quoted(&text, "{'properties':{" BLOCK "'agentPoolProfiles':[{'name':'a'},{'name':'b','securityProfile':{'enableVTPM':true}}]}}");
        ndp_buf_addf(&text, ",\"delta\":[{\"path\":\"properties."
                     "agentPoolProfiles\",\"propertyChangeType\":\"Array\","
                     "\"children\":[{\"path\":\"1\",\"propertyChangeType\":"
                     "\"Modify\",\"children\":[{\"path\":\"securityProfile."
                     "enableVTPM\",\"propertyChangeType\":\"%s\",\"before\":"
                     "false,\"after\":true}]}]}]}]}", rows[i].kind);
        got = judge(text.buf);
        assert_string_equal(got, rows[i].expect);
        free(got);
        ndp_buf_release(&text);
    }
}

/*
 * A cluster-wide change under Allow rebuilds every pool the cluster keeps;
 * a pool the same apply adds is named as created, and neither it nor a
 * removed pool is counted.  Plan and what-if say the same.
 */
static void created_pool__named_not_rebuilt(void **state)
{
    static const struct equiv_case c = {
        "pool added beside a cluster-wide change", NULL,
        "'kubernetesVersion':'1.37.1','networkProfile':{'networkPolicy':'none'},"
        "'agentPoolProfiles':[{'name':'system','count':3},{'name':'old','count':4}]",
        "'kubernetesVersion':'1.37.1','networkProfile':{'networkPolicy':'calico'},"
        "'agentPoolProfiles':[{'name':'system','count':3},{'name':'conf2','count':5,'orchestratorVersion':'1.38.0'}]",
        /* conf2 is created above the control plane: refused */
        "NDP007/profile-undeclared,NDP604/refused,NDP101/allowed"
    };
    struct ndp_buf plan = NDP_BUF_INIT, cli = NDP_BUF_INIT;
    char *impact_plan, *impact_cli, *got;

    (void)state;
    terraform_plan(&plan, &c);
    whatif_result(&cli, &c, false);
    got = judge_impact(plan.buf, &impact_plan);
    assert_string_equal(got, c.expect);
    free(got);
    got = judge_impact(cli.buf, &impact_cli);
    assert_string_equal(got, c.expect);
    free(got);
    assert_string_equal(impact_plan, impact_cli);
    assert_non_null(strstr(impact_plan, "\"pools\":[{\"name\":\"system\""));
    assert_null(strstr(impact_plan, "\"name\":\"conf2\""));
    assert_null(strstr(impact_plan, "\"name\":\"old\""));
    assert_non_null(strstr(impact_plan, "\"nodes\":3,\"created\":[\"conf2\"]"));
    free(impact_plan);
    free(impact_cli);
    ndp_buf_release(&plan);
    ndp_buf_release(&cli);
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
        cmocka_unit_test(created_pool__named_not_rebuilt),
        cmocka_unit_test(snapshots_with_nested_no_effect__unchanged),
        cmocka_unit_test(same_change__same_verdict_from_plan_and_whatif),
        cmocka_unit_test(delta_only__array_changes_judged),
        cmocka_unit_test(delta_only__snapshots_rebuilt_at_every_depth),
        cmocka_unit_test(deferred_change__judged_and_marked_deferred),
    };

    return cmocka_run_group_tests(tests, test_rules_load_dir, test_rules_free);
}

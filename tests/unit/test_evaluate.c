/*
 * SPDX-License-Identifier: Apache-2.0
 * test_evaluate.c - verdicts: the profile in force (input, option, default,
 * the stricter of a change), the maintenance window at --at, the bypass
 * rule, severity by intent, the undeclared-profile note, version-gated
 * categories, replacements, redaction of values, the worst-case
 * rebuild held against the window (window-overrun), the checks of
 * upgrade settings and subnets (a subnet holds the larger phase of an
 * apply, not the sum), and a maintenance window's startDate already past
 * (refused on update, unconfirmed on create) with where the apply fails.
 * Each case builds a small change set by hand and runs link, engine and
 * evaluator over it.
 */
#include "test_helpers.h"
#include "test_files.h"
#include "buf.h"
#include "change.h"
#include "engine.h"
#include "error.h"
#include "evaluate.h"
#include "finding.h"
#include "impact.h"
#include "input.h"
#include "evaluate/evaluate_internal.h"
#include "report/report_impact.h"
#include "linker.h"
#include "policy.h"
#include "rules.h"
#include "run.h"
#include "state.h"
#include "timeutil.h"


#define CLUSTER_ID "/subscriptions/s/resourceGroups/rg/providers/" \
                   "Microsoft.ContainerService/managedClusters/aks"

struct run {
    struct ndp_result result;
    char *impact_json, *impact_text; /* the first cluster's, or NULL */
};

static struct ndp_change *add(struct run *r, enum ndp_notation notation,
                              enum ndp_kind kind, const char *type,
                              const char *address, const char *before,
                              const char *after)
{
    return test_add_update(&r->result.set, notation, kind, type, address,
                           test_json(before), test_json(after));
}

static struct ndp_change *azurerm_cluster(struct run *r, const char *before,
                                          const char *after)
{
    struct ndp_change *c = add(r, NDP_NOTATION_AZURERM, NDP_KIND_CLUSTER,
                               "azurerm_kubernetes_cluster",
                               "azurerm_kubernetes_cluster.main", before,
                               after);
    c->self_id = ndp_xstrdup(CLUSTER_ID);
    return c;
}

static void setter(struct run *r, const char *before_profile,
                   const char *after_profile)
{
    char b[200], a[200];
    struct ndp_change *c;

    snprintf(b, sizeof(b), "{'properties':{'nodeDisruptionProfile':"
             "{'nodeDisruptionPolicy':'%s'}}}", before_profile);
    snprintf(a, sizeof(a), "{'properties':{'nodeDisruptionProfile':"
             "{'nodeDisruptionPolicy':'%s'}}}", after_profile);
    c = add(r, NDP_NOTATION_ARM, NDP_KIND_SETTER,
            "Microsoft.ContainerService/managedClusters",
            "azapi_update_resource.ndp", before_profile ? b : NULL,
            after_profile ? a : NULL);
    c->parent_id = ndp_xstrdup(CLUSTER_ID);
}

static void evaluate(struct run *r, const char *at, int profile_option)
{
    struct ndp_eval_options opt;

    memset(&opt, 0, sizeof(opt));
    assert_int_equal(ndp_time_parse_rfc3339(&opt.at, at), 0);
    opt.have_profile = profile_option >= 0;
    opt.profile = (enum ndp_profile)(profile_option < 0 ? 0 : profile_option);
    /* What ndp_run() does from the end of reading to the report order. */
    ndp_facts_fill_all(&r->result.set, 0);
    ndp_result_judge(&r->result, test_ruleset, &opt);
    ndp_findings_sort(&r->result.findings);
    if (r->result.impacts.nr && r->result.impacts.items[0].rebuilds) {
        struct ndp_buf b = NDP_BUF_INIT;
        ndp_report_impact_json(&b, &r->result.impacts.items[0]);
        r->impact_json = ndp_buf_detach(&b);
        ndp_report_impact_words(&b, &r->result.impacts.items[0]);
        r->impact_text = ndp_buf_detach(&b);
    }
}

static void release(struct run *r)
{
    free(r->impact_json);
    free(r->impact_text);
    ndp_result_release(&r->result);
}

/* The single finding with rule 'id'; fails when not exactly one. */
static const struct ndp_finding *only(const struct run *r, const char *id)
{
    const struct ndp_finding *found = NULL;
    size_t i, n = 0;

    for (i = 0; i < r->result.findings.nr; i++)
        if (strcmp(r->result.findings.items[i].rule_id, id) == 0) {
            found = &r->result.findings.items[i];
            n++;
        }
    if (n != 1)
        fail_msg("expected one %s finding, found %zu (of %zu)", id, n,
                 r->result.findings.nr);
    return found;
}

#define NP_AZURE "{'network_profile':[{'network_policy':'azure'}]}"
#define NP_NONE "{'network_profile':[{'network_policy':''}]}"
#define AT "2026-12-05T12:00:00Z"

static void block_setter__network_policy_rejected(void **state)
{
    struct run r = { 0 };
    const struct ndp_finding *f;

    (void)state;
    azurerm_cluster(&r, NP_NONE, NP_AZURE);
    setter(&r, "Block", "Block");
    evaluate(&r, AT, -1);
    assert_int_equal(r.result.clusters.nr, 1);
    assert_string_equal(r.result.resolved.items[0].profile_source, "input");
    f = only(&r, "NDP101");
    assert_int_equal(f->verdict, NDP_VERDICT_REJECTED);
    assert_int_equal(f->severity, NDP_SEVERITY_ERROR);
    assert_string_equal(f->path, "network_profile[0].network_policy");
    assert_string_equal(f->before, "null");
    assert_string_equal(f->after, "\"azure\"");
    release(&r);
}

static void profile_changed_in_plan__stricter_wins_and_is_said(void **state)
{
    struct run r = { 0 };

    (void)state;
    azurerm_cluster(&r, NP_NONE, NP_AZURE);
    setter(&r, "Block", "Allow");
    evaluate(&r, AT, -1);
    assert_int_equal(only(&r, "NDP101")->verdict, NDP_VERDICT_REJECTED);
    assert_non_null(r.result.resolved.items[0].profile_note);
    assert_non_null(
        strstr(r.result.resolved.items[0].profile_note, "from Block to Allow"));
    release(&r);
}

static void no_declaration__option_then_default(void **state)
{
    struct run r = { 0 }, d = { 0 };

    (void)state;
    azurerm_cluster(&r, NP_NONE, NP_AZURE);
    evaluate(&r, AT, NDP_PROFILE_BLOCK);
    assert_string_equal(r.result.resolved.items[0].profile_source, "option");
    assert_int_equal(only(&r, "NDP101")->verdict, NDP_VERDICT_REJECTED);
    release(&r);
    azurerm_cluster(&d, NP_NONE, NP_AZURE);
    evaluate(&d, AT, -1);
    assert_string_equal(d.result.resolved.items[0].profile_source, "default");
    assert_int_equal(only(&d, "NDP101")->verdict, NDP_VERDICT_ALLOWED);
    assert_int_equal(only(&d, "NDP101")->severity, NDP_SEVERITY_NOTE);
    release(&d);
}

/* Weekly on Saturday 20:00 at -05:00 for 4 hours: 01:00-05:00 UTC Sunday. */
#define WINDOW_BLOCK "'maintenance_window_node_os':[{'frequency':'Weekly'," \
    "'interval':1,'duration':4,'day_of_week':'Saturday','day_of_month':0," \
    "'week_index':'','start_time':'20:00','utc_offset':'-05:00'," \
    "'start_date':'','not_allowed':[]}]"

static void window_profile__inside_allowed_outside_refused(void **state)
{
    static const struct {
        const char *at;
        enum ndp_verdict verdict;
    } rows[] = {
        { "2026-12-05T12:00:00Z", NDP_VERDICT_OUTSIDE_WINDOW },
        { "2026-12-06T01:00:00Z", NDP_VERDICT_ALLOWED },     /* the start */
        { "2026-12-06T04:59:59Z", NDP_VERDICT_ALLOWED },
        { "2026-12-06T05:00:00Z", NDP_VERDICT_OUTSIDE_WINDOW }, /* the end */
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct run r = { 0 };
        const struct ndp_finding *f;

        azurerm_cluster(&r, "{'network_profile':[{'network_policy':''}],"
                        WINDOW_BLOCK "}",
                        "{'network_profile':[{'network_policy':'calico'}],"
                        WINDOW_BLOCK "}");
        setter(&r, "AllowDuringMaintenanceWindow",
               "AllowDuringMaintenanceWindow");
        evaluate(&r, rows[i].at, -1);
        f = only(&r, "NDP101");
        if (f->verdict != rows[i].verdict)
            fail_msg("at %s: verdict %s", rows[i].at,
                     ndp_verdict_name(f->verdict));
        if (f->verdict == NDP_VERDICT_OUTSIDE_WINDOW && i == 0)
            assert_non_null(strstr(f->message, "2026-12-06T01:00:00Z"));
        release(&r);
    }
}

/* The azurerm node OS block: weekly on 'day' at 'start' for 4 hours. */
static void node_os_block(char *out, size_t size, const char *day,
                          const char *start, const char *offset,
                          int interval, const char *not_allowed)
{
    snprintf(out, size, "'maintenance_window_node_os':[{'frequency':"
             "'Weekly','interval':%d,'duration':4,'day_of_week':'%s',"
             "'day_of_month':0,'week_index':'','start_time':'%s',"
             "'utc_offset':'%s','start_date':'','not_allowed':[%s]}]",
             interval, day, start, offset, not_allowed);
}

/*
 * --at next-window: each cluster judged at max(now, the first instant
 * inside its window, both windows when the apply replaces it,
 * notAllowedDates skipped); no window, or Block, judged now.
 */
static void next_window__judged_at_the_first_instant_inside(void **state)
{
    static const char blackout[] = "{'start':'2026-12-05T00:00:00Z',"
                                   "'end':'2026-12-06T00:00:00Z'}";
    static const struct {
        const char *name, *profile, *now;
        bool window_before, window_after, moved;
        const char *not_allowed;
        int interval;
        const char *at;
        enum ndp_judged judged;
        enum ndp_verdict verdict;
    } rows[] = {
        { "inside: now", "AllowDuringMaintenanceWindow",
          "2026-12-06T02:00:00Z", true, true, false, "", 1,
          "2026-12-06T02:00:00Z", NDP_JUDGED_NEXT_WINDOW,
          NDP_VERDICT_ALLOWED },
        { "before: its opening", "AllowDuringMaintenanceWindow",
          "2026-12-05T12:00:00Z", true, true, false, "", 1,
          "2026-12-06T01:00:00Z", NDP_JUDGED_NEXT_WINDOW,
          NDP_VERDICT_ALLOWED },
        { "at its close: the next one", "AllowDuringMaintenanceWindow",
          "2026-12-06T05:00:00Z", true, true, false, "", 1,
          "2026-12-13T01:00:00Z", NDP_JUDGED_NEXT_WINDOW,
          NDP_VERDICT_ALLOWED },
        { "after: the next one", "AllowDuringMaintenanceWindow",
          "2026-12-07T09:00:00Z", true, true, false, "", 1,
          "2026-12-13T01:00:00Z", NDP_JUDGED_NEXT_WINDOW,
          NDP_VERDICT_ALLOWED },
        { "no window: now", "AllowDuringMaintenanceWindow",
          "2026-12-05T12:00:00Z", false, false, false, "", 1,
          "2026-12-05T12:00:00Z", NDP_JUDGED_NO_WINDOW,
          NDP_VERDICT_ALLOWED },
        { "Allow: now", "Allow", "2026-12-05T12:00:00Z", true, true, false,
          "", 1, "2026-12-05T12:00:00Z", NDP_JUDGED_NO_WINDOW,
          NDP_VERDICT_ALLOWED },
        { "Block: now", "Block", "2026-12-05T12:00:00Z", true, true, false,
          "", 1, "2026-12-05T12:00:00Z", NDP_JUDGED_NO_WINDOW,
          NDP_VERDICT_REJECTED },
        { "moved window: inside both", "AllowDuringMaintenanceWindow",
          "2026-12-05T12:00:00Z", true, true, true, "", 1,
          "2026-12-06T03:00:00Z", NDP_JUDGED_NEXT_WINDOW,
          NDP_VERDICT_ALLOWED },
        { "blackout: skipped", "AllowDuringMaintenanceWindow",
          "2026-12-05T12:00:00Z", true, true, false, blackout, 1,
          "2026-12-13T01:00:00Z", NDP_JUDGED_NEXT_WINDOW,
          NDP_VERDICT_ALLOWED },
        { "phase unknown: now", "AllowDuringMaintenanceWindow",
          "2026-12-05T12:00:00Z", true, true, false, "", 2,
          "2026-12-05T12:00:00Z", NDP_JUDGED_NO_OPENING,
          NDP_VERDICT_OUTSIDE_WINDOW },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct run r = { 0 };
        struct ndp_eval_options opt;
        char before[600], after[600], wb[400], wa[400];
        const struct ndp_resolution *c;
        const struct ndp_finding *f;
        int64_t want;

        node_os_block(wb, sizeof(wb), "Saturday", "20:00", "-05:00",
                      rows[i].interval, rows[i].not_allowed);
        if (rows[i].moved)
            node_os_block(wa, sizeof(wa), "Sunday", "03:00", "+00:00", 1,
                          "");
        else
            snprintf(wa, sizeof(wa), "%s", wb);
        snprintf(before, sizeof(before), "{'network_profile':[{"
                 "'network_policy':''}]%s%s}",
                 rows[i].window_before ? "," : "",
                 rows[i].window_before ? wb : "");
        snprintf(after, sizeof(after), "{'network_profile':[{"
                 "'network_policy':'calico'}]%s%s}",
                 rows[i].window_after ? "," : "",
                 rows[i].window_after ? wa : "");
        azurerm_cluster(&r, before, after);
        setter(&r, rows[i].profile, rows[i].profile);
        memset(&opt, 0, sizeof(opt));
        assert_int_equal(ndp_time_parse_rfc3339(&opt.at, rows[i].now), 0);
        opt.next_window = true;
        ndp_facts_fill_all(&r.result.set, 0);
        ndp_result_judge(&r.result, test_ruleset, &opt);
        assert_int_equal(r.result.resolved.nr, 1);
        c = &r.result.resolved.items[0];
        assert_int_equal(ndp_time_parse_rfc3339(&want, rows[i].at), 0);
        if (c->at != want || c->judged != rows[i].judged)
            fail_msg("%s: judged at %lld (reason %d), want %s (reason %d)",
                     rows[i].name, (long long)c->at, (int)c->judged,
                     rows[i].at, (int)rows[i].judged);
        f = only(&r, "NDP101");
        if (f->verdict != rows[i].verdict)
            fail_msg("%s: verdict %s", rows[i].name,
                     ndp_verdict_name(f->verdict));
        if (rows[i].judged == NDP_JUDGED_NO_OPENING)
            assert_non_null(strstr(f->message, "--at next-window has no "
                                   "opening"));
        release(&r);
    }
}

static void window_profile_without_window__gate_open(void **state)
{
    struct run r = { 0 };

    (void)state;
    azurerm_cluster(&r, "{'network_profile':[{'network_policy':''}],"
                    "'maintenance_window_auto_upgrade':[{'frequency':'Weekly'}]}",
                    "{'network_profile':[{'network_policy':'calico'}],"
                    "'maintenance_window_auto_upgrade':[{'frequency':'Weekly'}]}");
    setter(&r, "AllowDuringMaintenanceWindow", "AllowDuringMaintenanceWindow");
    evaluate(&r, AT, -1);
    assert_int_equal(only(&r, "NDP101")->verdict, NDP_VERDICT_ALLOWED);
    assert_int_equal(only(&r, "NDP001")->verdict, NDP_VERDICT_GATE_OPEN);
    assert_non_null(strstr(only(&r, "NDP001")->message,
                           "not the node OS window: "
                           "maintenance_window_auto_upgrade"));
    release(&r);
}

static void version_upgrade_in_same_change__bypassed(void **state)
{
    struct run r = { 0 };

    (void)state;
    azurerm_cluster(&r, "{'kubernetes_version':'1.35',"
                    "'network_profile':[{'network_policy':''}]}",
                    "{'kubernetes_version':'1.36',"
                    "'network_profile':[{'network_policy':'azure'}]}");
    setter(&r, "Block", "Block");
    evaluate(&r, AT, -1);
    assert_int_equal(only(&r, "NDP101")->verdict, NDP_VERDICT_BYPASSED);
    assert_int_equal(only(&r, "NDP101")->severity, NDP_SEVERITY_ERROR);
    release(&r);
}

/* Spec §11: bundled, but the policy would have let it through: allowed. */
static void version_upgrade_under_allow__allowed_note(void **state)
{
    struct run r = { 0 };

    (void)state;
    azurerm_cluster(&r, "{'kubernetes_version':'1.35',"
                    "'network_profile':[{'network_policy':''}]}",
                    "{'kubernetes_version':'1.36',"
                    "'network_profile':[{'network_policy':'azure'}]}");
    setter(&r, "Allow", "Allow");
    evaluate(&r, AT, -1);
    assert_int_equal(only(&r, "NDP101")->verdict, NDP_VERDICT_ALLOWED);
    assert_int_equal(only(&r, "NDP101")->severity, NDP_SEVERITY_NOTE);
    assert_non_null(strstr(only(&r, "NDP101")->message, "kubernetes_version"));
    release(&r);
}

/*
 * Architecture §5: rotate, replace and bypassed are errors while the
 * cluster is frozen now (Block, or outside the window) and warnings
 * otherwise.  The window is Saturday 20:00-24:00 at -05:00.
 */
static void severity_by_intent__errors_only_when_frozen_now(void **state)
{
    static const struct {
        const char *profile, *at;
        enum ndp_severity severity;
    } rows[] = {
        { "Block", AT, NDP_SEVERITY_ERROR },
        { "AllowDuringMaintenanceWindow", AT, NDP_SEVERITY_ERROR },
        { "AllowDuringMaintenanceWindow", "2026-12-06T01:00:00Z",
          NDP_SEVERITY_WARNING },
        { "Allow", AT, NDP_SEVERITY_WARNING },
        { NULL, AT, NDP_SEVERITY_WARNING }, /* the AKS default, Allow */
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct run r = { 0 };
        struct ndp_change *c;
        const struct ndp_finding *rot, *rep;

        azurerm_cluster(&r, "{" WINDOW_BLOCK ",'default_node_pool':"
                        "[{'name':'sys','vm_size':'a'}]}",
                        "{" WINDOW_BLOCK ",'default_node_pool':"
                        "[{'name':'sys','vm_size':'b'}]}");
        c = add(&r, NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL,
                "azurerm_kubernetes_cluster_node_pool",
                "azurerm_kubernetes_cluster_node_pool.user", "{}", "{}");
        c->action = NDP_ACTION_REPLACE;
        c->parent_id = ndp_xstrdup(CLUSTER_ID);
        if (rows[i].profile)
            setter(&r, rows[i].profile, rows[i].profile);
        evaluate(&r, rows[i].at, -1);
        rot = only(&r, "NDP501");
        rep = only(&r, "NDP003");
        assert_int_equal(rot->verdict, NDP_VERDICT_ROTATE);
        assert_int_equal(rep->verdict, NDP_VERDICT_REPLACE);
        if (rot->severity != rows[i].severity ||
            rep->severity != rows[i].severity)
            fail_msg("%s at %s: rotate %s, replace %s",
                     rows[i].profile ? rows[i].profile : "(default)",
                     rows[i].at, ndp_severity_name(rot->severity),
                     ndp_severity_name(rep->severity));
        assert_true((strstr(rot->message, "frozen now") != NULL) ==
                    (rows[i].severity == NDP_SEVERITY_ERROR));
        assert_true((strstr(rep->message, "frozen now") != NULL) ==
                    (rows[i].severity == NDP_SEVERITY_ERROR));
        release(&r);
    }
}

/*
 * One NDP007 note per cluster whose reimaging changes are judged under
 * the AKS default because nothing declares its profile; none once
 * anything declares it, and none without a reimaging change.
 */
static void undeclared_profile__one_note_per_cluster_with_reimaging(void **state)
{
    struct run r = { 0 }, o = { 0 }, d = { 0 }, n = { 0 };
    const struct ndp_finding *f;
    size_t i;

    (void)state;
    azurerm_cluster(&r, "{'network_profile':[{'network_policy':''}],"
                    "'custom_ca_trust_certificates_base64':[]}",
                    "{'network_profile':[{'network_policy':'azure'}],"
                    "'custom_ca_trust_certificates_base64':['Q0E=']}");
    evaluate(&r, AT, -1);
    f = only(&r, "NDP007");
    assert_int_equal(f->verdict, NDP_VERDICT_PROFILE_UNDECLARED);
    assert_int_equal(f->severity, NDP_SEVERITY_NOTE);
    assert_string_equal(f->category, "profile-undeclared");
    assert_string_equal(f->cluster, "azurerm_kubernetes_cluster.main");
    assert_non_null(strstr(f->message, "2 reimaging changes"));
    assert_non_null(strstr(f->message, "AKS default, Allow"));
    assert_non_null(strstr(f->message, "--profile"));
    assert_non_null(strstr(f->message, "--cluster-state"));
    assert_non_null(strstr(f->message, "azapi_update_resource"));
    assert_non_null(strstr(f->message, "settings file"));
    release(&r);

    /* Declared by an option or by the input: no note. */
    azurerm_cluster(&o, NP_NONE, NP_AZURE);
    evaluate(&o, AT, NDP_PROFILE_ALLOW);
    assert_string_equal(o.result.resolved.items[0].profile_source, "option");
    for (i = 0; i < o.result.findings.nr; i++)
        assert_string_not_equal(o.result.findings.items[i].rule_id, "NDP007");
    release(&o);
    azurerm_cluster(&d, NP_NONE, NP_AZURE);
    setter(&d, "Allow", "Allow");
    evaluate(&d, AT, -1);
    for (i = 0; i < d.result.findings.nr; i++)
        assert_string_not_equal(d.result.findings.items[i].rule_id, "NDP007");
    release(&d);

    /* Undeclared, but nothing reimages: no note. */
    azurerm_cluster(&n, "{'network_profile':[{'network_policy':'azure'}]}",
                    "{'network_profile':[{'network_policy':'calico'}]}");
    evaluate(&n, AT, -1);
    assert_string_equal(n.result.resolved.items[0].profile_source, "default");
    assert_int_equal(n.result.findings.nr, 0);
    release(&n);
}

static void version_gated__manual_before_137_gated_from_137(void **state)
{
    static const struct {
        const char *version;
        enum ndp_verdict verdict;
    } rows[] = {
        { "1.36.2", NDP_VERDICT_MANUAL_UPGRADE },
        { "1.37.0", NDP_VERDICT_REJECTED },
        { "1.40", NDP_VERDICT_REJECTED },
        { "", NDP_VERDICT_REJECTED }, /* unknown: judged as 1.37+ */
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct run r = { 0 };
        char b[300], a[300];
        struct ndp_change *c;

        snprintf(b, sizeof(b), "{'properties':{'kubernetesVersion':'%s',"
                 "'networkProfile':{'outboundType':'loadBalancer'},"
                 "'nodeDisruptionProfile':{'nodeDisruptionPolicy':'Block'}}}",
                 rows[i].version);
        snprintf(a, sizeof(a), "{'properties':{'kubernetesVersion':'%s',"
                 "'networkProfile':{'outboundType':'userDefinedRouting'},"
                 "'nodeDisruptionProfile':{'nodeDisruptionPolicy':'Block'}}}",
                 rows[i].version);
        c = add(&r, NDP_NOTATION_ARM, NDP_KIND_CLUSTER,
                "Microsoft.ContainerService/managedClusters",
                "azapi_resource.aks", b, a);
        c->self_id = ndp_xstrdup(CLUSTER_ID);
        evaluate(&r, AT, -1);
        if (only(&r, "NDP306")->verdict != rows[i].verdict)
            fail_msg("version '%s': %s", rows[i].version,
                     ndp_verdict_name(only(&r, "NDP306")->verdict));
        release(&r);
    }
}

static void replaced_pool__replace_finding_names_paths(void **state)
{
    struct run r = { 0 };
    struct ndp_change *c;

    (void)state;
    c = add(&r, NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL,
            "azurerm_kubernetes_cluster_node_pool",
            "azurerm_kubernetes_cluster_node_pool.user", "{}", "{}");
    c->action = NDP_ACTION_REPLACE;
    c->replace_paths = ndp_xstrdup("capacity_reservation_group_id");
    c->parent_id = ndp_xstrdup(CLUSTER_ID);
    evaluate(&r, AT, -1);
    assert_int_equal(only(&r, "NDP003")->verdict, NDP_VERDICT_REPLACE);
    assert_string_equal(only(&r, "NDP003")->path,
                        "capacity_reservation_group_id");
    assert_string_equal(only(&r, "NDP003")->cluster, CLUSTER_ID);
    release(&r);
}

static void secrets__never_in_findings(void **state)
{
    struct run r = { 0 };
    struct ndp_change *c;
    size_t i;

    (void)state;
    c = azurerm_cluster(&r,
        "{'http_proxy_config':[{'http_proxy':'http://u:CANARY1@p:3128',"
        "'trusted_ca':'CANARY2'}],'service_principal':[{'client_id':'a',"
        "'client_secret':'CANARY3'}]}",
        "{'http_proxy_config':[{'http_proxy':'http://u:CANARY4@q:3128',"
        "'trusted_ca':'CANARY5'}],'service_principal':[{'client_id':'a',"
        "'client_secret':'CANARY6'}]}");
    c->after_sensitive = test_json("{'http_proxy_config':[{'trusted_ca':true}]}");
    evaluate(&r, AT, -1);
    assert_int_equal(r.result.findings.nr,
                     4); /* NDP106, NDP107, NDP111, NDP007 */
    for (i = 0; i < r.result.findings.nr; i++) {
        const struct ndp_finding *f = &r.result.findings.items[i];
        if (strstr(f->before, "CANARY") || strstr(f->after, "CANARY") ||
            strstr(f->message, "CANARY"))
            fail_msg("secret printed: %s -> %s", f->before, f->after);
    }
    assert_string_equal(only(&r, "NDP106")->after,
                        "\"http://(sensitive)@q:3128\"");
    assert_string_equal(only(&r, "NDP107")->after, "\"(sensitive)\"");
    release(&r);
}

static void impact__pools_counts_batches_and_refused_changes(void **state)
{
    struct run r = { 0 }, b = { 0 };

    (void)state;
    /* Allowed: every pool of the cluster is rebuilt. */
    azurerm_cluster(&r, "{'network_profile':[{'network_policy':''}],"
                    "'default_node_pool':[{'name':'system','node_count':4,"
                    "'upgrade_settings':[{'max_surge':'50%'}]}]}",
                    "{'network_profile':[{'network_policy':'azure'}],"
                    "'default_node_pool':[{'name':'system','node_count':4,"
                    "'upgrade_settings':[{'max_surge':'50%'}]}]}");
    evaluate(&r, AT, -1);
    assert_non_null(r.impact_json);
    assert_non_null(strstr(r.impact_json,
                           "\"name\":\"system\""));
    assert_non_null(strstr(r.impact_json,
                           "\"surge_nodes\":2,\"unavailable_nodes\":0,"
                           "\"batches\":2,\"extra_nodes\":2"));
    assert_non_null(strstr(r.impact_text,
                           "emptyDir, hostPath"));
    release(&r);
    /* Autoscaled pool: counted at its maximum; integer surge. */
    {
        struct run a = { 0 };
        struct ndp_change *p;
        azurerm_cluster(&a, NP_NONE, NP_AZURE);
        p = add(&a, NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL,
                "azurerm_kubernetes_cluster_node_pool",
                "azurerm_kubernetes_cluster_node_pool.burst",
                "{'name':'burst','node_count':2,'min_count':2,'max_count':10,"
                "'auto_scaling_enabled':true,'upgrade_settings':[{'max_surge':'3'}]}",
                "{'name':'burst','node_count':2,'min_count':2,'max_count':10,"
                "'auto_scaling_enabled':true,'upgrade_settings':[{'max_surge':'3'}]}");
        p->name = ndp_xstrdup("burst");
        p->parent_id = ndp_xstrdup(CLUSTER_ID);
        evaluate(&a, AT, -1);
        assert_non_null(strstr(a.impact_json,
                               "\"name\":\"burst\",\"os_type\":null,"
                               "\"nodes\":2,\"min_nodes\":2,\"max_nodes\":10,"
                               "\"upgrade\":\"surge\",\"max_surge\":\"3\","
                               "\"max_surge_source\":\"sent\","
                               "\"max_unavailable\":\"0\",\"surge_nodes\":3,"
                               "\"unavailable_nodes\":0,\"batches\":4"));
        assert_non_null(strstr(a.impact_text,
                               "burst (2-10 nodes, max surge 3 = 3 at a time, "
                               "4 batches)"));
        release(&a);
    }
    /* Rejected under Block: AKS refuses it, nothing is rebuilt. */
    azurerm_cluster(&b, NP_NONE, NP_AZURE);
    setter(&b, "Block", "Block");
    evaluate(&b, AT, -1);
    assert_null(b.impact_json);
    release(&b);
}

static void k8s_minor__parses_versions(void **state)
{
    (void)state;
    assert_int_equal(ndp_k8s_minor("1.37"), 137);
    assert_int_equal(ndp_k8s_minor("1.36.2"), 136);
    assert_int_equal(ndp_k8s_minor("v1.9.0"), 109);
    assert_int_equal(ndp_k8s_minor(""), -1);
    assert_int_equal(ndp_k8s_minor("latest"), -1);
    assert_int_equal(ndp_k8s_minor(NULL), -1);
}

static void profiles__parse_name_and_list(void **state)
{
    static const char *const names[] = {
        "Allow", "AllowDuringMaintenanceWindow", "Block"
    };
    size_t i;

    (void)state;
    for (i = 0; ndp_profile_choice(i); i++) {
        assert_string_equal(ndp_profile_choice(i), names[i]);
        assert_int_equal(ndp_profile_parse(names[i]), (int)i);
        assert_string_equal(ndp_profile_name((enum ndp_profile)i), names[i]);
    }
    assert_int_equal(i, 3);
    assert_int_equal(ndp_profile_parse("block"), NDP_PROFILE_BLOCK);
    assert_int_equal(ndp_profile_parse("Deny"), -1);
}

/* A cluster whose one pool 'pool' (azurerm default_node_pool members)
 * is rebuilt by a network policy change, with the window of WINDOW_BLOCK,
 * under 'profile' ("" for none declared), judged at 'at'. */
static void overrun_run(struct run *r, const char *pool, const char *profile,
                        const char *at)
{
    char before[600], after[600];

    snprintf(before, sizeof(before), "{'network_profile':[{'network_policy'"
             ":''}],'default_node_pool':[{'name':'system',%s}],"
             WINDOW_BLOCK "}", pool);
    snprintf(after, sizeof(after), "{'network_profile':[{'network_policy'"
             ":'calico'}],'default_node_pool':[{'name':'system',%s}],"
             WINDOW_BLOCK "}", pool);
    azurerm_cluster(r, before, after);
    if (*profile)
        setter(r, profile, profile);
    evaluate(r, at, -1);
}

static const struct ndp_finding *find_rule(const struct run *r,
                                           const char *id)
{
    size_t i;

    for (i = 0; i < r->result.findings.nr; i++)
        if (strcmp(r->result.findings.items[i].rule_id, id) == 0)
            return &r->result.findings.items[i];
    return NULL;
}

#define ADMW "AllowDuringMaintenanceWindow"
#define SURGE(s, drain, soak) "'upgrade_settings':[{'max_surge':'" s "'," \
    "'drain_timeout_in_minutes':" drain ",'node_soak_duration_in_minutes':" \
    soak "}]"

static void overrun__worst_case_rebuild_against_minutes_left(void **state)
{
    /* The window is open 2026-12-06T01:00Z to 05:00Z. */
    static const struct {
        const char *name, *pool, *profile, *at;
        const char *message; /* the window-overrun message, NULL: none */
        const char *json;    /* in the impact JSON */
    } rows[] = {
        { "10 nodes, surge 1, at the opening",
          "'node_count':10," SURGE("1", "30", "0"), ADMW,
          "2026-12-06T01:00:00Z",
          "the rebuild of 1 pool can take up to 5 h (10 batches \xc3\x97 "
          "30 min); the window closes in 4 h, so nodes may still be "
          "rebuilding after it",
          "\"worst_case_minutes\":300,\"window_remaining_minutes\":240" },
        { "10 nodes, surge 33%: 4 at a time, 3 batches",
          "'node_count':10," SURGE("33%", "30", "0"), ADMW,
          "2026-12-06T01:00:00Z", NULL,
          "\"worst_case_minutes\":90,\"window_remaining_minutes\":240" },
        { "entered 3.5 h after the opening",
          "'node_count':10," SURGE("33%", "30", "0"), ADMW,
          "2026-12-06T04:30:00Z",
          "up to 1 h 30 min (3 batches \xc3\x97 30 min); the window closes "
          "in 30 min",
          "\"worst_case_minutes\":90,\"window_remaining_minutes\":30" },
        { "autoscaled: counted at its maximum",
          "'node_count':3,'min_count':3,'max_count':10,"
          "'auto_scaling_enabled':true," SURGE("1", "30", "0"), ADMW,
          "2026-12-06T01:00:00Z", "up to 5 h (10 batches",
          "\"worst_case_minutes\":300" },
        { "drain and soak: exactly the window fits",
          "'node_count':4," SURGE("1", "45", "15"), ADMW,
          "2026-12-06T01:00:00Z", NULL,
          "\"drain_timeout_minutes\":45,\"node_soak_minutes\":15" },
        { "drain and soak: a minute later it does not",
          "'node_count':4," SURGE("1", "45", "15"), ADMW,
          "2026-12-06T01:01:00Z",
          "up to 4 h (4 batches \xc3\x97 1 h); the window closes in "
          "3 h 59 min", "\"worst_case_minutes\":240" },
        { "azurerm's unset drain timeout (0) is the default 30",
          "'node_count':9," SURGE("1", "0", "0"), ADMW,
          "2026-12-06T01:00:00Z", "(9 batches \xc3\x97 30 min)",
          "\"drain_timeout_minutes\":30" },
        { "no upgrade settings: surge 1, drain 30",
          "'node_count':9", ADMW, "2026-12-06T01:00:00Z",
          "up to 4 h 30 min", "\"worst_case_minutes\":270" },
        { "outside the window: refused, nothing rebuilds",
          "'node_count':10," SURGE("1", "30", "0"), ADMW,
          "2026-12-05T12:00:00Z", NULL, NULL },
        { "Allow: no window gates the change",
          "'node_count':10," SURGE("1", "30", "0"), "Allow",
          "2026-12-06T01:00:00Z", NULL,
          "\"worst_case_minutes\":300,\"window_remaining_minutes\":null" },
        { "node count unknown: not sized",
          SURGE("1", "30", "0"), ADMW, "2026-12-06T01:00:00Z", NULL,
          "\"worst_case_minutes\":null,\"window_remaining_minutes\":240" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct run r = { 0 };
        const struct ndp_finding *f;

        overrun_run(&r, rows[i].pool, rows[i].profile, rows[i].at);
        f = find_rule(&r, "NDP009");
        if (!rows[i].message != !f)
            fail_msg("%s: window-overrun %s", rows[i].name,
                     f ? f->message : "missing");
        if (f && (f->verdict != NDP_VERDICT_WINDOW_OVERRUN ||
                  f->severity != NDP_SEVERITY_WARNING ||
                  !strstr(f->message, rows[i].message)))
            fail_msg("%s: %s %s: %s", rows[i].name,
                     ndp_verdict_name(f->verdict),
                     ndp_severity_name(f->severity), f->message);
        if (rows[i].json ? !r.impact_json || !strstr(r.impact_json,
                                                     rows[i].json)
                         : r.impact_json != NULL)
            fail_msg("%s: impact %s", rows[i].name,
                     r.impact_json ? r.impact_json : "null");
        release(&r);
    }
}

/* ---- upgrade settings and rotations AKS or azurerm refuse ---------- */

enum check_shape { AZ_CLUSTER, AZ_POOL, ARM_CLUSTER, ARM_POOL };

struct check_row {
    const char *name;
    enum check_shape shape;
    enum ndp_action action;    /* NOOP: an update */
    const char *before, *after, *after_unknown;
    bool delta_only;
    const char *want;          /* "ID verdict path", "; " between */
};

static struct ndp_change *check_change(struct run *r,
                                       const struct check_row *row)
{
    static const struct {
        enum ndp_notation notation;
        enum ndp_kind kind;
        const char *type, *address;
    } shapes[] = {
        [AZ_CLUSTER] = { NDP_NOTATION_AZURERM, NDP_KIND_CLUSTER,
                         "azurerm_kubernetes_cluster",
                         "azurerm_kubernetes_cluster.main" },
        [AZ_POOL] = { NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL,
                      "azurerm_kubernetes_cluster_node_pool",
                      "azurerm_kubernetes_cluster_node_pool.np" },
        [ARM_CLUSTER] = { NDP_NOTATION_ARM, NDP_KIND_CLUSTER,
                          "Microsoft.ContainerService/managedClusters",
                          "azapi_resource.aks" },
        [ARM_POOL] = { NDP_NOTATION_ARM, NDP_KIND_NODEPOOL,
                       "Microsoft.ContainerService/managedClusters/"
                       "agentPools", "azapi_resource.np" },
    };
    struct ndp_change *c = add(r, shapes[row->shape].notation,
                               shapes[row->shape].kind,
                               shapes[row->shape].type,
                               shapes[row->shape].address, row->before,
                               row->after);

    if (row->action != NDP_ACTION_NOOP)
        c->action = row->action;
    c->after_unknown = test_json(row->after_unknown);
    c->delta_only = row->delta_only;
    if (row->shape == AZ_POOL || row->shape == ARM_POOL) {
        c->name = ndp_xstrdup("np");
        c->parent_id = ndp_xstrdup(CLUSTER_ID);
    } else {
        c->self_id = ndp_xstrdup(CLUSTER_ID);
    }
    return c;
}

/* The findings of the checks (NDP504, NDP505, NDP7xx) as the rows write
 * them. */
static char *check_findings(const struct run *r)
{
    struct ndp_buf b = NDP_BUF_INIT;
    size_t i;

    for (i = 0; i < r->result.findings.nr; i++) {
        const struct ndp_finding *f = &r->result.findings.items[i];
        if (strncmp(f->rule_id, "NDP7", 4) != 0 &&
            strcmp(f->rule_id, "NDP504") != 0 &&
            strcmp(f->rule_id, "NDP505") != 0)
            continue;
        ndp_buf_addf(&b, "%s%s %s %s", b.len ? "; " : "", f->rule_id,
                     ndp_verdict_name(f->verdict), f->path);
    }
    return ndp_buf_detach(&b);
}

#define US(members) "'upgrade_settings':[{" members "}]"
#define AZ_DNP(members) "{'default_node_pool':[{'name':'sys'," members "}]}"
#define ARM_US(members) "{'properties':{'upgradeSettings':{" members "}}}"
#define ARM_P(members) "{'properties':{" members "}}"
#define ARM_APP(members) \
    "{'properties':{'agentPoolProfiles':[{'name':'a'," members "}]}}"
#define DRAIN "upgrade_settings[0].drain_timeout_in_minutes"
#define US_SURGE "upgrade_settings[0].max_surge"
#define UNAVAIL "upgrade_settings[0].max_unavailable"
#define D_SURGE "default_node_pool[0]." US_SURGE
#define A_SURGE "properties.upgradeSettings.maxSurge"
#define A_UNAVAIL "properties.upgradeSettings.maxUnavailable"
#define A_BLOCKED "properties.upgradeSettings.maxBlockedNodes"

static const struct check_row check_rows[] = {
    /* NDP705: drain timeout, 0 read as unset */
    { "drain 4", AZ_POOL, 0, "{}", "{" US("'drain_timeout_in_minutes':4") "}",
      NULL, false, "NDP705 refused " DRAIN },
    { "drain 5", AZ_POOL, 0, "{}", "{" US("'drain_timeout_in_minutes':5") "}",
      NULL, false, "" },
    { "drain 1440", AZ_POOL, 0, "{}",
      "{" US("'drain_timeout_in_minutes':1440") "}", NULL, false, "" },
    { "drain 1441", AZ_POOL, 0, "{}",
      "{" US("'drain_timeout_in_minutes':1441") "}", NULL, false,
      "NDP705 refused " DRAIN },
    { "drain 0 is unset", AZ_POOL, 0, "{}",
      "{" US("'drain_timeout_in_minutes':0") "}", NULL, false, "" },
    { "drain -1 is declared", ARM_POOL, 0, "{}",
      ARM_US("'drainTimeoutInMinutes':-1"), NULL, false,
      "NDP705 refused properties.upgradeSettings.drainTimeoutInMinutes" },
    /* NDP706: soak, ARM only */
    { "soak 31", ARM_POOL, 0, "{}", ARM_US("'nodeSoakDurationInMinutes':31"),
      NULL, false,
      "NDP706 refused properties.upgradeSettings.nodeSoakDurationInMinutes" },
    { "soak 30", ARM_POOL, 0, "{}", ARM_US("'nodeSoakDurationInMinutes':30"),
      NULL, false, "" },
    { "soak 0", ARM_POOL, 0, "{}", ARM_US("'nodeSoakDurationInMinutes':0"),
      NULL, false, "" },
    { "soak -1", ARM_POOL, 0, "{}", ARM_US("'nodeSoakDurationInMinutes':-1"),
      NULL, false,
      "NDP706 refused properties.upgradeSettings.nodeSoakDurationInMinutes" },
    { "soak 31 in azurerm: refused at plan time", AZ_POOL, 0, "{}",
      "{" US("'node_soak_duration_in_minutes':31") "}", NULL, false, "" },
    /* NDP701, NDP702: forms and percentages */
    { "surge not a number", AZ_POOL, 0, "{}", "{" US("'max_surge':'abc'") "}",
      NULL, false, "NDP701 may-refuse " US_SURGE },
    { "surge a decimal", ARM_POOL, 0, "{}", ARM_US("'maxSurge':'1.5'"), NULL,
      false, "NDP701 may-refuse " A_SURGE },
    { "surge negative", ARM_POOL, 0, "{}", ARM_US("'maxSurge':'-1'"), NULL,
      false, "NDP701 may-refuse " A_SURGE },
    { "surge with a space", ARM_POOL, 0, "{}", ARM_US("'maxSurge':'5 %'"),
      NULL, false, "NDP701 may-refuse " A_SURGE },
    { "unavailable not a number", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'1','maxUnavailable':'x%'"), NULL, false,
      "NDP701 may-refuse " A_UNAVAIL },
    { "surge 101%", ARM_POOL, 0, "{}", ARM_US("'maxSurge':'101%'"), NULL,
      false, "NDP702 refused " A_SURGE },
    { "unavailable 101%", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'0','maxUnavailable':'101%'"), NULL, false,
      "NDP702 refused " A_UNAVAIL },
    { "surge 1%", ARM_POOL, 0, "{}", ARM_US("'maxSurge':'1%'"), NULL, false,
      "" },
    { "surge 0% alone", ARM_POOL, 0, "{}", ARM_US("'maxSurge':'0%'"), NULL,
      false, "NDP702 refused " A_SURGE },
    { "surge 0% beside unavailable 1: the maxSurge 0 form", ARM_POOL, 0,
      "{}", ARM_US("'maxSurge':'0%','maxUnavailable':'1'"), NULL, false,
      "" },
    { "unavailable 0% is its default 0", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'1','maxUnavailable':'0%'"), NULL, false, "" },
    { "azurerm default pool surge 0%", AZ_CLUSTER, 0,
      AZ_DNP(US("'max_surge':'1'")), AZ_DNP(US("'max_surge':'0%'")), NULL,
      false, "NDP702 refused " D_SURGE },
    { "azurerm pool surge 0%: unavailable 0 beside it", AZ_POOL, 0, "{}",
      "{" US("'max_surge':'0%'") "}", NULL, false,
      "NDP702 refused " US_SURGE },
    { "ARM delta: surge 0%, unavailable not shown", ARM_POOL, 0,
      ARM_US("'maxSurge':'1'"), ARM_US("'maxSurge':'0%'"), NULL, true,
      "NDP702 may-refuse " A_SURGE },
    { "surge 100%", ARM_POOL, 0, "{}", ARM_US("'maxSurge':'100%'"), NULL,
      false, "" },
    { "template expressions are not judged", ARM_POOL, 0, "{}",
      ARM_P("'mode':'System','scaleSetPriority':'[parameters(\\'p\\')]',"
            "'upgradeSettings':{'maxSurge':'[parameters(\\'s\\')]',"
            "'maxUnavailable':'[variables(\\'u\\')]',"
            "'undrainableNodeBehavior':'[parameters(\\'b\\')]'}"),
      NULL, false, "" },
    { "an escaped bracket is a value", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'[[5]'"), NULL, false,
      "NDP701 may-refuse " A_SURGE },
    { "surge 5 and 33%", ARM_CLUSTER, 0, NULL,
      "{'properties':{'agentPoolProfiles':[{'name':'a','upgradeSettings':"
      "{'maxSurge':'5'}},{'name':'b','upgradeSettings':"
      "{'maxSurge':'33%'}}]}}", NULL, false, "" },
    /* NDP703: both 0 as sent */
    { "azurerm default pool surge 0", AZ_CLUSTER, 0, AZ_DNP(US("'max_surge':'1'")),
      AZ_DNP(US("'max_surge':'0'")), NULL, false, "NDP703 refused " D_SURGE },
    { "azurerm pool surge 0", AZ_POOL, 0, "{}", "{" US("'max_surge':'0'") "}",
      NULL, false, "NDP703 refused " US_SURGE },
    { "azurerm pool unavailable 0", AZ_POOL, 0, "{}",
      "{" US("'max_unavailable':'0'") "}", NULL, false,
      "NDP703 refused " UNAVAIL },
    { "azurerm pool unavailable 1", AZ_POOL, 0, "{}",
      "{" US("'max_unavailable':'1'") "}", NULL, false, "" },
    { "ARM surge 0 alone", ARM_POOL, 0, "{}", ARM_US("'maxSurge':'0'"), NULL,
      false, "NDP703 refused " A_SURGE },
    { "ARM both 0%: NDP702's", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'0%','maxUnavailable':'0'"), NULL, false,
      "NDP702 refused " A_SURGE },
    { "ARM surge 0, unavailable 0%", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'0','maxUnavailable':'0%'"), NULL, false,
      "NDP703 refused " A_SURGE },
    { "ARM surge 0 unavailable 1", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'0','maxUnavailable':'1'"), NULL, false, "" },
    { "ARM unavailable 0 alone: the default surge", ARM_POOL, 0, "{}",
      ARM_US("'maxUnavailable':'0'"), NULL, false, "" },
    { "ARM delta: surge 0, unavailable not shown", ARM_POOL, 0,
      ARM_US("'maxSurge':'1'"), ARM_US("'maxSurge':'0'"), NULL, true,
      "NDP703 may-refuse " A_SURGE },
    /* NDP710: both above 0, ARM only */
    { "ARM surge 1 unavailable 1", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'1','maxUnavailable':'1'"), NULL, false,
      "NDP710 may-refuse " A_UNAVAIL },
    { "ARM surge 10% unavailable 20%", ARM_CLUSTER, 0, NULL,
      ARM_APP("'upgradeSettings':{'maxSurge':'10%','maxUnavailable':'20%'}"),
      NULL, false, "NDP710 may-refuse properties.agentPoolProfiles[name=a]."
      "upgradeSettings.maxUnavailable" },
    { "ARM surge 0->2 beside unavailable 2: its path", ARM_POOL, 0,
      ARM_US("'maxSurge':'0','maxUnavailable':'2'"),
      ARM_US("'maxSurge':'2','maxUnavailable':'2'"), NULL, false,
      "NDP710 may-refuse " A_SURGE },
    { "ARM surge unset unavailable 1: the default surge, not sent",
      ARM_POOL, 0, "{}", ARM_US("'maxUnavailable':'1'"), NULL, false, "" },
    { "azurerm pool with both: refused at plan time", AZ_POOL, 0, "{}",
      "{" US("'max_surge':'1','max_unavailable':'1'") "}", NULL, false,
      "" },
    { "ARM both above 0, neither changed", ARM_POOL, 0,
      ARM_P("'tags':{'a':'1'},'upgradeSettings':{'maxSurge':'1',"
            "'maxUnavailable':'1'}"),
      ARM_P("'tags':{'a':'2'},'upgradeSettings':{'maxSurge':'1',"
            "'maxUnavailable':'1'}"), NULL, false, "" },
    /* NDP704: maxUnavailable on a System pool */
    { "ARM System pool unavailable 1", ARM_POOL, 0, "{}",
      ARM_P("'mode':'System','upgradeSettings':{'maxSurge':'0',"
            "'maxUnavailable':'1'}"), NULL, false,
      "NDP704 refused " A_UNAVAIL },
    { "ARM system pool, lower case", ARM_CLUSTER, 0, NULL,
      ARM_APP("'mode':'system','upgradeSettings':{'maxUnavailable':'1'}"),
      NULL, false, "NDP704 refused properties.agentPoolProfiles[name=a]."
      "upgradeSettings.maxUnavailable" },
    { "ARM System pool unavailable 0", ARM_POOL, 0, "{}",
      ARM_P("'mode':'System','upgradeSettings':{'maxSurge':'1',"
            "'maxUnavailable':'0'}"), NULL, false, "" },
    { "ARM User pool unavailable 1", ARM_POOL, 0, "{}",
      ARM_P("'mode':'User','upgradeSettings':{'maxUnavailable':'1'}"), NULL,
      false, "" },
    { "azurerm System pool resource", AZ_POOL, 0, "{}",
      "{'mode':'System'," US("'max_unavailable':'1'") "}", NULL, false,
      "NDP704 refused " UNAVAIL },
    { "ARM delta without the mode", ARM_CLUSTER, 0,
      "{'properties':{'agentPoolProfiles':[{'upgradeSettings':"
      "{'maxUnavailable':'0'}}]}}",
      "{'properties':{'agentPoolProfiles':[{'upgradeSettings':"
      "{'maxUnavailable':'2'}}]}}", NULL, true, "" },
    /* NDP707: undrainable node behaviour */
    { "undrainable Drain", ARM_POOL, 0, "{}",
      ARM_US("'undrainableNodeBehavior':'Drain'"), NULL, false,
      "NDP707 refused properties.upgradeSettings.undrainableNodeBehavior" },
    { "undrainable cordon", ARM_POOL, 0, "{}",
      ARM_US("'undrainableNodeBehavior':'cordon'"), NULL, false, "" },
    { "undrainable Schedule", AZ_POOL, 0, "{}",
      "{" US("'undrainable_node_behavior':'Schedule'") "}", NULL, false,
      "" },
    /* NDP708: surge settings on a Spot pool, ARM only */
    { "ARM Spot pool with a surge", ARM_POOL, 0, "{}",
      ARM_P("'scaleSetPriority':'Spot','upgradeSettings':{'maxSurge':'1'}"),
      NULL, false, "NDP708 may-refuse " A_SURGE },
    { "ARM Spot pool with unavailable", ARM_POOL, 0, "{}",
      ARM_P("'scaleSetPriority':'spot','upgradeSettings':"
            "{'maxUnavailable':'1'}"), NULL, false,
      "NDP708 may-refuse " A_UNAVAIL },
    { "ARM Spot pool without settings", ARM_POOL, 0, "{}",
      ARM_P("'scaleSetPriority':'Spot','upgradeSettings':"
            "{'drainTimeoutInMinutes':30}"), NULL, false, "" },
    { "azurerm Spot pool: refused at plan time", AZ_POOL, 0, "{}",
      "{'priority':'Spot'," US("'max_surge':'1'") "}", NULL, false, "" },
    /* NDP711, NDP712: maxBlockedNodes, ARM only */
    { "blocked 1 below surge 2", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'2','maxBlockedNodes':'1',"
             "'undrainableNodeBehavior':'Cordon'"), NULL, false,
      "NDP711 refused " A_BLOCKED },
    { "blocked 2 beside surge 2", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'2','maxBlockedNodes':'2',"
             "'undrainableNodeBehavior':'Cordon'"), NULL, false, "" },
    { "blocked 10% below surge 20%", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'20%','maxBlockedNodes':'10%',"
             "'undrainableNodeBehavior':'Schedule'"), NULL, false,
      "NDP711 refused " A_BLOCKED },
    { "blocked 1 below surge 20% of 10 nodes", ARM_POOL, 0, "{}",
      ARM_P("'count':10,'upgradeSettings':{'maxSurge':'20%',"
            "'maxBlockedNodes':'1','undrainableNodeBehavior':'Cordon'}"),
      NULL, false, "NDP711 refused " A_BLOCKED },
    { "blocked 2 beside surge 20% of 10 nodes", ARM_POOL, 0, "{}",
      ARM_P("'count':10,'upgradeSettings':{'maxSurge':'20%',"
            "'maxBlockedNodes':'2','undrainableNodeBehavior':'Cordon'}"),
      NULL, false, "" },
    { "blocked 1 beside surge 20%, the size unknown", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'20%','maxBlockedNodes':'1',"
             "'undrainableNodeBehavior':'Cordon'"), NULL, false, "" },
    { "blocked without a maxSurge in the body", ARM_POOL, 0, "{}",
      ARM_US("'maxBlockedNodes':'1','undrainableNodeBehavior':'Cordon'"),
      NULL, false, "" },
    { "blocked without undrainable", ARM_POOL, 0, "{}",
      ARM_US("'maxSurge':'1','maxBlockedNodes':'2'"), NULL, false,
      "NDP712 refused " A_BLOCKED },
    { "blocked without undrainable in a delta", ARM_POOL, 0,
      ARM_US("'maxSurge':'1'"), ARM_US("'maxSurge':'1','maxBlockedNodes':'2'"),
      NULL, true, "NDP712 may-refuse " A_BLOCKED },
    { "undrainable removed beside blocked in a delta", ARM_POOL, 0,
      ARM_US("'undrainableNodeBehavior':'Cordon'"),
      ARM_US("'maxBlockedNodes':'2'"), NULL, true,
      "NDP712 refused " A_BLOCKED },
    { "undrainable unset beside blocked", ARM_POOL, 0,
      ARM_US("'maxBlockedNodes':'2','undrainableNodeBehavior':'Cordon'"),
      ARM_US("'maxBlockedNodes':'2'"), NULL, false,
      "NDP712 refused " A_BLOCKED },
    { "blocked alone, unchanged", ARM_POOL, 0,
      ARM_P("'tags':{'a':'1'},'upgradeSettings':{'maxSurge':'2',"
            "'maxBlockedNodes':'1'}"),
      ARM_P("'tags':{'a':'2'},'upgradeSettings':{'maxSurge':'2',"
            "'maxBlockedNodes':'1'}"), NULL, false, "" },
    { "azurerm has no maxBlockedNodes", AZ_POOL, 0, "{}",
      "{" US("'max_surge':'2','max_blocked_nodes':'1'") "}", NULL, false,
      "" },
    /* NDP713: a System pool with no node */
    { "azurerm default pool node_count 0", AZ_CLUSTER, 0,
      AZ_DNP("'node_count':3"), AZ_DNP("'node_count':0"), NULL, false,
      "NDP713 refused default_node_pool[0].node_count" },
    { "azurerm default pool node_count 1", AZ_CLUSTER, 0,
      AZ_DNP("'node_count':3"), AZ_DNP("'node_count':1"), NULL, false,
      "" },
    { "azurerm v3 default pool autoscaled, min_count 0", AZ_CLUSTER, 0,
      AZ_DNP("'enable_auto_scaling':true,'min_count':1,'max_count':5,"
             "'node_count':2"),
      AZ_DNP("'enable_auto_scaling':true,'min_count':0,'max_count':5,"
             "'node_count':2"), NULL, false,
      "NDP713 refused default_node_pool[0].min_count" },
    { "azurerm default pool min_count 0 without autoscaling", AZ_CLUSTER, 0,
      AZ_DNP("'auto_scaling_enabled':false,'node_count':2"),
      AZ_DNP("'auto_scaling_enabled':false,'min_count':0,'node_count':2"),
      NULL, false, "" },
    { "azurerm System pool resource node_count 0", AZ_POOL, 0,
      "{'mode':'System','node_count':2}", "{'mode':'System','node_count':0}",
      NULL, false, "NDP713 refused node_count" },
    { "azurerm User pool resource node_count 0", AZ_POOL, 0,
      "{'mode':'User','node_count':2}", "{'mode':'User','node_count':0}",
      NULL, false, "" },
    { "ARM pool made System with count 0", ARM_POOL, 0,
      ARM_P("'mode':'User','count':0"), ARM_P("'mode':'System','count':0"),
      NULL, false, "NDP713 refused properties.count" },
    { "ARM System pool count 0 unchanged, tags changed", ARM_POOL, 0,
      ARM_P("'mode':'System','count':0,'tags':{'a':'1'}"),
      ARM_P("'mode':'System','count':0,'tags':{'a':'2'}"), NULL, false,
      "" },
    { "ARM delta without the mode", ARM_POOL, 0, ARM_P("'count':2"),
      ARM_P("'count':0"), NULL, true, "" },
    /* What the apply sends */
    { "azurerm default pool unchanged: not sent", AZ_CLUSTER, 0,
      "{'tags':{'a':'1'}," "'default_node_pool':[{'name':'sys',"
      US("'max_surge':'1','drain_timeout_in_minutes':3") "}]}",
      "{'tags':{'a':'2'}," "'default_node_pool':[{'name':'sys',"
      US("'max_surge':'1','drain_timeout_in_minutes':3") "}]}", NULL, false,
      "" },
    /* Only what the change sets (issue #40): azurerm sends the whole
     * block again, an ARM body what it sent before */
    { "azurerm default pool sent, drain timeout unchanged", AZ_CLUSTER, 0,
      AZ_DNP("'node_count':2," US("'max_surge':'1',"
                                  "'drain_timeout_in_minutes':3")),
      AZ_DNP("'node_count':3," US("'max_surge':'1',"
                                  "'drain_timeout_in_minutes':3")), NULL,
      false, "" },
    { "azurerm default pool sent, drain timeout set", AZ_CLUSTER, 0,
      AZ_DNP("'node_count':2," US("'max_surge':'1',"
                                  "'drain_timeout_in_minutes':30")),
      AZ_DNP("'node_count':3," US("'max_surge':'1',"
                                  "'drain_timeout_in_minutes':3")), NULL,
      false, "NDP705 refused default_node_pool[0]." DRAIN },
    { "azurerm pool tags only", AZ_POOL, 0,
      "{'tags':{'env':'a'}," US("'max_surge':'0',"
                               "'drain_timeout_in_minutes':2") "}",
      "{'tags':{'env':'b'}," US("'max_surge':'0',"
                               "'drain_timeout_in_minutes':2") "}", NULL,
      false, "" },
    { "azurerm pool replaced: every value is new", AZ_POOL,
      NDP_ACTION_REPLACE,
      "{'vm_size':'a'," US("'max_surge':'0',"
                           "'drain_timeout_in_minutes':2") "}",
      "{'vm_size':'b'," US("'max_surge':'0',"
                           "'drain_timeout_in_minutes':2") "}", NULL,
      false, "NDP705 refused " DRAIN "; NDP703 refused " US_SURGE },
    { "ARM pool tags only", ARM_POOL, 0,
      ARM_P("'tags':{'env':'a'},'mode':'System','upgradeSettings':"
            "{'maxSurge':'0','maxUnavailable':'1',"
            "'drainTimeoutInMinutes':2,'undrainableNodeBehavior':'Evict'}"),
      ARM_P("'tags':{'env':'b'},'mode':'System','upgradeSettings':"
            "{'maxSurge':'0','maxUnavailable':'1',"
            "'drainTimeoutInMinutes':2,'undrainableNodeBehavior':'Evict'}"),
      NULL, false, "" },
    { "ARM pool becomes System beside its maxUnavailable", ARM_POOL, 0,
      ARM_P("'mode':'User','upgradeSettings':{'maxSurge':'0',"
            "'maxUnavailable':'1'}"),
      ARM_P("'mode':'System','upgradeSettings':{'maxSurge':'0',"
            "'maxUnavailable':'1'}"), NULL, false,
      "NDP704 refused " A_UNAVAIL },
    { "ARM maxUnavailable 1->0 beside an unchanged maxSurge 0", ARM_POOL,
      0, ARM_US("'maxSurge':'0','maxUnavailable':'1'"),
      ARM_US("'maxSurge':'0','maxUnavailable':'0'"), NULL, false,
      "NDP703 refused " A_SURGE },
    { "ARM cluster body: only the pool it changes", ARM_CLUSTER, 0,
      "{'properties':{'agentPoolProfiles':[{'name':'a','upgradeSettings':"
      "{'drainTimeoutInMinutes':2}},{'name':'b','upgradeSettings':"
      "{'drainTimeoutInMinutes':30}}]}}",
      "{'properties':{'agentPoolProfiles':[{'name':'a','upgradeSettings':"
      "{'drainTimeoutInMinutes':2}},{'name':'b','upgradeSettings':"
      "{'drainTimeoutInMinutes':3}}]}}", NULL, false,
      "NDP705 refused properties.agentPoolProfiles[name=b]."
      "upgradeSettings.drainTimeoutInMinutes" },
    { "pool created: sent", ARM_POOL, NDP_ACTION_CREATE, NULL,
      ARM_US("'drainTimeoutInMinutes':2"), NULL, false,
      "NDP705 refused properties.upgradeSettings.drainTimeoutInMinutes" },
    { "pool deleted: not sent", ARM_POOL, NDP_ACTION_DELETE,
      ARM_US("'drainTimeoutInMinutes':2"), NULL, NULL, false, "" },
    { "pool read: not sent", AZ_POOL, NDP_ACTION_READ, "{}",
      "{" US("'drain_timeout_in_minutes':2") "}", NULL, false, "" },
    /* NDP504: a rotation without temporary_name_for_rotation */
    { "default pool rotation without a name", AZ_CLUSTER, 0,
      AZ_DNP("'vm_size':'a'"), AZ_DNP("'vm_size':'b'"), NULL, false,
      "NDP504 refused default_node_pool[0].temporary_name_for_rotation" },
    { "default pool rotation with a name", AZ_CLUSTER, 0,
      AZ_DNP("'vm_size':'a'"),
      AZ_DNP("'vm_size':'b','temporary_name_for_rotation':'tmp'"), NULL,
      false, "" },
    { "pool rotation without a name", AZ_POOL, 0, "{'vm_size':'a'}",
      "{'vm_size':'b','temporary_name_for_rotation':''}", NULL, false,
      "NDP504 refused temporary_name_for_rotation" },
    { "pool rotation, the name known after apply", AZ_POOL, 0,
      "{'vm_size':'a'}", "{'vm_size':'b'}",
      "{'temporary_name_for_rotation':true}", false, "" },
    { "pool rotation known after apply", AZ_POOL, 0, "{'vm_size':'a'}",
      "{}", "{'vm_size':true}", false,
      "NDP504 may-refuse temporary_name_for_rotation" },
    { "pool created: no rotation", AZ_POOL, NDP_ACTION_CREATE, NULL,
      "{'vm_size':'b'}", NULL, false, "" },
};

static void checks__refused_upgrade_settings_and_rotations(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(check_rows); i++) {
        struct run r = { 0 };
        char *got;

        check_change(&r, &check_rows[i]);
        evaluate(&r, AT, -1);
        got = check_findings(&r);
        if (strcmp(got, check_rows[i].want) != 0) {
            print_error("case '%s':\n  got  '%s'\n  want '%s'\n",
                        check_rows[i].name, got, check_rows[i].want);
            failures++;
        }
        free(got);
        release(&r);
    }
    assert_int_equal(failures, 0);
}

/* ---- several changes of one cluster, with live state ---------------- */

struct multi_change {
    enum check_shape shape;
    enum ndp_action action;     /* NOOP: an update */
    const char *name;           /* the pool's (a pool resource) */
    const char *before, *after;
};

struct multi_row {
    const char *name;
    struct multi_change changes[3]; /* up to the first with no 'after'
                                       and no 'before' */
    const char *state;              /* 'az aks show' of CLUSTER_ID, or NULL */
    const char *want;               /* as check_findings() writes them */
};

static void multi_change(struct run *r, const struct multi_change *mc)
{
    struct check_row row = { "", mc->shape, mc->action, mc->before,
                             mc->after, NULL, false, NULL };
    struct ndp_change *c = check_change(r, &row);

    if (mc->name && (mc->shape == AZ_POOL || mc->shape == ARM_POOL)) {
        free(c->name);
        c->name = ndp_xstrdup(mc->name);
        free(c->address);
        c->address = ndp_xstrdup(mc->name);
    }
}

/* Judges the changes of 'row' with its live state, as evaluate() does. */
static void evaluate_multi(struct run *r, const struct multi_row *row)
{
    struct ndp_states states = NDP_STATES_INIT;
    struct ndp_eval_options opt;
    struct ndp_error err = NDP_ERROR_INIT;
    size_t i;

    memset(&opt, 0, sizeof(opt));
    assert_int_equal(ndp_time_parse_rfc3339(&opt.at, AT), 0);
    for (i = 0; i < NDP_ARRAY_SIZE(row->changes) &&
                (row->changes[i].before || row->changes[i].after); i++)
        multi_change(r, &row->changes[i]);
    if (row->state) {
        char *path = test_write_json("state.json", row->state);
        if (ndp_state_read(&states, path, 1 << 20, &err) != 0)
            fail_msg("state: %s", err.msg);
        free(path);
        opt.states = &states;
    }
    ndp_facts_fill_all(&r->result.set, 0);
    ndp_result_judge(&r->result, test_ruleset, &opt);
    ndp_findings_sort(&r->result.findings);
    ndp_states_release(&states);
}

#define STATE_POOLS(pools) \
    "{'id':'" CLUSTER_ID "','name':'aks','kubernetesVersion':'1.34.2'," \
    "'agentPoolProfiles':[" pools "]}"
#define LIVE(name, mode, extra) \
    "{'name':'" name "','mode':'" mode "','count':3" extra "}"

static const struct multi_row multi_rows[] = {
    /* NDP714: no System pool left (PT-UPG-08) */
    { "System pool made User, the other live pool User",
      { { ARM_POOL, 0, "sys", ARM_P("'mode':'System'"),
          ARM_P("'mode':'User'") } },
      STATE_POOLS(LIVE("sys", "System", "") "," LIVE("apps", "User", "")),
      "NDP714 refused properties.mode" },
    { "System pool made User, another live pool System",
      { { ARM_POOL, 0, "sys", ARM_P("'mode':'System'"),
          ARM_P("'mode':'User'") } },
      STATE_POOLS(LIVE("sys", "System", "") "," LIVE("sys2", "System", "")),
      "" },
    { "System pool made User, no live state: the pools not known",
      { { ARM_POOL, 0, "sys", ARM_P("'mode':'System'"),
          ARM_P("'mode':'User'") } }, NULL, "" },
    { "System pool made User, another made System in the same apply",
      { { ARM_POOL, 0, "sys", ARM_P("'mode':'System'"),
          ARM_P("'mode':'User'") },
        { ARM_POOL, 0, "apps", ARM_P("'mode':'User'"),
          ARM_P("'mode':'System'") } },
      STATE_POOLS(LIVE("sys", "System", "") "," LIVE("apps", "User", "")),
      "" },
    { "azurerm System pool resource deleted, the live default pool User",
      { { AZ_POOL, NDP_ACTION_DELETE, "sys2", "{'mode':'System'}", NULL } },
      STATE_POOLS(LIVE("sys2", "System", "") "," LIVE("apps", "User", "")),
      "NDP714 refused mode" },
    { "azurerm System pool resource deleted beside the default pool",
      { { AZ_POOL, NDP_ACTION_DELETE, "sys2", "{'mode':'System'}", NULL },
        { AZ_CLUSTER, 0, NULL, AZ_DNP("'node_count':3"),
          AZ_DNP("'node_count':4") } },
      STATE_POOLS(LIVE("sys2", "System", "") "," LIVE("sys", "User", "")),
      "" },
    { "a pool whose mode live state does not say may be System",
      { { ARM_POOL, 0, "sys", ARM_P("'mode':'System'"),
          ARM_P("'mode':'User'") } },
      STATE_POOLS(LIVE("sys", "System", "") ",{'name':'other','count':1}"),
      "" },
    { "a setter body without the mode: live state's stands",
      { { ARM_POOL, 0, "sys", ARM_P("'tags':{'a':'1'}"),
          ARM_P("'tags':{'a':'2'}") } },
      STATE_POOLS(LIVE("sys", "System", "") "," LIVE("apps", "User", "")),
      "" },
    { "a cluster body created with User pools only",
      { { ARM_CLUSTER, NDP_ACTION_CREATE, NULL, NULL,
          "{'properties':{'agentPoolProfiles':[{'name':'a','mode':'User',"
          "'count':2}]}}" } }, NULL,
      "NDP714 refused properties.agentPoolProfiles[name=a].mode" },
    { "a cluster body created with a System pool",
      { { ARM_CLUSTER, NDP_ACTION_CREATE, NULL, NULL,
          "{'properties':{'agentPoolProfiles':[{'name':'a','mode':'User',"
          "'count':2},{'name':'s','mode':'System','count':1}]}}" } }, NULL,
      "" },
    { "a cluster body created with a pool whose mode is an expression",
      { { ARM_CLUSTER, NDP_ACTION_CREATE, NULL, NULL,
          "{'properties':{'agentPoolProfiles':[{'name':'a','mode':'User',"
          "'count':2},{'name':'s','mode':'[parameters(\\'mode\\')]',"
          "'count':1}]}}" } }, NULL, "" },
    { "a System pool made an expression: maybe still System",
      { { ARM_POOL, 0, "sys", ARM_P("'mode':'System'"),
          ARM_P("'mode':'[parameters(\\'mode\\')]'") } },
      STATE_POOLS(LIVE("sys", "System", "") "," LIVE("apps", "User", "")),
      "" },
    { "a cluster created from a pool list that is an expression",
      { { ARM_CLUSTER, NDP_ACTION_CREATE, NULL, NULL,
          "{'properties':{'agentPoolProfiles':'[variables(\\'pools\\')]'}}" },
        { ARM_POOL, NDP_ACTION_CREATE, "user", NULL,
          ARM_P("'mode':'User','count':2") } }, NULL, "" },
    { "a cluster body created with a pool of no mode",
      { { ARM_CLUSTER, NDP_ACTION_CREATE, NULL, NULL,
          "{'properties':{'agentPoolProfiles':[{'name':'a','mode':'User',"
          "'count':2},{'name':'s','count':1}]}}" } }, NULL, "" },
    { "a cluster body that drops its System pool",
      { { ARM_CLUSTER, 0, NULL,
          "{'properties':{'agentPoolProfiles':[{'name':'a','mode':'User'},"
          "{'name':'s','mode':'System'}]}}",
          "{'properties':{'agentPoolProfiles':[{'name':'a',"
          "'mode':'User'}]}}" } },
      STATE_POOLS(LIVE("a", "User", "") "," LIVE("s", "System", "")),
      "NDP714 refused properties.agentPoolProfiles[name=s].mode" },
    { "a cluster created without a System pool: live state is gone",
      { { ARM_CLUSTER, NDP_ACTION_CREATE, NULL, NULL,
          "{'properties':{'agentPoolProfiles':[{'name':'a','mode':'User',"
          "'count':2}]}}" } },
      STATE_POOLS(LIVE("s", "System", "") "," LIVE("a", "User", "")),
      "NDP714 refused properties.agentPoolProfiles[name=a].mode" },
    { "a cluster replaced without a System pool: live state is gone",
      { { ARM_CLUSTER, NDP_ACTION_REPLACE, NULL,
          "{'properties':{'agentPoolProfiles':[{'name':'s',"
          "'mode':'System'}]}}",
          "{'properties':{'agentPoolProfiles':[{'name':'a','mode':'User',"
          "'count':2}]}}" } },
      STATE_POOLS(LIVE("s", "System", "") "," LIVE("b", "System", "")),
      "NDP714 refused properties.agentPoolProfiles[name=s].mode" },
    /* NDP505: a rotation through the name of another pool (PT-ROT-04) */
    { "default pool rotates through a pool resource's name",
      { { AZ_CLUSTER, 0, NULL, AZ_DNP("'vm_size':'a'"),
          AZ_DNP("'vm_size':'b','temporary_name_for_rotation':'apps'") },
        { AZ_POOL, 0, "apps", "{'mode':'User'}", "{'mode':'User'}" } },
      NULL, "NDP505 refused default_node_pool[0].temporary_name_for_rotation" },
    { "a pool rotates through a name only live state has",
      { { AZ_POOL, 0, "user", "{'vm_size':'a'}",
          "{'vm_size':'b','temporary_name_for_rotation':'batch'}" } },
      STATE_POOLS(LIVE("user", "User", "") "," LIVE("batch", "User", "")),
      "NDP505 refused temporary_name_for_rotation" },
    { "a pool rotates through a free name",
      { { AZ_POOL, 0, "user", "{'vm_size':'a'}",
          "{'vm_size':'b','temporary_name_for_rotation':'usertmp'}" } },
      STATE_POOLS(LIVE("user", "User", "") "," LIVE("batch", "User", "")),
      "" },
    { "a pool that is deleted frees its name",
      { { AZ_CLUSTER, 0, NULL, AZ_DNP("'vm_size':'a'"),
          AZ_DNP("'vm_size':'b','temporary_name_for_rotation':'old'") },
        { AZ_POOL, NDP_ACTION_DELETE, "old", "{'mode':'User'}", NULL } },
      STATE_POOLS(LIVE("sys", "System", "") "," LIVE("old", "User", "")),
      "" },
    { "a cluster deleted with its pools",
      { { ARM_CLUSTER, NDP_ACTION_DELETE, NULL,
          "{'properties':{'agentPoolProfiles':[{'name':'s',"
          "'mode':'System'}]}}", NULL } },
      STATE_POOLS(LIVE("s", "System", "")), "" },
    /* NDP715: pool and surge nodes above 1000 at an upgrade (PT-UPG-01) */
    { "azurerm pool upgrade, 950 nodes and 10%",
      { { AZ_POOL, 0, "big",
          "{'orchestrator_version':'1.33.1','node_count':950,"
          US("'max_surge':'10%'") "}",
          "{'orchestrator_version':'1.34.2','node_count':950,"
          US("'max_surge':'10%'") "}" } }, NULL,
      "NDP715 refused " US_SURGE },
    { "azurerm pool upgrade, 950 nodes and 50 surge nodes",
      { { AZ_POOL, 0, "big",
          "{'orchestrator_version':'1.33.1','node_count':950,"
          US("'max_surge':'50'") "}",
          "{'orchestrator_version':'1.34.2','node_count':950,"
          US("'max_surge':'50'") "}" } }, NULL, "" },
    { "azurerm pool sets maxSurge 10% on 950 nodes, no upgrade",
      { { AZ_POOL, 0, "big",
          "{'orchestrator_version':'1.34.2','node_count':950,"
          US("'max_surge':'1'") "}",
          "{'orchestrator_version':'1.34.2','node_count':950,"
          US("'max_surge':'10%'") "}" } }, NULL, "" },
    { "ARM pool node image upgrade, the count from live state",
      { { ARM_POOL, 0, "big",
          ARM_P("'nodeImageVersion':'AKSUbuntu-2204-202610.01.0'"),
          ARM_P("'nodeImageVersion':'AKSUbuntu-2204-202611.02.0'") } },
      STATE_POOLS("{'name':'big','mode':'User','count':1000,"
                  "'upgradeSettings':{'maxSurge':'1'}}"),
      "NDP715 refused properties.nodeImageVersion" },
    { "ARM pool upgrade with maxUnavailable: no surge node",
      { { ARM_POOL, 0, "big",
          ARM_P("'orchestratorVersion':'1.33.1','count':1000,"
                "'upgradeSettings':{'maxSurge':'0','maxUnavailable':'5%'}"),
          ARM_P("'orchestratorVersion':'1.34.2','count':1000,"
                "'upgradeSettings':{'maxSurge':'0',"
                "'maxUnavailable':'5%'}") } }, NULL, "" },
    { "ARM pool upgrade, default surge unknown: 1 assumed",
      { { ARM_POOL, 0, "big",
          ARM_P("'orchestratorVersion':'latest','count':999"),
          ARM_P("'orchestratorVersion':'next','count':999") } }, NULL, "" },
    { "ARM pool upgrade to 1.34, default surge 10%",
      { { ARM_POOL, 0, "big",
          ARM_P("'orchestratorVersion':'1.33.1','count':920"),
          ARM_P("'orchestratorVersion':'1.34.2','count':920") } }, NULL,
      "NDP715 refused properties.orchestratorVersion" },
    { "ARM cluster body upgrade rolls the pools it does not pin",
      { { ARM_CLUSTER, 0, NULL,
          "{'properties':{'kubernetesVersion':'1.33.1','agentPoolProfiles':"
          "[{'name':'a','count':990,'upgradeSettings':{'maxSurge':'20'}}]}}",
          "{'properties':{'kubernetesVersion':'1.34.2','agentPoolProfiles':"
          "[{'name':'a','count':990,'upgradeSettings':"
          "{'maxSurge':'20'}}]}}" } }, NULL,
      "NDP715 refused properties.agentPoolProfiles[name=a]."
      "upgradeSettings.maxSurge" },
    { "an unpinned pool moves with the control plane to its default surge",
      { { ARM_CLUSTER, 0, NULL,
          "{'properties':{'kubernetesVersion':'1.32.5','agentPoolProfiles':"
          "[{'name':'a','count':995}]}}",
          "{'properties':{'kubernetesVersion':'1.33','agentPoolProfiles':"
          "[{'name':'a','count':995}]}}" } }, NULL,
      "NDP715 refused properties.kubernetesVersion" },
    { "azurerm control-plane-only upgrade rolls no pool",
      { { AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.33','default_node_pool':[{'name':'sys',"
          "'node_count':1000," US("'max_surge':'10%'") "}]}",
          "{'kubernetes_version':'1.34','default_node_pool':[{'name':'sys',"
          "'node_count':1000," US("'max_surge':'10%'") "}]}" } }, NULL,
      "" },
};

static void checks__system_pools_and_upgrade_size(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(multi_rows); i++) {
        struct run r = { 0 };
        char *got;

        evaluate_multi(&r, &multi_rows[i]);
        got = check_findings(&r);
        if (strcmp(got, multi_rows[i].want) != 0) {
            print_error("case '%s':\n  got  '%s'\n  want '%s'\n",
                        multi_rows[i].name, got, multi_rows[i].want);
            failures++;
        }
        free(got);
        release(&r);
    }
    assert_int_equal(failures, 0);
}

/* Messages quote the value and say how sure the reading is. */
static void checks__messages_quote_and_qualify(void **state)
{
    static const struct {
        struct check_row row;
        const char *id, *words[3];
    } rows[] = {
        { { "", AZ_CLUSTER, 0, AZ_DNP(US("'max_surge':'1'")),
            AZ_DNP(US("'max_surge':'0'")), NULL, false, NULL },
          "NDP703", { "max_surge '0' of node pool 'sys'", "(inferred",
                      "error code unconfirmed" } },
        { { "", ARM_POOL, 0, "{}", ARM_US("'maxSurge':'150%'"), NULL, false,
            NULL },
          "NDP702", { "maxSurge '150%'", "unconfirmed", "'100%'" } },
        { { "", AZ_CLUSTER, 0, AZ_DNP(US("'max_surge':'1'")),
            AZ_DNP(US("'max_surge':'0%'")), NULL, false, NULL },
          "NDP702", { "max_surge '0%' of node pool 'sys' is below 1%",
                      "beside a maxUnavailable above 0", "'1%' or more" } },
        { { "", ARM_POOL, 0, "{}",
            ARM_US("'maxSurge':'2','maxUnavailable':'1'"), NULL, false,
            NULL },
          "NDP710", { "maxSurge '2' and maxUnavailable '1' of node pool "
                      "'np' are both above 0", "unconfirmed",
                      "set maxSurge to '0'" } },
        { { "", ARM_POOL, 0, "{}",
            ARM_P("'count':10,'upgradeSettings':{'maxSurge':'30%',"
                  "'maxBlockedNodes':'2','undrainableNodeBehavior':"
                  "'Cordon'}"), NULL, false, NULL },
          "NDP711", { "maxBlockedNodes '2' of node pool 'np' (2 of its 10 "
                      "nodes) is below its maxSurge '30%' (3 nodes)",
                      "error code unconfirmed",
                      "set maxBlockedNodes to at least '30%'" } },
        { { "", ARM_POOL, 0, "{}", ARM_US("'maxBlockedNodes':'2'"), NULL,
            false, NULL },
          "NDP712", { "maxBlockedNodes '2' of node pool 'np' is sent "
                      "without undrainableNodeBehavior", "preview",
                      "set undrainableNodeBehavior to Schedule or Cordon" } },
        { { "", ARM_POOL, 0, "{}",
            ARM_US("'undrainableNodeBehavior':'Evict'"), NULL, false, NULL },
          "NDP707", { "Schedule (the default: AKS deletes a node it cannot "
                      "drain and surges a replacement)",
                      "Cordon (AKS labels the node kubernetes.azure.com/"
                      "upgrade-status=Quarantined)",
                      "ends the operation Failed or Canceled" } },
        { { "", AZ_POOL, 0, "{}",
            "{'mode':'System'," US("'max_unavailable':'1'") "}", NULL, false,
            NULL },
          "NDP704", { "max_unavailable '1' on System node pool 'np'",
                      "inferred", "User pool" } },
        { { "", AZ_CLUSTER, 0,
            "{'kubernetes_version':'1.36'," "'default_node_pool':"
            "[{'name':'sys','vm_size':'a'}]}",
            "{'kubernetes_version':'1.37'," "'default_node_pool':"
            "[{'name':'sys','vm_size':'b'}]}", NULL, false, NULL },
          "NDP504", { "default_node_pool[0].vm_size makes azurerm rotate "
                      "node pool 'sys'", "control plane may already have "
                      "been updated", "kubernetes_version upgrade" } },
        { { "", AZ_POOL, 0, "{'vm_size':'a'}", "{'vm_size':'b'}", NULL,
            false, NULL },
          "NDP504", { "before it sends anything", "vm_size makes",
                      "temporary_name_for_rotation" } },
    };
    size_t i, k;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct run r = { 0 };
        const struct ndp_finding *f;

        check_change(&r, &rows[i].row);
        evaluate(&r, AT, -1);
        f = only(&r, rows[i].id);
        for (k = 0; k < 3; k++)
            if (!strstr(f->message, rows[i].words[k]))
                fail_msg("%s: '%s' not in '%s'", rows[i].id,
                         rows[i].words[k], f->message);
        release(&r);
    }
}

/* Under a sensitive mask a finding names no value and no pool. */
static void checks__sensitive_values_never_printed(void **state)
{
    struct run r = { 0 };
    struct ndp_change *c;
    const struct ndp_finding *f;

    (void)state;
    c = add(&r, NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL,
            "azurerm_kubernetes_cluster_node_pool",
            "azurerm_kubernetes_cluster_node_pool.np", "{}",
            "{" US("'max_surge':'CANARY%','drain_timeout_in_minutes':3") "}");
    c->name = ndp_xstrdup("CANARYPOOL");
    c->parent_id = ndp_xstrdup(CLUSTER_ID);
    c->after_sensitive = test_json("{'upgrade_settings':true}");
    evaluate(&r, AT, -1);
    f = only(&r, "NDP701");
    assert_null(strstr(f->message, "CANARY"));
    assert_string_equal(f->after, "\"(sensitive)\"");
    assert_null(f->pool);
    f = only(&r, "NDP705");
    assert_null(strstr(f->message, "CANARY"));
    assert_non_null(strstr(f->message, "drain_timeout_in_minutes "
                                       "(sensitive) is outside"));
    assert_string_equal(f->after, "\"(sensitive)\"");
    release(&r);

    /* A System pool's count under a mask: NDP713 names neither. */
    memset(&r, 0, sizeof(r));
    c = add(&r, NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL,
            "azurerm_kubernetes_cluster_node_pool",
            "azurerm_kubernetes_cluster_node_pool.np",
            "{'mode':'System','node_count':3}",
            "{'mode':'System','node_count':0}");
    c->name = ndp_xstrdup("CANARYPOOL");
    c->parent_id = ndp_xstrdup(CLUSTER_ID);
    c->after_sensitive = test_json("{'node_count':true}");
    evaluate(&r, AT, -1);
    f = only(&r, "NDP713");
    assert_null(strstr(f->message, "CANARY"));
    assert_non_null(strstr(f->message, "node_count (sensitive) of System "
                                       "node pool is outside"));
    assert_string_equal(f->after, "\"(sensitive)\"");
    assert_null(f->pool);
    release(&r);
}

/*
 * PT-CAP-02: under Azure CNI without overlay a subnet of the input holds
 * (nodes + surge) x (1 + maxPods) or the change is refused; exactly as
 * many passes.  Under Azure CNI Overlay and kubenet it holds nodes +
 * surge; one address to spare passes.  No plugin AKS places the pods of
 * ("none"): no check.
 */
static void checks__subnet_room_at_its_limit(void **state)
{
    static const struct {
        const char *plugin, *mode;
        long usable;
        bool refused;
        const char *words;
    } rows[] = {
        { "azure", "null", 20, false, NULL },
        { "azure", "null", 19, true, "at least 20 addresses" },
        { "azure", "'overlay'", 3, false, NULL },
        { "azure", "'overlay'", 2, false, NULL },
        { "azure", "'overlay'", 1, true, "at least 2 addresses under Azure "
          "CNI Overlay or kubenet" },
        { "kubenet", "null", 2, false, NULL },
        { "kubenet", "null", 1, true, "nodes + surge" },
        { "none", "null", 1, false, NULL },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct run r = { 0 };
        struct ndp_subnet *sn;
        char doc[2][512];
        size_t k, n = 0;

        /* 1 node + 1 surge node, 9 pods each: 20 addresses. */
        for (k = 0; k < 2; k++)
            snprintf(doc[k], sizeof(doc[k]),
                     "{'network_profile':[{'network_plugin':'%s',"
                     "'network_plugin_mode':%s,'network_policy':'%s'}],"
                     "'default_node_pool':[{'name':'sys','node_count':1,"
                     "'max_pods':9,'vnet_subnet_id':'/s/a',"
                     "'upgrade_settings':[{'max_surge':'1'}]}]}",
                     rows[i].plugin, rows[i].mode, k ? "azure" : "");
        azurerm_cluster(&r, doc[0], doc[1]);
        sn = ndp_changeset_add_subnet(&r.result.set);
        sn->id = ndp_xstrdup("/s/a");
        sn->address = ndp_xstrdup("azurerm_subnet.a");
        sn->prefixes = ndp_xstrdup("10.0.0.0/27");
        sn->usable = rows[i].usable;
        evaluate(&r, AT, -1);
        for (k = 0; k < r.result.findings.nr; k++)
            n += strcmp(r.result.findings.items[k].rule_id, "NDP709") == 0;
        if (n != (rows[i].refused ? 1 : 0))
            fail_msg("row %zu: %zu NDP709 findings", i, n);
        if (rows[i].refused) {
            const struct ndp_finding *f = only(&r, "NDP709");
            assert_int_equal(f->verdict, NDP_VERDICT_REFUSED);
            assert_non_null(strstr(f->message, rows[i].words));
            assert_non_null(strstr(f->message, "InsufficientSubnetSize"));
        }
        release(&r);
    }
}

/* 1 node, 9 pods, surge 1 on /s/a: 10 addresses, 10 more at its surge. */
#define PHASED_POOL(version) \
    "'node_count':1,'max_pods':9,'vnet_subnet_id':'/s/a'," \
    "'orchestrator_version':'" version "'," US("'max_surge':'1'")

/* An azurerm pool resource 'name' of the cluster, upgraded or not. */
static void phased_pool(struct run *r, const char *name, bool upgraded)
{
    char address[96], before[256], after[256];
    struct ndp_change *c;

    snprintf(address, sizeof(address),
             "azurerm_kubernetes_cluster_node_pool.%s", name);
    snprintf(before, sizeof(before), "{'name':'%s'," PHASED_POOL("1.32.7")
             "}", name);
    snprintf(after, sizeof(after), "{'name':'%s',%s}", name,
             upgraded ? PHASED_POOL("1.33.3") : PHASED_POOL("1.32.7"));
    c = add(r, NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL,
            "azurerm_kubernetes_cluster_node_pool", address, before, after);
    c->name = ndp_xstrdup(name);
    c->parent_id = ndp_xstrdup(CLUSTER_ID);
}

/*
 * PT-CAP-02 with PT-K8S-06: the default pool is upgraded inside the
 * cluster's update, its pool resources after it, together.  A subnet of
 * 3 such pools (30 addresses) holds the larger phase (+10, or +20), not
 * the sum of both (+30); the finding and the impact say which phase.
 */
static void checks__subnet_peak_is_the_larger_phase(void **state)
{
    static const struct {
        bool cluster, pools;
        long usable;
        const char *need, *extra;
    } rows[] = {
        { true, true, 50, NULL,
          "up to 2 extra nodes at the peak, while the node pool resources "
          "are updated, in parallel, after the cluster (in the cluster's "
          "own update: up to 1)" },
        { true, true, 49,
          "at least 50 addresses under Azure CNI, (nodes + surge) \xc3\x97 "
          "(1 + maxPods), at the peak of this apply (while the node pool "
          "resources are updated, in parallel, after the cluster), more "
          "than the 49 usable addresses", NULL },
        { true, false, 39,
          "at least 40 addresses under Azure CNI, (nodes + surge) \xc3\x97 "
          "(1 + maxPods), at the peak of this apply (in the cluster's own "
          "update), more than the 39 usable addresses",
          "up to 1 extra node at the peak;" },
        { false, true, 50, NULL,
          "up to 2 extra nodes at the peak (these pools together, while the "
          "node pool resources are updated, in parallel, after the "
          "cluster)" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct run r = { 0 };
        struct ndp_subnet *sn;
        size_t k, n = 0;

        azurerm_cluster(&r,
                        "{'kubernetes_version':'1.33.3','network_profile':"
                        "[{'network_plugin':'azure'}],'default_node_pool':"
                        "[{'name':'sys'," PHASED_POOL("1.32.7") "}]}",
                        rows[i].cluster
                            ? "{'kubernetes_version':'1.33.3',"
                              "'network_profile':[{'network_plugin':'azure'}],"
                              "'default_node_pool':[{'name':'sys',"
                              PHASED_POOL("1.33.3") "}]}"
                            : "{'kubernetes_version':'1.33.3',"
                              "'network_profile':[{'network_plugin':'azure'}],"
                              "'default_node_pool':[{'name':'sys',"
                              PHASED_POOL("1.32.7") "}]}");
        phased_pool(&r, "p1", rows[i].pools);
        phased_pool(&r, "p2", rows[i].pools);
        sn = ndp_changeset_add_subnet(&r.result.set);
        sn->id = ndp_xstrdup("/s/a");
        sn->address = ndp_xstrdup("azurerm_subnet.a");
        sn->prefixes = ndp_xstrdup("10.0.0.0/26");
        sn->usable = rows[i].usable;
        evaluate(&r, AT, -1);
        for (k = 0; k < r.result.findings.nr; k++)
            n += strcmp(r.result.findings.items[k].rule_id, "NDP709") == 0;
        if (n != (rows[i].need ? 1 : 0))
            fail_msg("row %zu: %zu NDP709 findings", i, n);
        if (rows[i].need && !strstr(only(&r, "NDP709")->message,
                                    rows[i].need))
            fail_msg("row %zu: '%s' not in '%s'", i, rows[i].need,
                     only(&r, "NDP709")->message);
        if (rows[i].extra && (!r.impact_text ||
                              !strstr(r.impact_text, rows[i].extra)))
            fail_msg("row %zu: '%s' not in '%s'", i, rows[i].extra,
                     r.impact_text ? r.impact_text : "(no impact)");
        release(&r);
    }
}

/* ---- PT-MW-05: a startDate already past -------------------------------- */

#define PAST "2026-11-30"
#define SOON "2026-12-10"

/* An azurerm maintenance window block with 'date' (NULL: none). */
static void azurerm_block(char *out, size_t size, const char *key,
                          const char *date, int duration)
{
    char start[64] = "";

    if (date)
        snprintf(start, sizeof(start), ",'start_date':'%sT00:00:00Z'", date);
    snprintf(out, size, "'%s':[{'frequency':'Weekly','interval':1,"
             "'day_of_week':'Sunday','duration':%d,'start_time':'02:00',"
             "'utc_offset':'+00:00'%s}]", key, duration, start);
}

/* An ARM maintenance configuration body with 'date' (NULL: none). */
static void arm_body(char *out, size_t size, const char *date, int duration)
{
    char start[48] = "";

    if (date)
        snprintf(start, sizeof(start), ",'startDate':'%s'", date);
    snprintf(out, size, "{'properties':{'maintenanceWindow':{'schedule':"
             "{'weekly':{'intervalWeeks':1,'dayOfWeek':'Sunday'}},"
             "'durationHours':%d,'startTime':'02:00','utcOffset':'+00:00'%s}}}",
             duration, start);
}

enum mw_shape { MW_AZURERM, MW_AZAPI, MW_SETTER, MW_WHATIF };

static const struct mw_row {
    const char *name;
    enum mw_shape shape;
    const char *config;         /* an ARM name, or an azurerm block key */
    enum ndp_action action;     /* NOOP: an update */
    const char *before, *after; /* start dates; "-": no window before */
    int duration_before;        /* a second change beside the date */
    const char *want;           /* "ID verdict", or "" */
} mw_rows[] = {
    /* azurerm: a block it adds is a configuration it creates */
    { "azurerm block added, date past: may-refuse", MW_AZURERM,
      "maintenance_window_auto_upgrade", NDP_ACTION_NOOP, "-", PAST, 4,
      "NDP802 may-refuse" },
    { "azurerm block added, date ahead (near-miss)", MW_AZURERM,
      "maintenance_window_auto_upgrade", NDP_ACTION_NOOP, "-", SOON, 4, "" },
    { "azurerm cluster created, date past: may-refuse", MW_AZURERM,
      "maintenance_window_auto_upgrade", NDP_ACTION_CREATE, "-", PAST, 4,
      "NDP802 may-refuse" },
    { "azurerm date changed to the past: refused", MW_AZURERM,
      "maintenance_window_auto_upgrade", NDP_ACTION_NOOP, SOON, PAST, 4,
      "NDP802 refused" },
    { "azurerm past date unchanged, duration changed (near-miss)",
      MW_AZURERM, "maintenance_window_auto_upgrade", NDP_ACTION_NOOP, PAST,
      PAST, 5, "" },
    { "azurerm node OS block added, date past: warning", MW_AZURERM,
      "maintenance_window_node_os", NDP_ACTION_NOOP, "-", PAST, 4,
      "NDP002 window-invalid" },
    { "azurerm node OS date changed to the past: refused", MW_AZURERM,
      "maintenance_window_node_os", NDP_ACTION_NOOP, SOON, PAST, 4,
      "NDP002 refused" },
    { "azurerm node OS past date unchanged (near-miss)", MW_AZURERM,
      "maintenance_window_node_os", NDP_ACTION_NOOP, PAST, PAST, 5, "" },
    /* azapi_resource: created, replaced, or its whole body sent again */
    { "azapi created, date past: may-refuse", MW_AZAPI,
      "aksManagedAutoUpgradeSchedule", NDP_ACTION_CREATE, "-", PAST, 4,
      "NDP802 may-refuse" },
    { "azapi created, date today (near-miss)", MW_AZAPI,
      "aksManagedAutoUpgradeSchedule", NDP_ACTION_CREATE, "-",
      "2026-12-05", 4, "" },
    { "azapi replaced, date past: may-refuse", MW_AZAPI, "default",
      NDP_ACTION_REPLACE, PAST, PAST, 5, "NDP802 may-refuse" },
    { "azapi date changed to the past: refused", MW_AZAPI,
      "aksManagedAutoUpgradeSchedule", NDP_ACTION_NOOP, SOON, PAST, 4,
      "NDP802 refused" },
    { "azapi past date sent again in the whole body: refused", MW_AZAPI,
      "aksManagedAutoUpgradeSchedule", NDP_ACTION_NOOP, PAST, PAST, 5,
      "NDP802 refused" },
    { "azapi node OS window created, date past: warning", MW_AZAPI,
      "aksManagedNodeOSUpgradeSchedule", NDP_ACTION_CREATE, "-", PAST, 4,
      "NDP002 window-invalid" },
    { "azapi node OS date changed to the past: refused", MW_AZAPI,
      "aksManagedNodeOSUpgradeSchedule", NDP_ACTION_NOOP, SOON, PAST, 4,
      "NDP002 refused" },
    /* azapi_update_resource: its first apply updates what exists */
    { "azapi setter's first apply, date past: refused", MW_SETTER,
      "aksManagedAutoUpgradeSchedule", NDP_ACTION_CREATE, "-", PAST, 4,
      "NDP802 refused" },
    /* what-if: Create, and a Modify that shows the date changing */
    { "what-if Create, date past: may-refuse", MW_WHATIF,
      "aksManagedAutoUpgradeSchedule", NDP_ACTION_CREATE, "-", PAST, 4,
      "NDP802 may-refuse" },
    { "what-if Modify to a past date: refused", MW_WHATIF,
      "aksManagedAutoUpgradeSchedule", NDP_ACTION_NOOP, SOON, PAST, 4,
      "NDP802 refused" },
    { "what-if Modify, past date unchanged (near-miss)", MW_WHATIF,
      "aksManagedAutoUpgradeSchedule", NDP_ACTION_NOOP, PAST, PAST, 5, "" },
};

/* The change of row 'row', added to 'r'. */
static void mw_change(struct run *r, const struct mw_row *row)
{
    bool added = strcmp(row->before, "-") == 0;
    char b[512], a[512], wb[320], wa[320];
    struct ndp_change *c;

    if (row->shape == MW_AZURERM) {
        azurerm_block(wb, sizeof(wb), row->config, row->before,
                      row->duration_before);
        azurerm_block(wa, sizeof(wa), row->config, row->after, 4);
        snprintf(b, sizeof(b), "{'kubernetes_version':'1.33'%s%s}",
                 added ? "" : ",", added ? "" : wb);
        snprintf(a, sizeof(a), "{'kubernetes_version':'1.33',%s}", wa);
        c = azurerm_cluster(r, row->action == NDP_ACTION_CREATE ? NULL : b,
                            a);
    } else {
        char address[200];
        arm_body(b, sizeof(b), row->before, row->duration_before);
        arm_body(a, sizeof(a), row->after, 4);
        if (row->shape == MW_WHATIF)
            snprintf(address, sizeof(address), "%s/maintenanceConfigurations/"
                     "%s", CLUSTER_ID, row->config);
        else
            snprintf(address, sizeof(address), "%s.mw",
                     row->shape == MW_SETTER ? "azapi_update_resource"
                                             : "azapi_resource");
        c = add(r, NDP_NOTATION_ARM, NDP_KIND_MAINTENANCE,
                "Microsoft.ContainerService/managedClusters/"
                "maintenanceConfigurations", address, added ? NULL : b, a);
        c->name = ndp_xstrdup(row->config);
        c->parent_id = ndp_xstrdup(CLUSTER_ID);
        c->setter = row->shape == MW_SETTER;
    }
    if (row->action != NDP_ACTION_NOOP)
        c->action = row->action;
}

/* The findings of rules NDP002 and NDP80x as the rows write them. */
static char *mw_findings(const struct run *r)
{
    struct ndp_buf b = NDP_BUF_INIT;
    size_t i;

    for (i = 0; i < r->result.findings.nr; i++) {
        const struct ndp_finding *f = &r->result.findings.items[i];
        if (strcmp(f->rule_id, "NDP002") != 0 &&
            strncmp(f->rule_id, "NDP80", 5) != 0)
            continue;
        ndp_buf_addf(&b, "%s%s %s", b.len ? "; " : "", f->rule_id,
                     ndp_verdict_name(f->verdict));
    }
    return ndp_buf_detach(&b);
}

/*
 * PT-MW-05: a startDate already past is refused when the PUT updates a
 * configuration with it (azurerm sends it only when it changes, azapi
 * with every body, what-if when it shows it changing), and may-refuse
 * ("unconfirmed") when the PUT creates the configuration; an unchanged
 * one azurerm and what-if do not send says nothing.  The same for the
 * node OS window (NDP002: refused, or the window-invalid warning).
 */
static void maintenance__past_start_date_by_create_or_update(void **state)
{
    size_t i, failures = 0;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(mw_rows); i++) {
        struct run r = { 0 };
        char *got;

        mw_change(&r, &mw_rows[i]);
        evaluate(&r, AT, -1);
        got = mw_findings(&r);
        if (strcmp(got, mw_rows[i].want) != 0) {
            print_error("case '%s':\n  got  '%s'\n  want '%s'\n",
                        mw_rows[i].name, got, mw_rows[i].want);
            failures++;
        }
        if (strstr(mw_rows[i].want, "may-refuse") ||
            strstr(mw_rows[i].want, "window-invalid")) {
            const struct ndp_finding *f = &r.result.findings.items[0];
            size_t k;
            for (k = 0; k < r.result.findings.nr; k++)
                if (strcmp(r.result.findings.items[k].rule_id,
                           mw_rows[i].want[5] == '2' ? "NDP802"
                                                     : "NDP002") == 0)
                    f = &r.result.findings.items[k];
            if (!strstr(f->message, "unconfirmed")) {
                print_error("case '%s': no 'unconfirmed' in '%s'\n",
                            mw_rows[i].name, f->message);
                failures++;
            }
        }
        free(got);
        release(&r);
    }
    assert_int_equal(failures, 0);
}

/*
 * A sensitive window created with a startDate already past: the same
 * verdicts, the refusal said to be unconfirmed, no date printed.
 */
static void maintenance__sensitive_past_start_date_unconfirmed(void **state)
{
    static const struct {
        const char *config, *id;
        enum ndp_verdict verdict;
    } rows[] = {
        { "aksManagedAutoUpgradeSchedule", "NDP802", NDP_VERDICT_MAY_REFUSE },
        { "aksManagedNodeOSUpgradeSchedule", "NDP002",
          NDP_VERDICT_WINDOW_INVALID },
    };
    size_t i;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        const struct mw_row row = { "", MW_AZAPI, rows[i].config,
                                    NDP_ACTION_CREATE, "-", PAST, 4, NULL };
        struct run r = { 0 };
        const struct ndp_finding *f;

        mw_change(&r, &row);
        r.result.set.items[0]->after_sensitive =
            test_json("{'properties':{'maintenanceWindow':true}}");
        evaluate(&r, AT, -1);
        f = only(&r, rows[i].id);
        assert_int_equal(f->verdict, rows[i].verdict);
        if (!strstr(f->message, "unconfirmed") ||
            strstr(f->message, "2026-11"))
            fail_msg("%s: '%s'", rows[i].id, f->message);
        release(&r);
    }
}

/*
 * Point 11 of issue #40: a maintenance configuration is PUT after the
 * cluster, so a refusal fails the apply at the configuration, the
 * cluster's changes already made; each message says so, the value, the
 * limit and the fix.
 */
static void maintenance__messages_say_where_the_apply_fails(void **state)
{
    static const struct {
        struct mw_row row;
        const char *id, *words[4];
    } rows[] = {
        { { "", MW_AZURERM, "maintenance_window_auto_upgrade",
            NDP_ACTION_NOOP, SOON, PAST, 4, NULL },
          "NDP802", { "start_date 2026-11-30 is before the current date "
                      "(2026-12-05",
                      "the apply of azurerm_kubernetes_cluster.main fails "
                      "at that PUT, which azurerm sends after it has "
                      "updated the cluster and its default node pool",
                      "the cluster's own changes already made",
                      "change each value named" } },
        { { "", MW_AZURERM, "maintenance_window_auto_upgrade",
            NDP_ACTION_CREATE, "-", PAST, 4, NULL },
          "NDP802", { "this change creates may be refused",
                      "after it has created the cluster",
                      "whether it refuses one that creates the "
                      "configuration is unconfirmed",
                      "set start_date to today or later" } },
        { { "", MW_AZAPI, "aksManagedAutoUpgradeSchedule", NDP_ACTION_CREATE,
            "-", PAST, 4, NULL },
          "NDP802", { "if AKS refuses it, the apply fails at "
                      "azapi_resource.mw, a resource of its own that goes "
                      "after the cluster", "startDate 2026-11-30",
                      "set startDate to today or later, or leave it out",
                      "unconfirmed" } },
        { { "", MW_AZAPI, "nightly", NDP_ACTION_CREATE, "-", SOON, 4, NULL },
          "NDP801", { "maintenance configuration 'nightly'",
                      "so the apply fails at azapi_resource.mw, a resource "
                      "of its own", "use one of those three names",
                      "'aksManagedNodeOSUpgradeSchedule'" } },
    };
    size_t i, k;

    (void)state;
    for (i = 0; i < NDP_ARRAY_SIZE(rows); i++) {
        struct run r = { 0 };
        const struct ndp_finding *f;

        mw_change(&r, &rows[i].row);
        evaluate(&r, AT, -1);
        f = only(&r, rows[i].id);
        for (k = 0; k < 4; k++)
            if (!strstr(f->message, rows[i].words[k]))
                fail_msg("%s row %zu: '%s' not in '%s'", rows[i].id, i,
                         rows[i].words[k], f->message);
        assert_null(strstr(f->message, "fails there"));
        release(&r);
    }
}

/* PT-UPG-04/06: unsetting the drain timeout replaces the cluster. */
static void replace__unset_drain_names_the_attribute(void **state)
{
    struct run r = { 0 };
    struct ndp_change *c;
    const char *m;

    (void)state;
    c = azurerm_cluster(&r, AZ_DNP(US("'max_surge':'1',"
                                      "'drain_timeout_in_minutes':30,"
                                      "'undrainable_node_behavior':'Cordon'")),
                        AZ_DNP(US("'max_surge':'1',"
                                  "'drain_timeout_in_minutes':0")));
    c->action = NDP_ACTION_REPLACE;
    evaluate(&r, AT, -1);
    m = only(&r, "NDP003")->message;
    if (!strstr(m, "cannot unset default_node_pool[0]." DRAIN " and "
                "default_node_pool[0].upgrade_settings[0]."
                "undrainable_node_behavior once set") ||
        !strstr(m, "replaces the whole cluster"))
        fail_msg("message: %s", m);
    release(&r);
}

static int setup(void **state)
{
    return test_dir_make(state) || test_rules_load_dir(state);
}

static int teardown(void **state)
{
    return test_rules_free(state) | test_dir_remove(state);
}

/*
 * emit.c's redaction, the one every check's values go through: a mask or
 * a secret rule shows "(sensitive)", unset shows null, a proxy URL of a
 * userinfo_secret rule loses its credentials, and a number likewise.
 */
static void emit__values_redacted_by_mask_and_rule(void **state)
{
    struct ndp_rule secret = { .secret = true };
    struct ndp_rule userinfo = { .userinfo_secret = true };
    struct json_object *url = json_object_new_string(
        "http://user:p@ss@proxy:8080");
    struct ndp_buf b = NDP_BUF_INIT;
    char *text;

    (void)state;
    ndp_emit_text(&b, "v", false, NULL);
    assert_string_equal(b.buf, "\"v\"");
    ndp_buf_reset(&b);
    ndp_emit_text(&b, "v", true, NULL);
    assert_string_equal(b.buf, "\"(sensitive)\"");
    ndp_buf_reset(&b);
    ndp_emit_text(&b, "v", false, &secret);
    assert_string_equal(b.buf, "\"(sensitive)\"");
    ndp_buf_reset(&b);
    ndp_emit_text(&b, NULL, true, &secret);
    assert_string_equal(b.buf, "null");
    ndp_buf_reset(&b);
    ndp_emit_number(&b, true, 42, false);
    assert_string_equal(b.buf, "42");
    ndp_buf_reset(&b);
    ndp_emit_number(&b, true, 42, true);
    assert_string_equal(b.buf, "\"(sensitive)\"");
    ndp_buf_reset(&b);
    ndp_emit_number(&b, false, 42, false);
    assert_string_equal(b.buf, "null");
    text = ndp_emit_json_value(url, false, false, &userinfo);
    assert_string_equal(text, "\"http://(sensitive)@proxy:8080\"");
    free(text);
    text = ndp_emit_json_value(url, false, false, &secret);
    assert_string_equal(text, "\"(sensitive)\"");
    free(text);
    text = ndp_emit_json_value(url, false, true, NULL);
    assert_string_equal(text, "\"(known after apply)\"");
    free(text);
    json_object_put(url);
    ndp_buf_release(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(block_setter__network_policy_rejected),
        cmocka_unit_test(profile_changed_in_plan__stricter_wins_and_is_said),
        cmocka_unit_test(no_declaration__option_then_default),
        cmocka_unit_test(window_profile__inside_allowed_outside_refused),
        cmocka_unit_test(next_window__judged_at_the_first_instant_inside),
        cmocka_unit_test(window_profile_without_window__gate_open),
        cmocka_unit_test(version_upgrade_in_same_change__bypassed),
        cmocka_unit_test(version_upgrade_under_allow__allowed_note),
        cmocka_unit_test(severity_by_intent__errors_only_when_frozen_now),
        cmocka_unit_test(undeclared_profile__one_note_per_cluster_with_reimaging),
        cmocka_unit_test(version_gated__manual_before_137_gated_from_137),
        cmocka_unit_test(replaced_pool__replace_finding_names_paths),
        cmocka_unit_test(secrets__never_in_findings),
        cmocka_unit_test(k8s_minor__parses_versions),
        cmocka_unit_test(profiles__parse_name_and_list),
        cmocka_unit_test(impact__pools_counts_batches_and_refused_changes),
        cmocka_unit_test(overrun__worst_case_rebuild_against_minutes_left),
        cmocka_unit_test(checks__refused_upgrade_settings_and_rotations),
        cmocka_unit_test(checks__messages_quote_and_qualify),
        cmocka_unit_test(checks__sensitive_values_never_printed),
        cmocka_unit_test(replace__unset_drain_names_the_attribute),
        cmocka_unit_test(checks__subnet_room_at_its_limit),
        cmocka_unit_test(checks__subnet_peak_is_the_larger_phase),
        cmocka_unit_test(maintenance__past_start_date_by_create_or_update),
        cmocka_unit_test(maintenance__messages_say_where_the_apply_fails),
        cmocka_unit_test(maintenance__sensitive_past_start_date_unconfirmed),
        cmocka_unit_test(checks__system_pools_and_upgrade_size),
        cmocka_unit_test(emit__values_redacted_by_mask_and_rule),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * SPDX-License-Identifier: Apache-2.0
 * test_versions.c - the version paths (src/evaluate/check_versions.c,
 * rules NDP601..NDP612): each check with its near-miss, in both notations,
 * across changes of one cluster (a pool resource held against its
 * cluster's control plane), with live state for the side the input does
 * not show; unknown versions (not in the input, not a version, known only
 * after apply) that judge nothing; values under a sensitive mask never
 * printed; the words each finding owes (the code AKS answers with,
 * inferred, unconfirmed); a rule set without the rules, which turns the
 * checks off.  Each row builds its changes by hand and runs link, engine
 * and evaluator over them.
 */
#include "test_helpers.h"
#include "test_files.h"
#include "buf.h"
#include "change.h"
#include "error.h"
#include "evaluate.h"
#include "finding.h"
#include "input.h"
#include "rules.h"
#include "run.h"
#include "state.h"
#include "timeutil.h"

#define CLUSTER_ID "/subscriptions/s/resourceGroups/rg/providers/" \
                   "Microsoft.ContainerService/managedClusters/aks"

enum kind_code {
    END, AZ_CLUSTER, AZ_POOL, ARM_CLUSTER, ARM_POOL, ARM_SETTER,
    ARM_POOL_SETTER, /* an azapi_update_resource on an agentPools resource */
    WI_CLUSTER, WI_POOL /* what-if: the address is the ARM id */
};

struct change_spec {
    enum kind_code kind;
    enum ndp_action action;  /* left out (NOOP): an update */
    const char *name;        /* a pool resource's name */
    const char *before, *after;
    const char *after_unknown, *before_sensitive, *after_sensitive;
    bool delta_only;
};

struct row {
    const char *name;
    struct change_spec changes[3];
    const char *state;  /* an 'az aks show' of the cluster, or NULL */
    const char *want;   /* "NDP601/refused,...": the version findings */
    const char *says, *says_too; /* in their messages and help */
    const char *never;  /* in none of their texts */
};

/* ' for " in the tables below */
/* A change of kind 'k' with no unknown value, no mask, not a delta. */
#define CH(k, action, name, before, after) \
    { k, action, name, before, after, NULL, NULL, NULL, false }

/* An ARM cluster body: its version and pools ("," between them). */
#define BODY(kv, pools) \
    P("'kubernetesVersion':'" kv "','agentPoolProfiles':[" pools "]")
#define CHANNEL_BODY(kv, pools) \
    P("'kubernetesVersion':'" kv "','autoUpgradeProfile':" \
      "{'upgradeChannel':'patch'},'agentPoolProfiles':[" pools "]")
#define PIN(name, v) "{'name':'" name "','orchestratorVersion':'" v "'}"
#define NAMED(name) "{'name':'" name "'}"
#define SPOT(name) "{'name':'" name "','scaleSetPriority':'Spot'}"
#define SPOT_PIN(name, v) "{'name':'" name "','scaleSetPriority':'Spot'," \
    "'orchestratorVersion':'" v "'}"

#define KV(v) "{'kubernetes_version':'" v "'}"
#define KV_CUR(v, cur) "{'kubernetes_version':'" v "'," \
    "'current_kubernetes_version':'" cur "'}"
#define OV(v) "{'orchestrator_version':'" v "'}"
#define P(members) "{'properties':{" members "}}"
#define ARM_OV(v) P("'orchestratorVersion':'" v "'")
#define STATE(kv, pools) "{'id':'" CLUSTER_ID "','name':'aks'," \
    "'kubernetesVersion':'" kv "','agentPoolProfiles':[" pools "]}"

static const struct row rows[] = {
    /* PT-K8S-01: one minor at a time */
    { "cp: two minors up is refused",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.29.4"), KV("1.31")) }, NULL,
      "NDP601/refused", "OperationNotAllowed (\"Upgrading Kubernetes "
      "version 1.29.4 to 1.31 is not allowed", "to 1.30 first", NULL },
    { "cp: one minor up is not",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.29.4"), KV("1.30")) }, NULL, "",
      NULL, NULL, NULL },
    { "cp: a patch upgrade is not",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.29.4"), KV("1.29.9")) }, NULL, "",
      NULL, NULL, NULL },
    { "cp: skip on the LTS plan is a warning",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.29.4','support_plan':"
          "'AKSLongTermSupport'}",
          "{'kubernetes_version':'1.31','support_plan':"
          "'akslongtermsupport'}") }, NULL,
      "NDP601/may-refuse", "only to an LTS version it offers",
      "az aks get-upgrades", NULL },
    { "cp: skip while leaving the LTS plan is refused",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.29.4','support_plan':"
          "'AKSLongTermSupport'}",
          "{'kubernetes_version':'1.31','support_plan':"
          "'KubernetesOfficial'}") }, NULL, "NDP601/refused", NULL, NULL,
      NULL },
    { "cp: ARM skip on the LTS plan is a warning",
      { CH(ARM_CLUSTER, 0, NULL, P("'kubernetesVersion':'1.29.4'"),
          P("'kubernetesVersion':'1.32.1','supportPlan':"
            "'AKSLongTermSupport'")) }, NULL,
      "NDP601/may-refuse", "3 minor versions at once", NULL, NULL },
    { "cp: the running version is the reported one",
      { CH(AZ_CLUSTER, 0, NULL, KV_CUR("1.30", "1.29.8"),
          KV_CUR("1.31", "1.29.8")) }, NULL, "NDP601/refused",
      "from 1.29.8 to 1.31", NULL, NULL },
    { "cp: the running version from live state",
      { CH(AZ_CLUSTER, 0, NULL, "{'kubernetes_version':null}", KV("1.31")) },
      STATE("1.29.2", ""), "NDP601/refused", "--cluster-state", NULL, NULL },
    { "cp: no running version, nothing judged",
      { CH(AZ_CLUSTER, 0, NULL, "{'kubernetes_version':null}", KV("1.31")) },
      NULL, "", NULL, NULL, NULL },
    { "cp: not a version, nothing judged",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.29.4"), KV("latest")) }, NULL, "",
      NULL, NULL, NULL },
    { "cp: known only after apply, nothing judged",
      { { AZ_CLUSTER, 0, NULL, KV("1.29.4"), "{}",
          "{'kubernetes_version':true}", NULL, NULL, false } }, NULL, "",
      NULL, NULL, NULL },
    { "cp: another major is not counted in minors",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.2"), KV("2.0")) }, NULL, "", NULL,
      NULL, NULL },
    { "cp: a created cluster has no path",
      { CH(AZ_CLUSTER, NDP_ACTION_CREATE, NULL, NULL, KV("1.31")) }, NULL,
      "", NULL, NULL, NULL },
    { "cp: a deleted cluster sends nothing",
      { CH(AZ_CLUSTER, NDP_ACTION_DELETE, NULL, KV("1.27.1"), NULL) },
      STATE("1.30.1", ""), "", NULL, NULL, NULL },

    /* PT-K8S-02: never down */
    { "cp: a lower patch is refused",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.5"), KV("1.30.3")) }, NULL,
      "NDP602/refused", "Downgrading Kubernetes version 1.30.5 to 1.30.3",
      "declare 1.30.5 or a later version", "auto-upgrade channel is set" },
    { "cp: a lower minor is refused",
      { CH(ARM_CLUSTER, 0, NULL, P("'kubernetesVersion':'1.31.2'"),
          P("'kubernetesVersion':'1.30'")) }, NULL, "NDP602/refused", NULL,
      NULL, NULL },
    { "cp: x.y.z to x.y of the same minor is no downgrade",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.5"), KV("1.30")) }, NULL, "", NULL,
      NULL, NULL },
    { "cp: pinned below the version AKS reports running",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.30','current_kubernetes_version':"
          "'1.30.5','automatic_upgrade_channel':'patch'}",
          "{'kubernetes_version':'1.30.3','current_kubernetes_version':"
          "'1.30.5','automatic_upgrade_channel':'patch'}") }, NULL,
      "NDP602/refused,NDP608/may-refuse", "auto-upgrade channel is set",
      "Downgrading Kubernetes version 1.30.5 to 1.30.3", NULL },
    { "cp: an unchanged pin below the running version is not sent",
      { CH(AZ_CLUSTER, 0, NULL, KV_CUR("1.30.3", "1.30.5"),
          KV_CUR("1.30.3", "1.30.5")) }, NULL, "", NULL, NULL, NULL },

    /* PT-K8S-04 at the control plane's step */
    { "cp: past a pool resource's skew is refused",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.4"), KV("1.31")),
        CH(AZ_POOL, 0, "old", OV("1.27.9"), OV("1.27.9")) }, NULL,
      "NDP603/refused", "node pool 'old' stays on 1.27.9, 4 minor versions "
      "behind", "NodePoolMcVersionIncompatible", NULL },
    { "cp: three minors ahead of a pool is allowed",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.4"), KV("1.31")),
        CH(AZ_POOL, 0, "old", OV("1.28.9"), OV("1.28.9")) }, NULL, "", NULL,
      NULL, NULL },
    { "cp: below 1.28 the skew is two",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.26.3"), KV("1.27")),
        CH(AZ_POOL, 0, "old", OV("1.24.9"), OV("1.24.9")) }, NULL,
      "NDP603/refused", "at most 2 minor versions", "still says 2", NULL },
    { "cp: at 1.28 the skew is three",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.27.9"), KV("1.28.3")),
        CH(AZ_POOL, 0, "old", OV("1.25.4"), OV("1.25.4")) }, NULL, "", NULL,
      NULL, NULL },
    { "cp: a pool the body removes does not lag",
      { CH(ARM_CLUSTER, 0, NULL,
           P("'agentPoolProfiles':[{'name':'a'},{'name':'old',"
             "'orchestratorVersion':'1.26.1'}]"),
           P("'agentPoolProfiles':[{'name':'a'}]")),
        CH(ARM_SETTER, 0, NULL, P("'kubernetesVersion':'1.30.4'"),
           P("'kubernetesVersion':'1.31.2'")) }, NULL, "", NULL, NULL, NULL },
    { "cp: a pool upgraded after the control plane still lags at its step",
      { CH(AZ_CLUSTER, 0, NULL,
           "{'kubernetes_version':'1.30.4','default_node_pool':[{'name':"
           "'system','orchestrator_version':'1.26.1'}]}",
           "{'kubernetes_version':'1.31','default_node_pool':[{'name':"
           "'system','orchestrator_version':'1.27.1'}]}") }, NULL,
      "NDP605/refused,NDP603/refused", "node pool 'system' stays on 1.26.1",
      NULL, NULL },
    { "cp: a pool only live state knows, and one more",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.2"), KV("1.31.1")) },
      STATE("1.30.2", "{'name':'old','orchestratorVersion':'1.26.0'},"
            "{'name':'older','currentOrchestratorVersion':'1.25.0'},"
            "{'name':'fine','orchestratorVersion':'1.30.2'}"),
      "NDP603/refused", "node pool 'older' stays on 1.25.0",
      "and 1 more pool too far behind", NULL },
    { "cp: a lagging live pool the apply deletes is no obstacle",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.2"), KV("1.31.1")),
        CH(AZ_POOL, NDP_ACTION_DELETE, "old", OV("1.26.0"), NULL) },
      STATE("1.30.2", "{'name':'old','orchestratorVersion':'1.26.0'}"), "",
      NULL, NULL, NULL },
    { "cp: an ARM body pool left without a version moves with it",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.4", PIN("a", "1.27.1")),
          BODY("1.31.2", NAMED("a"))) }, NULL, "", NULL, NULL, NULL },
    { "cp: an ARM body pool set to the new version moves with it",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.4", PIN("a", "1.27.1")),
          BODY("1.31.2", PIN("a", "1.31"))) }, NULL, "", NULL, NULL,
      NULL },
    { "cp: an ARM body pool that keeps its version lags",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.4", PIN("a", "1.27.1")),
          BODY("1.31.2", PIN("a", "1.27.1"))) }, NULL, "NDP603/refused",
      NULL, NULL, NULL },

    /* PT-K8S-03, -04: a pool after the apply */
    { "pool: above the control plane is refused",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.5"), KV("1.30.5")),
        CH(AZ_POOL, 0, "np1", OV("1.30.5"), OV("1.31.1")) }, NULL,
      "NDP604/refused", "above the control plane's 1.30.5 after the apply",
      "azurerm stops before sending it", NULL },
    { "pool: above the control plane by a patch is refused",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.5"), KV("1.30.5")),
        CH(AZ_POOL, 0, "np1", OV("1.30.5"), OV("1.30.6")) }, NULL,
      "NDP604/refused", NULL, NULL, NULL },
    { "pool: with the control plane raised in the same apply",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.5"), KV("1.31")),
        CH(AZ_POOL, 0, "np1", OV("1.30.5"), OV("1.31.2")) }, NULL, "", NULL,
      NULL, NULL },
    { "pool: the control plane from live state",
      { CH(AZ_POOL, 0, "np1", OV("1.30.5"), OV("1.31.0")) },
      STATE("1.30.5", ""), "NDP604/refused", "(--cluster-state)", NULL,
      NULL },
    { "pool: the control plane unknown, nothing held against it",
      { CH(AZ_POOL, 0, "np1", OV("1.30.5"), OV("1.31.0")) }, NULL, "", NULL,
      NULL, NULL },
    { "pool: created four minors behind is refused",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.2"), KV("1.30.2")),
        CH(AZ_POOL, NDP_ACTION_CREATE, "new", NULL, OV("1.26")) }, NULL,
      "NDP605/refused", "4 minor versions behind the control plane's 1.30.2",
      "at most 3 (3 from Kubernetes 1.28, 2 before; the API reference still "
      "says 2)", NULL },
    { "pool: created three minors behind is allowed",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.2"), KV("1.30.2")),
        CH(AZ_POOL, NDP_ACTION_CREATE, "new", NULL, OV("1.27")) }, NULL, "",
      NULL, NULL, NULL },
    { "pool: below 1.28 three behind is too many",
      { CH(ARM_CLUSTER, 0, NULL, P("'kubernetesVersion':'1.27.3'"),
          P("'kubernetesVersion':'1.27.3'")),
        CH(ARM_POOL, NDP_ACTION_CREATE, "new", NULL, ARM_OV("1.24.0")) },
      NULL, "NDP605/refused", "at most 2", NULL, NULL },
    { "pool: in a created cluster, held against its control plane",
      { CH(AZ_CLUSTER, NDP_ACTION_CREATE, NULL, NULL,
           "{'kubernetes_version':'1.30','default_node_pool':[{'name':"
           "'sys','orchestrator_version':'1.31.1'}]}") }, NULL,
      "NDP604/refused",
      NULL, NULL, NULL },

    /* PT-K8S-05: a pool never down, one minor at a time */
    { "pool: a lower version is refused",
      { CH(AZ_POOL, 0, "np1", OV("1.30.5"), OV("1.30.2")) }, NULL,
      "NDP606/refused", "AgentPoolUpgradeVersionNotAllowed (\"Upgrade agent "
      "pool version from 1.30.5 to 1.30.2", NULL, NULL },
    { "pool: lower than live state's is refused",
      { CH(ARM_POOL, 0, "np1", P("'count':2"), ARM_OV("1.29")) },
      STATE("1.30.1", "{'name':'NP1','orchestratorVersion':'1.30.1'}"),
      "NDP606/refused", "runs 1.30.1 (--cluster-state)", NULL, NULL },
    { "pool: x.y.z to x.y of the same minor is none",
      { CH(AZ_POOL, 0, "np1", OV("1.30.5"), OV("1.30")) }, NULL, "", NULL,
      NULL, NULL },
    { "pool: two minors up is a warning, unconfirmed",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.5"), KV("1.30.5")),
        CH(AZ_POOL, 0, "np1", OV("1.28.3"), OV("1.30.1")) }, NULL,
      "NDP607/may-refuse", "unconfirmed", "to 1.29 first",
      "not in the input" },
    { "pool: two minors up, the control plane not known",
      { CH(ARM_POOL, 0, "np1", ARM_OV("1.28.3"), ARM_OV("1.30.1")) }, NULL,
      "NDP607/may-refuse", "the control plane's version is not in the input",
      NULL, NULL },
    { "pool: two minors up past the control plane: only that",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.5"), KV("1.30.5")),
        CH(AZ_POOL, 0, "np1", OV("1.29.3"), OV("1.31.1")) }, NULL,
      "NDP604/refused", NULL, NULL, NULL },
    { "pool: one minor up is none",
      { CH(AZ_POOL, 0, "np1", OV("1.29.3"), OV("1.30.1")) }, NULL, "", NULL,
      NULL, NULL },
    { "pool: an unchanged azurerm pin below the running version is not sent",
      { CH(AZ_POOL, 0, "np1",
          "{'orchestrator_version':'1.29.1','current_orchestrator_version':"
          "'1.29.4'}",
          "{'orchestrator_version':'1.29.1','current_orchestrator_version':"
          "'1.29.4'}") }, NULL, "", NULL, NULL, NULL },
    { "pool: an ARM pin below the reported version is sent",
      { CH(ARM_POOL, 0, "np1",
          P("'orchestratorVersion':'1.29.1','currentOrchestratorVersion':"
            "'1.29.4'"), ARM_OV("1.29.1")) }, NULL, "NDP606/refused",
      NULL, NULL, NULL },

    /* PT-K8S-07 trigger 2, PT-K8S-09: a control-plane-only upgrade */
    { "channel: azurerm kubernetes_version alone, inferred",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.30.5','automatic_upgrade_channel':"
          "'stable'}",
          "{'kubernetes_version':'1.31','automatic_upgrade_channel':"
          "'stable'}") }, NULL, "NDP608/may-refuse", "inferred",
      "NotAllAgentPoolOrchestratorVersionSpecifiedAndUnchanged", NULL },
    { "channel: the v3 name",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.30.5','automatic_channel_upgrade':"
          "'rapid'}",
          "{'kubernetes_version':'1.31','automatic_channel_upgrade':"
          "'rapid'}") }, NULL, "NDP608/may-refuse", NULL, NULL, NULL },
    { "channel: none is no channel",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.5"),
          "{'kubernetes_version':'1.31','automatic_upgrade_channel':"
          "'None'}") }, NULL, "", NULL, NULL, NULL },
    { "channel: removed by the same apply",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.30.5','automatic_upgrade_channel':"
          "'patch'}",
          "{'kubernetes_version':'1.31','automatic_upgrade_channel':"
          "null}") }, NULL, "", NULL, NULL, NULL },
    { "channel: a version unchanged is not sent",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.30','automatic_upgrade_channel':'patch',"
          "'current_kubernetes_version':'1.30.5'}",
          "{'kubernetes_version':'1.30','automatic_upgrade_channel':'patch',"
          "'current_kubernetes_version':'1.30.5'}") }, NULL, "", NULL,
      NULL, NULL },
    { "channel: the patch channel's x.y.z -> x.y drift is no upgrade",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.30.7','automatic_upgrade_channel':"
          "'patch','current_kubernetes_version':'1.30.7',"
          "'default_node_pool':[{'name':'system','orchestrator_version':"
          "'1.30.7'}]}",
          "{'kubernetes_version':'1.30','automatic_upgrade_channel':'patch',"
          "'current_kubernetes_version':'1.30.7','default_node_pool':[{"
          "'name':'system','orchestrator_version':'1.30'}]}"),
        CH(AZ_POOL, 0, "user", OV("1.30.7"), OV("1.30")) }, NULL, "", NULL,
      NULL, NULL },
    { "channel: the v3 name's drift, no version AKS reports",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.30.7','automatic_channel_upgrade':"
          "'patch'}",
          "{'kubernetes_version':'1.30','automatic_channel_upgrade':"
          "'patch'}") }, NULL, "", NULL, NULL, NULL },
    { "channel: an alias of the next minor is an upgrade",
      { CH(AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.30.7','automatic_upgrade_channel':"
          "'patch','current_kubernetes_version':'1.30.7'}",
          "{'kubernetes_version':'1.31','automatic_upgrade_channel':'patch',"
          "'current_kubernetes_version':'1.30.7'}") }, NULL,
      "NDP608/may-refuse", NULL, NULL, NULL },
    { "channel: an ARM body's x.y.z -> x.y drift is no upgrade",
      { CH(ARM_CLUSTER, 0, NULL,
          CHANNEL_BODY("1.30.7", PIN("a", "1.30.7")),
          CHANNEL_BODY("1.30", PIN("a", "1.30"))) }, NULL, "", NULL, NULL,
      NULL },
    { "channel: on a created cluster, no upgrade",
      { CH(AZ_CLUSTER, NDP_ACTION_CREATE, NULL, NULL,
          "{'kubernetes_version':'1.31','automatic_upgrade_channel':"
          "'patch'}") }, NULL, "", NULL, NULL, NULL },
    { "channel: an ARM body whose pools keep their versions",
      { CH(ARM_CLUSTER, 0, NULL,
          CHANNEL_BODY("1.30.5", PIN("a", "1.30.5")),
          CHANNEL_BODY("1.31.1", PIN("a", "1.30.5"))) }, NULL,
      "NDP608/may-refuse", "every pool it lists keeps", NULL, NULL },
    { "channel: an ARM body that upgrades its pools with it",
      { CH(ARM_CLUSTER, 0, NULL,
          CHANNEL_BODY("1.30.5", PIN("a", "1.30.5")),
          CHANNEL_BODY("1.31.1", PIN("a", "1.31.1"))) }, NULL, "", NULL, NULL,
      NULL },
    { "channel: an ARM body without pools upgrades them all",
      { CH(ARM_CLUSTER, 0, NULL,
          P("'kubernetesVersion':'1.30.5','autoUpgradeProfile':"
            "{'upgradeChannel':'patch'}"),
          P("'kubernetesVersion':'1.31.1','autoUpgradeProfile':"
            "{'upgradeChannel':'patch'}")) }, NULL, "", NULL, NULL, NULL },

    /* PT-K8S-07 trigger 1: a managed cluster body's pool versions */
    { "body: some named, some not, with a version change",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.5", PIN("a", "1.30.5") "," NAMED("b")),
          BODY("1.31.1", PIN("a", "1.30.5") "," NAMED("b"))) }, NULL,
      "NDP609/refused", "names the orchestratorVersion of node pool 'a' but "
      "not of 'b'", "must be all specified or all unspecified", NULL },
    { "body: some named, some not, no version change",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.5", PIN("a", "1.30.5") "," "{'name':'b','count':1}"),
          BODY("1.30.5", PIN("a", "1.30.5") "," "{'name':'b','count':2}")) },
      NULL, "", NULL, NULL, NULL },
    { "body: all named, and an agentPools resource beside it",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.5", PIN("a", "1.30.5")),
          BODY("1.31.1", PIN("a", "1.30.5"))),
        CH(ARM_POOL, 0, "user", ARM_OV("1.30.5"), ARM_OV("1.30.5")) }, NULL,
      "NDP609/refused", "1 more pool it does not list", NULL, NULL },
    { "body: all named, and a pool live state shows",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.5", PIN("a", "1.30.5")),
          BODY("1.31.1", PIN("a", "1.31.1"))) },
      STATE("1.30.5", "{'name':'A','orchestratorVersion':'1.30.5'},"
            "{'name':'user','orchestratorVersion':'1.30.5'},"
            "{'name':'user2','orchestratorVersion':'1.30.5'}"),
      "NDP609/refused", "2 more pools it does not list", NULL, NULL },
    { "body: all named, all unchanged or the control plane's",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.5", PIN("a", "1.30.5") "," PIN("b", "1.30.5")),
          BODY("1.31.1", PIN("a", "1.31.1") ","
               PIN("b", "1.30.5"))) }, NULL, "", NULL, NULL,
      NULL },
    { "body: none named",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.5", NAMED("a") "," NAMED("b")),
          BODY("1.31.1", NAMED("a") "," NAMED("b"))),
        CH(ARM_POOL, 0, "user", ARM_OV("1.30.5"), ARM_OV("1.30.5")) }, NULL,
      "", NULL, NULL, NULL },
    { "body: a pool changed to other than the control plane's",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.31.1", PIN("a", "1.29.5") "," PIN("b", "1.31.1")),
          BODY("1.31.1", PIN("a", "1.30.2") ","
               PIN("b", "1.31.1"))) }, NULL, "NDP609/refused",
      "changes the orchestratorVersion of node pool 'a' to 1.30.2, which is "
      "not the control plane's 1.31.1", NULL, NULL },
    { "body: a pool created beside them changes no version",
      { CH(ARM_CLUSTER, 0, NULL,
          BODY("1.31.1", NAMED("a")),
          BODY("1.31.1", NAMED("a") "," PIN("new", "1.30.2"))) }, NULL, "",
      NULL, NULL, NULL },
    { "body: a delta does not show who names a version",
      { { ARM_CLUSTER, 0, NULL, P("'kubernetesVersion':'1.30.5'"),
          BODY("1.31.1", "{'name':'a','count':3}"), NULL, NULL, NULL, true },
        CH(ARM_POOL, 0, "user", ARM_OV("1.30.5"), ARM_OV("1.30.5")) }, NULL,
      "", NULL, NULL, NULL },
    { "body: a setter's body likewise",
      { CH(ARM_SETTER, 0, NULL,
          BODY("1.30.5", PIN("a", "1.30.5") "," NAMED("b")),
          BODY("1.31.1", PIN("a", "1.30.5") "," NAMED("b"))) }, NULL,
      "NDP609/refused", NULL, NULL, NULL },

    /* A setter sends its version whatever the cluster resource beside it */
    { "setter: lowers the version beside a no-op cluster resource",
      { CH(AZ_CLUSTER, 0, NULL, KV_CUR("1.30.7", "1.30.7"),
           KV_CUR("1.30.7", "1.30.7")),
        CH(ARM_SETTER, 0, NULL, P("'kubernetesVersion':'1.30.7'"),
           P("'kubernetesVersion':'1.29.9'")) }, NULL, "NDP602/refused",
      "Downgrading Kubernetes version 1.30.7 to 1.29.9", NULL, NULL },
    { "setter: skips a minor beside a no-op cluster resource",
      { CH(AZ_CLUSTER, 0, NULL, KV_CUR("1.30.7", "1.30.7"),
           KV_CUR("1.30.7", "1.30.7")),
        CH(ARM_SETTER, NDP_ACTION_CREATE, NULL, NULL,
           P("'kubernetesVersion':'1.32'")) }, NULL, "NDP601/refused",
      "from 1.30.7 to 1.32", NULL, NULL },
    { "setter: the alias beside a no-op cluster resource",
      { CH(AZ_CLUSTER, 0, NULL, KV_CUR("1.30.7", "1.30.7"),
           KV_CUR("1.30.7", "1.30.7")),
        CH(ARM_SETTER, NDP_ACTION_CREATE, NULL, NULL,
           P("'kubernetesVersion':'1.30'")) }, NULL, "", NULL, NULL, NULL },
    { "setter: a first apply is no create, live state runs the cluster",
      { CH(ARM_SETTER, NDP_ACTION_CREATE, NULL, NULL,
           P("'kubernetesVersion':'1.30.5'")) }, STATE("1.30.7", ""),
      "NDP602/refused", "--cluster-state", NULL, NULL },
    { "setter: a pool setter's first apply, live state runs the pool",
      { CH(ARM_POOL_SETTER, NDP_ACTION_CREATE, "user", NULL,
           ARM_OV("1.29.9")) },
      STATE("1.30.7", "{'name':'user','orchestratorVersion':'1.30.7'}"),
      "NDP606/refused", NULL, NULL, NULL },
    { "setter: a created pool resource has no path to check",
      { CH(ARM_POOL, NDP_ACTION_CREATE, "fresh", NULL, ARM_OV("1.29.9")) },
      STATE("1.30.7", "{'name':'user','orchestratorVersion':'1.30.7'}"),
      "", NULL, NULL, NULL },

    /* PT-K8S-08 rule 1: long-term support needs the Premium tier */
    { "lts: a setter sends the plan, the cluster is on Standard",
      { CH(AZ_CLUSTER, 0, NULL, "{'sku_tier':'Standard'}",
           "{'sku_tier':'Standard'}"),
        CH(ARM_SETTER, NDP_ACTION_CREATE, NULL, NULL,
           P("'supportPlan':'AKSLongTermSupport'")) }, NULL,
      "NDP612/may-refuse", "AKSLongTermSupport on the Standard pricing tier",
      "set sku.tier to Premium", NULL },
    { "lts: a setter sends the plan, the cluster is Premium",
      { CH(AZ_CLUSTER, 0, NULL, "{'sku_tier':'Premium'}",
           "{'sku_tier':'Premium'}"),
        CH(ARM_SETTER, NDP_ACTION_CREATE, NULL, NULL,
           P("'supportPlan':'AKSLongTermSupport'")) }, NULL, "", NULL, NULL,
      NULL },
    { "lts: a setter alone, the tier not in the input",
      { CH(ARM_SETTER, NDP_ACTION_CREATE, NULL, NULL,
           P("'supportPlan':'AKSLongTermSupport'")) }, NULL, "", NULL, NULL,
      NULL },
    { "lts: a created azurerm cluster on the default tier",
      { CH(AZ_CLUSTER, NDP_ACTION_CREATE, NULL, NULL,
           "{'kubernetes_version':'1.30','support_plan':"
           "'AKSLongTermSupport'}") }, NULL, "NDP612/may-refuse",
      "on the Free pricing tier", "set sku_tier to Premium", NULL },

    /* PT-K8S-06: the order of a deployment, a Spot pool */
    { "order: a what-if pool upgraded beside its control plane",
      { CH(WI_CLUSTER, 0, NULL, P("'kubernetesVersion':'1.30.5'"),
           P("'kubernetesVersion':'1.31.2'")),
        CH(WI_POOL, 0, "np1", ARM_OV("1.30.5"), ARM_OV("1.31.2")) }, NULL,
      "NDP610/advisory", "what-if does not show whether the template orders "
      "it after the cluster", "dependsOn", NULL },
    { "order: an azapi pool, which Terraform orders after its cluster",
      { CH(ARM_CLUSTER, 0, NULL, P("'kubernetesVersion':'1.30.5'"),
           P("'kubernetesVersion':'1.31.2'")),
        CH(ARM_POOL, 0, "np1", ARM_OV("1.30.5"), ARM_OV("1.31.2")) }, NULL,
      "", NULL, NULL, NULL },
    { "order: a what-if pool within the running control plane",
      { CH(WI_CLUSTER, 0, NULL, P("'kubernetesVersion':'1.30.5'"),
           P("'kubernetesVersion':'1.31.2'")),
        CH(WI_POOL, 0, "np1", ARM_OV("1.30.2"), ARM_OV("1.30.5")) }, NULL,
      "", NULL, NULL, NULL },
    { "spot: a full upgrade in a body with a Spot pool is refused",
      { CH(ARM_CLUSTER, 0, NULL,
           BODY("1.30.5", NAMED("sys") "," SPOT("cheap")),
           BODY("1.31.2", NAMED("sys") "," SPOT("cheap"))) }, NULL,
      "NDP611/refused", "node pool 'cheap' is a Spot pool",
      "the error it answers with is unconfirmed", NULL },
    { "spot: a body without pools beside a Spot agentPools resource",
      { CH(ARM_CLUSTER, 0, NULL, P("'kubernetesVersion':'1.30.5'"),
           P("'kubernetesVersion':'1.31.2'")),
        CH(ARM_POOL, 0, "cheap", P("'scaleSetPriority':'Spot'"),
           P("'scaleSetPriority':'Spot'")) }, NULL, "NDP611/refused",
      "in the same request, every node pool", NULL, NULL },
    { "spot: a control-plane-only body",
      { CH(ARM_CLUSTER, 0, NULL,
           BODY("1.30.5", SPOT_PIN("cheap", "1.30.5")),
           BODY("1.31.2", SPOT_PIN("cheap", "1.30.5"))) }, NULL, "", NULL,
      NULL, NULL },
    { "spot: azurerm upgrades the control plane alone",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.5"), KV("1.31")),
        CH(AZ_POOL, 0, "cheap", "{'priority':'Spot'}",
           "{'priority':'Spot'}") }, NULL, "", NULL, NULL, NULL },
    { "spot: a delta does not show the body's pools",
      { { ARM_CLUSTER, 0, NULL, P("'kubernetesVersion':'1.30.5'"),
          P("'kubernetesVersion':'1.31.2'"), NULL, NULL, NULL, true },
        CH(ARM_POOL, 0, "cheap", P("'scaleSetPriority':'Spot'"),
           P("'scaleSetPriority':'Spot'")) }, NULL, "", NULL, NULL, NULL },

    /* values under a mask are judged, never printed */
    { "sensitive: the control plane's versions",
      { { AZ_CLUSTER, 0, NULL, KV("1.29.4"), KV("1.31.7"), NULL, NULL,
          "{'kubernetes_version':true}", false } }, NULL, "NDP601/refused",
      "from (sensitive) to (sensitive)", NULL, "1.31.7" },
    { "sensitive: no count read from masked versions",
      { { AZ_CLUSTER, 0, NULL, KV("1.29.4"), KV("1.31.7"), NULL,
          "{'kubernetes_version':true}", "{'kubernetes_version':true}",
          false } }, NULL, "NDP601/refused", "several minor versions at once",
      NULL, "2 minor" },
    { "sensitive: a pool's name and versions",
      { CH(AZ_CLUSTER, 0, NULL, KV("1.30.2"), KV("1.30.2")),
        { AZ_POOL, NDP_ACTION_CREATE, "secretpool", NULL, OV("1.26.7"),
          NULL, NULL, "{'name':true,'orchestrator_version':true}",
          false } }, NULL,
      "NDP605/refused", "node pool '(sensitive)' would run (sensitive)",
      NULL, "secretpool" },
    { "sensitive: a pool live state names under a masked body",
      { { AZ_CLUSTER, 0, NULL,
          "{'kubernetes_version':'1.30.4','default_node_pool':[{'name':"
          "'hidden','orchestrator_version':'1.26.1'}]}",
          "{'kubernetes_version':'1.31','default_node_pool':[{'name':"
          "'hidden','orchestrator_version':'1.26.1'}]}", NULL,
          "{'default_node_pool':true}", "{'default_node_pool':true}", false } },
      NULL, "NDP603/refused", "node pool '(sensitive)' stays on (sensitive)",
      NULL, "hidden" },
};

/* ---- running a row ---- */

static struct ndp_change *add_change(struct ndp_changeset *set,
                                     const struct change_spec *c)
{
    static const struct {
        enum ndp_notation notation;
        enum ndp_kind kind;
        const char *type, *address;
    } kinds[] = {
        [AZ_CLUSTER] = { NDP_NOTATION_AZURERM, NDP_KIND_CLUSTER,
                         "azurerm_kubernetes_cluster",
                         "azurerm_kubernetes_cluster.main" },
        [AZ_POOL] = { NDP_NOTATION_AZURERM, NDP_KIND_NODEPOOL,
                      "azurerm_kubernetes_cluster_node_pool",
                      "azurerm_kubernetes_cluster_node_pool." },
        [ARM_CLUSTER] = { NDP_NOTATION_ARM, NDP_KIND_CLUSTER,
                          "Microsoft.ContainerService/managedClusters",
                          "azapi_resource.aks" },
        [ARM_POOL] = { NDP_NOTATION_ARM, NDP_KIND_NODEPOOL,
                       "Microsoft.ContainerService/managedClusters/"
                       "agentPools", "azapi_resource." },
        [ARM_SETTER] = { NDP_NOTATION_ARM, NDP_KIND_SETTER,
                         "Microsoft.ContainerService/managedClusters",
                         "azapi_update_resource.s" },
        [ARM_POOL_SETTER] = { NDP_NOTATION_ARM, NDP_KIND_NODEPOOL,
                              "Microsoft.ContainerService/managedClusters/"
                              "agentPools", "azapi_update_resource." },
        [WI_CLUSTER] = { NDP_NOTATION_ARM, NDP_KIND_CLUSTER,
                         "Microsoft.ContainerService/managedClusters",
                         CLUSTER_ID },
        [WI_POOL] = { NDP_NOTATION_ARM, NDP_KIND_NODEPOOL,
                      "Microsoft.ContainerService/managedClusters/"
                      "agentPools", CLUSTER_ID "/agentPools/" },
    };
    struct ndp_buf address = NDP_BUF_INIT;
    struct ndp_change *ch;

    ndp_buf_addf(&address, "%s%s", kinds[c->kind].address,
                 c->name ? c->name : "");
    ch = test_add_update(set, kinds[c->kind].notation, kinds[c->kind].kind,
                         kinds[c->kind].type, address.buf,
                         test_json(c->before), test_json(c->after));
    ndp_buf_release(&address);
    if (c->action != NDP_ACTION_NOOP)
        ch->action = c->action;
    ch->name = c->name ? ndp_xstrdup(c->name) : NULL;
    ch->after_unknown = test_json(c->after_unknown);
    ch->before_sensitive = test_json(c->before_sensitive);
    ch->after_sensitive = test_json(c->after_sensitive);
    ch->delta_only = c->delta_only;
    ch->setter = c->kind == ARM_SETTER || c->kind == ARM_POOL_SETTER;
    if (ch->kind == NDP_KIND_CLUSTER)
        ch->self_id = ndp_xstrdup(CLUSTER_ID);
    else
        ch->parent_id = ndp_xstrdup(CLUSTER_ID);
    return ch;
}

/* Runs the pipeline after the readers over 'changes' and 'state'. */
static void judge(struct ndp_result *r, const struct change_spec *changes,
                  size_t nr, const char *state,
                  const struct ndp_ruleset *rs)
{
    struct ndp_states states = NDP_STATES_INIT;
    struct ndp_eval_options opt;
    struct ndp_error err = NDP_ERROR_INIT;
    size_t i;

    memset(r, 0, sizeof(*r));
    memset(&opt, 0, sizeof(opt));
    assert_int_equal(ndp_time_parse_rfc3339(&opt.at, "2026-12-05T12:00:00Z"),
                     0);
    for (i = 0; i < nr && changes[i].kind != END; i++)
        add_change(&r->set, &changes[i]);
    if (state) {
        char *path = test_write_json("state.json", state);
        if (ndp_state_read(&states, path, 1 << 20, &err) != 0)
            fail_msg("state: %s", err.msg);
        free(path);
        opt.states = &states;
    }
    ndp_facts_fill_all(&r->set, 0);
    ndp_result_judge(r, rs, &opt);
    ndp_findings_sort(&r->findings);
    ndp_states_release(&states);
}

static bool is_version_finding(const struct ndp_finding *f)
{
    return strcmp(f->category, "version-path") == 0;
}

static void row_test(void **state)
{
    const struct row *row = *state;
    struct ndp_result r;
    struct ndp_buf got = NDP_BUF_INIT, text = NDP_BUF_INIT;
    size_t i;

    judge(&r, row->changes, NDP_ARRAY_SIZE(row->changes), row->state,
          test_ruleset);
    for (i = 0; i < r.findings.nr; i++) {
        const struct ndp_finding *f = &r.findings.items[i];
        if (!is_version_finding(f))
            continue;
        ndp_buf_addf(&got, "%s%s/%s", got.len ? "," : "", f->rule_id,
                     ndp_verdict_name(f->verdict));
        ndp_buf_addf(&text, "%s\n%s\n%s\n%s\n%s\n%s\n", f->message,
                     f->help ? f->help : "", f->before, f->after, f->path,
                     f->pool ? f->pool : "");
        /* A check never rebuilds: nothing for the impact to count. */
        assert_int_equal(f->pools, NDP_POOLS_NONE);
    }
    if (strcmp(got.buf, row->want) != 0)
        fail_msg("%s\n  got  [%s]\n  want [%s]\n%s", row->name, got.buf,
                 row->want, text.buf);
    if (row->says && !strstr(text.buf, row->says))
        fail_msg("%s: no '%s' in\n%s", row->name, row->says, text.buf);
    if (row->says_too && !strstr(text.buf, row->says_too))
        fail_msg("%s: no '%s' in\n%s", row->name, row->says_too, text.buf);
    if (row->never && strstr(text.buf, row->never))
        fail_msg("%s: '%s' printed in\n%s", row->name, row->never, text.buf);
    ndp_buf_release(&got);
    ndp_buf_release(&text);
    ndp_result_release(&r);
}

/* ---- what each finding carries ---- */

/* The one finding of 'id' in 'r'. */
static const struct ndp_finding *only(const struct ndp_result *r,
                                      const char *id)
{
    const struct ndp_finding *found = NULL;
    size_t i, n = 0;

    for (i = 0; i < r->findings.nr; i++)
        if (strcmp(r->findings.items[i].rule_id, id) == 0) {
            found = &r->findings.items[i];
            n++;
        }
    if (n != 1)
        fail_msg("expected one %s finding, found %zu", id, n);
    return found;
}

/* Judges 'changes' and returns the one finding of 'id' (borrowed from 'r'). */
static const struct ndp_finding *judge_only(struct ndp_result *r,
                                            const struct change_spec *changes,
                                            size_t nr, const char *id)
{
    judge(r, changes, nr, NULL, test_ruleset);
    return only(r, id);
}

/* Severity, scope, resource, path, values and line of a control plane's. */
static void plane_finding__where_and_what(void **state)
{
    static const struct change_spec changes[] = {
        CH(AZ_CLUSTER, 0, NULL, KV("1.29.4"), KV("1.31")),
    };
    struct ndp_result r;
    const struct ndp_finding *f;

    (void)state;
    f = judge_only(&r, changes, NDP_ARRAY_SIZE(changes), "NDP601");
    assert_int_equal(f->severity, NDP_SEVERITY_ERROR);
    assert_int_equal(f->scope, NDP_SCOPE_CLUSTER);
    assert_string_equal(f->resource, "azurerm_kubernetes_cluster.main");
    assert_string_equal(f->path, "kubernetes_version");
    assert_string_equal(f->before, "\"1.29.4\"");
    assert_string_equal(f->after, "\"1.31\"");
    assert_null(f->pool);
    assert_false(f->refused_now);
    assert_non_null(f->help);
    assert_non_null(strstr(f->message, "Control plane minor version skip: "));
    ndp_result_release(&r);
}

/* A pool's: its scope, its name, the path of its version in each notation. */
static void pool_finding__where_and_what(void **state)
{
    static const struct change_spec changes[] = {
        CH(ARM_CLUSTER, 0, NULL,
          BODY("1.30.5", PIN("a", "1.30.5")),
          BODY("1.30.5", PIN("a", "1.30.1"))),
        CH(AZ_POOL, 0, "np1", OV("1.30.5"), OV("1.28.5")),
    };
    struct ndp_result r;
    size_t i, n = 0;

    (void)state;
    judge(&r, changes, NDP_ARRAY_SIZE(changes), NULL, test_ruleset);
    for (i = 0; i < r.findings.nr; i++) {
        const struct ndp_finding *f = &r.findings.items[i];
        if (strcmp(f->rule_id, "NDP606") != 0)
            continue;
        n++;
        assert_int_equal(f->severity, NDP_SEVERITY_ERROR);
        assert_int_equal(f->scope, NDP_SCOPE_NODEPOOL);
        if (strcmp(f->pool, "a") == 0) {
            assert_string_equal(f->path,
                                "properties.agentPoolProfiles[name=a]."
                                "orchestratorVersion");
            assert_string_equal(f->resource, "azapi_resource.aks");
            assert_string_equal(f->after, "\"1.30.1\"");
        } else {
            assert_string_equal(f->pool, "np1");
            assert_string_equal(f->path, "orchestrator_version");
            assert_string_equal(f->before, "\"1.30.5\"");
        }
    }
    assert_int_equal(n, 2);
    ndp_result_release(&r);
}

/* A warning stays a warning, whatever the policy says: nothing is frozen. */
static void may_refuse__a_warning_under_block(void **state)
{
    static const struct change_spec changes[] = {
        CH(ARM_CLUSTER, 0, NULL,
          P("'nodeDisruptionProfile':{'nodeDisruptionPolicy':'Block'},"
            "'kubernetesVersion':'1.30.5'"),
          P("'nodeDisruptionProfile':{'nodeDisruptionPolicy':'Block'},"
            "'kubernetesVersion':'1.30.5'")),
        CH(ARM_POOL, 0, "np1", ARM_OV("1.28.5"), ARM_OV("1.30.5")),
    };
    struct ndp_result r;
    const struct ndp_finding *f;

    (void)state;
    f = judge_only(&r, changes, NDP_ARRAY_SIZE(changes), "NDP607");
    assert_int_equal(f->verdict, NDP_VERDICT_MAY_REFUSE);
    assert_int_equal(f->severity, NDP_SEVERITY_WARNING);
    ndp_result_release(&r);
}

/* A rule set without the category's file has no version checks. */
static void rules_without_the_file__no_checks(void **state)
{
    static const char upgrade_only[] =
        "{\"category\":\"upgrade\",\"title\":\"t\",\"why\":\"w\","
        "\"advice\":\"a\",\"rules\":[{\"id\":\"NDP401\",\"scope\":\"cluster\","
        "\"class\":\"upgrade\",\"summary\":\"s\",\"watch\":[{\"notation\":"
        "\"azurerm\",\"resource\":\"^azurerm_kubernetes_cluster$\",\"path\":"
        "\"^kubernetes_version$\"}],\"transitions\":\"any-change\"}]}";
    static const struct change_spec changes[] = {
        CH(AZ_CLUSTER, 0, NULL, KV("1.29.4"), KV("1.27")),
        CH(AZ_POOL, 0, "np1", OV("1.29.4"), OV("1.31.5")),
    };
    struct ndp_ruleset *rs = NULL;
    struct ndp_error err = NDP_ERROR_INIT;
    struct ndp_result r;
    size_t i;

    (void)state;
    assert_int_equal(ndp_rules_load_text(&rs, "upgrade.json", upgrade_only,
                                         sizeof(upgrade_only) - 1, &err),
                     0);
    judge(&r, changes, NDP_ARRAY_SIZE(changes), NULL, rs);
    assert_true(r.findings.nr > 0);
    for (i = 0; i < r.findings.nr; i++)
        assert_false(is_version_finding(&r.findings.items[i]));
    ndp_result_release(&r);
    ndp_ruleset_free(rs);
}

static struct test_list tests;

static int setup(void **state)
{
    return test_dir_make(state) || test_rules_load_dir(state);
}

static int teardown(void **state)
{
    return test_rules_free(state) | test_dir_remove(state);
}

int main(void)
{
    ADD_ROWS(&tests, rows, row_test);
    ADD_TEST(&tests, plane_finding__where_and_what);
    ADD_TEST(&tests, pool_finding__where_and_what);
    ADD_TEST(&tests, may_refuse__a_warning_under_block);
    ADD_TEST(&tests, rules_without_the_file__no_checks);
    return cmocka_run_group_tests_name("versions", tests.items, setup,
                                       teardown);
}

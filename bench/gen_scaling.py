#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the inputs of bench/scaling.sh: plans (and a settings file or a
baseline) whose size is one number N, for the lookups that must not grow
faster than n log n:

  pools     one azurerm cluster whose network policy changes (every pool
            rebuilt) and N azurerm_kubernetes_cluster_node_pool resources,
            each with a pool-level (rotate) change
  armpools  one azapi cluster whose body lists N agentPoolProfiles before
            and after, the network policy changing
  clusters  N azurerm clusters, each with a network policy change and one
            node pool with a pool-level change (linked by cluster id)
  waivers   N node pools with a pool-level finding each, and a settings
            file of N waivers: N/2 distinct literal matches that each cover
            one finding, N/2 distinct globs ('*pool-x<i>*') that cover none
  baseline  N node pools with a pool-level finding each, and a baseline of
            180*N fingerprints (with --known, N/2 of them those findings'
            own; at N = 5,000 that is 900,000 fingerprints, 60 MB)

    python3 bench/gen_scaling.py --case pools --n 20000 --out /tmp/dir

writes /tmp/dir/plan.json, and /tmp/dir/ndplint.json or baseline.json.
Deterministic.  The expected counts are printed as one JSON line so the
functional test can check them.  No plan declares a node disruption
profile, so each cluster also gets its one NDP007 (profile-undeclared)
note.
"""
import argparse
import hashlib
import json
import os

SUB = "/subscriptions/00000000-0000-0000-0000-000000000000"
RG = SUB + "/resourceGroups/rg-big/providers/Microsoft.ContainerService"


def cluster_rc(name, before_policy="", after_policy="azure"):
    def doc(policy):
        return {"id": RG + "/managedClusters/" + name, "name": name,
                "kubernetes_version": "1.37",
                "network_profile": [{"network_plugin": "azure",
                                     "network_policy": policy}],
                "default_node_pool": [{"name": "system", "node_count": 3,
                                       "vm_size": "Standard_D4ds_v5"}]}
    return {"address": "azurerm_kubernetes_cluster." + name,
            "mode": "managed", "type": "azurerm_kubernetes_cluster",
            "name": name,
            "provider_name": "registry.terraform.io/hashicorp/azurerm",
            "change": {"actions": ["update"], "before": doc(before_policy),
                       "after": doc(after_policy), "after_unknown": {},
                       "before_sensitive": {}, "after_sensitive": {}}}


def pool_rc(cluster, name, change=True):
    def doc(size):
        return {"id": RG + "/managedClusters/%s/agentPools/%s" % (cluster, name),
                "name": name, "node_count": 2, "vm_size": size,
                "kubernetes_cluster_id": RG + "/managedClusters/" + cluster,
                "temporary_name_for_rotation": "tmp",
                "upgrade_settings": [{"max_surge": "50%"}]}
    after = "Standard_D8ds_v5" if change else "Standard_D4ds_v5"
    return {"address": 'azurerm_kubernetes_cluster_node_pool.pool["%s"]' % name,
            "mode": "managed", "type": "azurerm_kubernetes_cluster_node_pool",
            "name": "pool", "index": name,
            "provider_name": "registry.terraform.io/hashicorp/azurerm",
            "change": {"actions": ["update"], "before": doc("Standard_D4ds_v5"),
                       "after": doc(after), "after_unknown": {},
                       "before_sensitive": {}, "after_sensitive": {}}}


def arm_cluster_rc(name, n):
    def doc(policy):
        pools = [{"name": "p%06d" % i, "count": 2, "mode": "User",
                  "osType": "Linux", "upgradeSettings": {"maxSurge": "50%"}}
                 for i in range(n)]
        return {"id": RG + "/managedClusters/" + name, "name": name,
                "type": "Microsoft.ContainerService/managedClusters@2025-10-01",
                "parent_id": SUB + "/resourceGroups/rg-big",
                "body": {"properties": {
                    "kubernetesVersion": "1.37",
                    "networkProfile": {"networkPlugin": "azure",
                                       "networkPolicy": policy} if policy else {"networkPlugin": "azure"},
                    "agentPoolProfiles": pools}}}
    return {"address": "azapi_resource." + name, "mode": "managed",
            "type": "azapi_resource", "name": name,
            "provider_name": "registry.terraform.io/azure/azapi",
            "change": {"actions": ["update"], "before": doc(""),
                       "after": doc("azure"), "after_unknown": {},
                       "before_sensitive": {}, "after_sensitive": {}}}


def plan(changes):
    return {"format_version": "1.2", "terraform_version": "1.9.8",
            "resource_changes": changes}


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", required=True,
                    choices=["pools", "armpools", "clusters", "waivers",
                             "baseline"])
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--known", help="baseline: a baseline written by "
                    "--write-baseline for the same plan; its first N/2 "
                    "fingerprints are listed among the noise")
    a = ap.parse_args()
    n = a.n
    os.makedirs(a.out, exist_ok=True)
    expect = {}
    if a.case == "pools":
        rcs = [cluster_rc("big")] + [pool_rc("big", "p%06d" % i)
                                     for i in range(n)]
        write(os.path.join(a.out, "plan.json"), plan(rcs))
        # every pool is rebuilt: the n pools and the system pool; + NDP007
        expect = {"findings": n + 2, "impact_pools": n + 1,
                  "impact_nodes": 2 * n + 3}
    elif a.case == "armpools":
        write(os.path.join(a.out, "plan.json"),
              plan([arm_cluster_rc("big", n)]))
        expect = {"findings": 2, "impact_pools": n, "impact_nodes": 2 * n}
    elif a.case == "clusters":
        rcs = [cluster_rc("c%06d" % i) for i in range(n)]
        rcs += [pool_rc("c%06d" % i, "apps") for i in range(n)]
        for i, rc in enumerate(rcs[n:]):
            rc["address"] = 'azurerm_kubernetes_cluster_node_pool.apps["c%06d"]' % i
        write(os.path.join(a.out, "plan.json"), plan(rcs))
        expect = {"findings": 3 * n, "clusters": n}
    elif a.case == "waivers":
        rcs = [cluster_rc("big", "azure", "azure")]
        rcs += [pool_rc("big", "p%06d" % i) for i in range(n)]
        write(os.path.join(a.out, "plan.json"), plan(rcs))
        half = n // 2
        waivers = []
        for i in range(half):
            waivers.append({"rule": "NDP502",
                            "match": 'azurerm_kubernetes_cluster_node_pool.'
                                     'pool?"p%06d"?' % i,
                            "reason": "approved", "expires": "2030-01-01"})
        for i in range(n - half):
            waivers.append({"rule": "NDP502", "match": "*pool-x%06d*" % i,
                            "reason": "never matches",
                            "expires": "2030-01-01"})
        write(os.path.join(a.out, "ndplint.json"), {"waivers": waivers})
        expect = {"findings": n + 1, "suppressed": half}
    else:
        rcs = [cluster_rc("big", "azure", "azure")]
        rcs += [pool_rc("big", "p%06d" % i) for i in range(n)]
        write(os.path.join(a.out, "plan.json"), plan(rcs))
        known = []
        if a.known:
            with open(a.known) as f:
                known = json.load(f)["fingerprints"][: n // 2]
        prints = known + [hashlib.sha256(b"noise%d" % i).hexdigest()
                          for i in range(180 * n - len(known))]
        write(os.path.join(a.out, "baseline.json"),
              {"ndplint_baseline": 1, "fingerprints": sorted(prints)})
        expect = {"findings": n + 1 - len(known),
                  "baseline_known": len(known)}
    print(json.dumps(expect))


if __name__ == "__main__":
    main()

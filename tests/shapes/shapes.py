#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""shapes.py - one logical change gives the same findings in every notation
and input shape, each finding exactly once (issue #13).

For every row of the transition table (tests/transitions.json, the table
tests/unit/test_engine.c runs through the engine) this writes the change as
complete input documents in every shape it can take:

  Terraform azurerm rows (azurerm_kubernetes_cluster, its default_node_pool,
  azurerm_kubernetes_cluster_node_pool):
    tf                    the row as written, in a real-shaped plan
    tf-null, tf-absent, tf-empty-string, tf-empty-list, tf-empty-block
                          every unset value (null, absent key, "", [], and for
                          blocks [] / [{}]) written the one way
    tf-full-schema        every attribute of the resource present the way an
                          azurerm plan writes it, most of them null
    tf-node-pool-resource / tf-default-node-pool
                          a default_node_pool change written on an
                          azurerm_kubernetes_cluster_node_pool, and back
  ARM rows (managedClusters, managedClusters/agentPools), for the row's own
  resource and for the same pool change written the other way (a pool in the
  cluster body's agentPoolProfiles <-> an agentPools resource):
    azapi_resource, azapi_update_resource, each with body as an object and as
    a JSON string (azapi <= 1.15);
    what-if, CLI (top-level changes) and REST (properties.changes) wrappers:
    snapshots (with the delta what-if prints beside them), delta only with
    Modify entries (an array on the path written as one Modify of the whole
    array), delta only with Array entries and children at every depth where
    an array sits on the path; each of these with NoEffect entries alongside.
  Noise, added to tf, azapi_resource and two what-if shapes: a pool added, a
  pool removed, pools reordered, tags changed, a non-AKS resource with a
  duplicated key, a no-op entry for the cluster.  One more noise, a
  resource whose "type" (what-if: "resourceId") is written twice with two
  values, must be refused instead (exit 2 naming the key): readers disagree
  on which one counts.

A row may name Kubernetes objects ("kubernetes": a list in the API's shape,
each with an optional "_action", "create" or the default "no-op"): pod
disruption budgets and workloads beside the change.  Every Terraform shape
carries them as resource changes, alternately as the kubernetes provider's
resources (kubernetes_pod_disruption_budget_v1, kubernetes_deployment_v1,
kubernetes_stateful_set_v1) and as kubernetes_manifest resources; every
what-if shape gets them from a 'kubectl get ... -o json' List (with
managedFields) given to --cluster-state.  A row with an object the apply
creates has no what-if shapes: the live state cannot hold it.

Each document is judged by the ndplint binary with --profile Block and a
fixed --at.  The test checks, per row: every shape gives the same set of
(category, verdict, scope); that set is the one the row's expected rule ids
mean (empty for a near-miss); no (resource, path, rule) appears twice; the
binary exited 0 or 1 (1 exactly when a finding is an error) and wrote a JSON
report naming the input format.  Where a shape cannot express a transition
the generator skips it and the comment at the skip says why.

Usage: shapes.py NDPLINT [--table FILE] [--rules DIR] [--keep DIR]
                 [--work DIR] [--jobs N] [--row TEXT] [--list-skips]
Exit 0 when every document agrees, 1 otherwise (the failures are listed,
each with the row, the two shapes that disagree and a file to reproduce
with), 2 on a usage error.
"""

import argparse
import concurrent.futures
import copy
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))

AT = "2026-12-01T00:00:00Z"
NDPLINT_ARGS = ["--no-config", "--profile", "Block", "--at", AT,
                "--format", "json"]

SUB = "6f1c2a3e-5b7d-4e21-9c0a-2d4b8e1f7a90"
RG_ID = "/subscriptions/%s/resourceGroups/rg" % SUB
MC_TYPE = "Microsoft.ContainerService/managedClusters"
AP_TYPE = MC_TYPE + "/agentPools"
MT_TYPE = MC_TYPE + "/maintenanceConfigurations"
MC_ID = RG_ID + "/providers/" + MC_TYPE + "/aks"
POOL = "np1"
POOL_ID = MC_ID + "/agentPools/" + POOL
API = "2026-04-02-preview"
AZ = "azurerm_kubernetes_cluster"
AZP = "azurerm_kubernetes_cluster_node_pool"
AZURERM = "registry.terraform.io/hashicorp/azurerm"
AZAPI = "registry.terraform.io/azure/azapi"

MISSING = object()

# The verdict a rule class has under --profile Block.  Version-gated rules
# are judged as on 1.37 and later when the version is unknown, and every
# version this test writes is 1.37, so they are refused like covered ones.
# An upgrade is a rollout of its own (and marks the covered changes of the
# same resource change bypassed).
VERDICT_BY_CLASS = {
    "covered": "rejected",
    "version-gated": "rejected",
    "rotate": "rotate",
    "upgrade": "rollout",
    "check": None,   # a check's verdict varies: the row names it
}


# ---------------------------------------------------------------- helpers

def is_unset(v):
    return v is MISSING or v is None or v == "" or v == [] or v == {}


def dump(v):
    return json.dumps(v, indent=1, sort_keys=False)


# ---- Kubernetes objects beside a row's change (drain blockers) ----------

KUBE = "registry.terraform.io/hashicorp/kubernetes"
KUBECTL_SUFFIX = ".kubectl.json"
KUBE_TYPES = {"PodDisruptionBudget": "kubernetes_pod_disruption_budget_v1",
              "Deployment": "kubernetes_deployment_v1",
              "StatefulSet": "kubernetes_stateful_set_v1"}


def kube_clean(obj):
    return {k: v for k, v in obj.items() if not k.startswith("_")}


def kube_amount(spec, key):
    """IntOrString as the provider writes it: a string, "" when unset."""
    return str(spec[key]) if key in spec else ""


def kube_provider_doc(obj):
    """(type, values) of an API-shaped object as the kubernetes provider's
    resource, or None for a kind it has no resource for."""
    kind, meta = obj["kind"], obj.get("metadata", {})
    spec = obj.get("spec", {})
    if kind not in KUBE_TYPES:
        return None
    m = [{"name": meta.get("name"), "namespace": meta.get("namespace",
                                                          "default"),
          "labels": meta.get("labels"), "annotations": None,
          "generate_name": "", "generation": 1, "resource_version": "7201",
          "uid": "0c6a4f8e-2f59-4a52-9d0e-6f1b2a3c4d5e"}]

    def selector(sel):
        if sel is None:
            return []
        return [{"match_labels": sel.get("matchLabels") or {},
                 "match_expressions": [
                     {"key": e["key"], "operator": e["operator"],
                      "values": e.get("values") or []}
                     for e in sel.get("matchExpressions", [])]}]
    if kind == "PodDisruptionBudget":
        return KUBE_TYPES[kind], {"metadata": m, "spec": [{
            "min_available": kube_amount(spec, "minAvailable"),
            "max_unavailable": kube_amount(spec, "maxUnavailable"),
            "selector": selector(spec.get("selector"))}]}
    tmpl = spec.get("template", {})
    return KUBE_TYPES[kind], {"metadata": m, "spec": [{
        "replicas": kube_amount(spec, "replicas") or None,
        "selector": selector(spec.get("selector")),
        "template": [{"metadata": [{"labels": tmpl.get("metadata", {})
                                    .get("labels")}],
                      "spec": [{"container": [{"name": "app",
                                               "image": "nginx:1.27"}]}]}]}]}


def kube_entries(objs, as_manifest):
    """resource_changes entries of a row's Kubernetes objects."""
    out = []
    for i, obj in enumerate(objs):
        action = obj.get("_action", "no-op")
        api = kube_clean(obj)
        pdoc = None if as_manifest else kube_provider_doc(api)
        if pdoc:
            rtype, doc = pdoc
            unknown = {"metadata": [{"uid": True, "resource_version": True,
                                     "generation": True}]} \
                if action == "create" else {}
        else:
            rtype = "kubernetes_manifest"
            doc = {"manifest": api, "object": None if action == "create"
                   else api, "computed_fields": None, "field_manager": [],
                   "timeouts": None, "wait": []}
            unknown = {"object": True} if action == "create" else {}
        e = rc_entry("%s.k%d" % (rtype, i), rtype, [action],
                     None if action == "create" else doc, doc, KUBE, {}, {})
        e["change"]["after_unknown"] = unknown
        out.append(e)
    return out


def kube_in_plan(text, objs, as_manifest):
    """The plan 'text' with the objects first in resource_changes: written
    into the text, which may hold what a json module cannot read back the
    same (a duplicated key)."""
    at = text.index('"resource_changes": [') + len('"resource_changes": [')
    entries = dump(kube_entries(objs, as_manifest))
    return text[:at] + entries[1:-1].rstrip() + "," + text[at:]


def kubectl_list(objs):
    items = []
    for obj in objs:
        api = copy.deepcopy(kube_clean(obj))
        meta = api.setdefault("metadata", {})
        meta.setdefault("namespace", "default")
        meta.update({"uid": "5d1e2c3b-0000-4000-8000-00000000000%d" %
                     len(items), "resourceVersion": "9%d" % len(items),
                     "creationTimestamp": "2026-10-01T08:00:00Z",
                     "managedFields": [{"manager": "helm", "operation":
                                        "Update", "apiVersion":
                                        api.get("apiVersion"),
                                        "fieldsType": "FieldsV1",
                                        "fieldsV1": {"f:spec": {}}}]})
        api["status"] = {"observedGeneration": 1}
        items.append(api)
    return dump({"apiVersion": "v1", "kind": "List", "items": items,
                 "metadata": {"resourceVersion": ""}})


def with_kube(row, shapes):
    """The shapes of a row with Kubernetes objects beside the change."""
    objs = row.get("kubernetes")
    if not objs:
        return shapes
    created = any(o.get("_action") == "create" for o in objs)
    out = []
    for i, (shape, text) in enumerate(shapes):
        if isinstance(text, Skip) or shape.endswith("duplicated-type"):
            out.append((shape, text))
        elif shape.split(":")[-1].startswith("whatif"):
            out.append((shape, Skip("a live state holds no object the "
                                    "apply creates") if created
                        else (text, kubectl_list(objs))))
        else:
            out.append((shape, kube_in_plan(text, objs, i % 2 == 1)))
    return out


class Skip(Exception):
    """A shape that cannot express the row; the message says why."""


# Attributes whose [] means "no block" rather than "empty list of values".
TF_BLOCKS = {
    "network_profile", "http_proxy_config", "identity", "kubelet_identity",
    "service_principal", "api_server_access_profile", "windows_profile",
    "gmsa", "linux_profile", "ssh_key", "bootstrap_profile",
    "default_node_pool", "kubelet_config", "linux_os_config",
    "upgrade_settings", "node_network_profile",
}


def site_kind(name, values):
    """string, scalar, list, block or map for an attribute, from its values."""
    for v in values:
        if v is MISSING or v is None:
            continue
        if isinstance(v, str):
            return "string"
        if isinstance(v, bool) or isinstance(v, (int, float)):
            return "scalar"
        if isinstance(v, list) and v:
            return "block" if all(isinstance(x, dict) for x in v) else "list"
        if isinstance(v, dict) and v:
            return "map"
    if any(isinstance(v, list) for v in values):
        return "block" if name in TF_BLOCKS else "list"
    if any(isinstance(v, dict) for v in values):
        return "map"
    return None


# Unset representations and the attribute kinds each one can stand for.
UNSET_REPS = {
    "null": (None, None),
    "absent": (MISSING, None),
    "empty-string": ("", {"string"}),
    "empty-list": ([], {"list", "block"}),
    "empty-block": ([{}], {"block"}),
}


def rewrite_unset(b, a, rep):
    """Both sides of a Terraform value with every unset attribute written as
    'rep'.  b or a may be MISSING (the other side has the block)."""
    value, kinds = UNSET_REPS[rep]

    def side(x, y):
        """x: this side's dict (or MISSING), y: the other side's."""
        if x is MISSING:
            return MISSING
        out = {}
        keys = list(x.keys()) + [k for k in (y.keys() if y is not MISSING
                                              else []) if k not in x]
        for k in keys:
            xv = x.get(k, MISSING)
            yv = y.get(k, MISSING) if y is not MISSING else MISSING
            if is_unset(xv):
                kind = site_kind(k, [xv, yv])
                if kinds is None or kind in kinds:
                    if value is not MISSING:
                        out[k] = copy.deepcopy(value)
                elif xv is not MISSING:
                    out[k] = xv
                continue
            out[k] = sub(xv, yv)
        return out

    def sub(xv, yv):
        if isinstance(xv, dict):
            return side(xv, yv if isinstance(yv, dict) else MISSING)
        if isinstance(xv, list) and xv and \
                all(isinstance(e, dict) for e in xv):
            res = []
            for i, e in enumerate(xv):
                other = (yv[i] if isinstance(yv, list) and i < len(yv)
                         and isinstance(yv[i], dict) else MISSING)
                res.append(side(e, other))
            return res
        return xv

    return side(b, a), side(a, b)


def merge_skeleton(skel, doc):
    """doc with every attribute of skel it lacks; blocks merged by element."""
    out = {}
    for k, sv in skel.items():
        if k not in doc:
            out[k] = copy.deepcopy(sv)
    for k, dv in doc.items():
        sv = skel.get(k, MISSING)
        bskel = BLOCK_SKELETONS.get(k)
        if (bskel is not None and isinstance(dv, list) and dv
                and all(isinstance(e, dict) for e in dv)):
            out[k] = [merge_skeleton(bskel, e) for e in dv]
        elif isinstance(dv, dict) and isinstance(sv, dict):
            out[k] = merge_skeleton(sv, dv)
        else:
            out[k] = dv
    return out


def changed_paths(b, a, prefix=""):
    """Dotted paths (arrays whole) where b and a differ."""
    out = []
    if isinstance(b, dict) and isinstance(a, dict):
        for k in list(b.keys()) + [k for k in a if k not in b]:
            p = prefix + "." + k if prefix else k
            if b.get(k, MISSING) != a.get(k, MISSING):
                out += changed_paths(b.get(k, MISSING), a.get(k, MISSING), p) \
                    or [p]
        return out
    return [prefix] if b != a else []


# ---------------------------------------------------- Terraform skeletons
# The attributes of azurerm 4.x resources the way 'terraform show -json'
# writes them after a refresh: unset strings and numbers null, unset blocks
# [], a few defaults filled in by the provider.

FQDN = "aks-8x2k1q7f.hcp.westeurope.azmk8s.io"
NODE_RG_ID = "/subscriptions/%s/resourceGroups/MC_rg_aks_westeurope" % SUB
CRG = RG_ID + "/providers/Microsoft.Compute/capacityReservationGroups/"

CLUSTER_SKELETON = {
    "aci_connector_linux": [], "api_server_access_profile": [],
    "auto_scaler_profile": [], "automatic_upgrade_channel": None,
    "azure_active_directory_role_based_access_control": [],
    "azure_policy_enabled": None, "bootstrap_profile": [],
    "confidential_computing": [], "cost_analysis_enabled": None,
    "current_kubernetes_version": "1.37.1",
    "custom_ca_trust_certificates_base64": None,
    "default_node_pool": [{}],
    "disk_encryption_set_id": None, "dns_prefix": "aks",
    "dns_prefix_private_cluster": None, "edge_zone": None,
    "fqdn": FQDN,
    "http_application_routing_enabled": None,
    "http_application_routing_zone_name": None, "http_proxy_config": [],
    "identity": [{"identity_ids": None,
                  "principal_id": "0b5d1e22-7c3f-4d8a-9e61-3f2a4c5b6d7e",
                  "tenant_id": "72f988bf-86f1-41af-91ab-2d7cd011db47",
                  "type": "SystemAssigned"}],
    "image_cleaner_enabled": None, "image_cleaner_interval_hours": None,
    "ingress_application_gateway": [], "key_management_service": [],
    "key_vault_secrets_provider": [], "kube_admin_config": [],
    "kube_admin_config_raw": "",
    "kube_config": [{"client_certificate": "", "client_key": "",
                     "cluster_ca_certificate": "LS0t",
                     "host": "https://" + FQDN + ":443", "password": "x",
                     "username": "clusterUser_rg_aks"}],
    "kube_config_raw": "apiVersion: v1\n", "kubelet_identity": [
        {"client_id": "3c9e1a7b-0f2d-4b6e-8a15-9d7c2e4f6a81",
         "object_id": "e4a7c2d1-9b3f-4e8a-a6d5-1c2b3a4d5e6f",
         "user_assigned_identity_id": NODE_RG_ID + "/providers/"
         "Microsoft.ManagedIdentity/userAssignedIdentities/aks-agentpool"}],
    "kubernetes_version": "1.37.1", "linux_profile": [],
    "local_account_disabled": None, "location": "westeurope",
    "maintenance_window": [], "maintenance_window_auto_upgrade": [],
    "maintenance_window_node_os": [], "microsoft_defender": [],
    "monitor_metrics": [], "name": "aks", "network_profile": [{}],
    "node_os_upgrade_channel": None,
    "node_resource_group": "MC_rg_aks_westeurope",
    "node_resource_group_id": NODE_RG_ID,
    "oidc_issuer_enabled": None, "oidc_issuer_url": None, "oms_agent": [],
    "open_service_mesh_enabled": None, "portal_fqdn": None,
    "private_cluster_enabled": False,
    "private_cluster_public_fqdn_enabled": False,
    "private_dns_zone_id": None, "private_fqdn": None,
    "resource_group_name": "rg", "role_based_access_control_enabled": True,
    "run_command_enabled": True, "service_mesh_profile": [],
    "service_principal": [], "sku_tier": "Free", "storage_profile": [],
    "support_plan": "KubernetesOfficial", "tags": None, "timeouts": None,
    "upgrade_override": [], "web_app_routing": [], "windows_profile": [],
    "workload_autoscaler_profile": [], "workload_identity_enabled": False,
}

POOL_COMMON = {
    "auto_scaling_enabled": False, "capacity_reservation_group_id": None,
    "fips_enabled": False, "gpu_instance": None,
    "host_encryption_enabled": False, "host_group_id": None,
    "kubelet_config": [], "kubelet_disk_type": "OS", "linux_os_config": [],
    "max_count": None, "max_pods": 110, "min_count": None, "node_count": 3,
    "node_labels": {}, "node_network_profile": [],
    "node_public_ip_enabled": False, "node_public_ip_prefix_id": None,
    "orchestrator_version": "1.37.1", "os_disk_size_gb": 128,
    "os_disk_type": "Managed", "os_sku": "Ubuntu", "pod_subnet_id": None,
    "proximity_placement_group_id": None, "scale_down_mode": "Delete",
    "snapshot_id": None, "tags": None, "temporary_name_for_rotation": None,
    "ultra_ssd_enabled": False, "upgrade_settings": [
        {"drain_timeout_in_minutes": 0, "max_surge": "10%",
         "node_soak_duration_in_minutes": 0}],
    "vm_size": "Standard_D4ds_v5", "vnet_subnet_id": None,
    "workload_runtime": None, "zones": None,
}

DEFAULT_POOL_SKELETON = dict(POOL_COMMON, name="system",
                             only_critical_addons_enabled=False,
                             type="VirtualMachineScaleSets")

NODE_POOL_SKELETON = dict(POOL_COMMON, eviction_policy=None, mode="User",
                          node_taints=None, os_type="Linux",
                          priority="Regular", spot_max_price=-1,
                          timeouts=None, windows_profile=[])

BLOCK_SKELETONS = {
    "default_node_pool": DEFAULT_POOL_SKELETON,
    "network_profile": {
        "advanced_networking": [], "dns_service_ip": "10.0.0.10",
        "ip_versions": None, "load_balancer_profile": [],
        "load_balancer_sku": "standard", "nat_gateway_profile": [],
        "network_data_plane": None, "network_mode": None,
        "network_plugin": "azure", "network_plugin_mode": None,
        "network_policy": None, "outbound_type": None, "pod_cidr": None,
        "pod_cidrs": None, "service_cidr": "10.0.0.0/16",
        "service_cidrs": None},
    "http_proxy_config": {"http_proxy": None, "https_proxy": None,
                          "no_proxy": None, "trusted_ca": None},
    "identity": {"identity_ids": None, "principal_id": None,
                 "tenant_id": None, "type": None},
    "kubelet_identity": {"client_id": None, "object_id": None,
                         "user_assigned_identity_id": None},
    "service_principal": {"client_id": None, "client_secret": None},
    "api_server_access_profile": {"authorized_ip_ranges": None,
                                  "subnet_id": None,
                                  "virtual_network_integration_enabled": None},
    "windows_profile": {"admin_password": None, "admin_username": None,
                        "gmsa": [], "license": None},
    "gmsa": {"dns_server": None, "root_domain": None},
    "linux_profile": {"admin_username": None, "ssh_key": []},
    "ssh_key": {"key_data": None},
    "bootstrap_profile": {"artifact_source": None,
                          "container_registry_id": None},
    "kubelet_config": {"allowed_unsafe_sysctls": None,
                       "container_log_max_files": None,
                       "container_log_max_size_mb": None,
                       "cpu_cfs_quota_enabled": None,
                       "cpu_cfs_quota_period": None,
                       "cpu_manager_policy": None,
                       "image_gc_high_threshold": None,
                       "image_gc_low_threshold": None, "pod_max_pid": None,
                       "topology_manager_policy": None},
}

CLUSTER_SENSITIVE = {"kube_admin_config": True, "kube_admin_config_raw": True,
                     "kube_config": True, "kube_config_raw": True}


# ------------------------------------------------------------- documents

def plan_text(resource_changes, raw=None):
    plan = {
        "format_version": "1.2",
        "terraform_version": "1.9.8",
        "planned_values": {"root_module": {}},
        "resource_changes": resource_changes,
        "configuration": {"provider_config": {
            "azurerm": {"name": "azurerm", "full_name": AZURERM},
            "azapi": {"name": "azapi", "full_name": AZAPI}},
            "root_module": {}},
        "timestamp": "2026-11-30T09:00:00Z",
        "applyable": True,
        "complete": True,
        "errored": False,
    }
    return with_raw(dump(plan), raw)


def with_raw(text, raw):
    """Replaces each '"__raw_N__": 0' member with raw[N] (text a json module
    cannot write, e.g. a duplicated key)."""
    for i, r in enumerate(raw or []):
        text = text.replace('"__raw_%d__": 0' % i, r)
    return text


def rc_entry(address, rtype, actions, before, after, provider,
             before_sensitive=None, after_sensitive=None):
    name = address.split(".")[-1]
    return {
        "address": address, "mode": "managed", "type": rtype, "name": name,
        "provider_name": provider,
        "change": {
            "actions": actions,
            "before": before,
            "after": after,
            "after_unknown": {},
            "before_sensitive": before_sensitive if before is not None
            else False,
            "after_sensitive": after_sensitive if after is not None
            else False,
        },
    }


def tf_cluster_attrs(doc):
    out = {"name": "aks", "resource_group_name": "rg", "location":
           "westeurope", "id": MC_ID}
    out.update(doc)
    return out


def tf_pool_attrs(doc, name=POOL):
    out = {"name": name, "kubernetes_cluster_id": MC_ID,
           "id": MC_ID + "/agentPools/" + name}
    out.update(doc)
    return out


def tf_change(rtype, before, after, full=False):
    """The resource_changes entry of a Terraform row."""
    if rtype == AZ:
        b, a = tf_cluster_attrs(before), tf_cluster_attrs(after)
        if full:
            b = merge_skeleton(CLUSTER_SKELETON, b)
            a = merge_skeleton(CLUSTER_SKELETON, a)
        sens = CLUSTER_SENSITIVE if full else {}
        return rc_entry(AZ + ".aks", AZ, ["update"], b, a, AZURERM,
                        dict(sens), dict(sens))
    b, a = tf_pool_attrs(before), tf_pool_attrs(after)
    if full:
        b = merge_skeleton(NODE_POOL_SKELETON, b)
        a = merge_skeleton(NODE_POOL_SKELETON, a)
    return rc_entry(AZP + "." + POOL, AZP, ["update"], b, a, AZURERM, {}, {})


def tf_noop_cluster():
    doc = merge_skeleton(CLUSTER_SKELETON, tf_cluster_attrs({}))
    return rc_entry(AZ + ".aks", AZ, ["no-op"], doc, copy.deepcopy(doc),
                    AZURERM, dict(CLUSTER_SENSITIVE), dict(CLUSTER_SENSITIVE))


def tf_extra_pool(name, actions, body=None):
    doc = merge_skeleton(NODE_POOL_SKELETON, tf_pool_attrs(body or {}, name))
    before = None if actions == ["create"] else doc
    after = None if actions == ["delete"] else copy.deepcopy(doc)
    return rc_entry(AZP + "." + name, AZP, actions, before, after, AZURERM,
                    {}, {})


def azapi_values(kind, arm_type, rid, body, as_string, tags=None):
    """The attribute values of an azapi_resource or azapi_update_resource."""
    name = rid.rsplit("/", 1)[1]
    b = json.dumps(body, separators=(",", ":")) if as_string \
        else copy.deepcopy(body)
    if kind == "azapi_update_resource":
        return {"body": b, "id": rid, "ignore_casing": False,
                "ignore_missing_property": True, "locks": None, "name": None,
                "output": {}, "parent_id": None, "read_headers": None,
                "resource_id": rid, "response_export_values": None,
                "retry": None, "sensitive_body": None, "timeouts": None,
                "type": arm_type + "@" + API, "update_headers": None}
    parent = RG_ID if arm_type == MC_TYPE else MC_ID
    out = {"body": b, "create_headers": None, "delete_headers": None,
           "id": rid, "identity": [], "ignore_casing": False,
           "ignore_missing_property": True, "ignore_null_property": False,
           "location": "westeurope" if arm_type == MC_TYPE else None,
           "locks": None, "name": name, "output": {}, "parent_id": parent,
           "read_headers": None, "replace_triggers_external_values": None,
           "replace_triggers_refs": None, "response_export_values": None,
           "retry": None, "schema_validation_enabled": True,
           "sensitive_body": None, "tags": tags if tags is not None else {},
           "timeouts": None, "type": arm_type + "@" + API,
           "update_headers": None}
    return out


def azapi_entry(kind, address, arm_type, rid, before, after, as_string,
                actions=("update",), tags=(None, None)):
    b = (azapi_values(kind, arm_type, rid, before, as_string, tags[0])
         if before is not None else None)
    a = (azapi_values(kind, arm_type, rid, after, as_string, tags[1])
         if after is not None else None)
    e = rc_entry(kind + "." + address, kind, list(actions), b, a, AZAPI,
                 {}, {})
    if a is not None:
        e["change"]["after_unknown"] = {"output": True}
    return e


# ------------------------------------------------------------- what-if

def delta_of(b, a, arrays, prefix=""):
    """what-if delta entries from snapshot b to a.  arrays: True writes an
    array as Array with children by index (as what-if does), False as one
    Modify of the whole array value."""
    out = []
    for k in list(b.keys()) + [k for k in a if k not in b]:
        bv, av = b.get(k, MISSING), a.get(k, MISSING)
        path = prefix + k
        if bv == av:
            continue
        if bv is MISSING:
            out.append({"path": path, "propertyChangeType": "Create",
                        "after": av})
        elif av is MISSING:
            out.append({"path": path, "propertyChangeType": "Delete",
                        "before": bv})
        elif isinstance(bv, dict) and isinstance(av, dict):
            out += delta_of(bv, av, arrays, path + ".")
        elif isinstance(bv, list) and isinstance(av, list) and arrays:
            out.append({"path": path, "propertyChangeType": "Array",
                        "children": array_children(bv, av)})
        else:
            out.append({"path": path, "propertyChangeType": "Modify",
                        "before": bv, "after": av})
    return out


def array_children(bv, av):
    out = []
    for i in range(max(len(bv), len(av))):
        p = str(i)
        if i >= len(av):
            out.append({"path": p, "propertyChangeType": "Delete",
                        "before": bv[i]})
        elif i >= len(bv):
            out.append({"path": p, "propertyChangeType": "Create",
                        "after": av[i]})
        elif bv[i] == av[i]:
            continue
        elif isinstance(bv[i], dict) and isinstance(av[i], dict):
            out.append({"path": p, "propertyChangeType": "Modify",
                        "children": delta_of(bv[i], av[i], True)})
        elif isinstance(bv[i], list) and isinstance(av[i], list):
            out.append({"path": p, "propertyChangeType": "Array",
                        "children": array_children(bv[i], av[i])})
        else:
            out.append({"path": p, "propertyChangeType": "Modify",
                        "before": bv[i], "after": av[i]})
    return out


def cli_nulls(entries):
    """The CLI prints every attribute of the model, absent ones as null."""
    out = []
    for e in entries:
        e = dict(e)
        for k in ("before", "after"):
            e.setdefault(k, None)
        e["children"] = cli_nulls(e["children"]) if "children" in e else None
        out.append(e)
    return out


def snapshot(arm_type, rid, body):
    snap = {"apiVersion": API, "id": rid, "name": rid.rsplit("/", 1)[1],
            "type": arm_type}
    if arm_type == MC_TYPE:
        snap["location"] = "westeurope"
    for k, v in body.items():
        snap[k] = copy.deepcopy(v)
    return snap


def whatif_change(rid, change_type, before, after, delta, cli):
    ch = {"resourceId": rid, "changeType": change_type}
    if cli:
        ch.update({"deploymentId": None, "extension": None,
                   "identifiers": None, "symbolicName": None,
                   "unsupportedReason": None})
    if before is not None or cli:
        ch["before"] = before
    if after is not None or cli:
        ch["after"] = after
    if delta is not None or cli:
        ch["delta"] = cli_nulls(delta) if (cli and delta) else delta
    return ch


def whatif_text(changes, cli, raw=None):
    if cli:
        doc = {"changes": changes, "diagnostics": [], "error": None,
               "potentialChanges": [], "status": "Succeeded"}
    else:
        doc = {"status": "Succeeded", "properties": {"changes": changes}}
    return with_raw(dump(doc), raw)


# -------------------------------------------------------------- the rows

def arm_forms(row):
    """The row's ARM change as (arm_type, rid, before_body, after_body, why),
    first as written, then the same pool change written the other way."""
    rid = MC_ID if row["type"] == MC_TYPE else POOL_ID
    if row["type"] == MT_TYPE:
        # A maintenance configuration is named by the row ("config").
        rid = MC_ID + "/maintenanceConfigurations/" + row["config"]
    forms = [(row["type"], rid, row["before"], row["after"], "")]
    if row["type"] == AP_TYPE:
        b = dict({"name": POOL}, **row["before"].get("properties", {}))
        a = dict({"name": POOL}, **row["after"].get("properties", {}))
        forms.append((MC_TYPE, MC_ID,
                      {"properties": {"agentPoolProfiles": [b]}},
                      {"properties": {"agentPoolProfiles": [a]}},
                      "in-cluster-body"))
    elif row["type"] == MC_TYPE:
        pools = []
        for side in (row["before"], row["after"]):
            p = side.get("properties", {})
            app = p.get("agentPoolProfiles")
            if (list(side.keys()) == ["properties"] and list(p.keys()) ==
                    ["agentPoolProfiles"] and isinstance(app, list)
                    and len(app) == 1 and app[0].get("name") == POOL):
                pools.append({k: v for k, v in app[0].items() if k != "name"})
        # Only a body that is one pool np1 and nothing else is a pool
        # change alone; two pools (the reorder rows) or cluster properties
        # beside the pool have no agentPools-resource twin.
        if len(pools) == 2:
            forms.append((AP_TYPE, POOL_ID, {"properties": pools[0]},
                          {"properties": pools[1]}, "as-pool-resource"))
    return forms


NOEFFECT_CANDIDATES = {
    # (path, before, after): what-if says these will not change, though the
    # values differ; the first one the row does not touch is used.
    MC_TYPE: [
        ("properties.autoUpgradeProfile.nodeOSUpgradeChannel", "Unmanaged",
         "NodeImage"),
        ("properties.networkProfile.networkDataplane", "azure", "cilium"),
    ],
    AP_TYPE: [
        ("properties.artifactStreamingProfile.enabled", False, True),
        ("properties.securityProfile.enableVTPM", False, True),
    ],
}
VERSION_PATH = {MC_TYPE: "properties.kubernetesVersion",
                AP_TYPE: "properties.orchestratorVersion"}


def set_path(doc, path, value):
    keys = path.split(".")
    for k in keys[:-1]:
        doc = doc.setdefault(k, {})
    doc[keys[-1]] = value


def get_path(doc, path):
    for k in path.split("."):
        if not isinstance(doc, dict) or k not in doc:
            return MISSING
        doc = doc[k]
    return doc


def unchanged_siblings(b, a):
    """Dotted paths of values equal on both sides beside a changed one."""
    out = []
    for path in changed_paths(b, a):
        parent = path.rsplit(".", 1)[0] if "." in path else ""
        pb = get_path(b, parent) if parent else b
        pa = get_path(a, parent) if parent else a
        if isinstance(pb, dict) and isinstance(pa, dict):
            out += [parent + "." + k for k in pb
                    if k in pa and pb[k] == pa[k]]
    return sorted(set(out))


def delta_only_skip(row, b, a):
    """Why a delta-only what-if cannot carry this row, or None.  A rule that
    reads values beside the changed one (NDP102: the network plugin before
    and after; NDP204: gmsaProfile.enabled) needs them in the document, and
    a delta lists only what changes."""
    if row.get("reads_unchanged"):
        # A check judged from values that do not change (the row names
        # them): a delta lists only what changes.
        return ("the row's findings read %s, which does not change, so a "
                "delta-only what-if does not carry it"
                % row["reads_unchanged"])
    same = unchanged_siblings(b, a)
    context = [r for r in row["expect"] if r in CONTEXT_RULES]
    if context and same:
        return ("%s reads %s, which does not change, so a delta-only "
                "what-if does not carry it (ndplint says may-reimage there: "
                "golden 279-whatif-delta-only-context)"
                % (context[0], ", ".join(same)))
    if not row["expect"] and row["notation"] == "arm" and \
            "gmsa" in row["name"]:
        # The near-miss rests on what is absent (no dnsServer): a delta
        # cannot tell absent from unchanged, so ndplint says may-reimage.
        return ("the near-miss rests on an unchanged absent property, "
                "which a delta-only what-if cannot show")
    return None


def reordered_by_name(b, a):
    """True when an array of named objects (agentPoolProfiles) lists the
    same names in another order."""
    if isinstance(b, dict) and isinstance(a, dict):
        return any(reordered_by_name(b[k], a[k]) for k in b if k in a)
    if isinstance(b, list) and isinstance(a, list) and \
            all(isinstance(e, dict) and "name" in e for e in b + a):
        nb = [e["name"] for e in b]
        na = [e["name"] for e in a]
        return [n for n in nb if n in na] != [n for n in na if n in nb]
    return False


def noeffect_entries(arm_type, b, a):
    """NoEffect entries for a version bump (judged as a bundled upgrade if
    taken for a change) and a covered change the row does not touch."""
    touched = changed_paths(b, a)
    out = []
    if arm_type not in VERSION_PATH:
        return out  # a maintenance configuration: neither to write
    vp = VERSION_PATH[arm_type]
    # A control plane's version decides how AKS reads the versions the
    # body's pools name: not unrelated to a row that names one.
    if get_path(b, vp) is MISSING and get_path(a, vp) is MISSING and \
            not pins_pool_version(b) and not pins_pool_version(a):
        out.append((vp, "1.37.0", "1.38.0"))
    for path, pb, pa in NOEFFECT_CANDIDATES[arm_type]:
        if not any(t == path or path.startswith(t + ".") or
                   t.startswith(path.rsplit(".", 1)[0]) for t in touched) \
                and get_path(b, path) is MISSING \
                and get_path(a, path) is MISSING:
            out.append((path, pb, pa))
            break
    return out


# Without snapshots what-if compares agentPoolProfiles by index, so a
# reorder shows as property changes of the pools at those indexes, which no
# reader can tell from real ones.  (As one Modify of the whole array, in
# delta-modify, the names are there and the pools can be matched.)
REORDER_WHY = "a reorder cannot be told from changes in a delta-only Array"


class Noise:
    """Unrelated changes added to a shape's document."""
    KINDS = ["pool-added", "pool-removed", "pools-reordered", "tags-changed",
             "duplicated-key", "duplicated-type", "cluster-no-op"]


# The pools that come and go carry every pool-level setting that reimages
# when it changes, so a reader that compares them with nothing shows it.
EXTRA_POOL_ADDED = {
    "name": "np9", "count": 2, "vmSize": "Standard_D4ds_v5", "mode": "User",
    "securityProfile": {"enableVTPM": True, "enableSecureBoot": True},
    "artifactStreamingProfile": {"enabled": True},
    "localDNSProfile": {"mode": "Preferred"},
    "capacityReservationGroupID": CRG + "crg9"}
EXTRA_POOL_REMOVED = {
    "name": "np8", "count": 2, "vmSize": "Standard_D4ds_v5", "mode": "User",
    "securityProfile": {"enableVTPM": True, "sshAccess": "Disabled"},
    "artifactStreamingProfile": {"enabled": True},
    "localDNSProfile": {"mode": "Required"}}
SYSTEM_POOL = {"name": "system", "count": 3, "vmSize": "Standard_D4ds_v5",
               "mode": "System", "osType": "Linux"}
USER_POOL = {"name": "user", "count": 2, "vmSize": "Standard_D8ds_v5",
             "mode": "User", "osType": "Linux",
             "securityProfile": {"enableVTPM": True}}

# A non-AKS resource whose object carries a key twice (JSON allows it; the
# last one wins in most parsers).  The value is the same both times.
# A non-AKS resource with a key written twice that decides nothing.
DUP_TF = ('"type": "azurerm_storage_account", '
          '"index_key": "a", "index_key": "b"')
DUP_ARM = ('"type": "Microsoft.Storage/storageAccounts", '
           '"type": "Microsoft.Storage/storageAccounts"')
SA_ID = RG_ID + "/providers/Microsoft.Storage/storageAccounts/sa1"
# A non-AKS resource whose "type" (what-if: "resourceId") is written twice,
# first with an AKS value: the last one is the one that counts (json-c, and
# most parsers, keep the last), so it is not a cluster, though its values
# would reimage one.
SA2_ID = RG_ID + "/providers/Microsoft.Storage/storageAccounts/sa2"
CONFLICT_TF = '"type": "%s", "type": "azurerm_storage_account"' % AZ
CONFLICT_AZAPI = '"type": "%s@%s", "type": "%s"' % (
    MC_TYPE, API, "Microsoft.Storage/storageAccounts@2023-05-01")
CONFLICT_ARM = '"resourceId": "%s", "resourceId": "%s"' % (
    RG_ID + "/providers/" + MC_TYPE + "/aks2", SA2_ID)


def pins_pool_version(body):
    """True when a pool of an ARM cluster body names its
    orchestratorVersion."""
    pools = body.get("properties", {}).get("agentPoolProfiles")
    return isinstance(pools, list) and any(
        isinstance(p, dict) and "orchestratorVersion" in p for p in pools)


def noisy_bodies(noise, arm_type, b, a):
    """Cluster-body noise: (before, after) with pools in agentPoolProfiles
    added, removed or reordered, or top-level tags changed."""
    b, a = copy.deepcopy(b), copy.deepcopy(a)
    if noise in ("pool-added", "pool-removed", "pools-reordered"):
        if arm_type != MC_TYPE:
            return None
        if pins_pool_version(b) or pins_pool_version(a):
            # AKS reads a body's pools' versions together (all named or
            # none): a pool beside them without one is not unrelated.
            raise Skip("the row's pools name their orchestratorVersion, "
                       "which a pool added beside them would have to name "
                       "too")
        bp = b.setdefault("properties", {}).setdefault("agentPoolProfiles", [])
        ap = a.setdefault("properties", {}).setdefault("agentPoolProfiles", [])
        if noise == "pool-added":
            bp += [SYSTEM_POOL]
            ap += [SYSTEM_POOL, EXTRA_POOL_ADDED]
        elif noise == "pool-removed":
            bp += [SYSTEM_POOL, EXTRA_POOL_REMOVED]
            ap += [SYSTEM_POOL]
        else:
            bp += [SYSTEM_POOL, USER_POOL]
            ap[0:0] = [USER_POOL, SYSTEM_POOL]
        return b, a
    if noise == "tags-changed":
        if arm_type == MC_TYPE:
            if "tags" in b or "tags" in a:
                return None
            b["tags"], a["tags"] = {"env": "a"}, {"env": "b"}
        else:
            pb = b.setdefault("properties", {})
            pa = a.setdefault("properties", {})
            if "tags" in pb or "tags" in pa:
                return None
            pb["tags"], pa["tags"] = {"env": "a"}, {"env": "b"}
        return b, a
    return None


def tf_shapes(row):
    """Terraform azurerm shapes of a row: (shape, text) or (shape, Skip)."""
    rtype, before, after = row["type"], row["before"], row["after"]
    out = []

    def add(shape, fn):
        try:
            out.append((shape, fn()))
        except Skip as e:
            out.append((shape, e))

    out.append(("tf", plan_text([tf_change(rtype, before, after)])))
    seen = {json.dumps([before, after], sort_keys=True)}
    for rep in UNSET_REPS:
        def variant(rep=rep):
            b, a = rewrite_unset(before, after, rep)
            key = json.dumps([b, a], sort_keys=True)
            if key in seen:
                # The row has no unset value of a kind this representation
                # can stand for, or writes each one this way already.
                raise Skip("the same document as another tf shape: no unset "
                           "value to write as %s" % rep)
            seen.add(key)
            return plan_text([tf_change(rtype, b, a)])
        add("tf-" + rep, variant)
    add("tf-full-schema",
        lambda: plan_text([tf_change(rtype, before, after, full=True)]))

    # The same pool attributes on the other kind of azurerm pool.
    if rtype == AZ:
        def as_pool():
            if list(before) != ["default_node_pool"] or \
                    list(after) != ["default_node_pool"]:
                raise Skip("not a default_node_pool change alone")
            pb, pa = before["default_node_pool"], after["default_node_pool"]
            if len(pb) != 1 or len(pa) != 1 or \
                    pb[0].get("name") != pa[0].get("name"):
                raise Skip("the default pool's name changes (no node pool "
                           "resource twin: its name is its identity)")
            b = {k: v for k, v in pb[0].items() if k != "name"}
            a = {k: v for k, v in pa[0].items() if k != "name"}
            bad = (set(b) | set(a)) & {"only_critical_addons_enabled", "type"}
            if bad:
                raise Skip("default_node_pool-only attributes %s" %
                           sorted(bad))
            return plan_text([tf_noop_cluster(), tf_change(AZP, b, a)])
        add("tf-node-pool-resource", as_pool)
    else:
        def as_default():
            sku = {before.get("os_sku"), after.get("os_sku")}
            if any(s and s.startswith("Windows") for s in sku):
                # AKS requires the default (system) pool to be Linux.
                raise Skip("a Windows os_sku cannot be the default pool's")
            bad = (set(before) | set(after)) & {
                "mode", "os_type", "priority", "eviction_policy",
                "spot_max_price", "node_taints", "windows_profile",
                "node_image_version"}
            if bad:
                raise Skip("node-pool-only attributes %s" % sorted(bad))
            if any("max_unavailable" in u for side in (before, after)
                   for u in side.get("upgrade_settings") or []):
                # azurerm 4.x has no max_unavailable on the default pool.
                raise Skip("default_node_pool's upgrade_settings has no "
                           "max_unavailable")
            b = {"default_node_pool": [dict({"name": "system"}, **before)]}
            a = {"default_node_pool": [dict({"name": "system"}, **after)]}
            return plan_text([tf_change(AZ, b, a)])
        add("tf-default-node-pool", as_default)

    # Noise around the plain shape.
    main = tf_change(rtype, before, after)
    for noise in Noise.KINDS:
        def noisy(noise=noise):
            entries = [main]
            raw = None
            if noise == "pool-added":
                if "Unmanaged" in (after.get("node_os_upgrade_channel"),
                                   after.get("node_os_channel_upgrade")):
                    # A Windows pool beside a channel moved to Unmanaged
                    # gets no patches: NDP821, no noise.
                    raise Skip("the added pool is a Windows one")
                entries.append(tf_extra_pool("np9", ["create"], {
                    "capacity_reservation_group_id": CRG + "crg9",
                    "os_sku": "Windows2022", "os_type": "Windows",
                    "kubelet_config": [{"pod_max_pid": 4096}]}))
            elif noise == "pool-removed":
                entries.append(tf_extra_pool("np8", ["delete"], {
                    "capacity_reservation_group_id": CRG + "crg8",
                    "max_pods": 50}))
            elif noise == "pools-reordered":
                # Terraform lists resources by address; the pools before the
                # changed resource and in reverse order.
                entries = [tf_extra_pool("user2", ["no-op"]),
                           tf_extra_pool("user1", ["no-op"]), main]
            elif noise == "tags-changed":
                if "tags" in before or "tags" in after:
                    raise Skip("the row itself changes tags")
                m = copy.deepcopy(main)
                m["change"]["before"]["tags"] = {"env": "a"}
                m["change"]["after"]["tags"] = {"env": "b", "owner": "x"}
                entries = [m]
            elif noise == "duplicated-key":
                sa = {"__raw_0__": 0, "address": "azurerm_storage_account.sa",
                      "mode": "managed", "name": "sa",
                      "provider_name": AZURERM,
                      "change": {"actions": ["update"],
                                 "before": {"id": SA_ID, "name": "sa1",
                                            "tags": {"env": "a"}},
                                 "after": {"id": SA_ID, "name": "sa1",
                                           "tags": {"env": "b"}},
                                 "after_unknown": {}, "before_sensitive": {},
                                 "after_sensitive": {}}}
                entries = [sa, main]
                raw = [DUP_TF]
            elif noise == "duplicated-type":
                sb = rc_entry("azurerm_storage_account.sa2", "", ["update"],
                              {"id": SA2_ID, "name": "sa2", "network_profile":
                               [{"network_policy": ""}]},
                              {"id": SA2_ID, "name": "sa2", "network_profile":
                               [{"network_policy": "azure"}]}, AZURERM, {}, {})
                del sb["type"]
                sb["__raw_0__"] = 0
                entries = [sb, main]
                raw = [CONFLICT_TF]
            elif noise == "cluster-no-op":
                if rtype == AZ:
                    # The cluster's own entry is the change; its no-op
                    # companion is the azapi_update_resource that sets the
                    # policy on it (how azurerm users set it).
                    body = {"properties": {"nodeDisruptionProfile": {
                        "nodeDisruptionPolicy": "Block"}}}
                    entries.append(azapi_entry(
                        "azapi_update_resource", "ndp", MC_TYPE, MC_ID, body,
                        body, False, actions=["no-op"]))
                else:
                    entries.insert(0, tf_noop_cluster())
            return plan_text(entries, raw)
        add("tf+" + noise, noisy)
    return out


def arm_shapes(row):
    out = []

    def add(shape, fn):
        try:
            out.append((shape, fn()))
        except Skip as e:
            out.append((shape, e))

    for arm_type, rid, b, a, form in arm_forms(row):
        pre = form + ":" if form else ""
        addr = "aks" if arm_type == MC_TYPE else POOL
        for kind in ("azapi_resource", "azapi_update_resource"):
            for as_string in (False, True):
                shape = pre + kind + ("-string" if as_string else "")
                add(shape, lambda kind=kind, s=as_string: plan_text(
                    [azapi_entry(kind, addr, arm_type, rid, b, a, s)]))
        ne = noeffect_entries(arm_type, b, a)
        for cli in (True, False):
            wrap = "whatif-cli" if cli else "whatif-rest"
            for mode in ("snapshots", "delta-modify", "delta-array"):
                for noeffect in (False, True):
                    shape = pre + wrap + "-" + mode + \
                        ("+noeffect" if noeffect else "")

                    def make(cli=cli, mode=mode, noeffect=noeffect):
                        sb, sa = snapshot(arm_type, rid, b), \
                            snapshot(arm_type, rid, a)
                        if noeffect:
                            if not ne:
                                raise Skip("no NoEffect candidate the row "
                                           "does not touch")
                            for path, vb, va in ne:
                                set_path(sb, path, vb)
                                set_path(sa, path, va)
                        delta = delta_of(sb, sa, mode != "delta-modify")
                        if noeffect:
                            paths = [p for p, _, _ in ne]
                            delta = [d for d in delta
                                     if not any(d["path"] == p or
                                                p.startswith(d["path"] + ".")
                                                for p in paths)]
                            delta += [{"path": p, "propertyChangeType":
                                       "NoEffect", "before": vb, "after": va}
                                      for p, vb, va in ne]
                        if mode != "snapshots" and delta_only_skip(row, b, a):
                            raise Skip(delta_only_skip(row, b, a))
                        if mode == "delta-array" and reordered_by_name(b, a):
                            raise Skip(REORDER_WHY)
                        if mode == "delta-array" and delta_of(
                                sb, sa, True) == delta_of(sb, sa, False):
                            # No array on the changed path: the same
                            # document as delta-modify.
                            raise Skip("no array on the changed path")
                        if mode == "snapshots":
                            ch = whatif_change(rid, "Modify", sb, sa, delta,
                                               cli)
                        else:
                            ch = whatif_change(rid, "Modify", None, None,
                                               delta, cli)
                        return whatif_text([ch], cli)
                    add(shape, make)
        if form:
            continue
        # Noise, around azapi_resource, the CLI snapshots and the REST
        # delta-only Array shape.
        for noise in Noise.KINDS:
            add(pre + "azapi_resource+" + noise,
                lambda noise=noise: azapi_noise(noise, arm_type, rid, addr,
                                                b, a))
            for cli, mode in ((True, "snapshots"), (False, "delta-array")):
                wrap = "whatif-cli" if cli else "whatif-rest"
                add(pre + wrap + "-" + mode + "+" + noise,
                    lambda noise=noise, cli=cli, mode=mode:
                    whatif_noise(noise, row, arm_type, rid, b, a, cli, mode))
    return out


def azapi_noise(noise, arm_type, rid, addr, b, a):
    main = azapi_entry("azapi_resource", addr, arm_type, rid, b, a, False)
    entries, raw = [main], None
    nb = noisy_bodies(noise, arm_type, b, a)
    if nb and noise != "tags-changed":
        entries = [azapi_entry("azapi_resource", addr, arm_type, rid,
                               nb[0], nb[1], False)]
    elif noise == "tags-changed":
        # azapi keeps tags outside the body.
        entries = [azapi_entry("azapi_resource", addr, arm_type, rid, b, a,
                               False, tags=({"env": "a"}, {"env": "b"}))]
    elif noise in ("pool-added", "pool-removed", "pools-reordered"):
        # An agentPools row: the other pools are their own resources.
        pools = {"pool-added": [("np9", ["create"], EXTRA_POOL_ADDED)],
                 "pool-removed": [("np8", ["delete"], EXTRA_POOL_REMOVED)],
                 "pools-reordered": [("user", ["no-op"], USER_POOL),
                                     ("system", ["no-op"], SYSTEM_POOL)]}
        extra = []
        for name, actions, props in pools[noise]:
            body = {"properties": {k: v for k, v in props.items()
                                   if k != "name"}}
            pid = MC_ID + "/agentPools/" + name
            extra.append(azapi_entry(
                "azapi_resource", name, AP_TYPE, pid,
                None if actions == ["create"] else body,
                None if actions == ["delete"] else body, False, actions))
        entries = extra + entries if noise == "pools-reordered" \
            else entries + extra
    elif noise == "duplicated-key":
        sat = "Microsoft.Storage/storageAccounts@2023-05-01"
        sa = {"address": "azapi_resource.sa", "mode": "managed",
              "__raw_0__": 0, "name": "sa", "provider_name": AZAPI,
              "change": {"actions": ["update"],
                         "before": {"id": SA_ID, "name": "sa1",
                                    "type": sat, "body": {"properties": {
                                        "minimumTlsVersion": "TLS1_0"}}},
                         "after": {"id": SA_ID, "name": "sa1",
                                   "type": sat, "body": {"properties": {
                                       "minimumTlsVersion": "TLS1_2"}}},
                         "after_unknown": {}, "before_sensitive": {},
                         "after_sensitive": {}}}
        entries = [sa, main]
        # Not an azapi_resource: every azapi entry is read whole (its body
        # decides), and a key twice anywhere in an entry read whole is
        # refused; a resource of another provider is skipped unread.
        sa["address"] = "azurerm_storage_account.sa"
        raw = [DUP_TF]
    elif noise == "duplicated-type":
        sb = azapi_entry("azapi_resource", "sa2", MC_TYPE, SA2_ID,
                         {"properties": {"networkProfile": {
                             "networkPolicy": "none"}}},
                         {"properties": {"networkProfile": {
                             "networkPolicy": "azure"}}}, False)
        for side in ("before", "after"):
            del sb["change"][side]["type"]
            sb["change"][side]["__raw_0__"] = 0
        entries = [sb, main]
        raw = [CONFLICT_AZAPI]
    elif noise == "cluster-no-op":
        body = {"properties": {"nodeDisruptionProfile": {
            "nodeDisruptionPolicy": "Block"}}}
        if arm_type == MC_TYPE:
            entries.append(azapi_entry("azapi_update_resource", "ndp", MC_TYPE,
                                       MC_ID, body, body, False, ["no-op"]))
        else:
            entries.insert(0, azapi_entry("azapi_resource", "aks", MC_TYPE,
                                          MC_ID, body, body, False, ["no-op"]))
    else:
        raise Skip("not applicable")
    return plan_text(entries, raw)


def whatif_noise(noise, row, arm_type, rid, b, a, cli, mode):
    arrays = mode != "delta-modify"
    snaps = mode == "snapshots"
    raw = None
    if not snaps and delta_only_skip(row, b, a):
        raise Skip(delta_only_skip(row, b, a))
    if arrays and not snaps and reordered_by_name(b, a):
        raise Skip(REORDER_WHY)

    def change(rid_, ctype, sb, sa):
        delta = delta_of(sb or {}, sa or {}, arrays) if ctype == "Modify" \
            else None
        if snaps or ctype != "Modify":
            return whatif_change(rid_, ctype, sb, sa, delta, cli)
        return whatif_change(rid_, ctype, None, None, delta, cli)

    sb, sa = snapshot(arm_type, rid, b), snapshot(arm_type, rid, a)
    changes = [change(rid, "Modify", sb, sa)]
    nb = noisy_bodies(noise, arm_type, b, a)
    if nb:
        if noise == "pools-reordered" and not snaps:
            raise Skip(REORDER_WHY)
        changes = [change(rid, "Modify", snapshot(arm_type, rid, nb[0]),
                          snapshot(arm_type, rid, nb[1]))]
    elif noise in ("pool-added", "pool-removed", "pools-reordered"):
        pools = {"pool-added": [("np9", "Create", EXTRA_POOL_ADDED)],
                 "pool-removed": [("np8", "Delete", EXTRA_POOL_REMOVED)],
                 "pools-reordered": [("user", "NoChange", USER_POOL),
                                     ("system", "NoChange", SYSTEM_POOL)]}
        extra = []
        for name, ctype, props in pools[noise]:
            pid = MC_ID + "/agentPools/" + name
            body = {"properties": {k: v for k, v in props.items()
                                   if k != "name"}}
            s = snapshot(AP_TYPE, pid, body)
            extra.append(whatif_change(
                pid, ctype, None if ctype == "Create" else s,
                None if ctype == "Delete" else s, None, cli))
        changes = extra + changes if noise == "pools-reordered" \
            else changes + extra
    elif noise == "duplicated-key":
        sab = {"apiVersion": "2023-05-01", "id": SA_ID, "name": "sa1",
               "__raw_0__": 0, "location": "westeurope",
               "properties": {"minimumTlsVersion": "TLS1_0"}}
        saa = dict(sab, properties={"minimumTlsVersion": "TLS1_2"})
        changes.insert(0, whatif_change(
            SA_ID, "Modify", sab, saa,
            [{"path": "properties.minimumTlsVersion",
              "propertyChangeType": "Modify", "before": "TLS1_0",
              "after": "TLS1_2"}], cli))
        raw = [DUP_ARM]
    elif noise == "duplicated-type":
        pb = {"properties": {"networkProfile": {"networkPolicy": "none"}}}
        pa = {"properties": {"networkProfile": {"networkPolicy": "azure"}}}
        ch = whatif_change(SA2_ID, "Modify", pb, pa, delta_of(pb, pa, True),
                           cli)
        del ch["resourceId"]
        ch["__raw_0__"] = 0
        changes.insert(0, ch)
        raw = [CONFLICT_ARM]
    elif noise == "cluster-no-op":
        if arm_type == MC_TYPE:
            # what-if lists each resource once: the cluster's entry is the
            # change itself.
            raise Skip("the cluster's own entry is the change")
        s = snapshot(MC_TYPE, MC_ID, {"properties": {
            "nodeDisruptionProfile": {"nodeDisruptionPolicy": "Block"}}})
        changes.insert(0, whatif_change(MC_ID, "NoChange", s, s, None, cli))
    else:
        raise Skip("not applicable")
    return whatif_text(changes, cli, raw)


# --------------------------------------------------------------- judging

# Rules whose transitions read values beside the watched one.
CONTEXT_RULES = set()


def load_rules(rules_dir):
    rules = {}
    for path in sorted(glob.glob(os.path.join(rules_dir, "*.json"))):
        with open(path, encoding="utf-8") as f:
            cat = json.load(f)
        for r in cat.get("rules", []):
            rules[r["id"]] = (cat["category"], r["scope"], r["class"])
            tr = r.get("transitions")
            if isinstance(tr, list) and any(
                    isinstance(t, dict) and (
                        {"siblings_before", "siblings_after",
                         "changed"} & set(t)
                        or "fields" in t.get("from", {})
                        or "fields" in t.get("to", {})) for t in tr):
                CONTEXT_RULES.add(r["id"])
    return rules


def expected_set(row, rules):
    """The row's expected rule ids as (category, verdict, scope); a row
    names the verdict of a rule in "verdicts" ({"NDP601": "refused"}),
    which a check rule (class "check") must."""
    out = set()
    named = row.get("verdicts", {})
    for rid in row["expect"]:
        if rid not in rules:
            raise SystemExit("row '%s': unknown rule %s" % (row["name"], rid))
        category, scope, cls = rules[rid]
        verdict = named.get(rid, VERDICT_BY_CLASS.get(cls))
        if cls == "check" and rid not in named:
            raise SystemExit("row '%s': check rule %s needs its verdict in "
                             "\"verdicts\"" % (row["name"], rid))
        if verdict:
            out.add((category, verdict, scope))
    return out


# A discriminating key written twice with two values: json-c keeps the
# last, a streaming reader would see the first, so ndplint refuses the
# document (exit 2, naming the key) instead of judging either reading.
REFUSED = frozenset([("refused", "exit 2", "duplicated key")])


def judge_refusal(ndplint, path):
    """(REFUSED, problems) for a document that must be refused."""
    try:
        p = subprocess.run([ndplint] + NDPLINT_ARGS + [path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, ["cannot run: %s" % e]
    err = p.stderr.decode(errors="replace")
    if p.returncode != 2 or "twice" not in err or \
            not ("'type'" in err or "'resourceId'" in err):
        return None, ["exit status %d, stderr %r: not refused naming the "
                      "key written twice" % (p.returncode, err[:200])]
    return REFUSED, []


def judge(ndplint, path, fmt):
    """(set of (category, verdict, scope), problems) for one document."""
    if path.endswith("_duplicated-type.json"):
        return judge_refusal(ndplint, path)
    report = path + ".report.json"
    if os.path.exists(report):
        os.unlink(report)
    live = path + KUBECTL_SUFFIX
    extra = ["--cluster-state", live] if os.path.exists(live) else []
    try:
        p = subprocess.run([ndplint] + NDPLINT_ARGS + extra +
                           ["-o", report, path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, ["cannot run: %s" % e]
    problems = []
    if p.returncode not in (0, 1):
        problems.append("exit status %d: %s" % (
            p.returncode, p.stderr.decode(errors="replace").strip()[:300]))
    try:
        with open(report, encoding="utf-8") as f:
            rep = json.load(f)
    except (OSError, ValueError) as e:
        problems.append("no JSON report (%s)" % e.__class__.__name__)
        return None, problems
    if not isinstance(rep, dict) or rep.get("schema_version") != 2 or \
            not isinstance(rep.get("findings"), list):
        problems.append("the report is not a schema_version 2 report")
        return None, problems
    formats = [i.get("format") for i in rep.get("inputs", [])]
    if formats != [fmt]:
        problems.append("input read as %s, not %s" % (formats, fmt))
    got, seen = set(), {}
    errors = 0
    for f in rep["findings"]:
        got.add((f.get("category"), f.get("verdict"), f.get("scope")))
        key = (f.get("resource"), f.get("path"), f.get("rule"))
        seen[key] = seen.get(key, 0) + 1
        if f.get("severity") == "error" and not f.get("suppressed"):
            errors += 1
    for key, n in sorted(seen.items(), key=str):
        if n > 1:
            problems.append("finding %s on %s at %s appears %d times" % (
                key[2], key[0], key[1], n))
    if p.returncode in (0, 1) and p.returncode != (1 if errors else 0):
        problems.append("exit status %d with %d error findings" % (
            p.returncode, errors))
    return got, problems


def slug(text):
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)


def fmt_set(s):
    if s is None:
        return "(no report)"
    return "{" + ", ".join("%s/%s/%s" % t for t in sorted(s)) + "}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ndplint")
    ap.add_argument("--table", action="append",
                    help="a transition table (repeatable); by default "
                    "tests/transitions.json and every table in "
                    "tests/shapes/tables/")
    ap.add_argument("--rules", default=os.path.join(SOURCE, "rules"))
    ap.add_argument("--keep", metavar="DIR",
                    help="write the documents and reports to DIR, keep them")
    ap.add_argument("--work", metavar="DIR",
                    help="write the documents to DIR (emptied first) instead "
                    "of a temporary directory; only failing ones stay")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--row", help="only rows whose name contains this")
    ap.add_argument("--list-skips", action="store_true",
                    help="print every skipped row x shape and why")
    args = ap.parse_args()

    tables = args.table or (
        [os.path.join(SOURCE, "tests", "transitions.json")] +
        sorted(glob.glob(os.path.join(HERE, "tables", "*.json"))))
    groups = []
    for name in tables:
        with open(name, encoding="utf-8") as f:
            groups += json.load(f)["groups"]
    table = {"groups": groups}
    args.table = ", ".join(tables)
    rules = load_rules(args.rules)
    if not rules:
        print("shapes: no rules in %s" % args.rules, file=sys.stderr)
        return 2
    rows = [r for g in table["groups"] for r in g["rows"]]
    if args.row:
        rows = [r for r in rows if args.row in r["name"]]

    if args.keep:
        outdir = os.path.abspath(args.keep)
        os.makedirs(outdir, exist_ok=True)
    elif args.work:
        # A fixed place (ctest's build directory), emptied on every run.
        outdir = os.path.abspath(args.work)
        shutil.rmtree(outdir, ignore_errors=True)
        os.makedirs(outdir)
    else:
        outdir = tempfile.mkdtemp(prefix="ndplint-shapes-")

    jobs, skips = [], []
    for ri, row in enumerate(rows):
        shapes = with_kube(row, tf_shapes(row) if row["notation"] == "azurerm"
                           else arm_shapes(row))
        names = set()
        for shape, text in shapes:
            assert shape not in names, (row["name"], shape)
            names.add(shape)
            if isinstance(text, Skip):
                skips.append((row["name"], shape, str(text)))
                continue
            fname = "%03d-%s--%s.json" % (ri, slug(row["name"]),
                                          slug(shape))
            path = os.path.join(outdir, fname)
            if isinstance(text, tuple):
                text, live = text
                with open(path + KUBECTL_SUFFIX, "w", encoding="utf-8") as f:
                    f.write(live)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            fmt = "arm-whatif" if shape.split(":")[-1].startswith("whatif") \
                else "terraform-plan"
            jobs.append((ri, shape, path, fmt))

    # A program that writes no report for the first document writes none
    # for the others: say so once instead of thousands of times (a
    # stand-in, ctest standins, fails here in a second).
    if jobs:
        got, problems = judge(args.ndplint, jobs[0][2], jobs[0][3])
        if got is None and any(p.startswith("no JSON report") or
                               p.startswith("cannot run") for p in problems):
            print("shapes: %s writes no report for %s: %s" % (
                args.ndplint, jobs[0][2], "; ".join(problems)))
            return 1
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        results = list(ex.map(lambda j: judge(args.ndplint, j[2], j[3]), jobs))

    by_row = {}
    for (ri, shape, path, fmt), (got, problems) in zip(jobs, results):
        by_row.setdefault(ri, []).append((shape, path, got, problems))

    failures = []        # (row name, message, document)
    bad_paths = set()
    for ri, row in enumerate(rows):
        expect = expected_set(row, rules)
        docs = by_row.get(ri, [])
        if len(docs) < 2:
            # Every row has at least its own shape and one more; fewer means
            # the generator lost the row.
            failures.append((row["name"], "only %d documents written" %
                             len(docs), args.table))
        agree = [d for d in docs if d[2] == expect and not d[3]]
        for shape, path, got, problems in docs:
            if got == expect and not problems:
                continue
            if got == REFUSED and not problems:
                continue
            bad_paths.add(path)
            if got != expect:
                if agree:
                    other = agree[0]
                    msg = ("shape '%s' gives %s, shape '%s' gives %s "
                           "(the table: %s)" % (shape, fmt_set(got), other[0],
                                                fmt_set(other[2]),
                                                fmt_set(expect)))
                else:
                    others = [d for d in docs if d[0] != shape]
                    ref = others[0] if others else None
                    msg = ("shape '%s' gives %s, the table expects %s%s" % (
                        shape, fmt_set(got), fmt_set(expect),
                        (" (shape '%s' gives %s)" % (ref[0], fmt_set(ref[2])))
                        if ref else ""))
            else:
                msg = "shape '%s'" % shape
            if problems:
                msg += "; " + "; ".join(problems)
            if got != expect and row.get("spec"):
                msg += " -- the row follows " + row["spec"]
            failures.append((row["name"], msg, path))

    if args.list_skips:
        for name, shape, why in skips:
            print("skip: row '%s' shape '%s': %s" % (name, shape, why))
    for name, msg, path in failures:
        print("FAIL row '%s': %s\n  reproduce: %s %s %s" % (
            name, msg, args.ndplint, " ".join(NDPLINT_ARGS), path))

    print("shapes: %d rows, %d documents, %d disagreements (%d shapes "
          "skipped where they cannot express the row)" % (
              len(rows), len(jobs), len(failures), len(skips)))

    if args.keep:
        print("shapes: documents kept in %s" % outdir)
    elif failures:
        # Keep only what reproduces a failure.
        for _, _, path, _ in jobs:
            if path not in bad_paths:
                for p in (path, path + ".report.json"):
                    if os.path.exists(p):
                        os.unlink(p)
        print("shapes: the failing documents are kept in %s" % outdir)
    else:
        shutil.rmtree(outdir, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a large, realistic `terraform show -json` plan for benchmarks.

The document has the sections Terraform writes (planned_values, prior_state,
resource_changes, configuration, ...), many resource types with nested
blocks, long strings with escapes (JSON policies encoded as strings, PEM
certificates, base64 blobs, scripts), non-ASCII text and Terraform's
\\u003c/\\u003e/\\u0026 escapes, and a few AKS resources that ndplint cares
about (azurerm_kubernetes_cluster, azurerm_kubernetes_cluster_node_pool,
azapi_resource) with updates, spread through the file.  Output is compact,
as terraform writes it, unless --indent is given.  Deterministic for a
given --seed.

    python3 bench/gen_plan.py --size-mb 240 --out /tmp/big.json
"""
import argparse
import base64
import json
import random

WORDS = ("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo "
         "lima mike november oscar papa quebec romeo sierra tango uniform "
         "victor whiskey xray yankee zulu").split()
UNICODE = ["café", "naïve", "Zürich", "São Paulo", "日本語のテキスト",
           "Ελληνικά", "Привет", "emoji 🚀✨", "tab\there", "quote \"x\"",
           "back\\slash", "line1\nline2", "<b>&amp;</b>", "\u00a0nbsp"]
LOCATIONS = ["westeurope", "northeurope", "eastus", "eastus2", "uksouth"]


def words(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def tags(rng):
    t = {"environment": rng.choice(["prod", "dev", "test"]),
         "owner": rng.choice(WORDS) + "@example.com",
         "cost-center": str(rng.randint(1000, 9999))}
    if rng.random() < 0.5:
        t["description"] = rng.choice(UNICODE) + " " + words(rng, 6)
    return t


def rid(rng, kind, name):
    return ("/subscriptions/%08x-0000-4000-8000-%012x/resourceGroups/rg-%s/"
            "providers/%s/%s" % (rng.getrandbits(32), rng.getrandbits(48),
                                 rng.choice(WORDS), kind, name))


def policy_doc(rng):
    stmts = []
    for _ in range(rng.randint(1, 4)):
        stmts.append({
            "Effect": rng.choice(["Allow", "Deny"]),
            "Action": ["s3:%s" % rng.choice(["GetObject", "PutObject",
                                              "ListBucket", "DeleteObject"])
                       for _ in range(rng.randint(1, 5))],
            "Resource": "arn:aws:s3:::%s-%d/*" % (rng.choice(WORDS),
                                                  rng.randint(1, 999)),
            "Condition": {"StringEquals": {"aws:SourceVpce": "vpce-%08x"
                                           % rng.getrandbits(32)}},
        })
    return json.dumps({"Version": "2012-10-17", "Statement": stmts})


def pem(rng):
    body = base64.b64encode(rng.randbytes(rng.randint(600, 1400))).decode()
    lines = [body[i:i + 64] for i in range(0, len(body), 64)]
    return ("-----BEGIN CERTIFICATE-----\n" + "\n".join(lines) +
            "\n-----END CERTIFICATE-----\n")


def script(rng):
    return "\n".join("#!/bin/bash" if i == 0 else
                     "echo \"%s\" > /etc/%s.conf && chmod 600 /etc/%s.conf"
                     % (words(rng, 4), rng.choice(WORDS), rng.choice(WORDS))
                     for i in range(rng.randint(3, 25)))


def storage_account(rng, name):
    return {
        "name": "st%s%d" % (rng.choice(WORDS), rng.randint(1, 99999)),
        "location": rng.choice(LOCATIONS),
        "account_tier": "Standard", "account_replication_type": "GRS",
        "enable_https_traffic_only": True, "min_tls_version": "TLS1_2",
        "network_rules": [{"default_action": "Deny",
                           "ip_rules": ["10.%d.%d.0/24" % (rng.randint(0, 255),
                                                           rng.randint(0, 255))
                                        for _ in range(rng.randint(0, 6))],
                           "virtual_network_subnet_ids": [
                               rid(rng, "Microsoft.Network/virtualNetworks",
                                   "vnet/subnets/s%d" % i)
                               for i in range(rng.randint(0, 3))],
                           "bypass": ["AzureServices"],
                           "private_link_access": []}],
        "blob_properties": [{"versioning_enabled": rng.random() < 0.5,
                             "delete_retention_policy": [{"days": 7}],
                             "cors_rule": []}],
        "primary_access_key": None, "tags": tags(rng),
        "id": rid(rng, "Microsoft.Storage/storageAccounts", name),
    }


def nsg_rule(rng, name):
    return {
        "name": name, "priority": rng.randint(100, 4096),
        "direction": rng.choice(["Inbound", "Outbound"]),
        "access": rng.choice(["Allow", "Deny"]), "protocol": "Tcp",
        "source_port_range": "*",
        "destination_port_ranges": [str(rng.choice([22, 80, 443, 8080, 3389]))
                                    for _ in range(rng.randint(1, 4))],
        "source_address_prefix": "10.0.0.0/8",
        "destination_address_prefix": "*", "description": words(rng, 8),
        "resource_group_name": "rg-" + rng.choice(WORDS),
        "network_security_group_name": "nsg-" + rng.choice(WORDS),
        "timeouts": None,
    }


def iam_policy(rng, name):
    return {"name": name, "path": "/", "description": words(rng, 10),
            "policy": policy_doc(rng), "tags": tags(rng),
            "arn": "arn:aws:iam::%012d:policy/%s" % (rng.randint(0, 10**12),
                                                     name)}


def config_map(rng, name):
    data = {}
    for _ in range(rng.randint(1, 6)):
        k = "%s.%s" % (rng.choice(WORDS), rng.choice(["yaml", "conf", "sh"]))
        data[k] = script(rng) if k.endswith(".sh") else \
            "\n".join("%s: %s" % (rng.choice(WORDS), rng.choice(UNICODE))
                      for _ in range(rng.randint(2, 40)))
    return {"metadata": [{"name": name, "namespace": rng.choice(WORDS),
                          "labels": {"app": rng.choice(WORDS)},
                          "annotations": {}, "generation": 0,
                          "resource_version": "", "uid": ""}],
            "data": data, "binary_data": None, "immutable": False}


def key_vault_cert(rng, name):
    return {"name": name, "key_vault_id": rid(rng, "Microsoft.KeyVault/vaults",
                                             "kv-" + rng.choice(WORDS)),
            "certificate_data": pem(rng),
            "certificate_data_base64": base64.b64encode(
                rng.randbytes(rng.randint(300, 900))).decode(),
            "thumbprint": "%040X" % rng.getrandbits(160), "tags": tags(rng)}


def linux_vm(rng, name):
    return {"name": name, "size": rng.choice(["Standard_D4s_v5",
                                              "Standard_E8s_v5"]),
            "admin_username": "azureuser",
            "custom_data": base64.b64encode(script(rng).encode()).decode(),
            "admin_ssh_key": [{"username": "azureuser",
                               "public_key": "ssh-rsa " + base64.b64encode(
                                   rng.randbytes(270)).decode()}],
            "os_disk": [{"caching": "ReadWrite", "disk_size_gb": 128,
                         "storage_account_type": "Premium_LRS",
                         "diff_disk_settings": []}],
            "source_image_reference": [{"publisher": "Canonical",
                                        "offer": "ubuntu-24_04-lts",
                                        "sku": "server", "version": "latest"}],
            "network_interface_ids": [rid(rng, "Microsoft.Network/"
                                          "networkInterfaces", name)],
            "identity": [{"type": "SystemAssigned", "identity_ids": []}],
            "tags": tags(rng)}


def aks_cluster(rng, name, after):
    return {
        "name": name, "location": "westeurope",
        "kubernetes_version": "1.30.3" if after else "1.29.7",
        "dns_prefix": name, "sku_tier": "Standard",
        "node_os_upgrade_channel": "NodeImage",
        "default_node_pool": [{
            "name": "system", "vm_size": "Standard_D4s_v5", "node_count": 3,
            "max_pods": 110, "os_disk_size_gb": 128 if after else 100,
            "os_sku": "AzureLinux" if after else "Ubuntu",
            "temporary_name_for_rotation": "systemtmp",
            "upgrade_settings": [{"max_surge": "33%",
                                  "drain_timeout_in_minutes": 0,
                                  "node_soak_duration_in_minutes": 0}],
            "node_labels": {"pool": "system"}, "zones": ["1", "2", "3"]}],
        "network_profile": [{"network_plugin": "azure",
                             "network_policy": "cilium" if after else "azure",
                             "outbound_type": "loadBalancer",
                             "load_balancer_sku": "standard"}],
        "maintenance_window_node_os": [{
            "frequency": "Weekly", "interval": 1, "duration": 4,
            "day_of_week": "Saturday", "start_time": "20:00",
            "utc_offset": "+00:00", "not_allowed": []}],
        "identity": [{"type": "SystemAssigned"}], "tags": tags(rng),
        "kube_config_raw": None,
    }


def aks_pool(rng, name, after):
    return {"name": name[:12], "kubernetes_cluster_id": rid(
                rng, "Microsoft.ContainerService/managedClusters", "aks"),
            "vm_size": "Standard_D8s_v5" if after else "Standard_D4s_v5",
            "node_count": 5, "os_sku": "Ubuntu", "mode": "User",
            "max_pods": 50 if after else 30,
            "node_taints": ["workload=%s:NoSchedule" % rng.choice(WORDS)],
            "upgrade_settings": [{"max_surge": "10%"}], "tags": tags(rng)}


def azapi_cluster(rng, name, after):
    return {"type": "Microsoft.ContainerService/managedClusters@2024-05-01",
            "name": name, "parent_id": rid(rng, "Microsoft.Resources/"
                                            "resourceGroups", "rg"),
            "location": "westeurope",
            "body": {"properties": {
                "kubernetesVersion": "1.30.3",
                "nodeProvisioningProfile": {"mode": "Manual"},
                "agentPoolProfiles": [{"name": "system", "count": 3,
                                       "vmSize": "Standard_D4s_v5",
                                       "osSKU": "AzureLinux" if after
                                       else "Ubuntu",
                                       "mode": "System"}],
                "networkProfile": {"networkPlugin": "azure",
                                   "networkPolicy": "cilium" if after
                                   else "calico"}}},
            "response_export_values": ["properties.fqdn"], "tags": tags(rng)}


KINDS = [
    ("azurerm_storage_account", "registry.terraform.io/hashicorp/azurerm",
     storage_account, 4),
    ("azurerm_network_security_rule",
     "registry.terraform.io/hashicorp/azurerm", nsg_rule, 6),
    ("aws_iam_policy", "registry.terraform.io/hashicorp/aws", iam_policy, 3),
    ("kubernetes_config_map", "registry.terraform.io/hashicorp/kubernetes",
     config_map, 2),
    ("azurerm_key_vault_certificate",
     "registry.terraform.io/hashicorp/azurerm", key_vault_cert, 1),
    ("azurerm_linux_virtual_machine",
     "registry.terraform.io/hashicorp/azurerm", linux_vm, 2),
]
AKS = [
    ("azurerm_kubernetes_cluster", "registry.terraform.io/hashicorp/azurerm",
     aks_cluster),
    ("azurerm_kubernetes_cluster_node_pool",
     "registry.terraform.io/hashicorp/azurerm", aks_pool),
    ("azapi_resource", "registry.terraform.io/azure/azapi", azapi_cluster),
]


def unknown_mask(v):
    if isinstance(v, dict):
        return {k: unknown_mask(x) for k, x in v.items()
                if isinstance(x, (dict, list))}
    if isinstance(v, list):
        return [unknown_mask(x) for x in v]
    return False


def resource(seed, i, aks_at):
    """The i-th resource, regenerated identically for every section."""
    rng = random.Random(seed * 1000003 + i)
    module = "module.m%d." % (i % 37) if i % 3 == 0 else ""
    if i in aks_at:
        rtype, provider, fn = AKS[aks_at[i] % len(AKS)]
        name = "aks%d" % i
        before, after = fn(rng, name, False), fn(random.Random(i), name, True)
        actions = ["update"]
    else:
        total = sum(k[3] for k in KINDS)
        pick = rng.randrange(total)
        for rtype, provider, fn, weight in KINDS:
            if pick < weight:
                break
            pick -= weight
        name = "%s_%d" % (rng.choice(WORDS), i)
        after = fn(rng, name)
        r = rng.random()
        if r < 0.7:
            before, actions = after, ["no-op"]
        elif r < 0.85:
            before, actions = None, ["create"]
        elif r < 0.95:
            before = dict(after)
            before["tags"] = tags(rng)
            actions = ["update"]
        else:
            before, actions = after, ["delete", "create"]
    return {
        "address": "%s%s.%s" % (module, rtype, name),
        "module_address": module[:-1] if module else None,
        "mode": "managed", "type": rtype, "name": name,
        "provider_name": provider, "schema_version": 0,
        "before": before, "after": after, "actions": actions,
    }


def dumps(v, indent):
    s = json.dumps(v, ensure_ascii=False, indent=indent,
                   separators=None if indent else (",", ":"))
    # Terraform escapes these three in its JSON output.
    return (s.replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("&", "\\u0026"))


def write_changes(w, f, a, sep, rng, aks_at, until):
    """resource_changes' entries until the file reaches 'until' bytes;
    how many."""
    ind = a.indent
    i = 0
    positions = [3, 10, 11, 50]
    while True:
        if i in positions or (i > 60 and rng.random() < 0.0004):
            aks_at[i] = len(aks_at)
        r = resource(a.seed, i, aks_at)
        rc = {"address": r["address"], "mode": r["mode"],
              "type": r["type"], "name": r["name"],
              "provider_name": r["provider_name"],
              "change": {"actions": r["actions"], "before": r["before"],
                         "after": r["after"],
                         "after_unknown": unknown_mask(r["after"]),
                         "before_sensitive": False if r["before"] is None
                         else {},
                         "after_sensitive": {"tags": {}}}}
        if r["module_address"]:
            rc["module_address"] = r["module_address"]
        w((sep if i else "") + dumps(rc, ind))
        i += 1
        if f.tell() >= until:
            return i


def write_planned(w, f, a, sep, aks_at, n, until):
    """planned_values' resources (of the first 'n', None: any number)
    until the file reaches 'until' bytes."""
    i = 0
    while n is None or i < n:
        r = resource(a.seed, i, aks_at)
        i += 1
        if r["after"] is None:
            continue
        w((sep if i > 1 else "") + dumps({
            "address": r["address"], "mode": "managed",
            "type": r["type"], "name": r["name"],
            "provider_name": r["provider_name"], "schema_version": 0,
            "values": r["after"], "sensitive_values": {}}, a.indent))
        if f.tell() >= until:
            break


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size-mb", type=float, default=240)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--indent", type=int, default=None,
                    help="pretty-print with this indent (default: compact)")
    ap.add_argument("--order", choices=("changes-first", "terraform"),
                    default="changes-first",
                    help="resource_changes first (default), or after "
                    "planned_values as terraform show -json writes them")
    a = ap.parse_args()
    target = int(a.size_mb * 1024 * 1024)
    ind = a.indent
    sep = ",\n" if ind else ","
    rng = random.Random(a.seed)
    # A few AKS resources, early, in the middle and near the end.
    # resource_changes takes about half the file.
    aks_at = {}
    with open(a.out, "w", encoding="utf-8") as f:
        def w(s):
            f.write(s)

        w('{"format_version":"1.2","terraform_version":"1.9.5",'
          '"variables":{"location":{"value":"westeurope"}},')
        if a.order == "terraform":
            w('"planned_values":{"root_module":{"resources":[')
            write_planned(w, f, a, sep, {}, None, target * 0.28)
            w(']}},"resource_changes":[')
            n = write_changes(w, f, a, sep, rng, aks_at, target * 0.78)
            w('],')
        else:
            w('"resource_changes":[')
            n = write_changes(w, f, a, sep, rng, aks_at, target * 0.5)
            w('],"planned_values":{"root_module":{"resources":[')
            write_planned(w, f, a, sep, aks_at, n, target * 0.78)
            w(']}},')
        w('"prior_state":{"format_version":"1.0","terraform_version":'
          '"1.9.5","values":{"root_module":{"resources":[')
        first = True
        for i in range(n):
            r = resource(a.seed, i, aks_at)
            if r["before"] is None:
                continue
            w(("" if first else sep) + dumps({
                "address": r["address"], "mode": "managed",
                "type": r["type"], "name": r["name"],
                "provider_name": r["provider_name"], "schema_version": 0,
                "values": r["before"], "sensitive_values": {}}, ind))
            first = False
            if f.tell() >= target * 0.95:
                break
        w(']}}},"configuration":{"provider_config":{"azurerm":{"name":'
          '"azurerm","full_name":"registry.terraform.io/hashicorp/azurerm",'
          '"expressions":{"features":[{}]}}},"root_module":{"resources":[')
        i = 0
        while f.tell() < target - 200:
            r = resource(a.seed, i % n, aks_at)
            w((sep if i else "") + dumps({
                "address": r["address"], "mode": "managed",
                "type": r["type"], "name": r["name"],
                "provider_config_key": r["provider_name"].split("/")[-1],
                "expressions": {k: {"constant_value": v} if not isinstance(
                    v, (dict, list)) else {"references": ["var.%s" % k,
                                                          "local.%s" % k]}
                    for k, v in (r["after"] or {}).items()},
                "schema_version": 0}, ind))
            i += 1
        w(']}},"relevant_attributes":[],"timestamp":"2024-09-01T12:00:00Z",'
          '"applyable":true,"complete":true,"errored":false}\n')


if __name__ == "__main__":
    main()

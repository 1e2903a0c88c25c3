#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a large what-if result (az deployment group what-if) for benchmarks.

Top-level 'changes' as the Azure CLI writes them: many resources of other
types (tags with escaped and non-ASCII text, lists of settings), and every
5000th change an AKS cluster whose network policy changes under a Block
profile.  Compact by default (--no-pretty-print); --indent N writes the
whole document indented, as 'az ... -o json' does.
"""
import argparse
import json
import random

TYPES = ["Microsoft.Network/virtualNetworks", "Microsoft.Storage/storageAccounts",
         "Microsoft.KeyVault/vaults", "Microsoft.Web/sites",
         "Microsoft.Sql/servers/databases"]


def cluster(i):
    rid = ("/subscriptions/s/resourceGroups/g/providers/"
           "Microsoft.ContainerService/managedClusters/aks%d" % i)

    def props(policy):
        return {"kubernetesVersion": "1.37.1",
                "networkProfile": {"networkPolicy": policy},
                "nodeDisruptionProfile": {"nodeDisruptionPolicy": "Block"}}
    return {"resourceId": rid, "changeType": "Modify",
            "before": {"id": rid, "properties": props("none")},
            "after": {"id": rid, "properties": props("azure")}, "delta": []}


def other(rng, i):
    t = rng.choice(TYPES)
    rid = "/subscriptions/s/resourceGroups/g/providers/%s/r%d" % (t, i)
    body = {"id": rid, "type": t, "location": "westeurope",
            "tags": {"owner": "team-%d" % (i % 97),
                     "note": "caf\u00e9 \"quoted\" \\ path"},
            "properties": {"settings": [
                {"name": "k%d" % j, "value": "v" * rng.randint(5, 80)}
                for j in range(6)]}}
    return {"resourceId": rid,
            "changeType": rng.choice(["NoChange", "Modify", "Create"]),
            "before": body, "after": body, "delta": None}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size-mb", type=float, default=240)
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--indent", type=int, default=None,
                    help="pretty-print with this indent (default: compact)")
    a = ap.parse_args()
    size = int(a.size_mb * 1024 * 1024)
    rng = random.Random(a.seed)
    ind = a.indent
    if ind:
        pad = " " * (2 * ind)
        head, sep = '{\n%s"changes": [\n%s' % (" " * ind, pad), ",\n" + pad
        tail = '\n%s],\n%s"status": "Succeeded",\n%s"error": null\n}\n' % (
            " " * ind, " " * ind, " " * ind)
    else:
        head, sep, tail = '{"changes": [', ",", \
            '], "status": "Succeeded", "error": null}\n'
    with open(a.out, "w", encoding="utf-8") as out:
        out.write(head)
        written, i = 0, 0
        while written < size:
            ch = cluster(i) if i % 5000 == 7 else other(rng, i)
            text = json.dumps(ch, indent=ind)
            if ind:
                text = text.replace("\n", "\n" + pad)
            text = (sep if i else "") + text
            out.write(text)
            written += len(text)
            i += 1
        out.write(tail)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fixtures that write unset azurerm values as "" and their siblings.

Terraform writes an unset azurerm string as "" in some provider versions
and as null in others, and a hand-edited or filtered plan may drop the key.
For every fixture listed below, fixtures/unset/ holds two siblings:
NAME.null.json
("" replaced by null) and NAME.absent.json (keys whose value is "" removed),
in the AKS resources' before and after.  The check runs ndplint on each
fixture and its siblings and fails unless the JSON reports agree (input
paths aside), so an unset value means the same in all three spellings.

  unset_siblings.py --write            rewrite the siblings
  unset_siblings.py NDPLINT SRC_DIR    check (ctest 'unset_siblings')
"""
import json
import os
import subprocess
import sys

FIXTURES = [
    "allow-negative", "block-network-policy", "bundled-upgrade",
    "example-plan", "gate-open", "gmsa", "modules-count-foreach",
    "profile-change", "replace-cluster", "rotate", "sensitive-proxy",
    "state-plan", "unknown-after", "window-invalid",
]
RUNS = [
    ["--at", "2026-12-05T12:00:00Z"],
    ["--at", "2026-12-06T02:00:00Z", "--profile", "Block"],
]


def to_null(v):
    if v == "":
        return None
    if isinstance(v, dict):
        return {k: to_null(x) for k, x in v.items()}
    if isinstance(v, list):
        return [to_null(x) for x in v]
    return v


def to_absent(v):
    if isinstance(v, dict):
        return {k: to_absent(x) for k, x in v.items() if x != ""}
    if isinstance(v, list):
        return [to_absent(x) for x in v]
    return v


def sibling(plan, spell):
    out = json.loads(json.dumps(plan))
    for rc in out.get("resource_changes", []):
        if not rc.get("type", "").startswith("azurerm_kubernetes_cluster"):
            continue
        for side in ("before", "after"):
            if rc["change"].get(side) is not None:
                rc["change"][side] = spell(rc["change"][side])
    return out


def write(src):
    for name in FIXTURES:
        plan = json.load(open(os.path.join(src, "fixtures", name + ".json")))
        for suffix, spell in (("null", to_null), ("absent", to_absent)):
            path = os.path.join(src, "fixtures", "unset",
                                "%s.%s.json" % (name, suffix))
            with open(path, "w") as f:
                json.dump(sibling(plan, spell), f, indent=1)
                f.write("\n")


def report(ndplint, path, args):
    p = subprocess.run([ndplint, "--format", "json"] + args + [path],
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return None, p.returncode, p.stderr.strip()
    try:
        doc = json.loads(p.stdout)
    except ValueError:
        return None, p.returncode, "no JSON report"
    for i in doc.get("inputs", []):
        i.pop("path", None)
    for f in doc.get("findings", []):
        f.pop("input", None)
        f.pop("fingerprint", None)
        f.pop("location", None)  # names the input file
    for c in doc.get("clusters", []):
        c.pop("input", None)
    return doc, p.returncode, ""


def check(ndplint, src):
    failures = checks = 0
    for name in FIXTURES:
        base = os.path.join(src, "fixtures", name + ".json")
        for args in RUNS:
            want, wrc, werr = report(ndplint, base, args)
            if want is None:
                print("unset_siblings: %s %s: %s (exit %d)"
                      % (name, " ".join(args), werr, wrc))
                checks += 2
                failures += 2
                continue
            for suffix in ("null", "absent"):
                checks += 1
                path = os.path.join(src, "fixtures", "unset",
                                    "%s.%s.json" % (name, suffix))
                got, grc, gerr = report(ndplint, path, args)
                if got != want or grc != wrc:
                    print("unset_siblings: %s.%s.json %s: differs from %s.json"
                          " (exit %d vs %d) %s"
                          % (name, suffix, " ".join(args), name, grc, wrc,
                             gerr))
                    failures += 1
    print("unset_siblings: %d passed, %d failed" % (checks - failures,
                                                     failures))
    return 1 if failures or not checks else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write(os.path.join(os.path.dirname(__file__), "..", ".."))
        sys.exit(0)
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(check(sys.argv[1], sys.argv[2]))

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Big inputs give the right answer: the inputs of bench/scaling.sh (see
# bench/gen_scaling.py), near the limits ndplint documents, must give
# exactly the findings, waived findings, baseline-known findings and
# rebuilt pools the generator says they hold.  Not timed: the times are
# the benchmark's business, this only checks the answers the indexes give
# (pools by name, waivers, baseline fingerprints, clusters by id).
#   usage: run_scaling_check.sh NDPLINT SOURCE_DIR PYTHON3
set -u
ndplint=$1 src=$2 python=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0 failed=0

# check CASE N EXPECT-JSON REPORT: compares the report with the expectation
check() {
    "$python" - "$1" "$3" "$4" <<'PY'
import json, sys
case, expect, report = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
d = json.load(open(report))
got = {"findings": sum(1 for f in d["findings"] if not f["suppressed"]),
       "suppressed": d["summary"]["suppressed"],
       "baseline_known": d["summary"].get("baseline_known"),
       "clusters": len(d["clusters"])}
if case == "waivers":
    got["findings"] = len(d["findings"])
impact = d["clusters"][0]["impact"] if d["clusters"] else None
if impact:
    got["impact_pools"] = len(impact["pools"])
    got["impact_nodes"] = impact["nodes"]
bad = {k: (v, got.get(k)) for k, v in expect.items() if got.get(k) != v}
if bad:
    print("scaling: %s: want, got: %s" % (case, bad))
    sys.exit(1)
PY
}

run() { # case n extra-args...
    c=$1 n=$2
    shift 2
    dir=$tmp/$c
    expect=$("$python" "$src/bench/gen_scaling.py" --case "$c" --n "$n" \
             --out "$dir") || { failed=$((failed + 1)); return; }
    if [ "$c" = baseline ]; then
        "$ndplint" --no-config --fail-on never --write-baseline \
            "$dir/known.json" "$dir/plan.json" > /dev/null
        expect=$("$python" "$src/bench/gen_scaling.py" --case baseline \
                 --n "$n" --known "$dir/known.json" --out "$dir")
    fi
    "$ndplint" --fail-on never --format json "$@" "$dir/plan.json" \
        > "$tmp/report.json" 2> "$tmp/err"
    status=$?
    if [ "$status" != 0 ] || [ ! -s "$tmp/report.json" ]; then
        echo "scaling: $c $n: exit $status"
        cat "$tmp/err"
        failed=$((failed + 1))
    elif check "$c" "$n" "$expect" "$tmp/report.json"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
    fi
    rm -rf "$dir"
}

run pools 5000 --no-config
run armpools 20000 --no-config
run clusters 2000 --no-config
run waivers 4000 --config "$tmp/waivers/ndplint.json"
run baseline 1000 --no-config --baseline "$tmp/baseline/baseline.json"
echo "scaling: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" = 5 ]

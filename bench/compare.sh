#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The benchmark behind README "Performance": ndplint against wc -l, jq and
# Python's json.load on the same generated plans (and a what-if result and
# standard input), several runs each; prints the median wall time, the
# ratios and the peak RSS as a Markdown table.  Not a test: it asserts
# nothing.  Needs python3, jq and GNU time (/usr/bin/time, Debian 'time').
#   usage: sh bench/compare.sh [SIZES_MB] [RUNS]   e.g. sh bench/compare.sh "24 240" 3
set -eu
cd "$(dirname "$0")/.."
sizes=${1:-24 240}
runs=${2:-3}
ndplint=${NDPLINT:-build/ndplint}
tmp=${TMPDIR:-/tmp}/ndplint-bench
mkdir -p "$tmp"
[ -x "$ndplint" ] || { echo "bench: build ndplint first ($ndplint)" >&2; exit 1; }
command -v jq > /dev/null || { echo "bench: jq is needed (apt-get install jq)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: GNU time is needed (apt-get install time)" >&2; exit 1; }

# median wall seconds (nanosecond clock) and max RSS (KB, GNU time) of
# COMMAND over $runs runs
measure() {
    i=0
    : > "$tmp/times"
    while [ "$i" -lt "$runs" ]; do
        t0=$(date +%s%N)
        /usr/bin/time -f "%M" -o "$tmp/one" sh -c "$1" > /dev/null 2>&1 || true
        t1=$(date +%s%N)
        echo "$(( (t1 - t0) / 1000 )) $(cat "$tmp/one")" |
            awk '{ printf "%.6f %d\n", $1 / 1e6, $2 }' >> "$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk -v n="$runs" '
        { t[NR] = $1; if ($2 > m) m = $2 }
        END { printf "%s %d\n", t[int((n + 1) / 2)], m }'
}

row() { # label file-size-bytes wall rss [base-wall jq-wall]
    awk -v l="$1" -v s="$2" -v w="$3" -v r="$4" -v wc="$5" -v jq="$6" 'BEGIN {
        printf "| %s | %.3f s | %.1fx | %s | %.0f MB | %.2f |\n", l, w,
               (wc > 0 ? w / wc : 0),
               (jq > 0 && w > 0 ? sprintf("%.1fx faster", jq / w) : "-"),
               r / 1024, r * 1024 / s }'
}

gen_whatif() { # size_mb out
    python3 - "$1" "$2" <<'PY'
import json, random, sys
size = int(sys.argv[1]) * 1024 * 1024
random.seed(5)
out = open(sys.argv[2], "w")
out.write('{"changes": [')
written, i = 0, 0
types = ["Microsoft.Network/virtualNetworks", "Microsoft.Storage/storageAccounts",
         "Microsoft.KeyVault/vaults", "Microsoft.Web/sites", "Microsoft.Sql/servers/databases"]
while written < size:
    if i % 5000 == 7:
        rid = "/subscriptions/s/resourceGroups/g/providers/Microsoft.ContainerService/managedClusters/aks%d" % i
        props = lambda p: {"kubernetesVersion": "1.37.1", "networkProfile": {"networkPolicy": p},
                           "nodeDisruptionProfile": {"nodeDisruptionPolicy": "Block"}}
        ch = {"resourceId": rid, "changeType": "Modify", "before": {"id": rid, "properties": props("none")},
              "after": {"id": rid, "properties": props("azure")}, "delta": []}
    else:
        t = random.choice(types)
        rid = "/subscriptions/s/resourceGroups/g/providers/%s/r%d" % (t, i)
        body = {"id": rid, "type": t, "location": "westeurope",
                "tags": {"owner": "team-%d" % (i % 97), "note": "caf\u00e9 \"quoted\" \\ path"},
                "properties": {"settings": [{"name": "k%d" % j, "value": "v" * random.randint(5, 80)} for j in range(6)]}}
        ch = {"resourceId": rid, "changeType": random.choice(["NoChange", "Modify", "Create"]),
              "before": body, "after": body, "delta": None}
    s = ("," if i else "") + json.dumps(ch)
    out.write(s)
    written += len(s)
    i += 1
out.write('], "status": "Succeeded", "error": null}\n')
PY
}

echo "| input | wall (median of $runs) | x wc -l | vs jq | peak RSS | RSS / size |"
echo "|---|---|---|---|---|---|"
for mb in $sizes; do
    plan=$tmp/plan-$mb.json whatif=$tmp/whatif-$mb.json
    [ -f "$plan" ] || python3 bench/gen_plan.py --size-mb "$mb" --seed 1 --out "$plan" > /dev/null
    [ -f "$whatif" ] || gen_whatif "$mb" "$whatif"
    bytes=$(wc -c < "$plan")
    set -- $(measure "wc -l '$plan'"); wc_t=$1; wc_m=$2
    set -- $(measure "jq -c '.resource_changes[] | select(.type == \"azurerm_kubernetes_cluster\") | .address' '$plan'"); jq_t=$1; jq_m=$2
    set -- $(measure "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '$plan'"); py_t=$1; py_m=$2
    set -- $(measure "'$ndplint' --fail-on never '$plan'"); nd_t=$1; nd_m=$2
    set -- $(measure "cat '$plan' | '$ndplint' --fail-on never -"); st_t=$1; st_m=$2
    row "$mb MB plan: wc -l" "$bytes" "$wc_t" "$wc_m" "$wc_t" 0
    row "$mb MB plan: jq (select the clusters)" "$bytes" "$jq_t" "$jq_m" "$wc_t" 0
    row "$mb MB plan: python3 json.load" "$bytes" "$py_t" "$py_m" "$wc_t" "$jq_t"
    row "$mb MB plan: **ndplint**" "$bytes" "$nd_t" "$nd_m" "$wc_t" "$jq_t"
    row "$mb MB plan on stdin: **ndplint -**" "$bytes" "$st_t" "$st_m" "$wc_t" "$jq_t"
    wbytes=$(wc -c < "$whatif")
    set -- $(measure "wc -l '$whatif'"); ww_t=$1
    set -- $(measure "jq -c '.changes[] | select(.resourceId | test(\"managedClusters\")) | .resourceId' '$whatif'"); wj_t=$1; wj_m=$2
    set -- $(measure "'$ndplint' --fail-on never '$whatif'"); wn_t=$1; wn_m=$2
    row "$mb MB what-if: jq" "$wbytes" "$wj_t" "$wj_m" "$ww_t" 0
    row "$mb MB what-if: **ndplint**" "$wbytes" "$wn_t" "$wn_m" "$ww_t" "$wj_t"
done
# The pre-commit case: a small plan, timed over a loop of runs because one
# run is below the clock's resolution.
small=$tmp/small.json
[ -s "$small" ] || python3 bench/gen_plan.py --size-mb 0.02 --seed 3 \
    --out "$small" > /dev/null
loop=200
loop_time() { # command -> seconds per run
    /usr/bin/time -f "%e" -o "$tmp/one" sh -c "i=0; while [ \$i -lt $loop ]; do $1 > /dev/null 2>&1; i=\$((i + 1)); done" || true
    awk -v n="$loop" '{ printf "%.6f\n", $1 / n }' "$tmp/one"
}
tr_t=$(loop_time /bin/true)
sm_t=$(loop_time "'$ndplint' --fail-on never '$small'")
sj_t=$(loop_time "jq length '$small'")
echo
echo "| small plan ($(wc -c < "$small") bytes), mean of $loop runs | wall | x /bin/true |"
echo "|---|---|---|"
awk -v t="$tr_t" -v n="$sm_t" -v j="$sj_t" 'BEGIN {
    printf "| /bin/true | %.2f ms | 1.0x |\n", t * 1000
    printf "| ndplint | %.2f ms | %.1fx |\n", n * 1000, (t > 0 ? n / t : 0)
    printf "| jq length | %.2f ms | %.1fx |\n", j * 1000, (t > 0 ? j / t : 0) }'

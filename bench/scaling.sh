#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# How ndplint's lookups scale: each case of bench/gen_scaling.py at 1x, 2x
# and 4x its base size, with the CPU time (user + system), the wall time,
# the peak RSS, and each time as a ratio to the 1x time.  Linear work
# doubles per step (ratio about 2 and 4), n log n a little more, quadratic
# work quadruples (4 and 16).  Not a test: it asserts nothing; the
# functional test of the same inputs is tests/scripts/run_scaling_check.sh.
# Needs python3 and GNU time (/usr/bin/time, Debian 'time').
#   usage: sh bench/scaling.sh [CASES] [RUNS]
#   e.g.   sh bench/scaling.sh "pools waivers" 3
#   NDPLINT=path/to/ndplint picks another binary (an older build, say).
set -eu
cd "$(dirname "$0")/.."
cases=${1:-pools armpools clusters waivers baseline}
runs=${2:-1}
ndplint=${NDPLINT:-build/ndplint}
tmp=${TMPDIR:-/tmp}/ndplint-scaling
mkdir -p "$tmp"
[ -x "$ndplint" ] || { echo "bench: build ndplint first ($ndplint)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench: GNU time is needed (apt-get install time)" >&2; exit 1; }

# Base sizes: within ndplint's documented limits at 4x (10,000 AKS
# resources; a 1 MiB settings file; a 64 MiB baseline).
base() {
    case $1 in
    pools) echo 2400 ;;      # node pool resources of one cluster
    armpools) echo 20000 ;;  # agentPoolProfiles in one azapi cluster body
    clusters) echo 1200 ;;   # clusters, each with one node pool resource
    waivers) echo 2250 ;;    # waivers and findings (half of them waived)
    baseline) echo 1250 ;;   # findings; 180 fingerprints per finding
    esac
}

# Arguments for a case's generated directory $1.
args() {
    case $2 in
    waivers) echo "--config $1/ndplint.json" ;;
    baseline) echo "--no-config --baseline $1/baseline.json" ;;
    *) echo "--no-config" ;;
    esac
}

generate() { # case n dir
    python3 bench/gen_scaling.py --case "$1" --n "$2" --out "$3" > /dev/null
    if [ "$1" = baseline ]; then
        "$ndplint" --no-config --fail-on never --write-baseline \
            "$3/known.json" "$3/plan.json" > /dev/null
        python3 bench/gen_scaling.py --case baseline --n "$2" \
            --known "$3/known.json" --out "$3" > /dev/null
    fi
}

# median CPU seconds, median wall seconds, max RSS (KB) over $runs runs
measure() {
    i=0
    : > "$tmp/times"
    while [ "$i" -lt "$runs" ]; do
        # shellcheck disable=SC2086
        /usr/bin/time -f "%U %S %e %M" -o "$tmp/one" "$ndplint" \
            --fail-on never --format json $1 > /dev/null 2>&1 || true
        awk '{ printf "%.2f %.2f %d\n", $1 + $2, $3, $4 }' "$tmp/one" \
            >> "$tmp/times"
        i=$((i + 1))
    done
    sort -n "$tmp/times" | awk -v n="$runs" '
        { c[NR] = $1; w[NR] = $2; if ($3 > m) m = $3 }
        END { printf "%s %s %d\n", c[int((n + 1) / 2)], w[int((n + 1) / 2)], m }'
}

echo "| case | n | input | CPU | wall | CPU / CPU at 1x | peak RSS |"
echo "|---|---|---|---|---|---|---|"
for c in $cases; do
    n0=$(base "$c")
    [ -n "$n0" ] || { echo "bench: no case '$c'" >&2; exit 2; }
    first=
    for k in 1 2 4; do
        n=$((n0 * k)) dir=$tmp/$c-$n
        [ -f "$dir/plan.json" ] || generate "$c" "$n" "$dir"
        size=0
        for f in plan.json ndplint.json baseline.json; do
            [ -f "$dir/$f" ] && size=$((size + $(wc -c < "$dir/$f")))
        done
        set -- $(measure "$(args "$dir" "$c") $dir/plan.json")
        [ -n "$first" ] || first=$1
        awk -v c="$c" -v n="$n" -v k="$k" -v s="$size" -v cpu="$1" \
            -v wall="$2" -v rss="$3" -v f="$first" 'BEGIN {
            printf "| %s | %d (%dx) | %.1f MB | %.2f s | %.2f s | %s | %.0f MB |\n",
                c, n, k, s / 1e6, cpu, wall,
                (f > 0 ? sprintf("%.1f", cpu / f) : "-"), rss / 1024 }'
    done
done

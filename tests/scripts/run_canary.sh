#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A unique secret string sits in every sensitive position of
# fixtures/sensitive-proxy.json (masked values, proxy URL credentials, a
# trusted CA) and of fixtures/sensitive-window-policy.json (a
# nodeDisruptionPolicy under a leaf, a before and a whole-resource mask, an
# azapi maintenance configuration whose body is sensitive, a
# maintenance_window_node_os start_time, azapi sensitive_body).  The
# latter also holds a valid window masked whole, at 03:17 UTC+05:45: its
# times (and the UTC time it opens, 21:32) are secrets too, and so is
# a masked kubernetes_version, 1.29, and a default pool whose name,
# node_count (777) and max_surge (41%) are masked.  None may
# appear in any output of any format: standard output, standard error, or
# a report file.  Every run must also exit 0 or 1 and write its report, so
# a binary that prints nothing fails.
#   usage: run_canary.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 source_dir=$2
secrets='CANARY-SECRET-7f3a|03:17|05:45|21:32|1\.29|[^0-9a-f]777[^0-9a-f]|41%'
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

failed=0 runs=0 planted=0
for fixture in "$source_dir/fixtures/sensitive-proxy.json" \
               "$source_dir/fixtures/sensitive-window-policy.json"; do
    n=$(grep -o "CANARY-SECRET-7f3a" "$fixture" | wc -l)
    if [ "$n" -lt 5 ]; then
        echo "canary: $fixture holds the canary only $n times"
        exit 1
    fi
    planted=$((planted + n))
    for args in "--format text" "--format json" "--window-check" \
                "--format json -o $tmp/report.json" "--color always" \
                "--profile AllowDuringMaintenanceWindow --format text" \
                "--profile AllowDuringMaintenanceWindow --window-check" \
                "--at 2026-12-12T00:00:00Z --format json"; do
        rm -f "$tmp/report.json"
        # shellcheck disable=SC2086
        "$ndplint" --at 2026-12-05T12:00:00Z $args "$fixture" \
            > "$tmp/out" 2> "$tmp/err"
        status=$?
        runs=$((runs + 1))
        report=$tmp/out
        case $args in *-o*) report=$tmp/report.json ;; esac
        if [ "$status" -gt 1 ] || [ ! -s "$report" ]; then
            echo "canary: '$args' on $(basename "$fixture") exited" \
                 "$status without a report"
            failed=$((failed + 1))
            continue
        fi
        leaked=0
        for f in "$tmp/out" "$tmp/err" "$tmp/report.json"; do
            [ -f "$f" ] || continue
            if grep -Eq "$secrets" "$f"; then
                echo "canary: leaked with '$args' on" \
                     "$(basename "$fixture") in $(basename "$f"):"
                grep -Eo ".{0,40}($secrets).{0,20}" "$f" | head -3
                leaked=1
            fi
        done
        failed=$((failed + leaked))
    done
done
echo "canary: $((runs - failed)) passed, $failed failed ($planted secrets planted)"
[ "$failed" = 0 ] && [ "$runs" -gt 0 ]

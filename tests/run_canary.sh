#!/bin/sh
# A unique secret string sits in every sensitive position of
# fixtures/sensitive-proxy.json (masked values, proxy URL credentials, a
# trusted CA).  It must appear in no output of any format: standard
# output, standard error, or a report file.  Every run must also exit 0
# and write its report, or a program that prints nothing would pass.
#   usage: run_canary.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 source_dir=$2
canary=CANARY-SECRET-7f3a
fixture=$source_dir/fixtures/sensitive-proxy.json
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

planted=$(grep -o "$canary" "$fixture" | wc -l)
if [ "$planted" -lt 5 ]; then
    echo "canary: the fixture holds the canary only $planted times"
    exit 1
fi
failed=0 runs=0
# Each run must exit 0 (the fixture's findings are notes) and write its
# report, holding the pattern, where it was asked for.
for case in "--format text|out|NDP106" "--format json|out|\"NDP107\"" \
            "--window-check|out|azurerm_kubernetes_cluster.secure2" \
            "--format json -o $tmp/report.json|report.json|\"NDP106\"" \
            "--color always|out|NDP107"; do
    args=${case%%|*} rest=${case#*|}
    report=${rest%%|*} pattern=${rest#*|}
    rm -f "$tmp/report.json"
    # shellcheck disable=SC2086
    "$ndplint" --at 2026-12-05T12:00:00Z $args "$fixture" \
        > "$tmp/out" 2> "$tmp/err"
    status=$?
    runs=$((runs + 1))
    if [ "$status" != 0 ]; then
        echo "canary: '$args' exited $status, want 0"
        failed=$((failed + 1))
    elif ! grep -q -- "$pattern" "$tmp/$report" 2> /dev/null; then
        echo "canary: '$args' wrote no report ($pattern) to $report"
        failed=$((failed + 1))
    fi
    for f in "$tmp/out" "$tmp/err" "$tmp/report.json"; do
        [ -f "$f" ] || continue
        if grep -q "$canary" "$f"; then
            echo "canary: leaked with '$args' in $(basename "$f")"
            failed=$((failed + 1))
        fi
    done
done
echo "canary: $runs runs, $failed failures ($planted secrets planted)"
[ "$failed" = 0 ] && [ "$runs" = 5 ]

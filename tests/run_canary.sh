#!/bin/sh
# A unique secret string sits in every sensitive position of
# fixtures/sensitive-proxy.json (masked values, proxy URL credentials, a
# trusted CA).  It must appear in no output of any format: standard
# output, standard error, or a report file.
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
for args in "--format text" "--format json" "--window-check" \
            "--format json -o $tmp/report.json" "--color always"; do
    # shellcheck disable=SC2086
    "$ndplint" --at 2026-12-05T12:00:00Z $args "$fixture" \
        > "$tmp/out" 2> "$tmp/err"
    runs=$((runs + 1))
    for f in "$tmp/out" "$tmp/err" "$tmp/report.json"; do
        [ -f "$f" ] || continue
        if grep -q "$canary" "$f"; then
            echo "canary: leaked with '$args' in $(basename "$f")"
            failed=$((failed + 1))
        fi
    done
done
echo "canary: $((runs * 1 - failed)) passed, $failed failed ($planted secrets planted)"
[ "$failed" = 0 ]

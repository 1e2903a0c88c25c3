#!/bin/sh
# The secret planted in every sensitive position of
# fixtures/sensitive-proxy.json (see run_canary.sh) appears in no output of
# the CI formats either: sarif, github (and its GITHUB_STEP_SUMMARY),
# junit and markdown, alone, together in one run, under every profile and
# --fail-on level.  Every run must also exit as its options say and write
# every report it was asked for, or a program that prints nothing would
# pass.
#   usage: run_report_canary.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
canary=CANARY-SECRET-7f3a
fixture=$src/fixtures/sensitive-proxy.json
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

grep -q "$canary" "$fixture" || { echo "report canary: not planted"; exit 1; }
failed=0 runs=0
for opts in "" "--profile Block" "--profile AllowDuringMaintenanceWindow" \
            "--fail-on note"; do
    for f in sarif github junit markdown all; do
        rm -f "$tmp"/out "$tmp"/err "$tmp"/r.* "$tmp"/summary
        if [ "$f" = all ]; then
            set -- --format text --format "sarif:$tmp/r.sarif" \
                --format "github:$tmp/r.github" --format "junit:$tmp/r.junit" \
                --format "markdown:$tmp/r.md" --format "json:$tmp/r.json"
        else
            set -- --format "$f"
        fi
        # shellcheck disable=SC2086
        GITHUB_STEP_SUMMARY=$tmp/summary "$ndplint" \
            --at 2026-12-05T12:00:00Z $opts "$@" "$fixture" \
            > "$tmp/out" 2> "$tmp/err"
        status=$?
        runs=$((runs + 1))
        # Block and --fail-on note fail the run; the other options do not.
        case $opts in --profile\ Block|--fail-on*) want=1 ;; *) want=0 ;; esac
        if [ "$status" != "$want" ]; then
            echo "report canary: '$f $opts' exited $status, want $want"
            failed=$((failed + 1))
        fi
        # Every report asked for was written and names the findings.
        reports="$tmp/out"
        [ "$f" = all ] && reports="$tmp/out $tmp/r.sarif $tmp/r.github \
            $tmp/r.junit $tmp/r.md $tmp/r.json"
        [ "$f" = github ] && reports="$tmp/out $tmp/summary"
        for r in $reports; do
            if ! grep -q "NDP10[67]" "$r" 2> /dev/null; then
                echo "report canary: '$f $opts' wrote no report to" \
                     "$(basename "$r")"
                failed=$((failed + 1))
            fi
        done
        for out in "$tmp"/out "$tmp"/err "$tmp"/r.* "$tmp"/summary; do
            [ -f "$out" ] || continue
            if grep -q "$canary" "$out"; then
                echo "report canary: leaked with '$f $opts' in $(basename "$out")"
                failed=$((failed + 1))
            fi
        done
    done
done
echo "report canary: $runs runs, $failed failures"
[ "$failed" = 0 ] && [ "$runs" = 20 ]

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The secrets planted in fixtures/sensitive-proxy.json and
# fixtures/sensitive-window-policy.json (see run_canary.sh) appear in no
# output of any report format either (every one 'NDPLINT --list-names'
# lists; github with its GITHUB_STEP_SUMMARY), alone and all together in
# one run, under every profile and --fail-on level.  Every run must exit 0
# or 1 and write every report it was asked for, so a binary that prints
# nothing fails.
#   usage: run_report_canary.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
secrets='CANARY-SECRET-7f3a|03:17|05:45|21:32|1\.29|[^0-9a-f]777[^0-9a-f]|41%'
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

formats=$("$ndplint" --list-names | sed -n 's/^report //p')
if [ -z "$formats" ]; then
    echo "report canary: '$ndplint --list-names' lists no report format"
    exit 1
fi

failed=0 runs=0
for fixture in "$src/fixtures/sensitive-proxy.json" \
               "$src/fixtures/sensitive-window-policy.json"; do
    grep -q CANARY-SECRET-7f3a "$fixture" ||
        { echo "report canary: not planted in $fixture"; exit 1; }
    for opts in "" "--profile Block" "--profile AllowDuringMaintenanceWindow" \
                "--fail-on note"; do
        for f in $formats all; do
            rm -f "$tmp"/out "$tmp"/err "$tmp"/r.* "$tmp"/summary
            if [ "$f" = all ]; then
                # The first to standard output, each other to its file.
                set --
                expect=$tmp/out
                for g in $formats; do
                    if [ $# = 0 ]; then
                        set -- --format "$g"
                    else
                        set -- "$@" --format "$g:$tmp/r.$g"
                        expect="$expect $tmp/r.$g"
                    fi
                    [ "$g" = github ] && expect="$expect $tmp/summary"
                done
            else
                set -- --format "$f"
                expect=$tmp/out
                [ "$f" = github ] && expect="$expect $tmp/summary"
            fi
            # shellcheck disable=SC2086
            GITHUB_STEP_SUMMARY=$tmp/summary "$ndplint" \
                --at 2026-12-05T12:00:00Z $opts "$@" "$fixture" \
                > "$tmp/out" 2> "$tmp/err"
            status=$?
            runs=$((runs + 1))
            missing=
            for e in $expect; do
                [ -s "$e" ] || missing="$missing $(basename "$e")"
            done
            if [ "$status" -gt 1 ] || [ -n "$missing" ]; then
                echo "report canary: '$f $opts' on $(basename "$fixture")" \
                     "exited $status; missing:${missing:- none}"
                failed=$((failed + 1))
                continue
            fi
            leaked=0
            for out in "$tmp"/out "$tmp"/err "$tmp"/r.* "$tmp"/summary; do
                [ -f "$out" ] || continue
                if grep -Eq "$secrets" "$out"; then
                    echo "report canary: leaked with '$f $opts' on" \
                         "$(basename "$fixture") in $(basename "$out")"
                    leaked=1
                fi
            done
            failed=$((failed + leaked))
        done
    done
done
echo "report canary: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ] && [ "$runs" -gt 0 ]

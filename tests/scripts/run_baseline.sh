#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Baseline round trip: the findings of a plan, written with
# --write-baseline, are all "known" in the same plan with its resources
# reordered and an unrelated resource added; a new finding is still shown.
#   usage: run_baseline.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$src" || exit 1
at="--at 2026-12-05T12:00:00Z"
passed=0 failed=0
check() { # description, condition result (0 = ok)
    if [ "$2" = 0 ]; then passed=$((passed + 1)); else
        echo "baseline: $1"; failed=$((failed + 1)); fi
}
# shellcheck disable=SC2086
"$ndplint" $at --no-config --format json --write-baseline "$tmp/base.json" \
    fixtures/modules-count-foreach.json > "$tmp/before.json"
[ $? -le 1 ]; check "--write-baseline run exits 0 or 1" $?
n=$(grep -c '"rule":' "$tmp/before.json")
[ "$n" -gt 0 ]; check "the plan has findings ($n)" $?
[ "$(grep -c '"[0-9a-f]\{64\}"' "$tmp/base.json")" = "$n" ]
check "one fingerprint per finding" $?
grep -o '"fingerprint": "[0-9a-f]\{64\}"' "$tmp/before.json" |
    grep -o '[0-9a-f]\{64\}' | sort > "$tmp/report.prints"
grep -o '"[0-9a-f]\{64\}"' "$tmp/base.json" | tr -d '"' | sort \
    > "$tmp/base.prints"
[ -s "$tmp/report.prints" ] && cmp -s "$tmp/report.prints" "$tmp/base.prints"
check "the JSON report's fingerprints are the baseline's" $?
# shellcheck disable=SC2086
"$ndplint" $at --no-config --format json --baseline "$tmp/base.json" \
    fixtures/config/modules-moved.json > "$tmp/after.json" 2> "$tmp/err"
[ $? = 0 ]; check "moved plan: exit 0" $?
grep -q '"summary"' "$tmp/after.json"; check "moved plan: a report" $?
[ "$(grep -c '"rule":' "$tmp/after.json")" = 0 ]
check "moved plan: no new finding" $?
grep -q "$n findings listed in the baseline" "$tmp/err"
check "the known findings are counted" $?
# shellcheck disable=SC2086
"$ndplint" $at --no-config --format json --baseline "$tmp/base.json" \
    fixtures/example-plan.json > "$tmp/other.json" 2> /dev/null
[ $? = 1 ]; check "another plan: exit 1" $?
[ "$(grep -c '"rule":' "$tmp/other.json")" -gt 0 ]
check "another plan's findings are new" $?
echo "baseline: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 8 ]

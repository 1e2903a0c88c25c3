#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every golden SARIF report, and the SARIF report of every fixture, through
# Microsoft's SARIF validator with GitHub's ingestion rules
# (@microsoft/sarif-multitool, installed by ci/install-deps.sh --validators):
# 'validate FILE --rule-kind "Gh;Sarif"' must report no error.  The native
# binary is run directly: the package's bin.js hands its arguments to a
# shell, which would split "Gh;Sarif" at the ';'.
#   usage: run_sarif_validate.sh NDPLINT SOURCE_DIR TOOLS_DIR
set -u
ndplint=$1 src=$2 tools=$3
mt=$tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
if [ ! -f "$mt" ]; then
    echo "sarif: @microsoft/sarif-multitool is not installed in $tools" \
         "(sh ci/install-deps.sh --validators): skipped"
    exit 77
fi
# npm does not run the package's postinstall, which sets this bit.
[ -x "$mt" ] || chmod u+x "$mt" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
for case_dir in "$src"/tests/golden/*; do
    grep -qx 'sarif' "$case_dir/args" 2>/dev/null || continue
    n=$((n + 1))
    cp "$case_dir/expected.out" "$tmp/golden-$(basename "$case_dir").sarif"
done
cd "$src" || exit 1
for fixture in fixtures/*.json; do
    n=$((n + 1))
    report=$tmp/fixture-$(basename "$fixture" .json).sarif
    "$ndplint" --at 2026-12-05T12:00:00Z --format sarif "$fixture" > "$report"
    [ $? -le 1 ] || { echo "sarif: ndplint failed on $fixture"; exit 1; }
    grep -q '"runs"' "$report" ||
        { echo "sarif: no report for $fixture"; exit 1; }
done
"$mt" validate "$tmp"/*.sarif --rule-kind "Gh;Sarif" > "$tmp/log" 2>&1
status=$?
sed "s|$tmp/||" "$tmp/log"
errors=$(grep -c ': error ' "$tmp/log")
if [ "$status" != 0 ] || [ "$errors" != 0 ] ||
   ! grep -q 'Analysis completed successfully' "$tmp/log"; then
    echo "sarif: 0 passed, $n failed (validator exit $status, $errors errors)"
    exit 1
fi
echo "sarif: $n passed, 0 failed"

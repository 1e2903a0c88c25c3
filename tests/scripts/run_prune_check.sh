#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The pruned reader, two ways, over a generated multi-megabyte plan
# (bench/gen_plan.py: many resource types, modules, AKS clusters and pools
# with changes), an indented one and every fixture:
#   - prune_check: the findings are the same whether the plan is read by
#     the pruned reader or as one json-c tree;
#   - stream_check: the pruned tree, count and errors are the same whether
#     the text is there whole or arrives in pieces (standard input); the
#     input fuzz corpus, with its many malformed documents, too.
# Each program must exit 0 and report that it compared every file.
#   usage: run_prune_check.sh PRUNE_CHECK STREAM_CHECK SOURCE_DIR
set -u
check=$1 stream=$2 src=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
python3 "$src/bench/gen_plan.py" --size-mb 6 --seed 7 --out "$tmp/plan.json" \
    > /dev/null || exit 1
python3 "$src/bench/gen_plan.py" --size-mb 2 --seed 11 --indent 2 \
    --out "$tmp/plan-indented.json" > /dev/null || exit 1
# Each program must exit 0 and say how many files it compared: every one.
n=$(ls "$src"/fixtures/*.json "$src"/fixtures/bad/* | wc -l)
"$check" "$tmp/plan.json" "$tmp/plan-indented.json" \
    "$src"/fixtures/*.json "$src"/fixtures/bad/* > "$tmp/check.out" || exit 1
cat "$tmp/check.out"
grep -qx "prune_check: $((n + 2)) passed, 0 failed" "$tmp/check.out" || {
    echo "prune_check: no report of $((n + 2)) files compared"; exit 1; }
n=$((n + $(ls "$src"/tests/fuzz/corpus/input/* | wc -l)))
"$stream" "$tmp/plan.json" "$tmp/plan-indented.json" \
    "$src"/fixtures/*.json "$src"/fixtures/bad/* \
    "$src"/tests/fuzz/corpus/input/* > "$tmp/stream.out" || exit 1
cat "$tmp/stream.out"
grep -qx "stream_check: $((n + 2)) files, 0 differ" "$tmp/stream.out" || {
    echo "stream_check: no report of $((n + 2)) files compared"; exit 1; }

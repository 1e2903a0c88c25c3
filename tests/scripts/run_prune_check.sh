#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The pruned reader, two ways, over a generated multi-megabyte plan
# (bench/gen_plan.py: many resource types, modules, AKS clusters and pools
# with changes), an indented one, one in terraform's order (planned_values
# before resource_changes), a what-if result compact and indented
# (bench/gen_whatif.py) and every fixture:
#   - prune_check: the findings are the same whether the plan is read by
#     the pruned reader (the file's pages given back behind each walk
#     every 16 pages: struct ndp_load_cursor) or as one json-c tree;
#   - stream_check: the pruned tree, count and errors are the same whether
#     the text is there whole or arrives in pieces (standard input); the
#     input fuzz corpus, with its many malformed documents, too; and the
#     long list of each generated input must have been split between two
#     threads (whatever the white space between its elements), in
#     terraform's order by a thread started before the first reached it.
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
python3 "$src/bench/gen_plan.py" --size-mb 2 --seed 13 --order terraform \
    --out "$tmp/plan-terraform.json" > /dev/null || exit 1
python3 "$src/bench/gen_whatif.py" --size-mb 1 --seed 3 \
    --out "$tmp/whatif.json" > /dev/null || exit 1
python3 "$src/bench/gen_whatif.py" --size-mb 1 --seed 5 --indent 2 \
    --out "$tmp/whatif-indented.json" > /dev/null || exit 1
generated="$tmp/plan.json $tmp/plan-indented.json $tmp/plan-terraform.json
$tmp/whatif.json $tmp/whatif-indented.json"
# Each program must exit 0 and say how many files it compared: every one.
n=$(ls "$src"/fixtures/*.json "$src"/fixtures/bad/* | wc -l)
"$check" $generated \
    "$src"/fixtures/*.json "$src"/fixtures/bad/* > "$tmp/check.out" || exit 1
cat "$tmp/check.out"
grep -qx "prune_check: $((n + 5)) passed, 0 failed" "$tmp/check.out" || {
    echo "prune_check: no report of $((n + 5)) files compared"; exit 1; }
n=$((n + $(ls "$src"/tests/fuzz/corpus/input/* | wc -l)))
"$stream" $generated \
    "$src"/fixtures/*.json "$src"/fixtures/bad/* \
    "$src"/tests/fuzz/corpus/input/* > "$tmp/stream.out" || exit 1
cat "$tmp/stream.out"
grep -qx "stream_check: $((n + 5)) files, 0 differ" "$tmp/stream.out" || {
    echo "stream_check: no report of $((n + 5)) files compared"; exit 1; }
# The generated inputs, compact and indented, plan and what-if, must have
# been split between two threads, or the equality above proves nothing.
for f in $generated; do
    grep -q "^stream_check: $f: [1-9][0-9]* of [0-9]* splits taken, " \
        "$tmp/stream.out" || {
        echo "stream_check: $f was never split between two threads"; exit 1; }
done
# The plan in terraform's order (planned_values first) must have had its
# second thread started before the first reached resource_changes.
grep -q "^stream_check: $tmp/plan-terraform.json: .*, [1-9][0-9]* started early$" \
    "$tmp/stream.out" || {
    echo "stream_check: no thread started early on the plan in terraform's order"
    exit 1; }

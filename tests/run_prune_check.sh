#!/bin/sh
# The pruned reader, two ways, over a generated multi-megabyte plan
# (bench/gen_plan.py: many resource types, modules, AKS clusters and pools
# with changes), an indented one and every fixture:
#   - prune_check: the findings are the same whether the plan is read by
#     the pruned reader or as one json-c tree;
#   - stream_check: the pruned tree, count and errors are the same whether
#     the text is there whole or arrives in pieces (standard input); the
#     input fuzz corpus, with its many malformed documents, too.
#   usage: run_prune_check.sh PRUNE_CHECK STREAM_CHECK SOURCE_DIR
set -u
check=$1 stream=$2 src=$3
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
python3 "$src/bench/gen_plan.py" --size-mb 6 --seed 7 --out "$tmp/plan.json" \
    > /dev/null || exit 1
python3 "$src/bench/gen_plan.py" --size-mb 2 --seed 11 --indent 2 \
    --out "$tmp/plan-indented.json" > /dev/null || exit 1
"$check" "$tmp/plan.json" "$tmp/plan-indented.json" \
    "$src"/fixtures/*.json "$src"/fixtures/bad/* || exit 1
exec "$stream" "$tmp/plan.json" "$tmp/plan-indented.json" \
    "$src"/fixtures/*.json "$src"/fixtures/bad/* \
    "$src"/tests/fuzz/corpus/input/*

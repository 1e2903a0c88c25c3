#!/bin/sh
# The findings for a generated multi-megabyte plan (bench/gen_plan.py: many
# resource types, modules, AKS clusters and pools with changes) and for
# every fixture must be the same whether the plan is read by the streaming
# reader or as one json-c tree.
#   usage: run_prune_check.sh PRUNE_CHECK SOURCE_DIR
set -u
check=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
python3 "$src/bench/gen_plan.py" --size-mb 6 --seed 7 --out "$tmp/plan.json" \
    > /dev/null || exit 1
python3 "$src/bench/gen_plan.py" --size-mb 2 --seed 11 --indent 2 \
    --out "$tmp/plan-indented.json" > /dev/null || exit 1
exec "$check" "$tmp/plan.json" "$tmp/plan-indented.json" \
    "$src"/fixtures/*.json "$src"/fixtures/bad/*

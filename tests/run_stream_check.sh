#!/bin/sh
# The pruned reader gives the same tree, count and errors whether the text
# is there whole or arrives in pieces (standard input): over a generated
# plan, an indented one, every fixture and the input fuzz corpus (which
# holds many malformed documents).
#   usage: run_stream_check.sh STREAM_CHECK SOURCE_DIR
set -u
check=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
python3 "$src/bench/gen_plan.py" --size-mb 3 --seed 5 --out "$tmp/plan.json" \
    > /dev/null || exit 1
python3 "$src/bench/gen_plan.py" --size-mb 1 --seed 9 --indent 2 \
    --out "$tmp/plan-indented.json" > /dev/null || exit 1
exec "$check" "$tmp/plan.json" "$tmp/plan-indented.json" \
    "$src"/fixtures/*.json "$src"/fixtures/bad/* \
    "$src"/tests/fuzz/corpus/input/*

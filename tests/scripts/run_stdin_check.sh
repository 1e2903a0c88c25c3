#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Standard input from a pipe is scanned while it is still arriving: for a
# generated plan and every fixture (good and bad), a pipe fed in uneven
# pieces with pauses must give ndplint the same output, messages and exit
# status as the same file redirected (which is mapped whole), and that
# must be a JSON report (exit 0 or 1) for a plan, a message (exit 2) for a
# file of fixtures/bad.
#   usage: run_stdin_check.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
python3 "$src/bench/gen_plan.py" --size-mb 3 --seed 13 --out "$tmp/plan.json" \
    > /dev/null || exit 1
cat > "$tmp/trickle.py" <<'PY'
import os, random, sys, time
data = open(sys.argv[1], "rb").read()
rng = random.Random(len(data))
out, i = sys.stdout.buffer, 0
try:
    while i < len(data):
        n = rng.choice([1, 2, 7, 100, 4096, 65536])
        out.write(data[i:i + n])
        out.flush()
        i += n
        if rng.random() < 0.02:
            time.sleep(0.001)
except BrokenPipeError:  # ndplint gave up on a binary file: its right
    os._exit(0)
PY
failed=0 n=0
for f in "$tmp/plan.json" "$src"/fixtures/*.json "$src"/fixtures/bad/*; do
    n=$((n + 1))
    "$ndplint" --at 2026-12-05T12:00:00Z -f json - < "$f" \
        > "$tmp/want.out" 2> "$tmp/want.err"
    want=$?
    # The program itself must do its job: a report for a plan, a message
    # and exit 2 for a bad file (else two empty runs would agree).
    case $f in
    "$src"/fixtures/bad/*) ok=$([ "$want" = 2 ] && [ -s "$tmp/want.err" ] &&
                               echo yes) ;;
    *) ok=$( { [ "$want" = 0 ] || [ "$want" = 1 ]; } &&
             grep -q '"summary"' "$tmp/want.out" && echo yes) ;;
    esac
    if [ "$ok" != yes ]; then
        echo "stdin_check: $f: no report or message from the file (exit $want)"
        failed=$((failed + 1))
    fi
    python3 "$tmp/trickle.py" "$f" |
        "$ndplint" --at 2026-12-05T12:00:00Z -f json - \
        > "$tmp/got.out" 2> "$tmp/got.err"
    got=$?
    if [ "$want" != "$got" ] || ! cmp -s "$tmp/want.out" "$tmp/got.out" ||
       ! cmp -s "$tmp/want.err" "$tmp/got.err"; then
        echo "stdin_check: $f: a trickling pipe differs from the file" \
             "(exit $got, want $want)"
        diff "$tmp/want.err" "$tmp/got.err" | head -5
        failed=$((failed + 1))
    fi
done
echo "stdin_check: $n inputs, $failed failures"
[ "$failed" -eq 0 ] && [ "$n" -gt 10 ]

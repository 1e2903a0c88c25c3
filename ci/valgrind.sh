#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the test programs, the fuzz corpus replays, stream_check, every
# fixture through a real pipe and the golden cases labelled 'valgrind' in
# tests/golden/labels.txt (one per reader and per reporter) under valgrind
# memcheck: any error or leak fails.  The runs go side by side, one per
# processor.  Used by ci/test.sh after the plain and sanitized runs (ASan
# runs every golden case); needs a build in build/ (ci/test.sh makes it).
#   usage: sh ci/valgrind.sh [BUILD_DIR]
set -u
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$(dirname "$self")/.."
vg="valgrind --quiet --error-exitcode=99 --leak-check=full \
--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible"

# One run: sh ci/valgrind.sh --one BUILD LOGDIR ID KIND ARG.  Its output is
# thrown away; valgrind's report goes to LOGDIR/ID.log, and LOGDIR/ID.result
# holds 'pass NAME' or 'fail NAME'.
if [ "${1:-}" = --one ]; then
    build=$2 logdir=$3 id=$4 kind=$5 arg=$6
    log=$logdir/$id.log
    case $kind in
        program)
            name=$(basename "$arg")
            # shellcheck disable=SC2086
            $vg "$arg" > /dev/null 2> "$log" ;;
        replay)
            name=replay_$arg
            seeds=tests/fuzz/corpus/$arg
            # The fixtures go through ndplint below (a pipe each).
            case $arg in
                rules) seeds="$seeds rules" ;;
                state) seeds="$seeds fixtures/state fixtures/config" ;;
            esac
            # shellcheck disable=SC2086
            $vg "$build/tests/replay_$arg" $seeds > /dev/null 2> "$log" ;;
        stream)
            # Text arriving in pieces.
            name=stream_check
            # shellcheck disable=SC2086
            $vg "$build/tests/stream_check" fixtures/*.json fixtures/bad/* \
                > /dev/null 2> "$log" ;;
        stdin)
            # Standard input read by its thread, from a real pipe.
            name="stdin pipe $(basename "$arg")"
            # shellcheck disable=SC2086
            cat "$arg" | $vg "$build/ndplint" --at 2026-12-05T12:00:00Z - \
                > /dev/null 2> "$log" ;;
        golden)
            name="golden $(basename "$arg")"
            set --
            while IFS= read -r a || [ -n "$a" ]; do
                [ -n "$a" ] && set -- "$@" "$a"
            done < "$arg/args"
            stdin=/dev/null
            [ -f "$arg/stdin" ] && stdin=$arg/stdin
            # shellcheck disable=SC2086
            $vg "$build/ndplint" "$@" < "$stdin" > /dev/null 2> "$log" ;;
        *)
            echo "valgrind: unknown kind of run '$kind'" >&2
            exit 2 ;;
    esac
    status=$?
    if [ "$status" = 99 ] || grep -q "==[0-9]*== " "$log"; then
        echo "fail $name" > "$logdir/$id.result"
    else
        echo "pass $name" > "$logdir/$id.result"
    fi
    exit 0
fi

build=${1:-build}
jobs=$(nproc 2>/dev/null || echo 2)
# A static ndplint keeps its malloc from valgrind, which would then see no
# heap at all: the build must link the shared C library (NDP_STATIC=OFF).
if ! command -v file >/dev/null 2>&1; then
    echo "valgrind: 'file' is not installed (sh ci/install-deps.sh --validators)"
    exit 1
fi
case $(file -b "$build/ndplint") in
    *"dynamically linked"*) ;;
    *)
        echo "valgrind: $build/ndplint is not dynamically linked;" \
             "configure $build with -DNDP_STATIC=OFF"
        exit 1 ;;
esac
logdir=$(mktemp -d) || exit 1
trap 'rm -rf "$logdir"' EXIT INT TERM
labels=tests/golden/labels.txt
n=0
missing=0
list=$logdir/runs
: > "$list"

add() { # kind arg: one run, NUL-separated for xargs -0
    n=$((n + 1))
    printf '%05d\0%s\0%s\0' "$n" "$1" "$2" >> "$list"
}

# The longest runs first, so that none is left running alone at the end.
add stream -
for t in input rules window state jscan pattern; do
    [ -x "$build/tests/replay_$t" ] && add replay "$t"
done
for t in "$build"/tests/test_*; do
    [ -x "$t" ] && add program "$t"
done
for f in fixtures/*.json fixtures/bad/*; do
    add stdin "$f"
done
# The golden cases whose labels (after the name, before any '#') include
# 'valgrind'.
cases=$(sed 's/#.*//' "$labels" |
        awk '{ for (i = 2; i <= NF; i++) if ($i == "valgrind") print $1 }')
for c in $cases; do
    if [ -d "tests/golden/$c" ]; then
        add golden "tests/golden/$c"
    else
        echo "valgrind: $labels names '$c', which is not a golden case"
        missing=$((missing + 1))
    fi
done
# Among them, a case for each report format but text, the default (the
# formats of the reporter table, as 'ndplint --list-names' lists them).
formats=$("$build/ndplint" --list-names | sed -n 's/^report //p')
[ -n "$formats" ] || {
    echo "valgrind: ndplint --list-names did not list the formats"
    missing=$((missing + 1))
}
for f in $formats; do
    [ "$f" = text ] && continue
    covered=false
    for c in $cases; do
        grep -qx -- "$f" "tests/golden/$c/args" 2>/dev/null && covered=true
    done
    $covered || {
        echo "valgrind: no case labelled 'valgrind' in $labels writes --format $f"
        missing=$((missing + 1))
    }
done

xargs -0 -n 3 -P "$jobs" sh "$self" --one "$build" "$logdir" < "$list"

passed=0 failed=0
i=0
while [ "$i" -lt "$n" ]; do
    i=$((i + 1))
    id=$(printf '%05d' "$i")
    result=$(cat "$logdir/$id.result" 2>/dev/null) || result="fail run $id (no result)"
    case $result in
        pass\ *) passed=$((passed + 1)) ;;
        *)
            echo "valgrind: ${result#fail }"
            head -30 "$logdir/$id.log" 2>/dev/null
            failed=$((failed + 1)) ;;
    esac
done
failed=$((failed + missing))
echo "valgrind: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]

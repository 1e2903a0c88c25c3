#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs the test programs and every golden case's ndplint command under
# valgrind memcheck: any error or leak fails.  Used by ci/test.sh after the
# plain and sanitized runs; needs a build in build/ (ci/test.sh makes it).
#   usage: sh ci/valgrind.sh [BUILD_DIR]
set -u
cd "$(dirname "$0")/.."
build=${1:-build}
vg="valgrind --quiet --error-exitcode=99 --leak-check=full \
--show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible"
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT INT TERM
passed=0 failed=0

check() { # name, command...
    name=$1; shift
    if "$@" > /dev/null 2> "$log"; then status=0; else status=$?; fi
    if [ "$status" = 99 ] || grep -q "==[0-9]*== " "$log"; then
        echo "valgrind: $name"
        head -30 "$log"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
}

for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    check "$(basename "$t")" $vg "$t"
done
for t in input rules window state; do
    [ -x "$build/tests/replay_$t" ] || continue
    seeds=tests/fuzz/corpus/$t
    case $t in
        input) seeds="$seeds fixtures fixtures/bad" ;;
        rules) seeds="$seeds rules" ;;
        state) seeds="$seeds fixtures/state fixtures/config" ;;
    esac
    # shellcheck disable=SC2086
    check "replay_$t" $vg "$build/tests/replay_$t" $seeds
done
# Text arriving in pieces, and standard input read by its thread.
# shellcheck disable=SC2086
check stream_check $vg "$build/tests/stream_check" fixtures/*.json fixtures/bad/*
for f in fixtures/*.json fixtures/bad/*; do
    check "stdin pipe $(basename "$f")" \
        sh -c "cat '$f' | $vg '$build/ndplint' --at 2026-12-05T12:00:00Z -"
done
for case_dir in tests/golden/*/; do
    set --
    while IFS= read -r arg || [ -n "$arg" ]; do
        [ -n "$arg" ] && set -- "$@" "$arg"
    done < "$case_dir/args"
    stdin=/dev/null
    [ -f "$case_dir/stdin" ] && stdin=$case_dir/stdin
    # shellcheck disable=SC2086
    check "golden $(basename "$case_dir")" $vg "$build/ndplint" "$@" < "$stdin"
done
echo "valgrind: $passed passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# One golden end-to-end case: run ndplint with the case's arguments from the
# source root and compare standard output, standard error and the exit
# status with the recorded ones, byte for byte.
#   usage: run_golden.sh NDPLINT CASE_DIR SOURCE_DIR
#   NDP_UPDATE_GOLDEN=1 rewrites the expectations instead of comparing.
# A case directory holds 'description' (one line: what the case proves;
# printed first), 'args' (one argument per line; paths relative to the
# source root, e.g. fixtures/plan.json), 'expected.out', 'expected.err'
# (optional when empty) and 'expected.exit'.  An optional 'stdin' file is
# fed to ndplint; an optional 'now' file (one RFC 3339 instant) is the
# current instant the case runs at (NDPLINT_NOW), for --at next-window.  A case without its one-line description fails, and so
# does one that expects what /bin/true or /bin/false gives (no output,
# exit 0 or 1): ctest standins stands in for ndplint in one case only.
set -u
ndplint=$1 case_dir=$2 source_dir=$3
cd "$source_dir" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
name=$(basename "$case_dir")

desc=$case_dir/description
described=false
if [ -f "$desc" ] && [ "$(wc -l < "$desc")" -eq 1 ] &&
    grep -q '[^[:space:]]' "$desc"; then
    described=true
    echo "golden $name: $(cat "$desc")"
fi

set --
while IFS= read -r arg || [ -n "$arg" ]; do
    [ -n "$arg" ] || continue
    set -- "$@" "$arg"
done < "$case_dir/args"

stdin=/dev/null
[ -f "$case_dir/stdin" ] && stdin=$case_dir/stdin
now=
[ -f "$case_dir/now" ] && now=$(cat "$case_dir/now")
LC_ALL=C NO_COLOR=1 NDPLINT_NOW=$now "$ndplint" "$@" < "$stdin" \
    > "$tmp/out" 2> "$tmp/err"
echo $? > "$tmp/exit"
# NDP_GOLDEN_OUT=DIR: the run's out, err and exit also left in DIR, for a
# caller that compares two programs' runs (run_release_build.sh).
if [ -n "${NDP_GOLDEN_OUT:-}" ]; then
    cp "$tmp/out" "$tmp/err" "$tmp/exit" "$NDP_GOLDEN_OUT/" || exit 1
fi

if [ "${NDP_UPDATE_GOLDEN:-}" = 1 ]; then
    cp "$tmp/out" "$case_dir/expected.out"
    cp "$tmp/exit" "$case_dir/expected.exit"
    if [ -s "$tmp/err" ]; then cp "$tmp/err" "$case_dir/expected.err"
    else rm -f "$case_dir/expected.err"; fi
    echo "updated $case_dir"
    $described || echo "golden $name: write its 'description' (one line)"
    exit 0
fi

status=0
if ! $described; then
    echo "golden $name: '$desc' must be one line saying what the case proves"
    status=1
fi
if [ ! -s "$case_dir/expected.out" ] && [ ! -s "$case_dir/expected.err" ] &&
    grep -qx '[01]' "$case_dir/expected.exit"; then
    echo "golden $name: expects no output and exit $(cat "$case_dir/expected.exit"):" \
        "/bin/true or /bin/false would pass it"
    status=1
fi
[ -f "$case_dir/expected.err" ] || : > "$tmp/expected.err.empty"
experr=$case_dir/expected.err
[ -f "$experr" ] || experr=$tmp/expected.err.empty
for part in out exit; do
    if ! cmp -s "$case_dir/expected.$part" "$tmp/$part"; then
        echo "golden $name: $part differs:"
        diff -u "$case_dir/expected.$part" "$tmp/$part" | head -60
        status=1
    fi
done
if ! cmp -s "$experr" "$tmp/err"; then
    echo "golden $name: stderr differs:"
    diff -u "$experr" "$tmp/err" | head -30
    status=1
fi
exit $status

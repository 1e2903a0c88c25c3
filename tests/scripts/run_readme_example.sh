#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The README's example shows ndplint's real text output: the lines after
# its '$ ndplint --at ... fixtures/example-plan.json' command, up to the
# next '$ ' line, are what that command prints (run from the source root),
# and the exit status shown after it is the real one.
#   usage: run_readme_example.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

cmd=$(grep -m1 '^\$ ndplint .*fixtures/example-plan.json$' "$src/README.md")
[ -n "$cmd" ] || { echo "readme: no '\$ ndplint ... fixtures/example-plan.json' line"; exit 1; }
awk -v cmd="$cmd" '$0 == cmd { on = 1; next }
     on && /^\$ / { exit }
     on { print }' "$src/README.md" > "$tmp/shown"
want=$(awk -v cmd="$cmd" '$0 == cmd { on = 1; next }
       on && /^\$ echo \$\?$/ { getline; print; exit }' "$src/README.md")
# shellcheck disable=SC2086 # the README's arguments, split as a shell would
set -- ${cmd#\$ ndplint }
(cd "$src" && NO_COLOR=1 "$ndplint" "$@") > "$tmp/real" 2>&1
status=$?
if ! cmp -s "$tmp/shown" "$tmp/real"; then
    echo "readme: the example output differs from what '${cmd#\$ }' prints:"
    diff "$tmp/shown" "$tmp/real"
    exit 1
fi
if [ -n "$want" ] && [ "$want" != "$status" ]; then
    echo "readme: the example says exit status $want, ndplint exits $status"
    exit 1
fi
echo "readme: example output and exit status $status match"

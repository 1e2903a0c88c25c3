#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Source lookup under --source-root reads the pull request's files, so it
# reads only regular files under the root: twenty *.tf links to
# /dev/zero, a FIFO named x.tf, a link to a file outside the root and a
# module directory that is a link leaving the root are all passed over
# (quickly, in little memory), and so is a module source of "../..";
# a file over 16 MiB is skipped, the files
# of one run share a 64 MiB budget, and a link that stays inside the root
# is followed; a file of many block headers costs no more memory than
# its text.
#   usage: run_source_lookup.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0 failed=0
check() { # description, then a command that must succeed
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else
        echo "source_lookup: $what"; failed=$((failed + 1)); fi
}
# run ROOT: ndplint on ROOT/plan.json; out, err, status, rss (KiB) in $tmp
# timeout only stops a hang: the ASan build scans the 64 MiB budget in
# about 7 s of CPU, much longer on a loaded machine.
run() {
    /usr/bin/time -f %M -o "$tmp/rss" timeout 180 "$ndplint" \
        --at 2026-12-05T12:00:00Z --no-config --source-root "$1" \
        "$1/plan.json" > "$tmp/out" 2> "$tmp/err"
    echo $? > "$tmp/status"
    [ -z "${NDP_DEBUG:-}" ] || echo "rss $(tail -n 1 "$tmp/rss")" >&2
}
status() { cat "$tmp/status"; }

# The real files, outside the root.
mkdir -p "$tmp/outside/modules" "$tmp/root"
cp "$src/fixtures/tfrepo/main.tf" "$tmp/outside/main.tf"
cp -r "$src/fixtures/tfrepo/modules/aks" "$tmp/outside/modules/aks"
cp "$src/fixtures/tfrepo/plan.json" "$tmp/root/plan.json"

# A good root: a real main.tf, a module file that is a link inside the
# root; its memory is the reference.
root=$tmp/good
mkdir -p "$root/shared" "$root/modules"
cp "$tmp/root/plan.json" "$root/plan.json"
cp "$src/fixtures/tfrepo/main.tf" "$root/main.tf"
mkdir "$root/modules/aks"
cp "$src/fixtures/tfrepo/modules/aks/main.tf" "$root/shared/aks.tf"
ln -s ../../shared/aks.tf "$root/modules/aks/main.tf"
run "$root"
check "good root: exit 0" [ "$(status)" = 0 ]
check "good root: the cluster is at main.tf:22" \
    grep -q "at main.tf:22" "$tmp/out"
check "good root: a link inside the root is followed" \
    grep -q "at modules/aks/main.tf:11" "$tmp/out"

rss_good=$(tail -n 1 "$tmp/rss")
rss_below() { [ "$(tail -n 1 "$tmp/rss")" -lt $((rss_good + $1)) ]; }

# A hostile root: devices, a FIFO, links out.
root=$tmp/root
i=1
while [ $i -le 20 ]; do ln -s /dev/zero "$root/zero$i.tf"; i=$((i + 1)); done
mkfifo "$root/x.tf"
ln -s ../outside/main.tf "$root/outside.tf"
mkdir "$root/modules"
ln -s ../../outside/modules/aks "$root/modules/aks"
run "$root"
check "hostile root: exit 0 (the plan's findings are notes)" [ "$(status)" = 0 ]
check "hostile root: a report was written" grep -q "NDP101" "$tmp/out"
check "hostile root: standard error is empty" [ ! -s "$tmp/err" ]
check "hostile root: no finding points into a file outside the root" \
    [ -z "$(grep 'at .*\.tf:' "$tmp/out")" ]
check "hostile root: under 50 MB more memory" rss_below 50000

# A module call whose local source climbs out of the root.
root=$tmp/climb
mkdir "$root"
sed 's|"source": "./modules/aks"|"source": "../outside/modules/aks"|' \
    "$tmp/root/plan.json" > "$root/plan.json"
cp "$src/fixtures/tfrepo/main.tf" "$root/main.tf"
run "$root"
check "climbing module source: exit 0" [ "$(status)" = 0 ]
check "climbing module source: the root module is still found" \
    grep -q "at main.tf:22" "$tmp/out"
check "climbing module source: nothing outside the root is read" \
    [ -z "$(grep 'at .*outside' "$tmp/out")" ]

# A file over 16 MiB is skipped; with it, ten files of 15 MiB (more than
# the 64 MiB budget) cost at most the budget.
root=$tmp/good
rm "$root/main.tf"
truncate -s 17M "$root/big.tf"
run "$root"
check "big file: exit 0" [ "$(status)" = 0 ]
check "big file: a report was written" grep -q "NDP101" "$tmp/out"
check "big file: not read (under 8 MB more memory)" rss_below 8000
rm "$root/big.tf"
i=1
while [ $i -le 10 ]; do truncate -s 15M "$root/f$i.tf"; i=$((i + 1)); done
run "$root"
check "budget: exit 0" [ "$(status)" = 0 ]
check "budget: a report was written" grep -q "NDP101" "$tmp/out"
check "budget: under 100 MB more memory for 150 MiB of files" \
    rss_below 100000

# Many block headers (a 15 MiB file of 'resource "" "N"' lines) under a
# long source root: only the blocks the findings name are kept, so memory
# stays near the text read, whatever the number of headers.
rm -f "$root"/f*.tf
awk 'BEGIN { for (i = 0; i < 750000; i++)
             printf "resource \"\" \"%x\"\n", i }' > "$root/headers.tf"
cp "$src/fixtures/tfrepo/main.tf" "$root/main.tf"
long=$root
i=0
while [ $i -lt 500 ]; do long=$long/.; i=$((i + 1)); done
run "$long"
check "many headers: exit 0" [ "$(status)" = 0 ]
check "many headers: the cluster is still at main.tf:22" \
    grep -q "at main.tf:22" "$tmp/out"
check "many headers: under 150 MB more memory" rss_below 150000

echo "source_lookup: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 10 ]

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# .ndplint.json is found in the current directory or the nearest parent up
# to the repository root (the directory holding .git), not above it;
# --no-config and --config override the search.  --check-config without a
# FILE checks the file that search finds.  Every report the file's
# "formats" names is written.
#   usage: run_config_discovery.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
plan=$src/fixtures/state-plan.json
passed=0 failed=0
expect() { # description, directory, exit status, pattern, arguments...
    desc=$1 dir=$2 want=$3 pattern=$4
    shift 4
    out=$(cd "$dir" && "$ndplint" --at 2026-12-05T12:00:00Z "$@" 2>&1)
    status=$?
    if [ "$status" != "$want" ]; then
        echo "config discovery: $desc: exit $status, want $want"
        printf "%s\n" "$out" | head -3
        failed=$((failed + 1))
    elif printf '%s\n' "$out" | grep -q -- "$pattern"; then
        passed=$((passed + 1))
    else
        echo "config discovery: $desc: no '$pattern' in:"
        printf '%s\n' "$out" | head -5
        failed=$((failed + 1))
    fi
}
mkdir -p "$tmp/outer/repo/.git" "$tmp/outer/repo/a/b"
printf '{"profile": "AllowDuringMaintenanceWindow"}\n' > "$tmp/outer/.ndplint.json"
expect "above the repository root is not read" "$tmp/outer/repo/a/b" 0 \
    "profile Allow, AKS default" "$plan"
printf '{"profile": "Block", "clusters": [{"match": "*", "profile": "Block", "until": "2027-01-31"}]}\n' \
    > "$tmp/outer/repo/.ndplint.json"
expect "found in a parent" "$tmp/outer/repo/a/b" 1 \
    "profile Block, from the settings file" "$plan"
expect "found in the current directory" "$tmp/outer/repo" 1 \
    "profile Block, from the settings file" "$plan"
expect "--no-config" "$tmp/outer/repo/a/b" 0 "profile Allow, AKS default" \
    --no-config "$plan"
printf '{"fail_on": "bogus"}\n' > "$tmp/outer/repo/a/.ndplint.json"
expect "the nearest one wins, and is checked" "$tmp/outer/repo/a/b" 2 \
    "fail_on: must be error, warning, note or never" "$plan"
expect "--config names another" "$tmp/outer/repo/a/b" 1 \
    "profile Block, from the settings file" --config "$tmp/outer/repo/.ndplint.json" "$plan"

# --check-config without FILE: the file a run would read, and only that.
expect "--check-config: the nearest one" "$tmp/outer/repo/a/b" 2 \
    "repo/a/.ndplint.json': fail_on: must be error" --check-config
expect "--check-config: in the current directory" "$tmp/outer/repo" 0 \
    "repo/.ndplint.json: ok (0 waivers" --check-config
mkdir -p "$tmp/outer/bare/.git"
expect "--check-config: none up to the repository root" "$tmp/outer/bare" 2 \
    "no .ndplint.json in the current directory" --check-config
expect "--check-config: --config names it" "$tmp/outer/repo/a/b" 0 \
    "repo/.ndplint.json: ok (0 waivers" --check-config \
    --config "$tmp/outer/repo/.ndplint.json"

# Every report of "formats", the second one too.
printf '{"formats": ["text", "json:%s/report.json"]}\n' "$tmp" \
    > "$tmp/formats.json"
expect "formats: the first report" "$tmp" 0 "no reimaging change" \
    --config "$tmp/formats.json" "$src/fixtures/allow-negative.json"
if grep -q '"summary"' "$tmp/report.json" 2>/dev/null; then
    passed=$((passed + 1))
else
    echo "config discovery: formats: the second report was not written"
    failed=$((failed + 1))
fi

echo "config discovery: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" = 12 ]

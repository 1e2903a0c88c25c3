#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A file ndplint is given (an input, --template, --cluster-state,
# --baseline, --config) or finds (.ndplint.json) that a symbolic link in
# the working tree (the source root: the current directory by default)
# leads outside the tree is refused unless --follow-links: exit 2, one
# line naming the file and saying so (or naming the directory link it goes
# through), and nothing of the file it leads to on standard output or
# standard error.  Each file outside holds a canary that a run reading it
# would print (a cluster name, an inline ignore's reason shown by
# --show-suppressed, a cluster state's id in a warning, a waiver's
# reason), and with --follow-links each is read and the canary shows.
# Left alone: a link that stays in the tree, a file outside the tree
# named by its own path, a link outside the tree, '-' (the shell opened
# it), and a link out of the directory that is not the --source-root.
#   usage: run_links.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
canary=canary-outside-3f9a
repo=$tmp/repo out=$tmp/outside
passed=0 failed=0
check() { # description, then a command that must succeed
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else
        echo "links: $what"; failed=$((failed + 1)); fi
}
# lint ARGS...: ndplint in the tree; out, err, status in $tmp
lint() {
    (cd "$repo" && exec "$ndplint" --at 2026-12-05T12:00:00Z "$@") \
        > "$tmp/out" 2> "$tmp/err"
    echo $? > "$tmp/status"
}
# refused DESCRIPTION LINE...: exit 2, standard error exactly the lines
# "ndplint: LINE", nothing on standard output, no canary anywhere
refused() {
    case=$1
    shift
    : > "$tmp/want"
    for line in "$@"; do printf 'ndplint: %s\n' "$line" >> "$tmp/want"; done
    check "$case: exit 2" [ "$(cat "$tmp/status")" = 2 ]
    check "$case: says why" cmp -s "$tmp/want" "$tmp/err"
    check "$case: no report" [ ! -s "$tmp/out" ]
    check "$case: nothing of the file outside" \
        sh -c '! grep -q "$0" "$1" "$2"' "$canary" "$tmp/out" "$tmp/err"
}
# read_as DESCRIPTION STATUS PATTERN: that exit status, PATTERN reported
read_as() {
    check "$1: exit $2" [ "$(cat "$tmp/status")" = "$2" ]
    check "$1: reports $3" grep -q -- "$3" "$tmp/out"
}
out_msg() { # the refusal of a file that is itself a link out
    echo "'$1' is a symbolic link to a place outside the working tree (the source root); --follow-links reads it"
}

# Outside the tree: files whose text a run reading them prints.
mkdir -p "$repo/.git" "$repo/plans" "$repo/infra" "$out"
sed "s/aks-prod/$canary/g" "$src/fixtures/example-plan.json" > "$out/plan.json"
sed "s|networkPolicy: 'azure'|networkPolicy: 'azure' // ndplint:ignore NDP101 $canary approved|" \
    "$src/fixtures/bicep/main.bicep" > "$out/main.bicep"
sed "s/aks-other/$canary/g" "$src/fixtures/state/aks-show-other-cluster.json" \
    > "$out/state.json"
printf '{"waivers": [{"rule": "NDP101", "match": "*", "reason": "%s", "expires": "2030-01-01"}]}\n' \
    "$canary" > "$out/settings.json"
cp "$src/fixtures/baseline/example-plan.baseline.json" "$out/baseline.json"
# The tree: its own files, links that stay in it, links that leave it.
cp "$src/fixtures/example-plan.json" "$repo/plans/plan.json"
cp "$src/fixtures/bicep/main.bicep" "$repo/infra/main.bicep"
cp "$src/fixtures/whatif-network-policy.json" "$repo/whatif.json"
ln -s plans/plan.json "$repo/inside.json"
ln -s ../infra/main.bicep "$repo/plans/template.bicep"
ln -s "$out/plan.json" "$repo/plan.json"
ln -s ../outside/main.bicep "$repo/template.bicep"
ln -s ../outside/state.json "$repo/state.json"
ln -s ../outside/baseline.json "$repo/baseline.json"
ln -s ../outside/settings.json "$repo/settings.json"
ln -s ../outside "$repo/shared"
ln -s "$out/plan.json" "$tmp/elsewhere.json"

# Inputs.
lint --no-config inside.json
read_as "a link in the tree to a plan in it" 1 NDP101
lint --no-config plan.json
refused "a plan linked from the tree to outside it" "$(out_msg plan.json)"
lint --no-config --follow-links plan.json
read_as "the same with --follow-links" 1 "$canary"
lint --no-config shared/plan.json
refused "a plan through a directory link that leaves the tree" \
    "'shared/plan.json' goes through 'shared', a symbolic link to a place outside the working tree (the source root); --follow-links reads it"
lint --no-config --follow-links shared/plan.json
read_as "the same with --follow-links" 1 "$canary"
lint --no-config "$repo/plan.json"
refused "the link out named by its absolute path" "$(out_msg "$repo/plan.json")"
lint --no-config inside.json plan.json shared/plan.json
refused "three inputs, two led out: both named, nothing read" \
    "$(out_msg plan.json)" \
    "'shared/plan.json' goes through 'shared', a symbolic link to a place outside the working tree (the source root); --follow-links reads it"
lint --no-config - < "$repo/plan.json"
read_as "standard input opened by the shell from the link" 1 "$canary"
lint --no-config "$out/plan.json"
read_as "a file outside the tree by its own path" 1 "$canary"
lint --no-config "$tmp/elsewhere.json"
read_as "a link outside the tree" 1 "$canary"

# --template: an inline ignore's reason in it would be shown.
lint --no-config --show-suppressed --template plans/template.bicep whatif.json
read_as "--template linked in the tree" 1 "plans/template.bicep:25"
lint --no-config --show-suppressed --template template.bicep whatif.json
refused "--template linked to outside the tree" "$(out_msg template.bicep)"
lint --no-config --show-suppressed --follow-links --template template.bicep \
    whatif.json
read_as "the same with --follow-links" 0 "$canary"

# The other files a run reads from the tree.
lint --no-config --cluster-state state.json plans/plan.json
refused "--cluster-state linked to outside the tree" "$(out_msg state.json)"
lint --no-config --follow-links --cluster-state state.json plans/plan.json
check "the same with --follow-links: read" grep -q "$canary" "$tmp/err"
lint --no-config --baseline baseline.json plans/plan.json
refused "--baseline linked to outside the tree" "$(out_msg baseline.json)"
lint --no-config --follow-links --baseline baseline.json plans/plan.json
read_as "the same with --follow-links" 0 "2 known from the baseline"
lint --config settings.json --show-suppressed plans/plan.json
refused "--config linked to outside the tree" "$(out_msg settings.json)"
ln -s settings.json "$repo/.ndplint.json"
lint --show-suppressed plans/plan.json
refused "a .ndplint.json found in the tree, linked to outside it" \
    "$(out_msg "$(cd "$repo" && pwd -P)/.ndplint.json")"
lint --show-suppressed --follow-links plans/plan.json
read_as "the same with --follow-links" 1 "$canary"
rm "$repo/.ndplint.json"

# The working tree is the source root, not the current directory.
(cd "$tmp" && exec "$ndplint" --at 2026-12-05T12:00:00Z --no-config \
    --source-root repo repo/plan.json) > "$tmp/out" 2> "$tmp/err"
echo $? > "$tmp/status"
refused "--source-root repo, from above it" "$(out_msg repo/plan.json)"
lint --no-config --source-root plans plan.json
read_as "a link out of a directory that is not the source root" 1 "$canary"

echo "links: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]

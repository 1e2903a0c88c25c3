#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The pre-commit hooks, through Debian's pre-commit: 'pre-commit try-repo'
# on a snapshot of this source tree (uncommitted files included), in a
# throwaway git repository.  'ndplint' passes on a clean plan (plan.json
# among them), fails on a plan that Block rejects, and skips files outside
# its 'files' pattern; 'ndplint-config' fails on an .ndplint.json with an
# expired waiver, passes on a good one (showing the warning for a waiver
# that expires within 14 days), and skips other JSON.  Every run but one
# gives the hook this build's ndplint ($NDPLINT), from a hook repository
# that holds only what the hook runs then (.pre-commit-hooks.yaml and
# ci/pre-commit/, taken from the snapshot); the one that runs both hooks
# at once leaves NDPLINT unset and uses the whole snapshot, so the first
# hook builds ndplint in its checkout, as it does for a user, and the
# second uses that build.  'ndplint-system' and 'ndplint-config-system'
# (language: system) run the ndplint first on PATH, this build's linked
# there as 'ndplint', and give the same results.
#   usage: run_precommit.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
for tool in pre-commit git tar; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "precommit: '$tool' is not installed (apt-get install pre-commit): skipped"
        exit 77
    fi
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
export PRE_COMMIT_HOME="$tmp/cache" GIT_CONFIG_GLOBAL=/dev/null \
    GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=ndplint GIT_AUTHOR_EMAIL=t@example.com \
    GIT_COMMITTER_NAME=ndplint GIT_COMMITTER_EMAIL=t@example.com
case $ndplint in /*) ;; *) ndplint=$(pwd)/$ndplint ;; esac

# The hook repository: what a user's 'rev' would hold.
mkdir "$tmp/hook" "$tmp/work"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$src" && git ls-files -co --exclude-standard |
        while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done |
        tar cf - -T -) | tar xf - -C "$tmp/hook"
else
    (cd "$src" && tar cf - --exclude='./build*' .) | tar xf - -C "$tmp/hook"
fi
# Only the run that builds ndplint uses it, which a stand-in run leaves out
# (below).
if [ -z "${NDP_STANDIN:-}" ]; then
    (cd "$tmp/hook" && git init -q && git add -A && git commit -qm snapshot) ||
        exit 1
fi
# The hook repository with NDPLINT set: a checkout of it costs little.
mkdir -p "$tmp/hook-ndplint/ci" &&
    cp "$tmp/hook/.pre-commit-hooks.yaml" "$tmp/hook-ndplint/" &&
    cp -R "$tmp/hook/ci/pre-commit" "$tmp/hook-ndplint/ci/" || exit 1
(cd "$tmp/hook-ndplint" && git init -q && git add -A && git commit -qm hooks) ||
    exit 1

cd "$tmp/work" && git init -q || exit 1
cp "$src/fixtures/allow-negative.json" clean.tfplan.json
cp "$src/fixtures/block-network-policy.json" rejected.whatif.json
cp "$src/fixtures/block-network-policy.json" notaplan.json
mkdir -p infra/prod
cp "$src/fixtures/allow-negative.json" plan.json
cp "$src/fixtures/allow-negative.json" tfplan.json
cp "$src/fixtures/block-network-policy.json" infra/prod/whatif.json
# Settings files: a good one at the root (its waiver covers nothing here,
# so the plan checks above are unchanged), a good one with a waiver that
# expires in 3 days, one with an expired waiver, and a broken one.
soon=$(date -u -d '+3 days' +%Y-%m-%d 2>/dev/null ||
    date -u -v+3d +%Y-%m-%d) || exit 1
printf '{"fail_on": "error", "waivers": [{"rule": "NDP101", "match": "module.legacy.*", "reason": "CHG-0", "expires": "2099-12-31"}]}\n' \
    > .ndplint.json
printf '{"profile": "Block", "waivers": [{"rule": "NDP101", "reason": "CHG-2", "expires": "%s"}, {"category": "network-policy", "reason": "CHG-3", "expires": "2099-12-31"}]}\n' \
    "$soon" > infra/prod/.ndplint.json
mkdir -p infra/old infra/dev
printf '{"waivers": [{"rule": "NDP101", "match": "azurerm_kubernetes_cluster.main", "reason": "CHG-1", "expires": "2020-01-31"}]}\n' \
    > infra/old/.ndplint.json
printf '{"profil": "Block"}\n' > infra/dev/.ndplint.json
git add -A && git commit -qm plans

failed=0 runs=0
# build=yes: the next check runs the hook without NDPLINT (it builds
# ndplint) and with --verbose (every hook's output shown).  system=yes:
# the next check runs a 'language: system' hook without NDPLINT, this
# build's ndplint first on PATH as 'ndplint'.
build=no system=no
mkdir "$tmp/bin" && ln -s "$ndplint" "$tmp/bin/ndplint" || exit 1
check() { # hook (or 'all') expected-status pattern files...
    hook=$1 want=$2 pattern=$3
    shift 3
    runs=$((runs + 1))
    files="$*"
    set -- --files "$@"
    [ "$hook" = all ] || set -- "$hook" "$@"
    if [ "$build" = yes ]; then
        (unset NDPLINT; pre-commit try-repo "$tmp/hook" --verbose "$@") \
            > "$tmp/out" 2>&1
    elif [ "$system" = yes ]; then
        (unset NDPLINT; PATH=$tmp/bin:$PATH \
            pre-commit try-repo "$tmp/hook-ndplint" "$@") > "$tmp/out" 2>&1
    else
        NDPLINT=$ndplint pre-commit try-repo "$tmp/hook-ndplint" "$@" \
            > "$tmp/out" 2>&1
    fi
    got=$?
    build=no system=no
    if [ "$got" != "$want" ] || ! grep -q -- "$pattern" "$tmp/out"; then
        echo "precommit: $hook '$files': exit $got (want $want, '$pattern'), output:"
        cat "$tmp/out"
        failed=$((failed + 1))
    fi
}
also() { # pattern: in the output of the last check too
    runs=$((runs + 1))
    if ! grep -q -- "$1" "$tmp/out"; then
        echo "precommit: $hook: no '$1' in the output above:"
        cat "$tmp/out"
        failed=$((failed + 1))
    fi
}
check ndplint 0 Passed clean.tfplan.json
check ndplint 1 "rejected" rejected.whatif.json
check ndplint 1 "1 error" clean.tfplan.json rejected.whatif.json
check ndplint 0 "no files to check" notaplan.json
# The README's own names: plan.json, tfplan.json, whatif.json.
check ndplint 0 Passed plan.json
check ndplint 0 Passed tfplan.json
check ndplint 1 "rejected" infra/prod/whatif.json
# Both hooks at once, the hook building ndplint: 'ndplint' builds it once
# and passes plan.json, leaving the settings files alone; 'ndplint-config'
# uses that build and fails on the expired waiver, named with its date,
# and on the unknown key, and says what expires soon.  pre-commit exits 1
# for any failed hook.  Left out when ctest standins runs this test with a
# stand-in for NDPLINT (NDP_STANDIN is set): this run does not use NDPLINT.
if [ -z "${NDP_STANDIN:-}" ]; then
    build=yes
    check all 1 \
        "waivers\[0\] (rule NDP101, match 'azurerm_kubernetes_cluster.main') expired on 2020-01-31" \
        plan.json .ndplint.json infra/old/.ndplint.json infra/prod/.ndplint.json \
        infra/dev/.ndplint.json
    also "^ndplint (AKS node reimage check)\.*Passed"
    also "^ndplint settings file (schema and waiver expiry)\.*Failed"
    also "infra/dev/.ndplint.json': profil: unknown key"
    also "infra/prod/.ndplint.json: warning: waivers\[0\] (rule NDP101) expires on $soon (in 3 days)"
    also "^\.ndplint\.json: ok (1 waiver, none expired"
    also "^ndplint: building ndplint for pre-commit (once)"
    runs=$((runs + 1))
    builds=$(grep -c "building ndplint for pre-commit" "$tmp/out")
    if [ "$builds" != 1 ]; then
        echo "precommit: both hooks at once built ndplint $builds times, not once"
        failed=$((failed + 1))
    fi
fi
# Good files alone pass, the warning shown (the hook is verbose).
check ndplint-config 0 \
    "infra/prod/.ndplint.json: warning: waivers\[0\] (rule NDP101) expires on $soon (in 3 days)" \
    .ndplint.json infra/prod/.ndplint.json
also "^ndplint settings file (schema and waiver expiry)\.*Passed"
also "^\.ndplint\.json: ok (1 waiver, none expired"
check ndplint-config 0 "no files to check" plan.json notaplan.json
# The 'language: system' hooks: the ndplint on PATH, the same results.
system=yes
check ndplint-system 0 Passed clean.tfplan.json
system=yes
check ndplint-system 1 "rejected" rejected.whatif.json
system=yes
check ndplint-system 0 "no files to check" notaplan.json
system=yes
check ndplint-config-system 1 "expired on 2020-01-31" infra/old/.ndplint.json
system=yes
check ndplint-config-system 0 "^\.ndplint\.json: ok (1 waiver, none expired" \
    .ndplint.json
echo "precommit: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ]

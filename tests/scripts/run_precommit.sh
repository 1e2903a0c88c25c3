#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The pre-commit hook, through Debian's pre-commit: 'pre-commit try-repo'
# on a snapshot of this source tree (uncommitted files included), in a
# throwaway git repository, passes on a clean plan, fails on a plan that
# Block rejects, and skips files outside its 'files' pattern.  The hook
# builds ndplint itself, as it does for a user.
#   usage: run_precommit.sh SOURCE_DIR
set -u
src=$1
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
unset NDPLINT

# The hook repository: what a user's 'rev' would hold.
mkdir "$tmp/hook" "$tmp/work"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$src" && git ls-files -co --exclude-standard |
        while IFS= read -r f; do [ -f "$f" ] && printf '%s\n' "$f"; done |
        tar cf - -T -) | tar xf - -C "$tmp/hook"
else
    (cd "$src" && tar cf - --exclude='./build*' .) | tar xf - -C "$tmp/hook"
fi
(cd "$tmp/hook" && git init -q && git add -A && git commit -qm snapshot) || exit 1

cd "$tmp/work" && git init -q || exit 1
cp "$src/fixtures/allow-negative.json" clean.tfplan.json
cp "$src/fixtures/block-network-policy.json" rejected.whatif.json
cp "$src/fixtures/block-network-policy.json" notaplan.json
mkdir -p infra/prod
cp "$src/fixtures/allow-negative.json" plan.json
cp "$src/fixtures/allow-negative.json" tfplan.json
cp "$src/fixtures/block-network-policy.json" infra/prod/whatif.json
git add -A && git commit -qm plans

failed=0 runs=0
check() { # expected-status pattern files...
    want=$1 pattern=$2
    shift 2
    runs=$((runs + 1))
    pre-commit try-repo "$tmp/hook" ndplint --files "$@" > "$tmp/out" 2>&1
    got=$?
    if [ "$got" != "$want" ] || ! grep -q -- "$pattern" "$tmp/out"; then
        echo "precommit: '$*': exit $got (want $want), output:"
        cat "$tmp/out"
        failed=$((failed + 1))
    fi
}
check 0 Passed clean.tfplan.json
check 1 "rejected" rejected.whatif.json
check 1 "1 error" clean.tfplan.json rejected.whatif.json
check 0 "no files to check" notaplan.json
# The README's own names: plan.json, tfplan.json, whatif.json.
check 0 Passed plan.json
check 0 Passed tfplan.json
check 1 "rejected" infra/prod/whatif.json
echo "precommit: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ]

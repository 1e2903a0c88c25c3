#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The GitHub composite action (ci/action): action.yml and the example
# workflow pass action-validator (@action-validator/cli, installed by
# ci/install-deps.sh --validators), the README shows that same workflow,
# and the action's scripts, run here with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY
# and GITHUB_ENV pointing at temporary files, write every report, the
# outputs and the summary before failing the step.
#   usage: run_action.sh NDPLINT SOURCE_DIR TOOLS_DIR
set -u
ndplint=$1 src=$2 tools=$3
validator=$tools/node_modules/.bin/action-validator
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0 runs=0
fail() {
    echo "action: $*"
    failed=$((failed + 1))
}

if ! command -v node >/dev/null 2>&1 || [ ! -e "$validator" ]; then
    echo "action: node or @action-validator/cli is not installed in $tools" \
         "(sh ci/install-deps.sh --validators): skipped"
    exit 77
fi
for f in ci/action/action.yml ci/action/example-workflow.yml; do
    runs=$((runs + 1))
    "$validator" "$src/$f" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "$f"; }
done

runs=$((runs + 1))
awk '/<!-- ndplint:example-workflow -->/ { on = 1; next }
     on && /^```yaml/ { inside = 1; next }
     inside && /^```/ { exit }
     inside { print }' "$src/README.md" > "$tmp/readme.yml"
# The file's licence line is its own, not part of the workflow a reader copies.
grep -v '^# SPDX-License-Identifier: ' "$src/ci/action/example-workflow.yml" \
    > "$tmp/example.yml"
cmp -s "$tmp/readme.yml" "$tmp/example.yml" ||
    fail "the README's example workflow differs from ci/action/example-workflow.yml"

runs=$((runs + 1))
: > "$tmp/key"
GITHUB_OUTPUT=$tmp/key bash "$src/ci/action/build.sh" key
grep -Eq '^key=[0-9a-f]{16}$' "$tmp/key" || fail "build.sh key wrote: $(cat "$tmp/key")"
runs=$((runs + 1))
mkdir "$tmp/cache" && cp "$ndplint" "$tmp/cache/ndplint"
bash "$src/ci/action/build.sh" build "$tmp/cache" > "$tmp/log" 2>&1 &&
    grep -q 'using the cached build' "$tmp/log" || fail "build.sh build: $(cat "$tmp/log")"

# run.sh as the action's last step runs it.  $1: expected exit status.
run_action() {
    want=$1
    shift
    rm -rf "$tmp/ws" && mkdir -p "$tmp/ws/reports"
    : > "$tmp/ws/output"; : > "$tmp/ws/env"; : > "$tmp/ws/summary"
    (cd "$src" && env "$@" NDPLINT="$ndplint" GITHUB_WORKSPACE="$src" \
        GITHUB_OUTPUT="$tmp/ws/output" GITHUB_ENV="$tmp/ws/env" \
        GITHUB_STEP_SUMMARY="$tmp/ws/summary" INPUT_AT=2026-12-05T12:00:00Z \
        INPUT_FAIL_ON=error INPUT_FORMAT=github \
        bash ci/action/run.sh) > "$tmp/ws/stdout" 2> "$tmp/ws/stderr"
    got=$?
    runs=$((runs + 1))
    [ "$got" = "$want" ] || fail "run.sh $*: exit $got, want $want"
}
has() { # file pattern
    runs=$((runs + 1))
    grep -q -- "$2" "$1" || fail "$(basename "$1") lacks '$2'"
}

r=$tmp/ws/reports
run_action 1 INPUT_FILES="fixtures/example-plan.json
fixtures/allow-negative.json" INPUT_SARIF="$r/ndplint.sarif" \
    INPUT_JUNIT="$r/junit.xml" INPUT_MARKDOWN="$r/report.md" INPUT_JSON=
has "$tmp/ws/output" '^errors=2$'
has "$tmp/ws/output" '^warnings=0$'
has "$tmp/ws/output" '^notes=0$'
has "$tmp/ws/output" "^sarif=$r/ndplint.sarif\$"
has "$tmp/ws/output" '^exit-code=1$'
has "$tmp/ws/env" "^NDPLINT_SARIF=$r/ndplint.sarif\$"
has "$tmp/ws/summary" '^## ndplint: 2 errors, 0 warnings, 0 notes'
has "$tmp/ws/summary" 'next opening 2026-12-06T01:00:00Z'
has "$tmp/ws/stdout" '^::error file=fixtures/example-plan.json,line=330,'
has "$r/ndplint.sarif" '"ruleId": "NDP103"'
has "$r/junit.xml" '<failure type="outside-window"'
has "$r/report.md" '| error | outside-window | NDP101'

run_action 0 INPUT_FILES=fixtures/allow-negative.json INPUT_SARIF="$r/x.sarif"
has "$tmp/ws/output" '^errors=0$'
has "$tmp/ws/output" '^exit-code=0$'
has "$tmp/ws/summary" 'Passes'

# Live cluster state through the cluster-state input turns Allow into Block.
run_action 1 INPUT_FILES=fixtures/state-plan.json INPUT_SARIF= \
    INPUT_CLUSTER_STATE="fixtures/state/aks-show-block.json
fixtures/state/mc-list-nodeos.json"
has "$tmp/ws/output" '^errors=2$'
has "$tmp/ws/summary" 'Block'

run_action 2 INPUT_FILES=fixtures/missing.json INPUT_SARIF="$r/x.sarif"
has "$tmp/ws/output" '^exit-code=2$'
has "$tmp/ws/output" '^sarif=$'
has "$tmp/ws/stderr" 'missing.json'

echo "action: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The GitHub Action (action.yml at the root, its work in ci/action/):
# action.yml, the example workflow (docs/examples/github-workflow.yml) and
# the release workflow (.github/workflows/release.yml) pass
# action-validator (@action-validator/cli, installed by
# ci/install-deps.sh --validators), and copies of action.yml broken on
# purpose do not; tests/scripts/action_check.py holds (Marketplace
# metadata, inputs used and documented, the cache saved after a failing
# lint, a key without the branch); the README shows the example workflow;
# build.sh chooses the source, keys it and keeps a cached build; and
# run.sh, run here with GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and GITHUB_ENV
# pointing at temporary files, writes every report, the outputs and the
# summary before failing the step.
#   usage: run_action.sh NDPLINT SOURCE_DIR TOOLS_DIR
set -u
ndplint=$1 src=$2 tools=$3
validator=$tools/node_modules/.bin/action-validator
workflow=docs/examples/github-workflow.yml
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
if ! python3 -c 'import yaml' 2>/dev/null; then
    echo "action: python3-yaml is not installed" \
         "(sh ci/install-deps.sh --validators): skipped"
    exit 77
fi
for f in action.yml "$workflow" .github/workflows/release.yml; do
    runs=$((runs + 1))
    "$validator" "$src/$f" > "$tmp/log" 2>&1 || { cat "$tmp/log"; fail "$f"; }
done
# action-validator tells an action from a workflow by the file name.
broken() { # name sed-script: a copy of action.yml the validator must refuse
    mkdir -p "$tmp/$1"
    sed "$2" "$src/action.yml" > "$tmp/$1/action.yml"
    runs=$((runs + 1))
    if "$validator" "$tmp/$1/action.yml" > "$tmp/log" 2>&1; then
        fail "action-validator passed action.yml $1"
    fi
}
broken without-using '/^  using: composite$/d'
broken run-without-shell '/^      shell: bash$/d'
broken unknown-key 's/^branding:$/brand:/'

runs=$((runs + 1))
python3 "$src/tests/scripts/action_check.py" "$src/action.yml" \
    "$src/docs/ci.md" || fail "action_check.py"
checked() { # name sed-script: a copy of action.yml action_check.py refuses
    sed "$2" "$src/action.yml" > "$tmp/$1.yml"
    runs=$((runs + 1))
    if python3 "$src/tests/scripts/action_check.py" "$tmp/$1.yml" \
            "$src/docs/ci.md" > "$tmp/log" 2>&1; then
        fail "action_check.py passed action.yml $1"
    fi
}
checked save-without-always 's/if: always() && steps.build/if: steps.build/'
checked key-with-branch 's/key: ndplint-[$]{{ runner.os }}/key: ndplint-${{ github.ref }}/'
checked long-description 's/judged against/judged, with great care and in every detail, against/'
checked unused-input 's/inputs.baseline }}/inputs.profile }}/'

runs=$((runs + 1))
awk '/<!-- ndplint:example-workflow -->/ { on = 1; next }
     on && /^```yaml/ { inside = 1; next }
     inside && /^```/ { exit }
     inside { print }' "$src/README.md" > "$tmp/readme.yml"
# The file's licence line is its own, not part of the workflow a reader copies.
grep -v '^# SPDX-License-Identifier: ' "$src/$workflow" > "$tmp/example.yml"
cmp -s "$tmp/readme.yml" "$tmp/example.yml" ||
    fail "the README's example workflow differs from $workflow"

# Nothing in the example workflow needs a paid feature: the SARIF upload
# (code scanning, GitHub Advanced Security in a private repository) runs
# only in a public repository or where NDPLINT_CODE_SCANNING is 'true',
# and the comment has its permission.
runs=$((runs + 1))
python3 -c 'import sys, yaml
w = yaml.safe_load(open(sys.argv[1]))
steps = [s for j in w["jobs"].values() for s in j["steps"]]
up = [s for s in steps
      if str(s.get("uses", "")).startswith("github/codeql-action/upload-sarif@")]
cond = str(up[0].get("if", "")) if len(up) == 1 else ""
sys.exit(not (w["permissions"].get("pull-requests") == "write" and
              "always()" in cond and "!github.event.repository.private" in cond
              and "vars.NDPLINT_CODE_SCANNING == '"'"'true'"'"'" in cond))' \
    "$src/$workflow" ||
    fail "$workflow: the SARIF upload is not conditional, or no pull-requests: write"

# build.sh source: a release to install, the action's own files, or a ref
# for actions/checkout.
source_of() { # version [install [action-tree]] -> build.sh source's outputs
    : > "$tmp/out"
    (cd "$tmp" && env INPUT_VERSION="$1" INPUT_INSTALL="${2:-}" \
        GITHUB_OUTPUT="$tmp/out" GITHUB_WORKSPACE=/ws \
        bash "${3:-$src}/ci/action/build.sh" source) > "$tmp/log" 2>&1
}
runs=$((runs + 1))
source_of '' && grep -qx 'checkout=false' "$tmp/out" &&
    grep -qx 'release=' "$tmp/out" &&
    grep -qx "dir=$(cd "$src" && pwd)" "$tmp/out" ||
    fail "build.sh source without a version: $(cat "$tmp/out" "$tmp/log")"
# A release: X.Y.Z or vX.Y.Z is installed, not checked out; with 'install:
# source' its tag is checked out and built.
for v in v9.8.7 9.8.7; do
    runs=$((runs + 1))
    source_of "$v" && grep -qx 'release=9.8.7' "$tmp/out" &&
        grep -qx 'checkout=false' "$tmp/out" ||
        fail "build.sh source $v: $(cat "$tmp/out" "$tmp/log")"
done
runs=$((runs + 1))
source_of v9.8.7 source && grep -qx 'checkout=true' "$tmp/out" &&
    grep -qx 'release=' "$tmp/out" &&
    grep -qx 'repository=ndplint/ndplint' "$tmp/out" &&
    grep -qx 'ref=v9.8.7' "$tmp/out" &&
    grep -qx 'dir=/ws/.ndplint-action-source' "$tmp/out" ||
    fail "build.sh source v9.8.7 with install: source: $(cat "$tmp/out" "$tmp/log")"
runs=$((runs + 1))
source_of main && grep -qx 'checkout=true' "$tmp/out" &&
    grep -qx 'release=' "$tmp/out" && grep -qx 'ref=main' "$tmp/out" ||
    fail "build.sh source main: $(cat "$tmp/out" "$tmp/log")"
runs=$((runs + 1))
source_of main release
[ $? = 2 ] && grep -q '^::error title=ndplint action::install: release needs' "$tmp/log" ||
    fail "build.sh source main with install: release: $(cat "$tmp/out" "$tmp/log")"
# The action at a release tag: ci/action/RELEASE (ci/release.sh) names
# the release it installs; 'install: source' builds its own files.
mkdir -p "$tmp/tagged/ci/action"
cp "$src/ci/action/build.sh" "$tmp/tagged/ci/action/"
echo 9.8.6 > "$tmp/tagged/ci/action/RELEASE"
runs=$((runs + 1))
source_of '' '' "$tmp/tagged" && grep -qx 'release=9.8.6' "$tmp/out" ||
    fail "build.sh source at a release tag: $(cat "$tmp/out" "$tmp/log")"
runs=$((runs + 1))
source_of '' source "$tmp/tagged" && grep -qx 'release=' "$tmp/out" &&
    grep -qx 'checkout=false' "$tmp/out" ||
    fail "build.sh source at a release tag, install: source: $(cat "$tmp/out" "$tmp/log")"
runs=$((runs + 1))
source_of v9.8.7 '' "$tmp/tagged" && grep -qx 'release=9.8.7' "$tmp/out" ||
    fail "build.sh source v9.8.7 at a release tag: $(cat "$tmp/out" "$tmp/log")"
echo 'v1; rm -rf /' > "$tmp/tagged/ci/action/RELEASE"
runs=$((runs + 1))
source_of '' '' "$tmp/tagged"
[ $? = 2 ] && [ ! -s "$tmp/out" ] ||
    fail "build.sh source with a bad ci/action/RELEASE: $(cat "$tmp/out" "$tmp/log")"
runs=$((runs + 1))
source_of me/ndplint-fork@fix/window && grep -qx 'repository=me/ndplint-fork' "$tmp/out" &&
    grep -qx 'ref=fix/window' "$tmp/out" ||
    fail "build.sh source OWNER/REPO@REF: $(cat "$tmp/out" "$tmp/log")"
runs=$((runs + 1))
source_of 'v1
::warning::injected'
[ $? = 2 ] && [ ! -s "$tmp/out" ] && [ "$(wc -l < "$tmp/log")" = 1 ] &&
    grep -q '^::error title=ndplint action::.*%0A::warning::injected' "$tmp/log" ||
    fail "build.sh source with a newline: $(cat "$tmp/out" "$tmp/log")"

# build.sh key: the runner image and a hash of the sources, which follows
# their content.
key_of() { # source-dir
    : > "$tmp/out"
    GITHUB_OUTPUT=$tmp/out ImageOS=ubuntu24 bash "$src/ci/action/build.sh" key "$1" &&
        sed -n 's/^key=//p' "$tmp/out"
}
mkdir -p "$tmp/tree/src" "$tmp/tree/rules"
echo 'project(x)' > "$tmp/tree/CMakeLists.txt"
echo 'int x;' > "$tmp/tree/src/x.c"
runs=$((runs + 1))
key1=$(key_of "$tmp/tree") key2=$(key_of "$tmp/tree")
echo 'int y;' > "$tmp/tree/src/x.c"
key3=$(key_of "$tmp/tree")
echo '{}' > "$tmp/tree/rules/new.json"
key4=$(key_of "$tmp/tree")
echo "$key1" | grep -Eqx 'ubuntu24-[0-9a-f]{16}' && [ "$key1" = "$key2" ] &&
    [ "$key3" != "$key1" ] && [ "$key4" != "$key3" ] ||
    fail "build.sh key: '$key1' '$key2' '$key3' '$key4'"
runs=$((runs + 1))
key_of "$src" | grep -Eqx 'ubuntu24-[0-9a-f]{16}' || fail "build.sh key of the source"
runs=$((runs + 1))
key_of "$tmp/tree/src" > "$tmp/log" 2>&1 &&
    fail "build.sh key of a directory without sources: $(cat "$tmp/log")"
# A release's key is its version, whatever the source tree.
runs=$((runs + 1))
[ "$(NDP_RELEASE=9.8.7 key_of "$tmp/tree")" = release-9.8.7 ] ||
    fail "build.sh key of release 9.8.7: '$(NDP_RELEASE=9.8.7 key_of "$tmp/tree")'"

# build.sh build keeps a cached build that runs, and refuses a runner it
# cannot build on before building anything.  A stand-in for NDPLINT
# (NDP_STANDIN is set: ctest standins) is no cached build that runs, and
# build.sh would build ndplint from the sources instead, which checks
# nothing of the stand-in: that run leaves the cache out.
if [ -z "${NDP_STANDIN:-}" ]; then
    runs=$((runs + 1))
    mkdir "$tmp/cache" && cp "$ndplint" "$tmp/cache/ndplint"
    bash "$src/ci/action/build.sh" build "$tmp/cache" "$src" > "$tmp/log" 2>&1 &&
        grep -q 'using the cached build' "$tmp/log" ||
        fail "build.sh build: $(cat "$tmp/log")"
fi
runs=$((runs + 1))
mkdir "$tmp/empty"
RUNNER_OS=Windows bash "$src/ci/action/build.sh" build "$tmp/empty" "$src" \
    > "$tmp/log" 2>&1
[ $? = 2 ] && grep -q '^::error .*Linux and macOS runners, not Windows' "$tmp/log" ||
    fail "build.sh build on Windows: $(cat "$tmp/log")"
# On macOS the dependencies come from Homebrew (none on this PATH).
runs=$((runs + 1))
mkdir "$tmp/nobrew"
bash=$(command -v bash)
PATH=$tmp/nobrew RUNNER_OS=macOS "$bash" "$src/ci/action/build.sh" build \
    "$tmp/empty" "$src" > "$tmp/log" 2>&1
[ $? = 2 ] && grep -q '^::error .*no Homebrew' "$tmp/log" ||
    fail "build.sh build on macOS without Homebrew: $(cat "$tmp/log")"

# run.sh as the action's last step runs it.  $1: expected exit status.
# It runs in the source directory, or in $run_dir when that is set.
run_dir=""
run_action() {
    want=$1
    shift
    rm -rf "$tmp/ws" && mkdir -p "$tmp/ws/reports"
    : > "$tmp/ws/output"; : > "$tmp/ws/env"; : > "$tmp/ws/summary"
    (cd "${run_dir:-$src}" && env "$@" NDPLINT="$ndplint" GITHUB_WORKSPACE="$src" \
        GITHUB_OUTPUT="$tmp/ws/output" GITHUB_ENV="$tmp/ws/env" \
        GITHUB_STEP_SUMMARY="$tmp/ws/summary" INPUT_AT=2026-12-05T12:00:00Z \
        INPUT_FAIL_ON=error INPUT_FORMAT=github \
        bash "$src/ci/action/run.sh") > "$tmp/ws/stdout" 2> "$tmp/ws/stderr"
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
has "$tmp/ws/output" '^notes=2$'
has "$tmp/ws/output" "^sarif=$r/ndplint.sarif\$"
has "$tmp/ws/output" '^exit-code=1$'
has "$tmp/ws/env" "^NDPLINT_SARIF=$r/ndplint.sarif\$"
has "$tmp/ws/summary" '^### ndplint: 2 changes AKS will refuse if applied at '
has "$tmp/ws/summary" '(2 errors, 0 warnings, 2 notes)'
has "$tmp/ws/summary" 'next opening 2026-12-06T01:00:00Z'
has "$tmp/ws/stdout" '^::error file=fixtures/example-plan.json,line=330,'
has "$r/ndplint.sarif" '"ruleId": "NDP103"'
has "$r/junit.xml" '<failure type="outside-window"'
has "$r/report.md" '^- \*\*error\*\* outside-window · \[NDP101 '

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

# config: the settings file's waivers leave one error and one warning.
run_action 1 INPUT_FILES=fixtures/example-plan.json INPUT_SARIF= \
    INPUT_CONFIG=fixtures/config/waivers.ndplint.json
has "$tmp/ws/output" '^errors=1$'
has "$tmp/ws/output" '^warnings=1$'
run_action 2 INPUT_FILES=fixtures/example-plan.json INPUT_SARIF= \
    INPUT_CONFIG=fixtures/config/bad-key.ndplint.json
has "$tmp/ws/stderr" "bad-key.ndplint.json'.*unknown key"

# baseline: the findings it lists are not reported.
run_action 0 INPUT_FILES=fixtures/example-plan.json INPUT_SARIF= \
    INPUT_BASELINE=fixtures/baseline/example-plan.baseline.json
has "$tmp/ws/output" '^errors=0$'
has "$tmp/ws/stderr" '2 findings listed in the baseline'

# soft-fail: findings pass the step and the summary says why; an input
# that cannot be read still fails it; a value that is not a boolean too.
run_action 0 INPUT_FILES=fixtures/example-plan.json INPUT_SARIF= \
    INPUT_SOFT_FAIL=true
has "$tmp/ws/output" '^errors=2$'
has "$tmp/ws/output" '^exit-code=0$'
has "$tmp/ws/summary" 'Passes.*--fail-on never'
has "$tmp/ws/stdout" '^::error file=fixtures/example-plan.json,line=330,'
run_action 2 INPUT_FILES=fixtures/missing.json INPUT_SARIF= INPUT_SOFT_FAIL=true
has "$tmp/ws/output" '^exit-code=2$'
run_action 1 INPUT_FILES=fixtures/example-plan.json INPUT_SARIF= \
    INPUT_SOFT_FAIL=false
run_action 2 INPUT_FILES=fixtures/example-plan.json INPUT_SARIF= \
    INPUT_SOFT_FAIL=yes
has "$tmp/ws/stdout" '^::error title=ndplint action::soft-fail must be true or false$'

# The counts are read with a JSON parser: a JSON report written with other
# spacing and key order (here rewritten compact by a wrapper around
# ndplint) gives the same outputs, through python3 and, without it, jq.
cat > "$tmp/compact-ndplint" <<EOF
#!/bin/sh
"$ndplint" "\$@"
status=\$?
for arg; do
    case \$arg in
    json:*) python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
json.dump(d, open(sys.argv[1], "w"), separators=(",", ":"), sort_keys=True)
' "\${arg#json:}" ;;
    esac
done
exit \$status
EOF
chmod +x "$tmp/compact-ndplint"
run_action 1 INPUT_FILES=fixtures/example-plan.json INPUT_SARIF= \
    NDPLINT="$tmp/compact-ndplint"
has "$tmp/ws/output" '^errors=2$'
has "$tmp/ws/output" '^warnings=0$'
has "$tmp/ws/output" '^notes=1$'
if command -v jq >/dev/null 2>&1; then
    # No python3 on the PATH the step sees: jq reads the counts.
    mkdir "$tmp/nopython"
    for tool in bash sh jq mktemp rm cat dirname env python3; do
        p=$(command -v "$tool") || continue
        [ "$tool" = python3 ] && continue
        ln -s "$p" "$tmp/nopython/$tool"
    done
    run_action 1 INPUT_FILES=fixtures/example-plan.json INPUT_SARIF= \
        INPUT_JSON="$r/report.json" PATH="$tmp/nopython"
    has "$tmp/ws/output" '^errors=2$'
    has "$tmp/ws/output" '^notes=1$'
fi

# Reports go under $RUNNER_TEMP by default ('$RUNNER_TEMP/ndplint.sarif',
# the default of the sarif input, written literally), and never through a
# symbolic link the checkout holds.
run_action 1 INPUT_FILES=fixtures/example-plan.json \
    INPUT_SARIF='$RUNNER_TEMP/ndplint.sarif' INPUT_JUNIT='$RUNNER_TEMP/x.xml' \
    RUNNER_TEMP="$r"
has "$tmp/ws/output" "^sarif=$r/ndplint.sarif\$"
has "$r/ndplint.sarif" '"ruleId": "NDP103"'
has "$r/x.xml" '<failure type="outside-window"'
runs=$((runs + 1))
[ -e "$src/\$RUNNER_TEMP" ] && fail "a report written to '\$RUNNER_TEMP' in the checkout"
# checkout PATH [ENV...]: run.sh in a checkout that holds links, at PATH.
checkout() {
    ws=$tmp/checkout
    rm -rf "$ws" "$tmp/victim" && mkdir -p "$ws/real" "$tmp/victim" || return
    cp "$src/fixtures/example-plan.json" "$ws/plan.json"
    echo 'keep me' > "$tmp/victim/victim.txt"
    ln -s "$tmp/victim/victim.txt" "$ws/ndplint.sarif"
    ln -s "$tmp/victim" "$ws/reports"
    ln -s ../ndplint.sarif "$ws/real/up.sarif"
    : > "$tmp/ws/output"
    (cd "$ws" && env "$@" NDPLINT="$ndplint" GITHUB_WORKSPACE="$ws" \
        GITHUB_OUTPUT="$tmp/ws/output" GITHUB_ENV=/dev/null \
        GITHUB_STEP_SUMMARY=/dev/null INPUT_AT=2026-12-05T12:00:00Z \
        INPUT_FILES=plan.json INPUT_FORMAT=github \
        bash "$src/ci/action/run.sh") > "$tmp/ws/stdout" 2> "$tmp/ws/stderr"
    got=$?
    runs=$((runs + 1))
    [ "$got" = 2 ] && grep -q 'keep me' "$tmp/victim/victim.txt" &&
        [ "$(ls "$tmp/victim")" = victim.txt ] &&
        grep -q '^::error title=ndplint action::.*a symbolic link in the checkout' \
            "$tmp/ws/stdout" ||
        fail "run.sh $*: exit $got, victim: $(cat "$tmp/victim/victim.txt"), $(cat "$tmp/ws/stdout")"
}
checkout INPUT_SARIF=ndplint.sarif
checkout INPUT_SARIF=reports/victim.txt
checkout INPUT_SARIF= INPUT_JSON=reports/new.json
checkout INPUT_SARIF= INPUT_MARKDOWN=./real/../reports/x.md
checkout INPUT_SARIF= INPUT_JUNIT=real/up.sarif
checkout INPUT_SARIF="$tmp/checkout/ndplint.sarif"
# A link outside the checkout is the user's: written through as given.
ln -sfn "$tmp/victim" "$tmp/outside"
: > "$tmp/ws/output"
(cd "$src" && env NDPLINT="$ndplint" GITHUB_WORKSPACE="$src" \
    GITHUB_OUTPUT="$tmp/ws/output" INPUT_AT=2026-12-05T12:00:00Z \
    INPUT_FILES=fixtures/example-plan.json INPUT_FORMAT=text \
    INPUT_SARIF="$tmp/outside/out.sarif" bash ci/action/run.sh) > /dev/null 2>&1
runs=$((runs + 1))
grep -q '"ruleId"' "$tmp/victim/out.sarif" 2>/dev/null ||
    fail "run.sh refused a report through a link outside the checkout"

# The README's workflow as written (its ndplint step's inputs over
# action.yml's defaults, its tfplan.json a copy of a fixture) on a pull request,
# with GitHub's API a loopback mock (comment_mock.py): the first run leaves
# one comment, a re-run updates it, a clean plan replaces it, and a token
# that may not comment (a fork's) only warns.
if command -v jq >/dev/null 2>&1 && command -v curl >/dev/null 2>&1; then
    python3 "$src/tests/scripts/comment_mock.py" "$tmp/mock.url" \
        > /dev/null 2>&1 &
    mock_pid=$!
    trap 'kill "$mock_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
    trap 'exit 1' INT TERM
    i=0
    while [ ! -s "$tmp/mock.url" ] && [ "$i" -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    url=$(cat "$tmp/mock.url" 2>/dev/null)
    echo '{"pull_request": {"number": 7}}' > "$tmp/event.json"
    python3 -c 'import sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
workflow = yaml.safe_load(open(sys.argv[2]))
inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
for job in workflow["jobs"].values():
    for step in job["steps"]:
        if str(step.get("uses", "")).startswith("ndplint/ndplint@"):
            inputs.update({k: str(v) for k, v in step.get("with", {}).items()})
inputs["files"] = sys.argv[3]
for k, v in inputs.items():
    print("INPUT_%s=%s" % (k.upper().replace("-", "_"), v))' \
        "$src/action.yml" "$src/$workflow" "$tmp/tfplan.json" > "$tmp/inputs"
    mock_state() {
        curl -sS "$url/_mock/state" > "$tmp/state.json" 2>/dev/null
    }
    readme_run() { # want [ENV...]: run.sh as the README's workflow runs it
        want=$1
        shift
        while IFS= read -r line; do set -- "$line" "$@"; done < "$tmp/inputs"
        run_action "$want" "$@" GITHUB_ACTIONS=true GITHUB_API_URL="$url" \
            GITHUB_REPOSITORY=octo/infra GITHUB_EVENT_PATH="$tmp/event.json" \
            GITHUB_TOKEN=ghs_mocktoken GITHUB_WORKFLOW="AKS reimage check" \
            GITHUB_JOB=ndplint RUNNER_TEMP="$r"
    }
    ours='[.github[] | select(.body | startswith("<!-- ndplint: "))]'
    plan() { cp "$src/fixtures/$1" "$tmp/tfplan.json"; }
    plan example-plan.json
    readme_run 1
    has "$tmp/ws/stdout" '^ndplint comment: created a comment$'
    readme_run 1
    has "$tmp/ws/stdout" '^ndplint comment: updated comment '
    mock_state
    runs=$((runs + 1))
    jq -e "$ours"' | length == 1 and (.[0].body | contains("NDP101"))' \
        "$tmp/state.json" > /dev/null 2>&1 ||
        fail "the README workflow run twice: not one comment with the report"
    runs=$((runs + 1))
    # Each run asks who the job's token is (/user refuses it, GraphQL's
    # viewer names github-actions[bot]) before the list.
    jq -e '.requests | map(.method) == ["GET", "POST", "GET", "POST",
                                        "GET", "POST", "GET", "PATCH"] and
           all(.headers.Authorization == "Bearer ghs_mocktoken") and
           (.[0].path == "/user") and (.[1].path == "/graphql") and
           (.[3].path == "/repos/octo/infra/issues/7/comments")' \
        "$tmp/state.json" > /dev/null 2>&1 ||
        fail "the README workflow's requests: $(cat "$tmp/state.json")"
    runs=$((runs + 1))
    grep -q ghs_mocktoken "$tmp/ws/stdout" "$tmp/ws/stderr" &&
        fail "the token is in the step's log"
    plan allow-negative.json
    readme_run 0
    mock_state
    runs=$((runs + 1))
    jq -e "$ours"' | length == 1 and (.[0].body | contains("NDP101") | not)' \
        "$tmp/state.json" > /dev/null 2>&1 ||
        fail "a clean plan did not replace the comment"
    curl -sS -d '{"fail": 403}' "$url/_mock/setup" > /dev/null 2>&1
    plan example-plan.json
    readme_run 1
    has "$tmp/ws/stdout" '^::warning title=ndplint comment::.*HTTP 403'
    has "$tmp/ws/output" '^exit-code=1$'
    readme_run 0 INPUT_FILES=fixtures/allow-negative.json
    has "$tmp/ws/stdout" '^::warning title=ndplint comment::.*HTTP 403'
    # comment-fail-on-error: the comment not posted fails a step ndplint
    # passed; a value it does not know stops the step.
    readme_run 1 INPUT_FILES=fixtures/allow-negative.json \
        INPUT_COMMENT_FAIL_ON_ERROR=true
    has "$tmp/ws/stdout" '^::warning title=ndplint comment::.*HTTP 403'
    has "$tmp/ws/output" '^exit-code=0$'
    readme_run 2 INPUT_COMMENT_FAIL_ON_ERROR=maybe
    has "$tmp/ws/stdout" '^::error title=ndplint action::comment-fail-on-error'
    # comment: off posts nothing; a value it does not know stops the step.
    curl -sS -d '{}' "$url/_mock/setup" > /dev/null 2>&1
    readme_run 1 INPUT_COMMENT=off
    mock_state
    runs=$((runs + 1))
    jq -e '.requests == []' "$tmp/state.json" > /dev/null 2>&1 ||
        fail "comment: off sent requests"
    readme_run 2 INPUT_COMMENT=sometimes
    has "$tmp/ws/stdout" '^::error title=ndplint action::comment must be'
    # A Markdown report whose name starts with '-' is still the report
    # (written in a directory of the test's own, not the checkout).
    mkdir -p "$tmp/dash" && run_dir=$tmp/dash
    readme_run 1 INPUT_MARKDOWN=-ndplint.md
    run_dir=""
    has "$tmp/ws/stdout" '^ndplint comment: created a comment$'
else
    echo "action: curl or jq is missing: the comment runs were skipped"
fi

echo "action: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ]

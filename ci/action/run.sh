#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs ndplint once for the GitHub Action (action.yml at the root): every
# report (the log format, SARIF, JUnit, Markdown, JSON) comes from the same
# run, the counts and the SARIF path go to $GITHUB_OUTPUT, and the step
# fails (with ndplint's exit status) only after all of it is written.
# Inputs arrive as INPUT_* variables; NDPLINT names the binary.
set -uo pipefail
ndplint=${NDPLINT:-ndplint}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# soft-fail: findings never fail the step (the reports say "--fail-on
# never"); an input ndplint cannot read still does, with exit status 2.
case ${INPUT_SOFT_FAIL:-false} in
true) fail_on=never ;;
false) fail_on=${INPUT_FAIL_ON:-error} ;;
*)
    echo "::error title=ndplint action::soft-fail must be true or false"
    exit 2
    ;;
esac

args=(--fail-on "$fail_on"
      --source-root "${INPUT_SOURCE_ROOT:-${GITHUB_WORKSPACE:-.}}"
      --format "${INPUT_FORMAT:-github}")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")
[ -n "${INPUT_BASELINE:-}" ] && args+=(--baseline "$INPUT_BASELINE")
[ -n "${INPUT_PROFILE:-}" ] && args+=(--profile "$INPUT_PROFILE")
[ -n "${INPUT_AT:-}" ] && args+=(--at "$INPUT_AT")
# shellcheck disable=SC2206
states=(${INPUT_CLUSTER_STATE:-})
for state in "${states[@]}"; do args+=(--cluster-state "$state"); done
[ -n "${INPUT_SARIF:-}" ] && args+=(--format "sarif:$INPUT_SARIF")
[ -n "${INPUT_JUNIT:-}" ] && args+=(--format "junit:$INPUT_JUNIT")
[ -n "${INPUT_MARKDOWN:-}" ] && args+=(--format "markdown:$INPUT_MARKDOWN")
# The counts come from the JSON report: the user's, or a private one.
json=${INPUT_JSON:-$tmp/report.json}
args+=(--format "json:$json")
# Word splitting (and glob expansion) of the list inputs is intended.
# shellcheck disable=SC2206
extra=(${INPUT_ARGS:-})
# shellcheck disable=SC2206
files=(${INPUT_FILES:?the 'files' input is required})

"$ndplint" "${args[@]}" "${extra[@]}" -- "${files[@]}"
status=$?

n='\([0-9]*\)'
counts=$(sed -n "s/.*\"summary\": {\"errors\": $n, \"warnings\": $n, \"notes\": ${n}[,}].*/\\1 \\2 \\3/p" \
         "$json" 2>/dev/null)
read -r errors warnings notes <<< "$counts"
sarif=""
[ -n "${INPUT_SARIF:-}" ] && [ -f "$INPUT_SARIF" ] && sarif=$INPUT_SARIF
{
    echo "errors=${errors:-}"
    echo "warnings=${warnings:-}"
    echo "notes=${notes:-}"
    echo "sarif=$sarif"
    echo "exit-code=$status"
} >> "${GITHUB_OUTPUT:-/dev/null}"
{
    echo "NDPLINT=$ndplint"
    echo "NDPLINT_SARIF=$sarif"
} >> "${GITHUB_ENV:-/dev/null}"
exit "$status"

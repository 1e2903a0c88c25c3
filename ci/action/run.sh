#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs ndplint once for the GitHub Action (action.yml at the root): every
# report (the log format, SARIF, JUnit, Markdown, JSON) comes from the same
# run, the counts and the SARIF path go to $GITHUB_OUTPUT, the Markdown
# report goes to the pull request as one comment (ci/comment.sh, which
# only warns when it cannot post), and the step fails (with ndplint's exit
# status) only after all of it is written.
# Inputs arrive as INPUT_* variables; NDPLINT names the binary.
#
# The checkout is the pull request's: a report is written under
# $RUNNER_TEMP unless its input names another path ('$RUNNER_TEMP/' at the
# start of one, as the SARIF default has it, is the runner's temporary
# directory, which 'with:' cannot expand), and never through a symbolic
# link inside the checkout, which could point anywhere.  The counts are
# read from the JSON report with a JSON parser.
set -uo pipefail
ndplint=${NDPLINT:-ndplint}
runner_temp=${RUNNER_TEMP:-${TMPDIR:-/tmp}}
tmp=$(mktemp -d "$runner_temp/ndplint.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# The token is for ci/comment.sh alone, not for ndplint.
token=${GITHUB_TOKEN:-}
unset GITHUB_TOKEN

# One workflow command: '%', CR and LF in the message escaped as the
# toolkit does, so that a file name cannot start a command of its own.
die() {
    local msg=$*
    msg=${msg//%/%25} msg=${msg//$'\r'/%0D} msg=${msg//$'\n'/%0A}
    echo "::error title=ndplint action::$msg"
    exit 2
}

# A report input as a path: '$RUNNER_TEMP/NAME' under the runner's
# temporary directory.
report_path() {
    # shellcheck disable=SC2016
    case $1 in
    '$RUNNER_TEMP'/*) printf '%s/%s' "$runner_temp" "${1#'$RUNNER_TEMP'/}" ;;
    *) printf '%s' "$1" ;;
    esac
}

# The first symbolic link inside the checkout on the way to 'path' (its
# directories and the file itself), or nothing.  The way is read as the
# kernel would up to the first link: '.' and '..' taken by name.
link_in_checkout() {
    local path=$1 ws=${GITHUB_WORKSPACE:-$PWD} at="" part
    local -a parts
    case $path in /*) ;; *) path=$PWD/$path ;; esac
    case $ws in /*) ;; *) ws=$PWD/$ws ;; esac
    IFS=/ read -r -a parts <<< "$path"
    for part in "${parts[@]}"; do
        case $part in
        '' | .) continue ;;
        ..) at=${at%/*}; continue ;;
        esac
        at=$at/$part
        case $at/ in
        "${ws%/}"/?*) [ -L "$at" ] && { printf '%s' "$at"; return 0; } ;;
        esac
    done
    return 1
}

# REPLY: where the report 'what' goes for the input 'path', or the step
# stops: never through a link in the checkout.
checked_report() {
    local what=$1 link
    REPLY=$(report_path "$2")
    if link=$(link_in_checkout "$REPLY"); then
        die "the $what report '$REPLY' would be written through '$link'," \
            "a symbolic link in the checkout; write it outside the" \
            "checkout (the default is under \$RUNNER_TEMP)"
    fi
}

# soft-fail: findings never fail the step (the reports say "--fail-on
# never"); an input ndplint cannot read still does, with exit status 2.
case ${INPUT_SOFT_FAIL:-false} in
true) fail_on=never ;;
false) fail_on=${INPUT_FAIL_ON:-error} ;;
*) die "soft-fail must be true or false" ;;
esac
# comment: the Markdown report as a pull request comment.
comment=${INPUT_COMMENT:-update}
case $comment in
update | new | off) ;;
*) die "comment must be update, new or off" ;;
esac
# comment-fail-on-error: a comment that cannot be posted fails the step.
comment_flag=""
case ${INPUT_COMMENT_FAIL_ON_ERROR:-false} in
true) comment_flag=--fail-on-error ;;
false) ;;
*) die "comment-fail-on-error must be true or false" ;;
esac

sarif="" junit="" markdown="" json=""
[ -n "${INPUT_SARIF:-}" ] && checked_report SARIF "$INPUT_SARIF" && sarif=$REPLY
[ -n "${INPUT_JUNIT:-}" ] && checked_report JUnit "$INPUT_JUNIT" && junit=$REPLY
[ -n "${INPUT_MARKDOWN:-}" ] && checked_report Markdown "$INPUT_MARKDOWN" &&
    markdown=$REPLY
[ -n "${INPUT_JSON:-}" ] && checked_report JSON "$INPUT_JSON" && json=$REPLY

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
[ -n "$sarif" ] && args+=(--format "sarif:$sarif")
[ -n "$junit" ] && args+=(--format "junit:$junit")
# The comment's Markdown: the user's report, or a private one.
comment_md=""
if [ "$comment" != off ]; then
    comment_md=${markdown:-$tmp/comment.md}
    [ -z "$markdown" ] && args+=(--format "markdown:$comment_md")
fi
[ -n "$markdown" ] && args+=(--format "markdown:$markdown")
# The counts come from the JSON report: the user's, or a private one.
json=${json:-$tmp/report.json}
args+=(--format "json:$json")
# Word splitting (and glob expansion) of the list inputs is intended.
# shellcheck disable=SC2206
extra=(${INPUT_ARGS:-})
# shellcheck disable=SC2206
files=(${INPUT_FILES:?the 'files' input is required})

"$ndplint" "${args[@]}" "${extra[@]}" -- "${files[@]}"
status=$?

# The counts, read with a JSON parser (python3, else jq); integers only.
counts=$(python3 -c 'import json, sys
s = json.load(open(sys.argv[1], encoding="utf-8"))["summary"]
print(*(int(s[k]) for k in ("errors", "warnings", "notes")))' "$json" \
         2>/dev/null ||
         jq -r '.summary | [.errors, .warnings, .notes] |
                if all(type == "number") then map(floor) | @sh else empty end' \
            "$json" 2>/dev/null)
read -r errors warnings notes <<< "$counts"
if [ "$status" != 2 ] && [ -z "${notes:-}" ]; then
    echo "::warning title=ndplint action::the errors, warnings and notes" \
         "outputs are empty: neither python3 nor jq could read the JSON report"
fi
[ -n "$sarif" ] && [ ! -f "$sarif" ] && sarif=""
{
    echo "errors=${errors:-}"
    echo "warnings=${warnings:-}"
    echo "notes=${notes:-}"
    echo "sarif=$sarif"
    echo "exit-code=$status"
} >> "${GITHUB_OUTPUT:-/dev/null}"
# One comment per workflow, job and 'files' input (ci/comment.sh finds it
# by its marker); nothing when ndplint wrote no report.
if [ -n "$comment_md" ] && [ -s "$comment_md" ]; then
    GITHUB_TOKEN=$token sh "${BASH_SOURCE[0]%/*}/../comment.sh" \
        --platform github --mode "$comment" --id "${INPUT_FILES:-}" \
        ${comment_flag:+"$comment_flag"} -- "$comment_md"
    posted=$?
    # comment-fail-on-error: a comment not posted fails a step that
    # ndplint's findings let pass.
    if [ "$posted" != 0 ] && [ -n "$comment_flag" ] && [ "$status" = 0 ]; then
        status=1
    fi
fi
{
    echo "NDPLINT=$ndplint"
    echo "NDPLINT_SARIF=$sarif"
} >> "${GITHUB_ENV:-/dev/null}"
exit "$status"

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Several reports from one run ('--format FMT[:PATH]', repeatable): each
# report file is byte for byte what '--format FMT' alone prints, the one
# report without a PATH goes to standard output (or to -o FILE), the exit
# status is decided after every report is written (a report that cannot be
# written does not stop the others), and GITHUB_STEP_SUMMARY receives the
# Markdown summary, appended, only with the github format.  The formats
# are the ones 'NDPLINT --list-names' lists: every reporter of the
# table, one of them (the first) to standard output in the combined run.
#   usage: run_outputs.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$src" || exit 1
at="--at 2026-12-05T12:00:00Z"
plan=fixtures/example-plan.json
failed=0 runs=0
check() { # description, then a command that must succeed
    what=$1
    shift
    runs=$((runs + 1))
    "$@" || { echo "outputs: $what"; failed=$((failed + 1)); }
}
unset GITHUB_STEP_SUMMARY

formats=$("$ndplint" --list-names | sed -n 's/^report //p')
if [ -z "$formats" ]; then
    echo "outputs: '$ndplint --list-names' lists no report format"
    exit 1
fi

for f in $formats; do
    # shellcheck disable=SC2086
    NO_COLOR=1 "$ndplint" $at --format "$f" "$plan" > "$tmp/alone.$f"
    check "exit status of --format $f alone" [ $? = 1 ]
    check "--format $f alone wrote a report" grep -q NDP101 "$tmp/alone.$f"
done
# Every format in one run: the first to standard output, each other to
# its file.
first=
for f in $formats; do
    if [ -z "$first" ]; then
        first=$f
        set -- --format "$f"
    else
        set -- "$@" --format "$f:$tmp/r.$f"
    fi
done
# shellcheck disable=SC2086
NO_COLOR=1 "$ndplint" $at "$@" "$plan" > "$tmp/r.$first" 2> "$tmp/err"
check "exit status of the combined run" [ $? = 1 ]
check "standard error of the combined run" [ ! -s "$tmp/err" ]
for f in $formats; do
    check "$f differs when written with others" cmp -s "$tmp/alone.$f" "$tmp/r.$f"
done
check "no temporary file left" \
    [ -z "$(find "$tmp" -name '*.tmp.*' -o -name '*ndplint-*')" ]

# -o FILE takes the report without a PATH; '-' is standard output.
# shellcheck disable=SC2086
"$ndplint" $at --format sarif -o "$tmp/o.sarif" --format "json:-" "$plan" \
    > "$tmp/o.json"
check "-o with FMT:PATH" cmp -s "$tmp/o.sarif" "$tmp/alone.sarif"
check "FMT:- to standard output" cmp -s "$tmp/o.json" "$tmp/alone.json"

# Usage errors: exit 2 and nothing written.
for args in "--format text --format json" "--format json:$tmp/u --format sarif:$tmp/u" \
            "--format sarif:$tmp/u -o $tmp/v" "--format nope:$tmp/u"; do
    # shellcheck disable=SC2086
    "$ndplint" $at $args "$plan" > "$tmp/out" 2> "$tmp/err"
    check "'$args' is a usage error" [ $? = 2 ]
    check "'$args' wrote a report" [ ! -e "$tmp/u" ] && [ ! -s "$tmp/out" ]
done

# A report that cannot be written: exit 2, the others are still written.
# shellcheck disable=SC2086
"$ndplint" $at --format "sarif:$tmp/no/such/dir/r.sarif" \
    --format "junit:$tmp/w.junit" "$plan" > "$tmp/out" 2> "$tmp/err"
check "unwritable report: exit 2" [ $? = 2 ]
check "unwritable report: named on stderr" grep -q 'cannot write' "$tmp/err"
check "unwritable report: the other written" cmp -s "$tmp/w.junit" "$tmp/alone.junit"

# GITHUB_STEP_SUMMARY: appended with github, untouched otherwise.
echo "earlier step" > "$tmp/summary"
# shellcheck disable=SC2086
GITHUB_STEP_SUMMARY=$tmp/summary "$ndplint" $at --format github "$plan" \
    > /dev/null
check "summary keeps what was there" grep -q '^earlier step$' "$tmp/summary"
check "summary is the markdown report" \
    sh -c 'tail -n +2 "$1" | cmp -s - "$2"' - "$tmp/summary" "$tmp/alone.markdown"
: > "$tmp/summary2"
# shellcheck disable=SC2086
GITHUB_STEP_SUMMARY=$tmp/summary2 "$ndplint" $at --format text "$plan" > /dev/null
check "no summary without the github format" [ ! -s "$tmp/summary2" ]

echo "outputs: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ]

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every golden JUnit report, and the JUnit report of every fixture, is valid
# against tests/junit/junit.xsd (the attributes Jenkins, GitLab and Azure
# DevOps all read), checked with xmllint (Debian: libxml2-utils).
#   usage: run_junit_validate.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
if ! command -v xmllint >/dev/null 2>&1; then
    echo "junit: xmllint is not installed (apt-get install libxml2-utils): skipped"
    exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
n=0 failed=0
xpath() {
    xmllint --xpath "$1" "$2" 2>/dev/null
}
# Valid against the schema, rooted at <testsuites>, and counting right
# (testcases, failures, and skipped testcases: waived or baseline-known).
validate() {
    n=$((n + 1))
    if ! xmllint --noout --schema "$src/tests/junit/junit.xsd" "$1" \
            > "$tmp/log" 2>&1; then
        failed=$((failed + 1))
        cat "$tmp/log"
    elif [ "$(xpath 'name(/*)' "$1")" != testsuites ] ||
         [ "$(xpath 'count(//testcase)' "$1")" != \
           "$(xpath 'string(/testsuites/@tests)' "$1")" ] ||
         [ "$(xpath 'count(//failure)' "$1")" != \
           "$(xpath 'string(/testsuites/@failures)' "$1")" ] ||
         [ "$(xpath 'count(//skipped)' "$1")" != \
           "$(xpath 'sum(//testsuite/@skipped)' "$1")" ]; then
        failed=$((failed + 1))
        echo "junit: $1: root or counts wrong"
    fi
}
# The schema must refuse what the readers refuse: a testcase without a name.
printf '<testsuites><testsuite name="x" tests="1" failures="0" errors="0">'\
'<testcase classname="c"/></testsuite></testsuites>\n' > "$tmp/bad.xml"
if xmllint --noout --schema "$src/tests/junit/junit.xsd" "$tmp/bad.xml" \
        >/dev/null 2>&1; then
    echo "junit: the schema accepts a testcase without a name"
    exit 1
fi
for case_dir in "$src"/tests/golden/*; do
    grep -qx 'junit' "$case_dir/args" 2>/dev/null || continue
    validate "$case_dir/expected.out"
done
cd "$src" || exit 1
for fixture in fixtures/*.json; do
    for fail_on in error note; do
        "$ndplint" --at 2026-12-05T12:00:00Z --fail-on "$fail_on" \
            --format junit "$fixture" > "$tmp/report.xml"
        status=$?
        if [ "$status" -gt 1 ]; then
            echo "junit: ndplint exited $status on $fixture"
            failed=$((failed + 1))
        fi
        validate "$tmp/report.xml"
    done
done
echo "junit: $((n - failed)) passed, $failed failed"
[ "$failed" = 0 ]

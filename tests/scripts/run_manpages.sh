#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The man pages (docs/man/ndplint.1, ndplint.json.5) against the program:
# tests/scripts/doccheck.py checks that ndplint.1 documents every option
# 'NDPLINT --help' prints and names no other, the enumerated values, and
# the environment variables src/ reads, and that ndplint.json.5 documents
# exactly the settings keys NDPLINT accepts; then 'mandoc -Tlint' must
# report nothing and exit 0 on both pages.  mandoc looks up an .Xr
# reference in the current directory too, so it runs in docs/man/, where
# the two pages name each other.  Skipped (77) when python3 or mandoc is
# missing, but only after the checks that need the program have run.
#   usage: run_manpages.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
failed=0 runs=0
fail() {
    echo "manpages: $*"
    failed=$((failed + 1))
}

py=${PYTHON3:-python3}
if ! command -v "$py" >/dev/null 2>&1; then
    echo "manpages: python3 is not installed: skipped"
    exit 77
fi
runs=$((runs + 1))
"$py" "$src/tests/scripts/doccheck.py" man "$ndplint" "$src" ||
    fail "the man pages disagree with '$ndplint' (above)"

if ! command -v mandoc >/dev/null 2>&1; then
    if [ "$failed" != 0 ]; then
        echo "manpages: $failed failed (mandoc is not installed: not linted)"
        exit 1
    fi
    echo "manpages: mandoc is not installed (sh ci/install-deps.sh" \
         "--validators): skipped"
    exit 77
fi
for page in ndplint.1 ndplint.json.5; do
    runs=$((runs + 1))
    log=$(cd "$src/docs/man" && mandoc -Tlint "$page" 2>&1)
    status=$?
    if [ "$status" != 0 ] || [ -n "$log" ]; then
        printf '%s\n' "$log"
        fail "mandoc -Tlint $page: exit $status"
    fi
done

echo "manpages: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ]

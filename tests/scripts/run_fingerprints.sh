#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# SARIF partialFingerprints are stable: the same across runs, across the
# order of the inputs, and across unrelated edits of the plan that move the
# resource to other lines; a change of the new value gives a new one.
#   usage: run_fingerprints.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$src" || exit 1
failed=0 runs=0
check() {
    what=$1
    shift
    runs=$((runs + 1))
    "$@" || { echo "fingerprints: $what"; failed=$((failed + 1)); }
}
prints() { # report -> "ruleId fingerprint" lines, sorted
    sed -n 's/.*"ruleId": "\([^"]*\)".*/\1/p; s/.*"ndplint\/v1": "\([0-9a-f]*\)".*/\1/p' "$1" |
        paste - - | sort
}
lines() {
    sed -n 's/.*"startLine": \([0-9]*\).*/\1/p' "$1" | sort
}
sarif() { # directory, output, then inputs
    dir=$1 out=$2
    shift 2
    (cd "$dir" && exec "$ndplint" --at 2026-12-05T12:00:00Z \
        --format "sarif:$out" "$@" > /dev/null)
    st=$?
    check "sarif run on $* exits $st, want 1" [ "$st" = 1 ]
    check "sarif run on $* wrote no SARIF" grep -q '"ruleId"' "$out"
}

mkdir "$tmp/a" "$tmp/b"
cp fixtures/example-plan.json "$tmp/a/plan.json"
# Unrelated edits: ten more lines at the top, a variable's value changed.
{ echo '{'; i=0; while [ $i -lt 10 ]; do echo "  \"x$i\": $i,"; i=$((i + 1)); done
  sed '1d; s/"1.9.8"/"1.9.9"/' fixtures/example-plan.json; } > "$tmp/b/plan.json"
cp fixtures/block-network-policy.json "$tmp/a/other.json"
cp fixtures/block-network-policy.json "$tmp/b/other.json"

sarif "$tmp/a" "$tmp/1.sarif" plan.json other.json
sarif "$tmp/a" "$tmp/2.sarif" plan.json other.json
sarif "$tmp/a" "$tmp/3.sarif" other.json plan.json
sarif "$tmp/b" "$tmp/4.sarif" plan.json other.json
check "no fingerprints" [ "$(prints "$tmp/1.sarif" | wc -l)" = 4 ]
check "differ between runs" [ "$(prints "$tmp/1.sarif")" = "$(prints "$tmp/2.sarif")" ]
check "depend on input order" [ "$(prints "$tmp/1.sarif")" = "$(prints "$tmp/3.sarif")" ]
check "the edit did not move the lines" [ "$(lines "$tmp/1.sarif")" != "$(lines "$tmp/4.sarif")" ]
check "depend on unrelated edits" [ "$(prints "$tmp/1.sarif")" = "$(prints "$tmp/4.sarif")" ]
check "not unique" [ "$(prints "$tmp/1.sarif" | cut -f2 | sort -u | wc -l)" = 4 ]

# A different new value is a different finding.
sed 's/"calico"/"azure"/' fixtures/example-plan.json > "$tmp/b/plan.json"
sarif "$tmp/b" "$tmp/5.sarif" plan.json other.json
check "ignore the new value" [ "$(prints "$tmp/1.sarif")" != "$(prints "$tmp/5.sarif")" ]

echo "fingerprints: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ] && [ "$runs" -gt 10 ]

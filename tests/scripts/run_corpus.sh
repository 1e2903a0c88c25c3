#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs ndplint over every file of the real-world corpus in ../shared/corpus
# (other people's plans, what-if results and templates) and checks each
# against tests/corpus_expect.tsv: the exit status and a fragment that must
# appear in the output (the summary line for readable plans, the error
# message for refused files).  Also: no crash, no file left unlisted, and
# nothing on stderr for a file that was read.
#   usage: run_corpus.sh NDPLINT CORPUS_DIR EXPECT_TSV
# Exit 77 (skipped) when the corpus is absent, as in a user's clone.
set -u
ndplint=$1 corpus=$2 expect=$3
if [ ! -d "$corpus" ]; then
    echo "corpus: $corpus not found; skipping (only CI and developers have ../shared)"
    exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

checked=0 failed=0
for file in "$corpus"/terraform/*.json "$corpus"/whatif/*.json "$corpus"/arm/*.json; do
    rel=${file#"$corpus"/}
    line=$(awk -F '\t' -v f="$rel" '$1 == f { print; exit }' "$expect")
    if [ -z "$line" ]; then
        echo "corpus: $rel has no line in $(basename "$expect")"
        failed=$((failed + 1))
        continue
    fi
    want_exit=$(printf '%s\n' "$line" | cut -f2)
    fragment=$(printf '%s\n' "$line" | cut -f3)
    LC_ALL=C NO_COLOR=1 "$ndplint" --at 2026-12-05T12:00:00Z "$file" \
        > "$tmp/out" 2> "$tmp/err"
    got_exit=$?
    checked=$((checked + 1))
    if [ "$got_exit" != "$want_exit" ]; then
        echo "corpus: $rel: exit $got_exit, expected $want_exit"
        head -3 "$tmp/out" "$tmp/err"
        failed=$((failed + 1))
        continue
    fi
    if ! grep -qF -- "$fragment" "$tmp/out" "$tmp/err"; then
        echo "corpus: $rel: output lacks '$fragment':"
        head -5 "$tmp/out" "$tmp/err"
        failed=$((failed + 1))
        continue
    fi
    if [ "$got_exit" != 2 ] && [ -s "$tmp/err" ]; then
        echo "corpus: $rel: unexpected stderr:"
        head -3 "$tmp/err"
        failed=$((failed + 1))
    fi
done
echo "corpus: $((checked - failed)) passed, $failed failed"
[ "$failed" = 0 ]

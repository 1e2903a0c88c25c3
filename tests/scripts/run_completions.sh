#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The shell completions (contrib/completions/) against the program: each
# file passes its shell's syntax check (bash -n, zsh -n, fish -n) and names
# every long option of 'NDPLINT --help' and no other, with the values of
# the enumerated options (tests/scripts/doccheck.py completion).  The bash
# completion is also loaded and run: 'ndplint --for<TAB>' must offer
# --format, 'ndplint --format <TAB>' every format of --help, and the other
# enumerated options their values.  fish, when present, is asked the same
# through 'complete -C'.  A missing shell skips (77) once everything else
# has passed.
#   usage: run_completions.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
dir=$src/contrib/completions
failed=0 runs=0 missing=""
fail() {
    echo "completions: $*"
    failed=$((failed + 1))
}

py=${PYTHON3:-python3}
if ! command -v "$py" >/dev/null 2>&1; then
    echo "completions: python3 is not installed: skipped"
    exit 77
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

# What --help says: 'option NAME SHORT ARG' and 'values NAME V...' lines.
"$py" "$src/tests/scripts/doccheck.py" help "$ndplint" > "$tmp/help" ||
    fail "'$ndplint --help' lists no options or values"
grep -q '^option format ' "$tmp/help" ||
    fail "'$ndplint --help' lists no --format"

for pair in bash:ndplint.bash zsh:_ndplint fish:ndplint.fish; do
    shell=${pair%%:*} file=$dir/${pair#*:}
    runs=$((runs + 1))
    "$py" "$src/tests/scripts/doccheck.py" completion "$shell" "$file" \
        "$ndplint" || fail "$file disagrees with --help (above)"
    if ! command -v "$shell" >/dev/null 2>&1; then
        missing="$missing $shell"
        continue
    fi
    runs=$((runs + 1))
    "$shell" -n "$file" || fail "$shell -n $file"
done

# complete_bash WORD...: COMPREPLY, one a line, for the last WORD.
complete_bash() {
    bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
             _ndplint; printf "%s\n" "${COMPREPLY[@]}"' \
        complete "$dir/ndplint.bash" "$@"
}
# offers WHAT WANT...: each WANT is a line of file WHAT.
offers() {
    what=$1
    shift
    for want in "$@"; do
        runs=$((runs + 1))
        grep -qx -- "$want" "$tmp/$what" ||
            fail "$what: '$want' not offered (got: $(tr '\n' ' ' < "$tmp/$what"))"
    done
}
if command -v bash >/dev/null 2>&1; then
    complete_bash ndplint --for > "$tmp/bash--for"
    offers bash--for --format
    complete_bash ndplint --format "" > "$tmp/bash--format"
    offers bash--format json sarif
    # Every enumerated option offers exactly the values --help lists.
    while read -r kind name values; do
        [ "$kind" = values ] || continue
        complete_bash ndplint "--$name" "" | sort > "$tmp/bash-$name"
        printf '%s\n' $values | sort > "$tmp/want-$name"
        runs=$((runs + 1))
        cmp -s "$tmp/bash-$name" "$tmp/want-$name" ||
            fail "bash: --$name offers $(tr '\n' ' ' < "$tmp/bash-$name")," \
                 "--help lists $(tr '\n' ' ' < "$tmp/want-$name")"
    done < "$tmp/help"
    # Every option of --help is offered after '--'.
    complete_bash ndplint -- > "$tmp/bash--"
    while read -r kind name short arg; do
        [ "$kind" = option ] || continue
        offers bash-- "--$name"
    done < "$tmp/help"
    # --explain offers what the program's --list-rules names.
    complete_bash "$ndplint" --explain network- > "$tmp/bash-explain"
    offers bash-explain network-policy
fi
if command -v fish >/dev/null 2>&1; then
    fish_complete() {
        fish --no-config -c "source '$dir/ndplint.fish'; complete -C '$1'" |
            cut -f1
    }
    fish_complete 'ndplint --for' > "$tmp/fish--for"
    offers fish--for --format
    fish_complete 'ndplint --format ' > "$tmp/fish--format"
    offers fish--format json sarif
    fish_complete "$ndplint --explain network-" > "$tmp/fish-explain"
    offers fish-explain network-policy
fi

echo "completions: $((runs - failed)) passed, $failed failed"
[ "$failed" = 0 ] || exit 1
if [ -n "$missing" ]; then
    echo "completions: not installed:$missing (sh ci/install-deps.sh): skipped"
    exit 77
fi

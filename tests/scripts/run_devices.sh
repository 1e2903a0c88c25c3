#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Endless or binary streams as input are refused: a named input (an input,
# --cluster-state, --baseline, a .ndplint.json) that is a device, a FIFO
# (one nothing writes to must not block) or a process substitution, at
# once, naming what it is; /dev/zero and /dev/urandom on standard input,
# 'yes' and /dev/zero behind a pipe, a '{' followed by NUL bytes or by
# text the scanner refuses, after their first bytes, not after the 4 GiB
# input limit; a rules directory (named by a settings file) holding a
# link to /dev/zero, a FIFO or a 2 MB file.  All exit 2 within seconds
# and in little memory.  Standard input named /dev/stdin reads as '-'
# does; a file of NUL bytes is not called empty, and UTF-16 (whose NUL
# bytes are its own) still reads on a pipe.
#   usage: run_devices.sh NDPLINT SOURCE_DIR
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$src" || exit 1
passed=0 failed=0
check() { # description, then a command that must succeed
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else
        echo "devices: $what"; failed=$((failed + 1)); fi
}
# lint ARGS...: ndplint, at most 10 s; out, err, status, rss in $tmp
lint() {
    /usr/bin/time -f %M -o "$tmp/rss" timeout 10 "$ndplint" \
        --at 2026-12-05T12:00:00Z --no-config "$@" > "$tmp/out" 2> "$tmp/err"
    echo $? > "$tmp/status"
}
# lint_config SETTINGS ARGS...: the same, with a settings file
lint_config() {
    settings=$1
    shift
    /usr/bin/time -f %M -o "$tmp/rss" timeout 10 "$ndplint" \
        --at 2026-12-05T12:00:00Z --config "$settings" "$@" \
        > "$tmp/out" 2> "$tmp/err"
    echo $? > "$tmp/status"
}
refused() { # description, pattern the message must hold
    check "$1: exit 2" [ "$(cat "$tmp/status")" = 2 ]
    check "$1: says '$2'" grep -q "$2" "$tmp/err"
    check "$1: no report" [ ! -s "$tmp/out" ]
    check "$1: under 64 MB more memory than a plan" \
        [ "$(tail -n 1 "$tmp/rss")" -lt $((rss_plan + 64000)) ]
}

lint fixtures/example-plan.json
check "a plan: exit 1" [ "$(cat "$tmp/status")" = 1 ]
check "a plan: a report" grep -q NDP101 "$tmp/out"
rss_plan=$(tail -n 1 "$tmp/rss")

lint /dev/zero
refused "/dev/zero" "'/dev/zero' is a device, not a regular file"
lint /dev/urandom
refused "/dev/urandom" "'/dev/urandom' is a device, not a regular file"
mkfifo "$tmp/nowriter.json"
lint "$tmp/nowriter.json"
refused "a FIFO nothing writes to" "nowriter.json' is a FIFO (a named pipe), not a regular file"
lint /dev/stdin < fixtures/example-plan.json
check "/dev/stdin from a file: exit 1" [ "$(cat "$tmp/status")" = 1 ]
check "/dev/stdin from a file: a report" grep -q NDP101 "$tmp/out"
cat fixtures/example-plan.json | lint /dev/stdin
check "/dev/stdin from a pipe: exit 1" [ "$(cat "$tmp/status")" = 1 ]
check "/dev/stdin from a pipe: a report" grep -q NDP101 "$tmp/out"
lint - < /dev/zero
refused "standard input from /dev/zero" "contains a NUL byte at offset 0"
cat /dev/zero 2> /dev/null | lint -
refused "/dev/zero through a pipe" "contains a NUL byte at offset 0"
yes 2> /dev/null | lint -
refused "yes through a pipe" "is not JSON (it begins with a word"
{ printf '  \n\t{"a":'; cat /dev/zero; } 2> /dev/null | lint -
refused "'{' then /dev/zero" "contains a NUL byte at offset 9"
{ printf '{"a":x'; yes; } 2> /dev/null | lint -
refused "'{' then text refused" "not valid JSON"
lint --cluster-state /dev/zero fixtures/example-plan.json
refused "--cluster-state /dev/zero" "'/dev/zero' is a device"

lint --baseline /dev/zero fixtures/example-plan.json
refused "--baseline /dev/zero" "'/dev/zero' is a device"

# What a pull request can plant: a .ndplint.json that is a link to
# /dev/zero (a link out of the working tree, refused as such; followed
# with --follow-links, a device), and a settings file whose rules
# directory holds a link to /dev/zero or a FIFO (which must not block the
# run).
mkdir -p "$tmp/repo/.git" "$tmp/repo/rules"
ln -s /dev/zero "$tmp/repo/.ndplint.json"
(cd "$tmp/repo" && exec /usr/bin/time -f %M -o "$tmp/rss" timeout 10 \
    "$ndplint" "$src/fixtures/example-plan.json") > "$tmp/out" 2> "$tmp/err"
echo $? > "$tmp/status"
refused "a discovered .ndplint.json linked to /dev/zero" \
    ".ndplint.json' is a symbolic link to a place outside the working tree"
(cd "$tmp/repo" && exec /usr/bin/time -f %M -o "$tmp/rss" timeout 10 \
    "$ndplint" --follow-links "$src/fixtures/example-plan.json") \
    > "$tmp/out" 2> "$tmp/err"
echo $? > "$tmp/status"
refused "the same, followed with --follow-links" \
    ".ndplint.json' is a device"
printf '{"rules": "%s"}\n' "$tmp/repo/rules" > "$tmp/settings.json"
ln -s /dev/zero "$tmp/repo/rules/zero.json"
lint_config "$tmp/settings.json" fixtures/example-plan.json
refused "a rule file linked to /dev/zero" "zero.json': not a regular file"
rm "$tmp/repo/rules/zero.json"
mkfifo "$tmp/repo/rules/fifo.json"
lint_config "$tmp/settings.json" fixtures/example-plan.json
refused "a rule file that is a FIFO" "fifo.json': not a regular file"
rm "$tmp/repo/rules/fifo.json"
head -c 2000000 /dev/zero | tr '\0' ' ' > "$tmp/repo/rules/big.json"
lint_config "$tmp/settings.json" fixtures/example-plan.json
refused "a rule file of 2 MB" "big.json': larger than 1048576 bytes"

head -c 4096 /dev/zero > "$tmp/zeros.json"
lint "$tmp/zeros.json"
refused "a file of NUL bytes" "contains a NUL byte at offset 0"

# UTF-16 with its byte order mark: NUL bytes are its own, on a pipe too.
{ printf '\377\376'; iconv -f UTF-8 -t UTF-16LE fixtures/example-plan.json; } \
    > "$tmp/utf16.json"
lint "$tmp/utf16.json"
cp "$tmp/out" "$tmp/utf16.file"
check "UTF-16 file: exit 1" [ "$(cat "$tmp/status")" = 1 ]
cat "$tmp/utf16.json" | lint -
check "UTF-16 pipe: exit 1" [ "$(cat "$tmp/status")" = 1 ]
check "UTF-16 pipe: a report" grep -q NDP101 "$tmp/out"

echo "devices: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 30 ]

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Where '-o PATH', '--format FMT:PATH' and '--write-baseline PATH' write:
# a regular file (or a new one) is replaced through a temporary that
# mkstemp makes beside it, so a link planted at a predictable temporary
# name is never followed and a failed write keeps the old file; a FIFO, a
# character device or a link to /dev/stdout is written straight and stays
# what it was; a link to a regular file is followed (the file it names is
# replaced, the link stays); a link to nothing is refused.
#   usage: run_outfile.sh NDPLINT SOURCE_DIR
# Device nodes are only ever made inside the temporary directory (mknod,
# as root; skipped otherwise), never the machine's own.
set -u
ndplint=$1 src=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$src" || exit 1
plan=fixtures/example-plan.json
run() { "$ndplint" --at 2026-12-05T12:00:00Z --no-config "$@"; }
passed=0 failed=0
check() { # description, then a command that must succeed
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else
        echo "outfile: $what"; failed=$((failed + 1)); fi
}
no_temporary() {
    [ -z "$(find "$tmp" -name '*ndplint-*' -o -name '*.tmp.*')" ]
}

run --format json "$plan" > "$tmp/want.json"
check "the reference report exits 1" [ $? = 1 ]
check "the reference report is not empty" [ -s "$tmp/want.json" ]

# A FIFO: written straight, read by a background cat, still a FIFO (the
# timeouts end a reader nothing writes to, and a writer nothing reads).
mkfifo "$tmp/fifo"
timeout 5 cat "$tmp/fifo" > "$tmp/got.fifo" &
reader=$!
timeout 20 "$ndplint" --at 2026-12-05T12:00:00Z --no-config --format json \
    -o "$tmp/fifo" "$plan"
check "-o FIFO exits 1" [ $? = 1 ]
wait "$reader"
check "-o FIFO: the reader got the report" \
    cmp -s "$tmp/want.json" "$tmp/got.fifo"
check "-o FIFO is still a FIFO" [ -p "$tmp/fifo" ]

# A link to a FIFO, through --format FMT:PATH.
ln -s fifo "$tmp/to-fifo"
timeout 5 cat "$tmp/fifo" > "$tmp/got.to-fifo" &
reader=$!
timeout 20 "$ndplint" --at 2026-12-05T12:00:00Z --no-config \
    --format "json:$tmp/to-fifo" "$plan"
check "--format json:LINK-TO-FIFO exits 1" [ $? = 1 ]
wait "$reader"
check "link to a FIFO: the reader got the report" \
    cmp -s "$tmp/want.json" "$tmp/got.to-fifo"
check "the link to the FIFO is still a link" [ -L "$tmp/to-fifo" ]

# A link to /dev/stdout: the report arrives on standard output.
ln -s /dev/stdout "$tmp/stdout"
run --format json -o "$tmp/stdout" "$plan" > "$tmp/got.stdout"
check "-o LINK-TO-STDOUT exits 1" [ $? = 1 ]
check "link to /dev/stdout: the report is on standard output" \
    cmp -s "$tmp/want.json" "$tmp/got.stdout"
check "the link to /dev/stdout is still a link" [ -L "$tmp/stdout" ]
echo first > "$tmp/got.append"
run --format json -o "$tmp/stdout" "$plan" >> "$tmp/got.append"
appended=no
[ "$(head -n 1 "$tmp/got.append")" = first ] &&
    tail -n +2 "$tmp/got.append" | cmp -s - "$tmp/want.json" && appended=yes
check "link to /dev/stdout opened for appending: appended" [ "$appended" = yes ]
run --format json -o "$tmp/stdout" "$plan" | cat > "$tmp/got.pipe"
check "link to /dev/stdout, a pipe: the report went through it" \
    cmp -s "$tmp/want.json" "$tmp/got.pipe"

# A character device made here (as root only): stays a device.
if [ "$(id -u)" = 0 ] && mknod "$tmp/null" c 1 3 2> /dev/null; then
    run --format json -o "$tmp/null" "$plan"
    check "-o CHAR-DEVICE exits 1" [ $? = 1 ]
    check "-o CHAR-DEVICE is still a character device" [ -c "$tmp/null" ]
    run --write-baseline "$tmp/null" "$plan" > /dev/null
    check "--write-baseline CHAR-DEVICE is still a device" [ -c "$tmp/null" ]
    rm -f "$tmp/null"
else
    echo "outfile: not root (or no mknod): character device not tried"
fi

# The old temporary name PATH.tmp.<pid>, planted as a link: not followed.
echo "victim" > "$tmp/victim"
sh -c 'ln -s "$1/victim" "$1/out.json.tmp.$$" && shift &&
       exec "$@"' sh "$tmp" "$ndplint" --at 2026-12-05T12:00:00Z \
    --no-config --format json -o "$tmp/out.json" "$plan"
check "planted temporary link: exits 1" [ $? = 1 ]
check "planted temporary link: the victim is untouched" \
    [ "$(cat "$tmp/victim")" = victim ]
check "planted temporary link: the report is written" \
    cmp -s "$tmp/want.json" "$tmp/out.json"
rm -f "$tmp"/out.json.tmp.*

# A link to a regular file elsewhere: the file is replaced, the link stays.
mkdir "$tmp/elsewhere"
echo old > "$tmp/elsewhere/real.json"
chmod 640 "$tmp/elsewhere/real.json"
ln -s elsewhere/real.json "$tmp/link.json"
run --format json -o "$tmp/link.json" "$plan"
check "-o LINK-TO-FILE exits 1" [ $? = 1 ]
check "-o LINK-TO-FILE is still a link" [ -L "$tmp/link.json" ]
check "-o LINK-TO-FILE: the file it names holds the report" \
    cmp -s "$tmp/want.json" "$tmp/elsewhere/real.json"
check "-o LINK-TO-FILE: the file keeps its mode" \
    [ "$(stat -c %a "$tmp/elsewhere/real.json")" = 640 ]

# A link to nothing: refused, nothing made.
ln -s missing.json "$tmp/dangling"
run --format json -o "$tmp/dangling" "$plan" 2> "$tmp/err"
check "-o DANGLING-LINK exits 2" [ $? = 2 ]
check "-o DANGLING-LINK: nothing made" [ ! -e "$tmp/missing.json" ]
check "-o DANGLING-LINK: the message names it" \
    grep -q "dangling.*symbolic link to a missing file" "$tmp/err"

# A directory: refused.
run --format json -o "$tmp/elsewhere" "$plan" 2> "$tmp/err"
check "-o DIRECTORY exits 2" [ $? = 2 ]

# A new file and a replaced one get the report; no temporary stays.
echo old > "$tmp/plain.json"
run --format json -o "$tmp/plain.json" --format "sarif:$tmp/new.sarif" \
    "$plan"
check "-o FILE exits 1" [ $? = 1 ]
check "-o FILE replaced" cmp -s "$tmp/want.json" "$tmp/plain.json"
check "--format sarif:NEW made" [ -s "$tmp/new.sarif" ]
(umask 027 && exec "$ndplint" --at 2026-12-05T12:00:00Z --no-config \
    --format json -o "$tmp/masked.json" "$plan")
check "a new file: 0666 less the umask, as a shell's > makes it" \
    [ "$(stat -c %a "$tmp/masked.json")" = 640 ]
check "no temporary left after success" no_temporary

# A write that fails (no room: a file size limit of 0) keeps the old
# baseline and the old report whole, exits 2 and leaves no temporary.
printf '{"ndplint_baseline": 1, "fingerprints": []}\n' > "$tmp/base.json"
cp "$tmp/base.json" "$tmp/base.orig"
cp "$tmp/plain.json" "$tmp/plain.orig"
( trap '' XFSZ; ulimit -f 0 && exec "$ndplint" --at 2026-12-05T12:00:00Z \
    --no-config --write-baseline "$tmp/base.json" --format json \
    -o "$tmp/plain.json" "$plan"; ) 2>&1 | cat > "$tmp/err"
check "a failed --write-baseline: the old baseline is whole" \
    cmp -s "$tmp/base.orig" "$tmp/base.json"
check "a failed --write-baseline: the message names the baseline" \
    grep -q "cannot write the baseline '$tmp/base.json'" "$tmp/err"
( trap '' XFSZ; ulimit -f 0 && exec "$ndplint" --at 2026-12-05T12:00:00Z \
    --no-config --write-baseline "$tmp/base.json" "$plan" > /dev/null; )
check "a failed --write-baseline exits 2" [ $? = 2 ]
( trap '' XFSZ; ulimit -f 0 && exec "$ndplint" --at 2026-12-05T12:00:00Z \
    --no-config --format json -o "$tmp/plain.json" "$plan"; ) 2> /dev/null
check "a failed -o exits 2" [ $? = 2 ]
check "a failed -o: the old report is whole" \
    cmp -s "$tmp/plain.orig" "$tmp/plain.json"
check "no temporary left after a failed write" no_temporary

# A read-only directory (not for root, whom permissions do not stop).
if [ "$(id -u)" != 0 ]; then
    mkdir "$tmp/ro" && cp "$tmp/base.orig" "$tmp/ro/base.json"
    chmod 555 "$tmp/ro"
    run --write-baseline "$tmp/ro/base.json" "$plan" > /dev/null 2>&1
    check "--write-baseline in a read-only directory exits 2" [ $? = 2 ]
    check "... and the old baseline is whole" \
        cmp -s "$tmp/base.orig" "$tmp/ro/base.json"
    chmod 755 "$tmp/ro"
fi

# The baseline itself: written, valid, then replaced atomically.
run --write-baseline "$tmp/base.json" "$plan" > /dev/null
check "--write-baseline exits 1" [ $? = 1 ]
check "--write-baseline wrote fingerprints" \
    grep -q '"[0-9a-f]\{64\}"' "$tmp/base.json"
check "no temporary left after the baseline" no_temporary

echo "outfile: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 30 ]

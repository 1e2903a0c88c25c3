#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Linux release archives as the release workflow builds them:
# ci/release-build.sh linux-x86_64 linux-aarch64 (the aarch64 binary
# cross-compiled), then checks that the archives have the names and the
# files ci/install.sh expects, that the two Debian packages are of their
# architecture, depend on nothing and hold the archive's binary and the
# package's files, that SHA256SUMS lists exactly them and
# matches, that 'file' calls each binary statically linked and of its
# architecture, and that the aarch64 binary, run under qemu-aarch64-static,
# writes byte for byte the standard output, standard error and exit status
# of the x86_64 binary on every golden case (tests/golden/*), which are the
# recorded ones.  Skipped (77) on another host than Linux x86_64, or when
# 'file', the cross compiler, the arm64 libraries or qemu-user-static is
# missing (sh ci/install-deps.sh --cross installs them).
#   usage: run_release_build.sh SOURCE_DIR CMAKE CPACK
set -u
src=$1 cmake=$2 cpack=$3

skip() {
    echo "release_build: $*: skipped"
    exit 77
}
[ "$(uname -s)/$(uname -m)" = Linux/x86_64 ] ||
    skip "the cross build runs on Linux x86_64, this is $(uname -s) $(uname -m)"
for tool in file aarch64-linux-gnu-gcc qemu-aarch64-static sha256sum \
        dpkg-deb dpkg-shlibdeps; do
    command -v "$tool" >/dev/null 2>&1 ||
        skip "$tool is not installed (sh ci/install-deps.sh --cross)"
done
[ -f /usr/lib/aarch64-linux-gnu/pkgconfig/json-c.pc ] &&
    [ -f /usr/lib/aarch64-linux-gnu/pkgconfig/libpcre2-8.pc ] ||
    skip "libjson-c-dev:arm64 or libpcre2-dev:arm64 is not installed" \
         "(sh ci/install-deps.sh --cross)"

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
failed=0
fail() {
    echo "release_build: $*"
    failed=$((failed + 1))
}

started=$(date +%s)
if ! CMAKE=$cmake CPACK=$cpack sh "$src/ci/release-build.sh" -o "$work/dist" \
        linux-x86_64 linux-aarch64 > "$work/log" 2>&1; then
    tail -40 "$work/log"
    echo "release_build: ci/release-build.sh failed"
    exit 1
fi
built=$(($(date +%s) - started))
version=$(sed -n 's/^project(ndplint VERSION \([0-9.]*\).*/\1/p' \
    "$src/CMakeLists.txt")

# The names ci/install.sh asks for, and nothing else.
(cd "$work/dist" && ls) > "$work/names"
cat > "$work/expected-names" <<EOF
SHA256SUMS
ndplint-$version-linux-aarch64.tar.gz
ndplint-$version-linux-x86_64.tar.gz
ndplint_$version-1_amd64.deb
ndplint_$version-1_arm64.deb
EOF
cmp -s "$work/expected-names" "$work/names" ||
    fail "the output holds other files (- missing, + extra):
$(diff -u "$work/expected-names" "$work/names" | sed -n '4,$p')"
if ! (cd "$work/dist" && sha256sum --quiet --strict -c SHA256SUMS) \
        > "$work/sums" 2>&1; then
    fail "SHA256SUMS does not match: $(cat "$work/sums")"
fi
[ "$(wc -l < "$work/dist/SHA256SUMS")" -eq 4 ] ||
    fail "SHA256SUMS has $(wc -l < "$work/dist/SHA256SUMS") lines, not 4"

# The packages: their architecture, no Depends (static), the files of
# run_package_deb.sh, and the archive's binary.
for pair in amd64:x86_64 arm64:aarch64; do
    debian_arch=${pair%%:*} arch=${pair#*:}
    deb=$work/dist/ndplint_$version-1_$debian_arch.deb
    [ -f "$deb" ] || continue
    [ "$(dpkg-deb -f "$deb" Architecture)" = "$debian_arch" ] ||
        fail "$(basename "$deb"): Architecture is '$(dpkg-deb -f "$deb" Architecture)'"
    [ -z "$(dpkg-deb -f "$deb" Depends)" ] ||
        fail "$(basename "$deb"): Depends '$(dpkg-deb -f "$deb" Depends)' (static: none)"
    dpkg-deb -c "$deb" | awk '$1 ~ /^-/ { print $NF }' | LC_ALL=C sort \
        > "$work/deb-files-$arch"
    LC_ALL=C sort "$src/tests/packaging/deb-files.txt" > "$work/deb-expected"
    cmp -s "$work/deb-expected" "$work/deb-files-$arch" ||
        fail "$(basename "$deb") holds other files (- missing, + extra):
$(diff -u "$work/deb-expected" "$work/deb-files-$arch" | sed -n '4,$p')"
    mkdir "$work/deb-$arch" && dpkg-deb -x "$deb" "$work/deb-$arch" ||
        fail "$(basename "$deb") does not unpack"
done

for arch in x86_64 aarch64; do
    name=ndplint-$version-linux-$arch
    archive=$work/dist/$name.tar.gz
    [ -f "$archive" ] || { fail "$name.tar.gz is missing"; continue; }
    tar -tzf "$archive" | grep -v '/$' | LC_ALL=C sort > "$work/files-$arch"
    LC_ALL=C sort > "$work/expected-$arch" <<EOF
$name/LICENSE
$name/bin/ndplint
$name/share/bash-completion/completions/ndplint
$name/share/doc/ndplint/copyright
$name/share/fish/vendor_completions.d/ndplint.fish
$name/share/man/man1/ndplint.1
$name/share/man/man5/ndplint.json.5
$name/share/zsh/vendor-completions/_ndplint
EOF
    cmp -s "$work/expected-$arch" "$work/files-$arch" ||
        fail "$name.tar.gz holds other files (- missing, + extra):
$(diff -u "$work/expected-$arch" "$work/files-$arch" | sed -n '4,$p')"
    mkdir "$work/$arch" && tar -xzf "$archive" -C "$work/$arch" ||
        fail "$name.tar.gz does not unpack"
done
x86=$work/x86_64/ndplint-$version-linux-x86_64/bin/ndplint
arm=$work/aarch64/ndplint-$version-linux-aarch64/bin/ndplint
[ -x "$x86" ] && [ -x "$arm" ] || {
    echo "release_build: a binary is missing; $failed failed"
    exit 1
}

for pair in x86_64:"$x86" aarch64:"$arm"; do
    arch=${pair%%:*} bin=${pair#*:}
    cmp -s "$bin" "$work/deb-$arch/usr/bin/ndplint" ||
        fail "the $arch package's /usr/bin/ndplint is not the archive's binary"
done
kind_x86=$(file -b "$x86")
kind_arm=$(file -b "$arm")
case $kind_x86 in
*x86-64*"statically linked"*) ;;
*) fail "file says of the x86_64 binary: $kind_x86" ;;
esac
case $kind_arm in
*aarch64*"statically linked"*) ;;
*) fail "file says of the aarch64 binary: $kind_arm" ;;
esac

# The aarch64 binary under qemu, by a wrapper run_golden.sh can call.
printf '#!/bin/sh\nexec qemu-aarch64-static "%s" "$@"\n' "$arm" > "$work/arm"
chmod +x "$work/arm"
for bin in "$x86" "$work/arm"; do
    first=$(LC_ALL=C "$bin" --version | head -n 1)
    [ "$first" = "ndplint $version" ] ||
        fail "'$bin --version' says '$first', not 'ndplint $version'"
done

# Every golden case with both binaries, through run_golden.sh (which
# compares each with the recorded report), each run's output kept
# (NDP_GOLDEN_OUT) and compared with the other's.  The two passes run side
# by side, one per processor (the test has two).
unset NDP_UPDATE_GOLDEN
golden_pass() { # arch program: $work/runs/ARCH/CASE/{out,err,exit,log}
    for case_dir in "$src"/tests/golden/*/; do
        case_dir=${case_dir%/}
        keep=$work/runs/$1/$(basename "$case_dir")
        mkdir -p "$keep"
        NDP_GOLDEN_OUT=$keep sh "$src/tests/scripts/run_golden.sh" \
            "$2" "$case_dir" "$src" > "$keep/log" 2>&1 || : > "$keep/failed"
    done
}
golden_pass x86_64 "$x86" &
x86_pass=$!
golden_pass aarch64 "$work/arm"
wait "$x86_pass"
same=0 differ=0 golden_failed=0
for case_dir in "$src"/tests/golden/*/; do
    case_name=$(basename "$case_dir")
    x=$work/runs/x86_64/$case_name a=$work/runs/aarch64/$case_name
    for arch in x86_64 aarch64; do
        if [ -e "$work/runs/$arch/$case_name/failed" ]; then
            golden_failed=$((golden_failed + 1))
            fail "golden $case_name: the $arch release binary's report is not" \
                 "the recorded one:"
            head -20 "$work/runs/$arch/$case_name/log"
        fi
    done
    if cmp -s "$x/out" "$a/out" && cmp -s "$x/err" "$a/err" &&
       cmp -s "$x/exit" "$a/exit"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
        fail "golden $case_name: the aarch64 binary's report differs:"
        diff -u "$x/out" "$a/out" | head -20
        diff -u "$x/err" "$a/err" | head -10
        echo "exit: $(cat "$x/exit") on x86_64, $(cat "$a/exit") on aarch64"
    fi
done
[ "$same" -gt 0 ] || fail "no golden case ran"

if [ "$failed" != 0 ]; then
    echo "release_build: $failed failed ($differ golden cases differ" \
         "between the architectures, $golden_failed runs differ from the record)"
    exit 1
fi
echo "release_build: built in $built s; both statically linked" \
     "($(wc -c < "$x86") and $(wc -c < "$arm") bytes stripped);" \
     "$same golden cases byte-identical on aarch64 (qemu) and x86_64," \
     "in $(($(date +%s) - started - built)) s"

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The Debian package (cmake/package.cmake), built as docs/install.md says
# for a package that uses Debian's libraries: a build of its own in a
# temporary directory, configured with -DNDP_STATIC=OFF -DNDP_TESTS=OFF
# while pkg-config sees only json-c and PCRE2 (so it also
# proves that building without tests needs no cmocka), then
# 'cpack -G DEB'.  Checks that 'dpkg-deb -c' lists exactly the program, the
# two man pages, the three completions and the copyright file (no test
# program, no ndplint-rulec), that 'dpkg-deb -I' names the maintainer,
# section, homepage and description and Depends on libjson-c and
# libpcre2-8, and that the packed program runs and prints the package's
# version.  Skipped (77) when dpkg-deb or dpkg-shlibdeps (dpkg-dev) is
# missing.
#   usage: run_package_deb.sh SOURCE_DIR CMAKE CPACK GENERATOR CC WERROR
set -u
src=$1 cmake=$2 cpack=$3 generator=$4 cc=$5 werror=$6
failed=0
fail() {
    echo "package_deb: $*"
    failed=$((failed + 1))
}

for tool in dpkg-deb dpkg-shlibdeps pkg-config; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "package_deb: $tool is not installed (sh ci/install-deps.sh" \
             "--validators): skipped"
        exit 77
    fi
done
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

# A pkg-config search path holding json-c and PCRE2 and nothing else.
mkdir "$work/pc"
for module in json-c libpcre2-8; do
    ln -s "$(pkg-config --variable=pcfiledir "$module")/$module.pc" \
        "$work/pc/$module.pc" || exit 1
done

if ! PKG_CONFIG_LIBDIR=$work/pc PKG_CONFIG_PATH='' \
     "$cmake" -S "$src" -B "$work/build" -G "$generator" \
         -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DNDP_STATIC=OFF -DNDP_TESTS=OFF -DNDP_WERROR="$werror" \
         > "$work/log" 2>&1 ||
   ! "$cmake" --build "$work/build" -j 2 >> "$work/log" 2>&1 ||
   ! (cd "$work/build" && "$cpack" -G DEB) >> "$work/log" 2>&1; then
    tail -40 "$work/log"
    echo "package_deb: configuring without cmocka, building or packing failed"
    exit 1
fi
set -- "$work"/build/*.deb
if [ $# != 1 ] || [ ! -f "$1" ]; then
    echo "package_deb: 'cpack -G DEB' made no single .deb: $*"
    exit 1
fi
deb=$1

# Regular files only: directories and their order do not matter.
dpkg-deb -c "$deb" | awk '$1 ~ /^-/ { print $NF }' | sort > "$work/files"
# The package's files, one a line (also the release's packages':
# run_release_build.sh).
sort "$src/tests/packaging/deb-files.txt" > "$work/expected"
if ! cmp -s "$work/expected" "$work/files"; then
    fail "the package holds other files than expected (- missing, + extra):"
    diff -u "$work/expected" "$work/files" | sed -n '4,$p'
fi

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = ndplint ] || fail "Package is '$(field Package)'"
for name in Maintainer Section Homepage Description; do
    [ -n "$(field "$name")" ] || fail "the control file has no $name"
done
depends=$(field Depends)
for library in 'libjson-c[0-9]' 'libpcre2-8-[0-9]'; do
    echo "$depends" | grep -q "$library" ||
        fail "Depends '$depends' names no $library package"
done
dpkg-deb -I "$deb" | grep -q '^ Depends: ' ||
    fail "'dpkg-deb -I' shows no Depends line"

# The packed program itself, unpacked: it runs and is the package's version.
dpkg-deb -x "$deb" "$work/root" || exit 1
version=$(field Version)
first=$(LC_ALL=C "$work/root/usr/bin/ndplint" --version | head -n 1)
[ "$first" = "ndplint ${version%-*}" ] ||
    fail "the packed ndplint says '$first', the package is version $version"

if [ "$failed" != 0 ]; then
    echo "package_deb: $failed failed"
    exit 1
fi
echo "package_deb: $(basename "$deb"): 7 files, Depends: $depends"

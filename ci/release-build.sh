#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds the release archives of ndplint, as the release workflow
# (.github/workflows/release.yml) does and ctest release_build checks:
# for each TARGET a static binary (-DNDP_STATIC=ON, Release, tests off),
# installed stripped with 'cmake --install --strip' into a directory named
# like the archive, with LICENSE beside it, and packed reproducibly (GNU
# tar: sorted names, owner 0, the mtime of the last commit; gzip -n):
#
#   ndplint-VERSION-OS-ARCH.tar.gz
#     ndplint-VERSION-OS-ARCH/bin/ndplint
#     ndplint-VERSION-OS-ARCH/share/man/man1/ndplint.1
#     ndplint-VERSION-OS-ARCH/share/man/man5/ndplint.json.5
#     ndplint-VERSION-OS-ARCH/share/bash-completion/completions/ndplint
#     ndplint-VERSION-OS-ARCH/share/zsh/vendor-completions/_ndplint
#     ndplint-VERSION-OS-ARCH/share/fish/vendor_completions.d/ndplint.fish
#     ndplint-VERSION-OS-ARCH/share/doc/ndplint/copyright
#     ndplint-VERSION-OS-ARCH/LICENSE
#
# and for a Linux target also the Debian package of that static build
# ('cpack -G DEB', cmake/package.cmake: no Depends, the files of
# 'dpkg-deb -c' in docs/install.md), ndplint_VERSION-1_amd64.deb or
# _arm64.deb; then writes SHA256SUMS (sha256sum's format) over every
# ndplint-*.tar.gz and ndplint_*.deb in OUT_DIR.  ci/install.sh reads
# these names.
#   TARGET   linux-x86_64    on Linux x86_64
#            linux-aarch64   on Linux aarch64, or cross-compiled on Debian
#                            x86_64 (cmake/toolchain-aarch64-linux-gnu.cmake:
#                            gcc-aarch64-linux-gnu, libjson-c-dev:arm64,
#                            libpcre2-dev:arm64, qemu-user-static; sh
#                            ci/install-deps.sh --cross installs them)
#            darwin-arm64, darwin-x86_64   on macOS of that architecture,
#                            json-c and PCRE2 from Homebrew's archives
#                            (checked by review only: no Mac here)
#   usage: ci/release-build.sh [-o OUT_DIR] TARGET...     (OUT_DIR: dist)
#          ci/release-build.sh -s OUT_DIR      (SHA256SUMS only)
#   CMAKE (default cmake), CPACK (default cpack), JOBS (default 2) and
#   NDP_WERROR (default ON) from the environment; the packages need
#   dpkg-shlibdeps (dpkg-dev).
set -eu

usage() {
    echo "usage: ci/release-build.sh [-o OUT_DIR] TARGET... | -s OUT_DIR" >&2
    echo "  TARGET: linux-x86_64 linux-aarch64 darwin-arm64 darwin-x86_64" >&2
    exit 2
}
die() {
    echo "release-build: $*" >&2
    exit 1
}

out=dist
sums_only=false
while getopts o:s: opt; do
    case $opt in
    o) out=$OPTARG ;;
    s) out=$OPTARG sums_only=true ;;
    *) usage ;;
    esac
done
shift $((OPTIND - 1))
if $sums_only; then [ $# = 0 ] || usage; else [ $# -gt 0 ] || usage; fi

mkdir -p "$out"
out=$(cd "$out" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
cmake=${CMAKE:-cmake}
cpack=${CPACK:-cpack}
jobs=${JOBS:-2}
werror=${NDP_WERROR:-ON}

sha256() { # FILE...: sha256sum's lines
    if command -v sha256sum >/dev/null 2>&1; then
        sha256sum "$@"
    else
        shasum -a 256 "$@"
    fi
}

write_sums() {
    (
        cd "$out"
        set --
        for f in ndplint-*.tar.gz ndplint_*.deb; do
            [ -f "$f" ] && set -- "$@" "$f"
        done
        [ $# -gt 0 ] || die "no ndplint-*.tar.gz or ndplint_*.deb in $out"
        sha256 "$@" | LC_ALL=C sort -k 2 > SHA256SUMS.tmp
        mv SHA256SUMS.tmp SHA256SUMS
        echo "release-build: $out/SHA256SUMS: $# files"
    )
}

if $sums_only; then
    write_sums
    exit 0
fi

version=$(sed -n 's/^project(ndplint VERSION \([0-9.]*\).*/\1/p' \
    "$src/CMakeLists.txt")
[ -n "$version" ] || die "no version in $src/CMakeLists.txt project()"

tar=tar
command -v gtar >/dev/null 2>&1 && tar=gtar
"$tar" --version 2>/dev/null | grep -q 'GNU tar' ||
    die "GNU tar is needed for reproducible archives (macOS: brew install gnu-tar)"
# The archives' times: the last commit's, or SOURCE_DATE_EPOCH.
epoch=${SOURCE_DATE_EPOCH:-$(git -C "$src" log -1 --format=%ct 2>/dev/null || echo 0)}

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

host_os=$(uname -s)
host_arch=$(uname -m)

# configure TARGET BUILD_DIR: cmake's configure step for TARGET on this host.
configure() {
    target=$1 build=$2
    set -- -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
        -DNDP_STATIC=ON -DNDP_TESTS=OFF -DNDP_WERROR="$werror"
    case $target/$host_os/$host_arch in
    linux-x86_64/Linux/x86_64 | linux-aarch64/Linux/aarch64 | \
        darwin-arm64/Darwin/arm64 | darwin-x86_64/Darwin/x86_64)
        "$cmake" "$@"
        ;;
    linux-aarch64/Linux/x86_64)
        for tool in aarch64-linux-gnu-gcc qemu-aarch64-static; do
            command -v "$tool" >/dev/null 2>&1 ||
                die "$tool is missing (sh ci/install-deps.sh --cross)"
        done
        [ -f /usr/lib/aarch64-linux-gnu/pkgconfig/json-c.pc ] ||
            die "libjson-c-dev:arm64 is missing (sh ci/install-deps.sh --cross)"
        PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig \
            PKG_CONFIG_PATH='' "$cmake" "$@" \
            -DCMAKE_TOOLCHAIN_FILE="$src/cmake/toolchain-aarch64-linux-gnu.cmake"
        ;;
    *)
        die "cannot build $target on $host_os $host_arch"
        ;;
    esac
}

for target in "$@"; do
    case $target in
    linux-x86_64 | linux-aarch64 | darwin-arm64 | darwin-x86_64) ;;
    *) die "unknown target '$target'" ;;
    esac
    name=ndplint-$version-$target
    build=$work/build-$target
    stage=$work/stage/$name
    log=$work/$target.log
    echo "release-build: $name: building"
    if ! configure "$target" "$build" > "$log" 2>&1 ||
       ! "$cmake" --build "$build" -j "$jobs" >> "$log" 2>&1 ||
       ! "$cmake" --install "$build" --prefix "$stage" --strip >> "$log" 2>&1
    then
        tail -40 "$log" >&2
        die "$name: configuring, building or installing failed"
    fi
    cp "$src/LICENSE" "$stage/LICENSE"
    (
        cd "$work/stage"
        "$tar" --sort=name --owner=0 --group=0 --numeric-owner \
            --mtime="@$epoch" --mode=u+rwX,go=rX --format=ustar -cf - "$name" |
            gzip -n -9 > "$out/$name.tar.gz.tmp"
    )
    mv "$out/$name.tar.gz.tmp" "$out/$name.tar.gz"
    echo "release-build: $out/$name.tar.gz"

    case $target in
    linux-x86_64) debian_arch=amd64 ;;
    linux-aarch64) debian_arch=arm64 ;;
    *) continue ;;
    esac
    if ! (cd "$build" && "$cpack" -G DEB \
            -D CPACK_DEBIAN_PACKAGE_ARCHITECTURE="$debian_arch" \
            -D CPACK_PACKAGE_DIRECTORY="$work/deb-$target") >> "$log" 2>&1
    then
        tail -20 "$log" >&2
        die "$name: 'cpack -G DEB' failed"
    fi
    set -- "$work/deb-$target"/ndplint_*_"$debian_arch".deb
    [ $# = 1 ] && [ -f "$1" ] || die "$name: cpack made no single .deb: $*"
    cp "$1" "$out/"
    echo "release-build: $out/$(basename "$1")"
done
write_sums

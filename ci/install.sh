#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs a released ndplint without compiling anything: downloads the
# archive for this machine's OS and architecture
# (ndplint-X.Y.Z-OS-ARCH.tar.gz, made by ci/release-build.sh) and the
# release's SHA256SUMS, checks the archive against its line there, and only
# then installs the program to $PREFIX/bin and its man pages to
# $PREFIX/share/man.  A checksum that does not match, a SHA256SUMS without
# the archive's line, a download that fails or a platform without an
# archive stops it with a message, before anything is installed; it never
# falls back to another archive or to a build.  The unpacked program must
# say it is ndplint X.Y.Z before it is installed.
#   usage: sh ci/install.sh VERSION          (0.1.0 or v0.1.0)
#   PREFIX               where to install (default /usr/local)
#   NDPLINT_RELEASE_URL  where the releases are; the files are read from
#                        $NDPLINT_RELEASE_URL/vX.Y.Z/ (default
#                        https://github.com/ndplint/ndplint/releases/download)
#   NDPLINT_ATTESTATION  auto (default): where a GitHub CLI with 'gh
#                        attestation' and a token (GH_TOKEN or GITHUB_TOKEN)
#                        are there, the archive's build provenance
#                        attestation must verify too, else the checksum
#                        alone decides and a line says so; require: it must
#                        verify (no gh or no token is an error); off: not
#                        checked
#   NDPLINT_CACHE_DIR    a folder the CI platform keeps between runs: the
#                        archive is kept there and taken from there next
#                        time, checked against the release's SHA256SUMS
#                        (downloaded every time) like a download; a kept
#                        archive that does not match is removed, said, and
#                        downloaded again
# Needs curl or wget, tar, gzip, and sha256sum or shasum.
set -eu

die() {
    echo "ndplint install: $*" >&2
    exit 1
}

[ $# = 1 ] || { echo "usage: sh ci/install.sh VERSION (e.g. 0.1.0)" >&2; exit 2; }
version=${1#v}
echo "$version" | grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+' ||
    { echo "ndplint install: '$1' is not X.Y.Z or vX.Y.Z" >&2; exit 2; }
base=${NDPLINT_RELEASE_URL:-https://github.com/ndplint/ndplint/releases/download}
base=${base%/}
prefix=${PREFIX:-/usr/local}
attestation=${NDPLINT_ATTESTATION:-auto}
case $attestation in
auto | require | off) ;;
*) echo "ndplint install: NDPLINT_ATTESTATION must be auto, require or off" >&2
   exit 2 ;;
esac

# The release's names for this platform: those of ci/release-build.sh.
os=$(uname -s)
machine=$(uname -m)
case $os/$machine in
Linux/x86_64 | Linux/amd64) platform=linux-x86_64 ;;
Linux/aarch64 | Linux/arm64) platform=linux-aarch64 ;;
Darwin/arm64 | Darwin/aarch64) platform=darwin-arm64 ;;
Darwin/x86_64) platform=darwin-x86_64 ;;
*)
    die "no release archive for $os $machine (there are linux-x86_64," \
        "linux-aarch64, darwin-arm64 and darwin-x86_64); build from source:" \
        "docs/install.md"
    ;;
esac
name=ndplint-$version-$platform
url=$base/v$version

if command -v curl >/dev/null 2>&1; then
    fetch() { curl -fsSL --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
    fetch() { wget -q -O "$2" "$1"; }
else
    die "neither curl nor wget is installed"
fi
if command -v sha256sum >/dev/null 2>&1; then
    sha256() { sha256sum "$1" | cut -d ' ' -f 1; }
elif command -v shasum >/dev/null 2>&1; then
    sha256() { shasum -a 256 "$1" | cut -d ' ' -f 1; }
else
    die "neither sha256sum nor shasum is installed: cannot verify the archive"
fi

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

fetch "$url/SHA256SUMS" "$work/SHA256SUMS" ||
    die "cannot download $url/SHA256SUMS (is v$version released?)"

# Its line: 'HASH  NAME' (or 'HASH *NAME', sha256sum's binary mode).
expected=$(awk -v n="$name.tar.gz" '$2 == n || $2 == "*" n { print $1 }' \
    "$work/SHA256SUMS")
[ -n "$expected" ] ||
    die "SHA256SUMS of v$version has no line for $name.tar.gz: not installed"
echo "$expected" | grep -Eqx '[0-9a-f]{64}' ||
    die "SHA256SUMS of v$version has no valid checksum for $name.tar.gz: not installed"

# The archive: the one kept in NDPLINT_CACHE_DIR when it matches, else a
# download; either way nothing below runs unless it matches SHA256SUMS.
archive=$work/$name.tar.gz
kept=
from_cache=no
if [ -n "${NDPLINT_CACHE_DIR:-}" ]; then
    mkdir -p "$NDPLINT_CACHE_DIR" ||
        die "cannot create NDPLINT_CACHE_DIR $NDPLINT_CACHE_DIR"
    kept=$NDPLINT_CACHE_DIR/$name.tar.gz
    [ ! -L "$kept" ] || die "$kept is a symbolic link: not used, not installed"
    # Copied first and the copy checked: what is checked is what is used.
    if [ -f "$kept" ] && cp "$kept" "$archive" &&
        [ "$(sha256 "$archive")" = "$expected" ]; then
        from_cache=yes
        echo "ndplint install: $name.tar.gz from NDPLINT_CACHE_DIR," \
             "checked against SHA256SUMS"
    elif [ -f "$kept" ]; then
        echo "ndplint install: the $name.tar.gz in NDPLINT_CACHE_DIR does" \
             "not match SHA256SUMS: removed, downloading it again" >&2
        rm -f "$kept" "$archive" || die "cannot remove $kept"
    fi
fi
if [ $from_cache = no ]; then
    fetch "$url/$name.tar.gz" "$archive" ||
        die "cannot download $url/$name.tar.gz (no archive for $platform in v$version?)"
fi
actual=$(sha256 "$archive")
[ "$actual" = "$expected" ] ||
    die "checksum mismatch for $name.tar.gz: SHA256SUMS says $expected," \
        "the download is $actual; not installed (download it again; if it" \
        "still differs, report it)"

# The build provenance attestation the release workflow made, checked by
# GitHub's CLI where it can (it asks GitHub, so it needs a token).
can_attest() {
    command -v gh >/dev/null 2>&1 &&
        gh attestation verify --help >/dev/null 2>&1 &&
        [ -n "${GH_TOKEN:-}${GITHUB_TOKEN:-}" ]
}
if [ "$attestation" != off ]; then
    if can_attest; then
        gh attestation verify "$archive" --repo ndplint/ndplint \
            >/dev/null ||
            die "the build provenance attestation of $name.tar.gz does not" \
                "verify (gh attestation verify, above): not installed"
        echo "ndplint install: the build provenance attestation of" \
             "$name.tar.gz verifies"
    elif [ "$attestation" = require ]; then
        die "NDPLINT_ATTESTATION=require, but there is no GitHub CLI with" \
            "'gh attestation' or no GH_TOKEN / GITHUB_TOKEN: not installed"
    else
        echo "ndplint install: attestation not checked (no GitHub CLI with" \
             "'gh attestation', or no token); the checksum matched"
    fi
fi

tar -xzf "$archive" -C "$work" ||
    die "$name.tar.gz does not unpack"
[ -f "$work/$name/bin/ndplint" ] || die "$name.tar.gz holds no bin/ndplint"
unpacked=$("$work/$name/bin/ndplint" --version | head -n 1) || unpacked=
[ "$unpacked" = "ndplint $version" ] ||
    die "the ndplint of $name.tar.gz says '$unpacked', not 'ndplint $version':" \
        "not installed"

mkdir -p "$prefix/bin" "$prefix/share/man/man1" "$prefix/share/man/man5" ||
    die "cannot create the directories under $prefix (PREFIX; run as root?)"
# Copied beside the old program and renamed over it: a running ndplint
# keeps its file, and a copy that fails leaves the old one.
cp "$work/$name/bin/ndplint" "$prefix/bin/.ndplint.new" &&
    chmod 755 "$prefix/bin/.ndplint.new" &&
    mv -f "$prefix/bin/.ndplint.new" "$prefix/bin/ndplint" ||
    die "cannot write $prefix/bin/ndplint (PREFIX; run as root?)"
for page in man1/ndplint.1 man5/ndplint.json.5; do
    if [ -f "$work/$name/share/man/$page" ]; then
        cp "$work/$name/share/man/$page" "$prefix/share/man/$page" ||
            die "cannot write $prefix/share/man/$page"
    fi
done
# Kept for the next run only once it has proved itself.
if [ -n "$kept" ] && [ $from_cache = no ]; then
    cp "$archive" "$kept.new" && mv -f "$kept.new" "$kept" ||
        echo "ndplint install: could not keep $name.tar.gz in" \
             "NDPLINT_CACHE_DIR (installed all the same)" >&2
fi
echo "ndplint install: $unpacked in $prefix/bin ($name.tar.gz, sha256 $actual)"

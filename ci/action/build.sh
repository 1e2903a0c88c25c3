#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs or builds ndplint for the GitHub Action (action.yml at the
# repository root): which release to install or source to build, the
# cache key, and the install or build.  A release (the 'version' input
# names one, X.Y.Z or vX.Y.Z, or the action's own ref is a release tag:
# ci/release.sh wrote ci/action/RELEASE into the tagged commit) is
# installed by ci/install.sh, which downloads the archive for the runner,
# verifies it against the release's SHA256SUMS and never falls back to a
# build.  Anything else (a branch, a commit, 'install: source') is built,
# and then only the build dependencies are fetched: with apt on Linux,
# with Homebrew on macOS (the branch is $RUNNER_OS, which the runner sets).
#   build.sh source            reads INPUT_VERSION and INPUT_INSTALL;
#                              writes release=, checkout=, repository=,
#                              ref= and dir= to $GITHUB_OUTPUT
#   build.sh key SRC           writes key=release-X.Y.Z (NDP_RELEASE set)
#                              or key=<runner image>-<hash of SRC's sources
#                              and of this script> to $GITHUB_OUTPUT
#   build.sh build DIR SRC     leaves DIR/ndplint (kept when it already
#                              runs, and is NDP_RELEASE when that is set):
#                              NDP_RELEASE installed, or SRC built
set -euo pipefail
action_src=$(cd "$(dirname "$0")/../.." && pwd)
self=$action_src/ci/action/build.sh
# Where the source named by the 'version' input is checked out, under the
# workspace (actions/checkout writes nowhere else); removed after the build.
checkout_dir=.ndplint-action-source
default_repository=ndplint/ndplint

# One workflow command: '%', CR and LF in the message escaped as the
# toolkit does, so an input's text cannot start a command of its own.
die() {
    local msg=$*
    msg=${msg//%/%25} msg=${msg//$'\r'/%0D} msg=${msg//$'\n'/%0A}
    echo "::error title=ndplint action::$msg"
    exit 2
}

# version '' installs the release the action's ref is (ci/action/RELEASE)
# or builds the action's own files; 'X.Y.Z' or 'vX.Y.Z' installs that
# release; another 'REF' or 'OWNER/REPO@REF' names a tag, branch or commit
# for actions/checkout to fetch and build.  install 'source' always builds
# (a release's tag is then checked out).
choose_source() {
    local version=${INPUT_VERSION:-} install=${INPUT_INSTALL:-}
    local repository=$default_repository ref release=""
    case $install in
    '' | release | source) ;;
    *) die "install: '$install' is not release or source" ;;
    esac
    if [ "$install" != source ]; then
        if [[ $version =~ ^v?[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
            release=${version#v}
        elif [ -z "$version" ] && [ -f "$action_src/ci/action/RELEASE" ]; then
            release=$(tr -d ' \r\n' < "$action_src/ci/action/RELEASE")
            [[ $release =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] ||
                die "ci/action/RELEASE of the action holds '$release', not X.Y.Z"
        fi
    fi
    if [ -n "$release" ]; then
        printf 'release=%s\ncheckout=false\nrepository=\nref=\ndir=%s\n' \
            "$release" "$action_src" >> "${GITHUB_OUTPUT:?}"
        return 0
    fi
    [ "$install" != release ] ||
        die "install: release needs a version X.Y.Z or a release tag as the action's ref"
    if [ -z "$version" ]; then
        printf 'release=\ncheckout=false\nrepository=\nref=\ndir=%s\n' \
            "$action_src" >> "${GITHUB_OUTPUT:?}"
        return 0
    fi
    ref=$version
    case $version in
    */*@*) repository=${version%@*} ref=${version##*@} ;;
    esac
    [[ $repository =~ ^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$ ]] ||
        die "version: '$repository' is not OWNER/REPOSITORY"
    [[ $ref =~ ^[A-Za-z0-9_./-]+$ ]] ||
        die "version: '$ref' is not a tag, branch or commit"
    printf 'release=\ncheckout=true\nrepository=%s\nref=%s\ndir=%s\n' "$repository" \
        "$ref" "${GITHUB_WORKSPACE:?}/$checkout_dir" >> "${GITHUB_OUTPUT:?}"
}

# The hash of every file the build reads (names and contents) and of this
# script.  The image is in the key too, because the binary links the
# image's json-c, PCRE2 and C library; self-hosted runners have no ImageOS.
source_key() {
    local src=$1 sha=(sha256sum) paths=() p hash
    command -v sha256sum >/dev/null 2>&1 || sha=(shasum -a 256)
    for p in CMakeLists.txt cmake src rules; do
        [ -e "$src/$p" ] && paths+=("$p")
    done
    hash=$( { (cd "$src" && find "${paths[@]}" -type f -print | LC_ALL=C sort |
                  xargs "${sha[@]}"); "${sha[@]}" < "$self"; } |
            "${sha[@]}" | cut -c1-16)
    echo "${ImageOS:-self-hosted}-$hash"
}

have_build_tools() {
    command -v cmake >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 &&
        pkg-config --exists json-c libpcre2-8 2>/dev/null
}

install_apt() {
    local missing="" p sudo=""
    command -v apt-get >/dev/null 2>&1 ||
        die "no apt-get: install cmake, pkg-config, a C compiler, json-c and PCRE2 on this runner"
    for p in gcc make cmake pkg-config libjson-c-dev libpcre2-dev; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
            grep -q "install ok installed" || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "ndplint: installing build dependencies with apt:$missing"
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        --no-install-recommends $missing
}

# The libraries also when cmake is there: a cached binary needs them to run.
install_brew() {
    local missing="" p
    command -v brew >/dev/null 2>&1 ||
        die "no Homebrew: install cmake, pkg-config, json-c and pcre2 on this runner"
    for p in json-c pcre2; do
        brew list --versions "$p" >/dev/null 2>&1 || missing="$missing $p"
    done
    command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
    command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
    [ -z "$missing" ] && return 0
    echo "ndplint: installing build dependencies with Homebrew:$missing"
    # shellcheck disable=SC2086
    HOMEBREW_NO_AUTO_UPDATE=1 HOMEBREW_NO_INSTALL_CLEANUP=1 brew install $missing
}

install_deps() {
    case ${RUNNER_OS:-$(uname -s)} in
    Linux) have_build_tools || install_apt ;;
    macOS | Darwin) install_brew ;;
    *) die "runs on Linux and macOS runners, not ${RUNNER_OS:-$(uname -s)}" ;;
    esac
}

cached_build_runs() {
    "$1/ndplint" --version >/dev/null 2>&1
}

# The release NDP_RELEASE through ci/install.sh (NDPLINT_RELEASE_URL, when
# set, is where it downloads from), into DIR/ndplint.
install_release() {
    local out=$1 version=$2 first
    first=$("$out/ndplint" --version 2>/dev/null | head -n 1) || first=
    if [ "$first" = "ndplint $version" ]; then
        echo "ndplint: using the cached ndplint $version"
        return 0
    fi
    rm -rf "$out/prefix"
    mkdir -p "$out"
    PREFIX=$out/prefix sh "$action_src/ci/install.sh" "$version" ||
        die "ndplint $version was not installed (above); set 'install: source' to build it instead"
    cp "$out/prefix/bin/ndplint" "$out/ndplint"
    rm -rf "$out/prefix"
}

build() {
    local out=$1 src=$2
    if [ -n "${NDP_RELEASE:-}" ]; then
        install_release "$out" "$NDP_RELEASE"
        return
    fi
    if cached_build_runs "$out"; then
        echo "ndplint: using the cached build"
        return 0
    fi
    install_deps
    if cached_build_runs "$out"; then
        echo "ndplint: using the cached build (its libraries installed)"
        return 0
    fi
    cmake -S "$src" -B "$out/cmake" -DNDP_TESTS=OFF \
          -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$out/cmake" -j "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" >/dev/null
    cp "$out/cmake/ndplint" "$out/ndplint"
    rm -rf "$out/cmake"
    "$out/ndplint" --version
}

case "${1:-}" in
source) choose_source ;;
key)
    if [ -n "${NDP_RELEASE:-}" ]; then
        key=release-$NDP_RELEASE
    else
        [ -f "${2:?usage: build.sh key SRC}/CMakeLists.txt" ] ||
            die "no ndplint source in '$2'"
        key=$(source_key "$2")
    fi
    echo "key=$key" >> "${GITHUB_OUTPUT:?}"
    ;;
build) build "${2:?usage: build.sh build DIR SRC}" "${3:?usage: build.sh build DIR SRC}" ;;
*) echo "usage: build.sh source | key SRC | build DIR SRC" >&2; exit 2 ;;
esac

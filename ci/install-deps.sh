#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian packages ndplint needs to build and test, if missing.
# Used by ci/setup-and-run.sh, ci/test.sh and .ci/run; safe to run again.
# With --validators (ci/test.sh) also the checkers of the CI reports:
# pre-commit, xmllint, cmark-gfm (tests/scripts/run_hostile_outputs.sh) and
# python3-jsonschema (tests/scripts/run_gitlab_validate.sh), file and
# dpkg-dev (dpkg-shlibdeps: run_static_build.sh, run_package_deb.sh) from
# Debian, node/npm when missing, and the npm
# packages @microsoft/sarif-multitool and @action-validator/cli, pinned,
# in build-tools/ (ignored by git; tests/CMakeLists.txt NDP_TOOLS_DIR).
# With --cross (ci/test.sh) on Debian amd64 also what the release build
# needs (ci/release-build.sh, ctest release_build): the arm64 architecture
# added to dpkg, gcc-aarch64-linux-gnu, libjson-c-dev:arm64,
# libpcre2-dev:arm64, qemu-user-static, file and dpkg-dev (the packages),
# and podman (ctest container_image).
#   usage: ci/install-deps.sh [--validators] [--cross]
set -eu
validators=false
cross=false
for option in "$@"; do
    case $option in
    --validators) validators=true ;;
    --cross) cross=true ;;
    *)
        echo "usage: ci/install-deps.sh [--validators] [--cross]" >&2
        exit 2
        ;;
    esac
done
packages="gcc make cmake pkg-config libjson-c-dev libpcre2-dev libcmocka-dev
python3 python3-dateutil"
$validators &&
    packages="$packages git pre-commit libxml2-utils valgrind cmark-gfm
        mandoc bash zsh fish python3-jsonschema python3-yaml file dpkg-dev"
add_arm64=false
if $cross; then
    if [ "$(dpkg --print-architecture)" = amd64 ]; then
        packages="$packages file dpkg-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross
            qemu-user-static libjson-c-dev:arm64 libpcre2-dev:arm64 podman"
        dpkg --print-foreign-architectures | grep -qx arm64 || add_arm64=true
    else
        echo "ndplint: --cross: the cross build runs on Debian amd64, not" \
             "$(dpkg --print-architecture); ctest release_build will skip" >&2
    fi
fi
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if $validators && ! command -v npm >/dev/null 2>&1; then
    missing="$missing nodejs npm"
fi

npm_tools() {
    tools=$(cd "$(dirname "$0")/.." && pwd)/build-tools
    mt=$tools/node_modules/@microsoft/sarif-multitool
    av=$tools/node_modules/@action-validator/cli
    if ! grep -qs '"version": "5.7.0"' "$mt/package.json" ||
       ! grep -qs '"version": "0.6.0"' "$av/package.json"; then
        echo "ndplint: installing the npm validators into $tools"
        mkdir -p "$tools"
        npm install --prefix "$tools" --no-audit --no-fund --loglevel=error \
            @microsoft/sarif-multitool@5.7.0 @action-validator/cli@0.6.0
    fi
    # npm does not run the package's postinstall, which sets this bit.
    chmod u+x "$tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
}

if [ -z "$missing" ]; then
    if $validators; then npm_tools; fi
    exit 0
fi
echo "ndplint: installing Debian packages:$missing"
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1; then
    sudo="sudo"
else
    echo "ndplint: run as root or install sudo to install:$missing" >&2
    exit 1
fi
if $add_arm64; then
    $sudo dpkg --add-architecture arm64
fi
$sudo apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
if $validators; then npm_tools; fi

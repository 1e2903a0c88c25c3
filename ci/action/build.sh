#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds ndplint for the composite action (ci/action/action.yml) from the
# action's own checkout: the only things it fetches are the Debian/Ubuntu
# build dependencies, through apt.
#   build.sh key        writes key=<hash of the sources> to $GITHUB_OUTPUT
#   build.sh build DIR  leaves DIR/ndplint (kept when it already runs)
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)

source_key() {
    (cd "$src" && find CMakeLists.txt cmake src rules -type f -print |
        LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)
}

install_deps() {
    local missing="" p sudo=""
    for p in gcc make cmake pkg-config libjson-c-dev libpcre2-dev; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
            grep -q "install ok installed" || missing="$missing $p"
    done
    [ -z "$missing" ] && return 0
    [ "$(id -u)" = 0 ] || sudo=sudo
    echo "ndplint: installing build dependencies:$missing"
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
        --no-install-recommends $missing
}

build() {
    local out=$1
    if "$out/ndplint" --version >/dev/null 2>&1; then
        echo "ndplint: using the cached build: $("$out/ndplint" --version)"
        return 0
    fi
    install_deps
    cmake -S "$src" -B "$out/cmake" -DNDP_TESTS=OFF \
          -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$out/cmake" -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
    cp "$out/cmake/ndplint" "$out/ndplint"
    rm -rf "$out/cmake"
    "$out/ndplint" --version
}

case "${1:-}" in
key) echo "key=$(source_key)" >> "${GITHUB_OUTPUT:?}" ;;
build) build "${2:?usage: build.sh build DIR}" ;;
*) echo "usage: build.sh key | build DIR" >&2; exit 2 ;;
esac

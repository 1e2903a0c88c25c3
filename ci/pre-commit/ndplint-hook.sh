#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Entry of the 'ndplint' and 'ndplint-config' pre-commit hooks
# (.pre-commit-hooks.yaml): runs ndplint with the hook's arguments
# ('--check-config' for ndplint-config) and the files pre-commit passes.
# It uses $NDPLINT when set; else it builds ndplint once from this checkout
# of the hook repository (the rev pinned in .pre-commit-config.yaml) into
# build-pre-commit/ beside it; else, when the build tools are missing, an
# 'ndplint' on PATH.
set -eu
repo=$(cd "$(dirname "$0")/../.." && pwd)
bin=$repo/build-pre-commit/ndplint

if [ -n "${NDPLINT:-}" ]; then
    exec "$NDPLINT" "$@"
fi
if [ ! -x "$bin" ]; then
    if command -v cmake >/dev/null 2>&1 && command -v pkg-config >/dev/null 2>&1 &&
        pkg-config --exists json-c libpcre2-8; then
        # One build at a time, even if pre-commit starts the hook twice:
        # the lock directory holds the builder's PID; a lock whose builder
        # is gone (a killed build) is taken over, as is one left without
        # a PID for 10 seconds (killed between mkdir and writing it).
        lock=$repo/build-pre-commit.lock
        nopid=0
        while ! mkdir "$lock" 2>/dev/null; do
            owner=$(cat "$lock/pid" 2>/dev/null || :)
            if [ -n "$owner" ]; then
                nopid=0
                if ! kill -0 "$owner" 2>/dev/null; then
                    echo "ndplint: taking over the build lock of" \
                        "process $owner, which is gone" >&2
                    rm -rf "$lock"
                    continue
                fi
            else
                nopid=$((nopid + 1))
                if [ "$nopid" -ge 10 ]; then
                    rm -rf "$lock"
                    nopid=0
                    continue
                fi
            fi
            sleep 1
        done
        echo $$ > "$lock/pid"
        trap 'rm -rf "$lock"' EXIT
        if [ ! -x "$bin" ]; then
            echo "ndplint: building ndplint for pre-commit (once)" >&2
            cmake -S "$repo" -B "$repo/build-pre-commit/cmake" -DNDP_TESTS=OFF \
                -DCMAKE_BUILD_TYPE=Release >/dev/null
            cmake --build "$repo/build-pre-commit/cmake" >/dev/null
            cp "$repo/build-pre-commit/cmake/ndplint" "$bin"
        fi
        rm -rf "$lock"
        trap - EXIT
    elif command -v ndplint >/dev/null 2>&1; then
        exec ndplint "$@"
    else
        echo "ndplint: cannot build ndplint (needs cmake, pkg-config, a C" \
            "compiler, json-c and PCRE2 development files) and no ndplint" \
            "is on PATH; install one, or set NDPLINT to the binary" >&2
        exit 2
    fi
fi
exec "$bin" "$@"

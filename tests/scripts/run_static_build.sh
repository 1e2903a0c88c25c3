#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The static binary, which a build with the default NDP_STATIC (AUTO,
# cmake/static.cmake) makes where the static archives are installed, as
# ci/install-deps.sh installs them: built in a temporary directory of its
# own with -DNDP_TESTS=OFF and no NDP_STATIC option, 'file' must call it
# statically linked (no interpreter, no shared library), and every golden
# case (tests/golden/*) must pass with it, as it passes with the ordinary
# build.  Skipped (77) when 'file' is missing.
#   usage: run_static_build.sh SOURCE_DIR CMAKE GENERATOR CC WERROR
set -u
src=$1 cmake=$2 generator=$3 cc=$4 werror=$5

if ! command -v file >/dev/null 2>&1; then
    echo "static_build: file is not installed (sh ci/install-deps.sh" \
         "--validators): skipped"
    exit 77
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

if ! "$cmake" -S "$src" -B "$work/build" -G "$generator" \
         -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
         -DNDP_TESTS=OFF -DNDP_WERROR="$werror" \
         > "$work/log" 2>&1 ||
   ! "$cmake" --build "$work/build" -j 2 >> "$work/log" 2>&1; then
    tail -40 "$work/log"
    echo "static_build: configuring or building with the default options failed"
    exit 1
fi
ndplint=$work/build/ndplint

kind=$(file -b "$ndplint")
case $kind in
    *"statically linked"*) ;;
    *)
        echo "static_build: file says: $kind"
        echo "static_build: $ndplint is not statically linked"
        exit 1
        ;;
esac

# The expectations are the ordinary build's; this run never rewrites them.
unset NDP_UPDATE_GOLDEN
failed=0 passed=0
for case_dir in "$src"/tests/golden/*/; do
    case_dir=${case_dir%/}
    if sh "$src/tests/scripts/run_golden.sh" "$ndplint" "$case_dir" "$src" \
          > "$work/golden" 2>&1; then
        passed=$((passed + 1))
    else
        head -20 "$work/golden"
        failed=$((failed + 1))
    fi
done
if [ "$failed" != 0 ] || [ "$passed" = 0 ]; then
    echo "static_build: $failed of $((passed + failed)) golden cases failed" \
         "with the static binary"
    exit 1
fi
echo "static_build: statically linked; $passed golden cases passed"

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# README step 2: build with warnings as errors and run the whole test suite
# with ctest (with the packaging tests: the Debian package and the static
# binary), then again under AddressSanitizer + UndefinedBehaviorSanitizer,
# then the tests and golden commands under valgrind, then once more built
# with the POSIX fallback of every Linux-only call (-DNDP_PORTABLE=ON: the
# code a macOS or BSD build runs).
set -eu
cd "$(dirname "$0")/.."
sh ci/install-deps.sh --validators
jobs=$(nproc 2>/dev/null || echo 2)
# Tests whose result does not depend on how this build was configured run
# in the first build only: precommit_hook builds its own ndplint through
# the hook (a Release build, whatever this one is), and standins runs the
# script tests with /bin/true and /bin/false in place of ndplint.
same_everywhere='^(precommit_hook|standins)$'

# NDP_PACKAGING_TESTS: also the ctests package_deb (the .deb from
# 'cpack -G DEB') and static_build (-DNDP_STATIC=ON over the golden cases).
cmake -S . -B build -DNDP_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DNDP_PACKAGING_TESTS=ON >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")

cmake -S . -B build-asan -DNDP_WERROR=ON -DNDP_SANITIZE=ON \
      -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --output-on-failure -j "$jobs" -E "$same_everywhere")

# Once more under valgrind memcheck: unit tests, corpus replays and every
# golden command, with zero errors and zero leaks.
sh ci/valgrind.sh build

# The fallbacks a macOS or BSD build takes, compiled for POSIX.1-2008
# alone, with the whole suite (ctest portable_config checks the switch).
cmake -S . -B build-portable -DNDP_WERROR=ON -DNDP_PORTABLE=ON \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-portable -j "$jobs"
(cd build-portable && ctest --output-on-failure -j "$jobs" -E "$same_everywhere")

#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# README step 2: build with warnings as errors and run the whole test suite
# with ctest, then again under AddressSanitizer + UndefinedBehaviorSanitizer,
# then the tests and golden commands under valgrind.
set -eu
cd "$(dirname "$0")/.."
sh ci/install-deps.sh --validators
jobs=$(nproc 2>/dev/null || echo 2)

cmake -S . -B build -DNDP_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")

cmake -S . -B build-asan -DNDP_WERROR=ON -DNDP_SANITIZE=ON \
      -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --output-on-failure -j "$jobs")

# Once more under valgrind memcheck: unit tests, corpus replays and every
# golden command, with zero errors and zero leaks.
sh ci/valgrind.sh build

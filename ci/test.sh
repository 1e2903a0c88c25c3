#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# README step 2: build with warnings as errors and run the whole test suite
# with ctest (with the packaging tests: the Debian package and the static
# binary), then again under AddressSanitizer + UndefinedBehaviorSanitizer,
# then the tests, the corpus replays and a golden case per reader and per
# reporter under valgrind, then, built with the POSIX fallback of every
# Linux-only call (-DNDP_PORTABLE=ON: the code a macOS or BSD build runs),
# the tests whose code that changes.  docs/development.md ("What runs
# where") says why each build runs what it runs.
set -eu
cd "$(dirname "$0")/.."
sh ci/install-deps.sh --validators --cross
jobs=$(nproc 2>/dev/null || echo 2)
started=$(date +%s)
stage_start=$started
stage() { # name: the time the stage that ends here took
    now=$(date +%s)
    echo "ci/test.sh: $1 took $((now - stage_start)) s"
    stage_start=$now
}

# 1. Every test (ctest labels: tests/CMakeLists.txt).  NDP_PACKAGING_TESTS:
# also the ctests package_deb (the .deb from 'cpack -G DEB') and
# static_build (the default static binary over the golden cases).  This
# build links the shared libraries (NDP_STATIC=OFF): valgrind (step 3)
# sees the heap only through the C library's shared malloc.
cmake -S . -B build -DNDP_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DNDP_STATIC=OFF -DNDP_PACKAGING_TESTS=ON >/dev/null
cmake --build build -j "$jobs"
(cd build && ctest --output-on-failure -j "$jobs")
stage "the build and every test"

# 2. Under ASan + UBSan, every test but those labelled 'once', whose result
# does not depend on how ndplint was built: precommit_hook (the hook's
# build and pre-commit's handling of the hook) and standins (/bin/true and
# /bin/false in place of the programs).
cmake -S . -B build-asan -DNDP_WERROR=ON -DNDP_SANITIZE=ON \
      -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-asan -j "$jobs"
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --output-on-failure -j "$jobs" -LE '^once$')
stage "ASan + UBSan"

# 3. Under valgrind memcheck, with zero errors and zero leaks: the unit
# tests, corpus replays, stream_check, every fixture through a pipe, and
# the golden cases labelled 'valgrind' in tests/golden/labels.txt.
sh ci/valgrind.sh build
stage "valgrind"

# 4. The fallbacks a macOS or BSD build takes, compiled for POSIX.1-2008
# alone: everything is built (a Linux-only call outside src/util/compat.c
# stops the build), and the tests labelled 'portable' run (ctest
# portable_config checks the switch, on a program that imports what it
# calls from the shared C library: NDP_STATIC=OFF).
cmake -S . -B build-portable -DNDP_WERROR=ON -DNDP_PORTABLE=ON \
      -DNDP_STATIC=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-portable -j "$jobs"
(cd build-portable && ctest --output-on-failure -j "$jobs" -L '^portable$')
stage "the portable build"
echo "ci/test.sh: passed in $(($(date +%s) - started)) s"

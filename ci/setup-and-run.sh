#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# README step 1: install what is missing, build ndplint, and run it on the
# bundled example plan.  The example is judged at a fixed instant so that
# it always shows the same verdicts; drop --at to judge it now.
set -eu
cd "$(dirname "$0")/.."
sh ci/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc 2>/dev/null || echo 2)" >/dev/null
echo "built build/ndplint; running it on fixtures/example-plan.json:"
echo
status=0
./build/ndplint --at 2026-12-05T12:00:00Z fixtures/example-plan.json || status=$?
echo
echo "exit status $status (0 clean, 1 findings at or above --fail-on, 2 unreadable input)"

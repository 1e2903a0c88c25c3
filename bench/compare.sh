#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The benchmark of docs/performance.md: ndplint against wc -l, cat | wc -l,
# /bin/true and jq on generated 240 MB plans (compact and indented), an
# indented what-if result and fixtures/example-plan.json, printed as a
# Markdown table with each target and whether it is met; with
# '--against REV' the same for ndplint built at another commit, run in
# turn with this build.  Not a test: it asserts nothing.  See
# bench/compare.py for the rows; with --variant, this build also runs with
# VAR=VALUE in its environment in the same rounds.
#   usage: sh bench/compare.sh [--against REV] [--variant LABEL:VAR=VALUE]
#                              [--runs N] [--size-mb MB]
#   NDPLINT  the program to measure (default build/ndplint)
set -eu
exec python3 "$(dirname "$0")/compare.py" "$@"

#!/usr/bin/env bash
# The README's test command: installs dependencies, builds with warnings as errors, runs every
# test (unit + CLI golden), then builds again with ASan+UBSan and re-runs the unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
BUILD_DIR=build scripts/build.sh -DMSDUMP_WERROR=ON
(cd build && ctest --output-on-failure)
BUILD_DIR=build-asan BUILD_TYPE=Debug scripts/build.sh -DMSDUMP_WERROR=ON -DMSDUMP_SANITIZE=ON -DMSDUMP_BENCH=OFF
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure)

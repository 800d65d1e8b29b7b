#!/usr/bin/env bash
# The README's test command (and CI's): installs dependencies, builds with warnings as errors,
# runs every test (unit, CLI golden, convert goldens, sample acceptance, verify mutations, crash
# safety, and the README's Slurm and GNU parallel examples, which start a one-node Slurm cluster
# on localhost and so need root), builds again with ASan+UBSan (-O2 -g, warnings not fatal
# there: at -O2 with sanitizers g++ 12 reports maybe-uninitialized inside libstdc++'s std::regex)
# and re-runs the unit tests, then runs each libFuzzer target for MSDUMP_FUZZ_SECONDS (default
# 60) from its committed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --with-fuzz --with-torch --with-scheduler --with-qemu
# portable_qemu=ON: the portable binary is checked under qemu as CPUs without AVX (fails without qemu)
BUILD_DIR=build scripts/build.sh -DMSDUMP_WERROR=ON -DMSDUMP_PORTABLE_TEST=ON
(cd build && ctest --output-on-failure)
BUILD_DIR=build-asan BUILD_TYPE=RelWithDebInfo scripts/build.sh -DMSDUMP_SANITIZE=ON -DMSDUMP_BENCH=OFF
(cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -R unit)
scripts/fuzz.sh "${MSDUMP_FUZZ_SECONDS:-60}"

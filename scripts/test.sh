#!/usr/bin/env bash
# The README's test command (and CI's): installs dependencies, builds with warnings as errors,
# runs every test (unit, CLI golden, convert goldens, sample acceptance, verify mutations, crash
# safety, and the README's Slurm and GNU parallel examples, which start a one-node Slurm cluster
# on localhost and so need root), builds again with ASan+UBSan (-O1 -g; warnings not fatal
# there: at -O2 with sanitizers g++ 12 reports maybe-uninitialized inside libstdc++'s std::regex)
# and runs the tests that start msdump again against the sanitized binaries (all but those
# labelled asan_skip, which reach no C++ the others do not: CMakeLists.txt), builds the threaded
# code with ThreadSanitizer and runs the tests labelled `threaded` (cmake -DMSDUMP_TSAN=ON), then
# runs each libFuzzer target for MSDUMP_FUZZ_SECONDS (default 30) from its committed corpus.
# Ends with each step's duration and, last, one line 'test.sh: N passed, 0 failed' over every
# ctest run.
#
# CI kills the run at 90 minutes on 2 cores, and the aim is 45. What keeps it there: the sanitizer
# trees build only what their tests run (no benchmarks, no valijson reference validator and its
# differential tests, which the release tree runs; the TSan tree's msdump_tests holds the
# threaded test files only, MSDUMP_THREADED_TESTS_ONLY), at -O1 (an ASan+UBSan object at -O2
# costs about 1.5 times the compile time); ctest runs two tests at a time (most run one
# single-threaded process at a time, so two keep both cores busy); under sanitizers the
# crash-safety test runs fewer fixed-seed trials (CMakeLists.txt); each fuzz target runs 30 s.
# ccache is left out: a fresh clone's cache is empty and no two build trees here compile an
# object with the same flags.
set -euo pipefail
cd "$(dirname "$0")/.."
ctest_jobs=${MSDUMP_CTEST_JOBS:-2}
summary_dir=$(mktemp -d "${TMPDIR:-/tmp}/msdump-test.XXXXXX")
trap 'finish $?' EXIT

# Step timing: `mark NAME` ends the step before it and starts NAME.
step_names=()
step_seconds=()
step_start=$SECONDS
mark() {
  if [ ${#step_names[@]} -gt 0 ]; then step_seconds+=($((SECONDS - step_start))); fi
  step_names+=("$1")
  step_start=$SECONDS
  echo "test.sh: -- $1"
}
duration() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
finish() {
  local rc=$1 i
  step_seconds+=($((SECONDS - step_start)))
  echo
  for i in "${!step_names[@]}"; do
    printf 'test.sh: %-22s %s\n' "${step_names[$i]}" "$(duration "${step_seconds[$i]}")"
  done
  if [ "$rc" -eq 0 ]; then
    # The tests of every ctest run, in the plain 'N passed, N failed' form.
    awk -v took="$(duration $SECONDS)" '$1 == "fuzz" { fuzz = $2 " targets, " $3 " crashes"; next }
      { total += $2; runs = runs sep $1 " " $2; sep = ", " }
      END { print "test.sh: ctest runs " runs "; fuzz: " fuzz "; took " took
            print "test.sh: " total " passed, 0 failed" }' \
      "$summary_dir/summary"
  else
    echo "test.sh: FAILED (exit $rc) in step '${step_names[-1]}' after $(duration $SECONDS)"
  fi
  rm -rf "$summary_dir"
}
# Runs ctest in build directory $2 with the remaining arguments; keeps the number of tests it ran
# (after $1) for the final summary.
run_ctest() {
  local label=$1 dir=$2
  shift 2
  (cd "$dir" && ctest --output-on-failure -j "$ctest_jobs" "$@") | tee "$summary_dir/ctest.log"
  echo "$label $(sed -n 's/^100% tests passed, 0 tests failed out of \([0-9]*\)$/\1/p' "$summary_dir/ctest.log")" \
    >>"$summary_dir/summary"
}

mark "install deps"
scripts/install-deps.sh --with-fuzz --with-torch --with-scheduler --with-reference --with-qemu
mark "release build"
# portable_qemu=ON: the portable binary is checked under qemu as CPUs without AVX (fails without qemu)
BUILD_DIR=build scripts/build.sh -DMSDUMP_WERROR=ON -DMSDUMP_PORTABLE_TEST=ON
mark "release tests"
run_ctest release build

mark "asan+ubsan build"
BUILD_DIR=build-asan BUILD_TYPE=RelWithDebInfo scripts/build.sh -DMSDUMP_SANITIZE=ON -DMSDUMP_BENCH=OFF \
  -DMSDUMP_REFERENCE_VALIDATOR=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG"
mark "asan+ubsan tests"
# The sanitizer options (findings fatal, exit code 86, leaks) are set on each test by
# CMakeLists.txt. Tests labelled no_msdump check generated files with Python only and would run
# exactly as in the release tree; those labelled asan_skip exercise no C++ the others do not.
run_ctest asan+ubsan build-asan -LE 'no_msdump|asan_skip'

mark "tsan build"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMSDUMP_TSAN=ON -DMSDUMP_BENCH=OFF \
  -DMSDUMP_REFERENCE_VALIDATOR=OFF -DMSDUMP_THREADED_TESTS_ONLY=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g -DNDEBUG" >/dev/null
grep -q '^MSDUMP_TSAN:BOOL=ON' build-tsan/CMakeCache.txt ||
  { echo "test.sh: cmake has no MSDUMP_TSAN option (cmake/Sanitizers.cmake)" >&2; exit 1; }
cmake --build build-tsan -j "$(nproc)" --target msdump msdump_tests
mark "tsan tests"
TSAN_OPTIONS=halt_on_error=1 run_ctest tsan build-tsan -L threaded --no-tests=error

mark "fuzz"
scripts/fuzz.sh "${MSDUMP_FUZZ_SECONDS:-30}" | tee "$summary_dir/fuzz.log"
# fuzz.sh's own last line counts the targets it ran (the build's output comes before the table).
sed -n 's/^fuzz\.sh: \([0-9]*\) targets, \([0-9]*\) crashed$/fuzz \1 \2/p' "$summary_dir/fuzz.log" \
  >>"$summary_dir/summary"
grep -q '^fuzz ' "$summary_dir/summary" || { echo "test.sh: no summary line from scripts/fuzz.sh" >&2; exit 1; }

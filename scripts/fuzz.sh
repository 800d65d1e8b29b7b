#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/) with clang + ASan/UBSan and runs each one, one after
# the other, for SECONDS_PER_TARGET seconds (default 30) from a temporary copy of its committed
# corpus (tests/fuzz/corpus/<target>/), so runs never modify the repository.
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET]
#
# Prints, per target, the executions run and the crashes found, then one summary line
# 'fuzz.sh: N targets, C crashed' (scripts/test.sh reads it); crash inputs are kept in
# $MSDUMP_FUZZ_OUT (default build-fuzz/findings/<target>/). Exits 1 if any target crashed
# (a crash, leak, timeout or out-of-memory report), 2 on a build failure.
# Environment: MSDUMP_FUZZ_BUILD (build directory, default build-fuzz), MSDUMP_FUZZ_JOBS
# (build parallelism, default 2), MSDUMP_FUZZ_TARGETS (space-separated subset).
set -euo pipefail

seconds="${1:-30}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -eq 0 ]; then
  echo "usage: $0 [SECONDS_PER_TARGET]" >&2
  exit 2
fi
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${MSDUMP_FUZZ_BUILD:-$root/build-fuzz}"
jobs="${MSDUMP_FUZZ_JOBS:-2}"
findings_root="${MSDUMP_FUZZ_OUT:-$build/findings}"
targets="${MSDUMP_FUZZ_TARGETS:-npy pt trace_line dump_json compare_pair}"

# The dump.json target runs the verifier's entry checks, so the whole library is built.
mkdir -p "$build"
if ! cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_COMPILER=clang++ -DMSDUMP_FUZZ=ON -DMSDUMP_SANITIZE=ON -DMSDUMP_BENCH=OFF -UMSDUMP_LIB_DIRS \
      >"$build/configure.log" 2>&1; then
  cat "$build/configure.log" >&2
  exit 2
fi
fuzz_bins=()
for t in $targets; do fuzz_bins+=("fuzz_$t"); done
if ! cmake --build "$build" -j "$jobs" --target "${fuzz_bins[@]}"; then
  exit 2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/msdump-fuzz-XXXXXX")"
trap 'rm -rf "$work"' EXIT

failed=0
ran=0
crashed=0
printf '%-12s %12s %8s\n' target executions crashes
for t in $targets; do
  corpus="$work/$t/corpus"
  findings="$findings_root/$t"
  mkdir -p "$corpus" "$findings"
  cp -R "$root/tests/fuzz/corpus/$t/." "$corpus/"
  log="$work/$t/fuzz.log"
  set +e
  "$build/fuzz/fuzz_$t" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1
  rc=$?
  set -e
  # libFuzzer's last "#N DONE" line (or stat::number_of_executed_units) holds the executions.
  execs="$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)"
  if [ -z "$execs" ]; then execs="$(sed -n 's/^#\([0-9]*\)[[:space:]].*DONE.*/\1/p' "$log" | tail -n 1)"; fi
  if [ -z "$execs" ]; then execs="$(sed -n 's/^#\([0-9]*\)[[:space:]].*/\1/p' "$log" | tail -n 1)"; fi
  # libFuzzer stops at the first crash, so a run finds 0 or 1; any non-zero exit is one.
  crashes=0
  if [ "$rc" -ne 0 ] || grep -qE '^==[0-9]+==ERROR|^SUMMARY: [A-Za-z]+Sanitizer|ERROR: libFuzzer' "$log"; then
    crashes=1
  fi
  printf '%-12s %12s %8s\n' "$t" "${execs:-0}" "$crashes"
  ran=$((ran + 1))
  crashed=$((crashed + crashes))
  if [ "$crashes" -ne 0 ]; then
    failed=1
    cp "$log" "$findings/fuzz.log"
    echo "  fuzz_$t failed (exit $rc); log and inputs in $findings/" >&2
    grep -E '^==[0-9]+==ERROR|^SUMMARY|ERROR: libFuzzer|^artifact_prefix|Test unit written' "$log" | head -n 5 >&2
  fi
done
echo "fuzz.sh: $ran targets, $crashed crashed"
exit "$failed"

#!/usr/bin/env bash
# The portable binary gives the same output on every CPU: runs `msdump stats` (statistics and
# md5 summaries), `convert` of a capture and `verify` of a tensor dump on bundled data natively,
# natively with each lower SIMD tier forced (MSDUMP_SIMD), and under qemu-x86_64 as a Nehalem
# (no AVX, no PCLMULQDQ: the sse2 tier), a Westmere (SSE4.2 + PCLMULQDQ: the sse4.2 tier) and a
# Haswell (the avx2 tier), then compares every
# output byte for byte with the native run. Fails when qemu-x86_64 is missing
# (scripts/install-deps.sh --with-qemu installs it).
#   run_qemu.sh MSDUMP_BINARY
set -uo pipefail
MSDUMP=$(realpath "$1")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
QEMU=${QEMU_X86_64:-qemu-x86_64}
if ! command -v "$QEMU" >/dev/null; then
  echo "FAIL: $QEMU not found (scripts/install-deps.sh --with-qemu)"
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
V="$SRC/testdata/captures/pytorch_values"
T="$SRC/testdata/msprobe/current/cnn_L1_tensor_all/step0/rank0"
tensors=("$V"/*.pt "$V"/*.npy "$T/dump_tensor_data/Functional.conv2d.1.forward.input.2.pt"
         "$SRC/testdata/good/tensors/f64.npy" "$SRC/testdata/good/tensors/bf16_300.pt"
         "$SRC/testdata/good/tensors/written/w_i8_70000.pt")

# run LABEL [RUNNER...]: every output of the label's run in $work/LABEL, exit codes included.
run() {
  local label=$1 dir="$work/$1"
  shift
  mkdir -p "$dir"
  (
    cd "$dir" || exit 99
    "$@" "$MSDUMP" stats --format json "${tensors[@]}" >stats.json 2>stats.err; echo "exit $?" >>stats.json
    "$@" "$MSDUMP" stats --format json --summary-mode md5 "${tensors[@]}" >md5.json 2>md5.err; echo "exit $?" >>md5.json
    "$@" "$MSDUMP" convert "$V" -o conv --quiet >convert.out 2>&1; echo "exit $?" >>convert.out
    "$@" "$MSDUMP" verify "$T" --report json --jobs 1 >verify.json 2>verify.err; echo "exit $?" >>verify.json
    "$@" "$MSDUMP" -vv stats "$V/a.pt" 2>&1 >/dev/null | grep -o 'SIMD kernels: [a-z0-9.]*' >tier.txt
    # qemu's notes on CPU features its emulator lacks are not msdump's output
    sed -i '/^qemu-x86_64: /d' ./*.err convert.out
  )
}

run native
run native_avx2 env MSDUMP_SIMD=avx2
run native_sse2 env MSDUMP_SIMD=sse2
run qemu_nehalem "$QEMU" -cpu Nehalem
run qemu_haswell "$QEMU" -cpu Haswell
run qemu_westmere "$QEMU" -cpu Westmere

fail=0
expect_tier() {
  if ! grep -qx "SIMD kernels: $2" "$work/$1/tier.txt"; then
    echo "FAIL $1: expected the $2 kernels, log says '$(cat "$work/$1/tier.txt")'"
    fail=1
  fi
}
expect_tier native_sse2 sse2
expect_tier native_avx2 avx2
expect_tier qemu_nehalem sse2
expect_tier qemu_haswell avx2
expect_tier qemu_westmere sse4.2
if [ "$(grep -c '"dtype"' "$work/native/stats.json")" -lt 10 ] || ! grep -q '^exit 0$' "$work/native/verify.json"; then
  echo "FAIL native: stats or verify did not run (see below)"
  head -c 2000 "$work/native/stats.json" "$work/native/stats.err" "$work/native/verify.json"
  fail=1
fi
for label in native_avx2 native_sse2 qemu_nehalem qemu_haswell qemu_westmere; do
  if diff -r "$work/native" "$work/$label" --exclude=tier.txt >"$work/$label.diff"; then
    echo "ok   $label: identical to native"
  else
    echo "FAIL $label differs from native:"
    head -40 "$work/$label.diff"
    fail=1
  fi
done
exit $fail

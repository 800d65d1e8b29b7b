#!/usr/bin/env bash
# The README's main command: installs what is needed, builds, and runs msdump's two jobs on
# bundled data:
#   1. convert the capture testdata/captures/tiny_mix into an msprobe dump, then verify it;
#   2. verify a bundled broken dump (a Mean 1 % off its tensor file) and show the report;
#   3. compare two real msprobe dumps of one model whose NPU run has a shifted bias, and show
#      where the runs part ways (the tables go to OUT/compare/).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh >/dev/null
out=${1:-demo-out}
run() { echo; echo "\$ $*"; "$@"; }
run build/msdump convert testdata/captures/tiny_mix -o "$out/tiny_mix" --force --task tensor
run head -n 24 "$out/tiny_mix/dump.json"
echo
run build/msdump verify "$out/tiny_mix"
set +e
run build/msdump verify testdata/mutations/mean_off_by_1pct \
  --tensors testdata/good/msprobe/cnn_L0_tensor_all_step0/dump_tensor_data
rc=$?
set -e
echo "(exit code $rc: 1 = findings, as a CI gate sees it)"
[ "$rc" -eq 1 ]
set +e
run build/msdump compare testdata/compare/cnn_bias_log/L1_statistics/npu testdata/compare/cnn_bias_log/L1_statistics/bench \
  -o "$out/compare"
rc=$?
set -e
echo "(exit code $rc: 1 = error rows, the tables are in $out/compare/)"
[ "$rc" -eq 1 ]

# Tensor mode (both sides' .pt files read), JSON report: the first difference and divergence of the planted bug.
P="$SRC/testdata/compare/cnn_bug_vs_ref"
"$MSDUMP" compare "$P/L1_tensor/npu/step0/rank0" "$P/L1_tensor/bench/step0/rank0" -o out --report json | sed -E 's/_[0-9]{14}\./_<TS>./'

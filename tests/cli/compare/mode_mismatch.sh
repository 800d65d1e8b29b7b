# A statistics dump against a tensor dump: no table, exit 2.
P="$SRC/testdata/compare/cnn_bug_vs_ref"
"$MSDUMP" compare "$P/mix_statistics/npu/step0/rank0/dump.json" "$P/L1_tensor/bench/step0/rank0/dump.json" -o out
echo "exit $?"
ls out 2>&1 | head -1

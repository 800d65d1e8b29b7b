# A dump.json against a directory: exit 2.
P="$SRC/testdata/compare/cnn_bug_vs_ref/mix_statistics"
"$MSDUMP" compare "$P/npu/step0/rank0/dump.json" "$P/bench/step0/rank0" -o out

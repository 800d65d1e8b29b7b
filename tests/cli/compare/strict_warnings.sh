# Warning rows pass by default and fail with --strict.
P="$SRC/testdata/compare/cnn_bug_vs_ref/mix_statistics"
"$MSDUMP" compare "$P/npu/step0/rank0" "$P/bench/step0/rank0" -o out -q; echo "default: exit $?"
"$MSDUMP" compare "$P/npu/step0/rank0" "$P/bench/step0/rank0" -o out -q --strict; echo "--strict: exit $?"

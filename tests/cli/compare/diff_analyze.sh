# --diff-analyze writes msprobe's -da file; on the sample it is msprobe's own, byte for byte.
P="$SRC/testdata/compare/cnn_2rank"
"$MSDUMP" compare "$P/L1_statistics/npu/step0" "$P/L1_statistics/bench/step0" -o out -q --diff-analyze
echo "exit $?"
cmp out/diff_analyze_*.json "$P"/msprobe/L1_statistics.step0.dir-da/diff_analyze_*.json && echo "diff_analyze file identical to msprobe's"

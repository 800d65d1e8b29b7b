# A dump.json pair of the cnn_bug_vs_ref sample (mix, statistics): the table is msprobe's own, byte for byte.
P="$SRC/testdata/compare/cnn_bug_vs_ref"
"$MSDUMP" compare "$P/mix_statistics/npu/step0/rank0/dump.json" "$P/mix_statistics/bench/step0/rank0/dump.json" -o out | sed -E 's/_[0-9]{14}\./_<TS>./'
echo "exit $?"
ls out | sed -E 's/_[0-9]{14}\./_<TS>./'
cmp out/compare_result_*.csv "$P"/msprobe/mix_statistics.step0/compare_result_*.csv && echo "table identical to msprobe's"

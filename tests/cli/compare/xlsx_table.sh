# --xlsx writes one workbook per pair instead of a CSV.
P="$SRC/testdata/compare/cnn_bug_vs_ref/mix_statistics"
"$MSDUMP" compare "$P/npu/step0/rank0" "$P/bench/step0/rank0" -o out -q --xlsx; echo "exit $?"
ls out | sed -E 's/_[0-9]{14}\./_<TS>./'
head -c 2 out/*.xlsx; echo

# A rank present on one side only is a finding (exit 1), never skipped silently.
cp -r "$SRC/testdata/compare/cnn_2rank/L1_statistics/bench/step0" bench
rm -r bench/rank1
"$MSDUMP" compare "$SRC/testdata/compare/cnn_2rank/L1_statistics/npu/step0" bench -o out --report json | sed -E 's/_[0-9]{14}\./_<TS>./' | grep -A12 '"unpaired"'
echo "exit ${PIPESTATUS[0]}"

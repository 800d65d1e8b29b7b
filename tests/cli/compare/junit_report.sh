# --report junit: one testcase per rank pair, a failure where error rows are.
P="$SRC/testdata/compare/cnn_2rank/L1_tensor"
"$MSDUMP" compare "$P/npu/step0" "$P/bench/step0" -o out --report junit | sed -E 's/_[0-9]{14}\./_<TS>./; s/time="[0-9.]+"/time="T"/g'

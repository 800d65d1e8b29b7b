# A truncated NPU dump.json: the error names the file and line, the rows before it are still compared and written (exit 2).
P="$SRC/testdata/compare/cnn_bug_vs_ref/mix_statistics"
mkdir npu && head -c 9000 "$P/npu/step0/rank0/dump.json" >npu/dump.json
"$MSDUMP" compare npu/dump.json "$P/bench/step0/rank0/dump.json" -o out | sed -E 's/_[0-9]{14}\./_<TS>./'
echo "exit ${PIPESTATUS[0]}"
wc -l <out/compare_result_*.csv
# A syntax error inside an entry (its brackets complete): the message names the file's own line and column.
sed 's/"Max": 3.029174327850342/"Max": 3.0x/' "$P/npu/step0/rank0/dump.json" >npu/dump.json
"$MSDUMP" compare npu/dump.json "$P/bench/step0/rank0/dump.json" -o out2 -q
echo "exit $?"

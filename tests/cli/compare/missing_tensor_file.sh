# A tensor file missing on the bench side: its rows are `unsupported`, the problem names the file and entry (exit 2).
cp -r "$SRC/testdata/compare/cnn_bug_vs_ref/L1_tensor/bench/step0/rank0" bench
rm bench/dump_tensor_data/Functional.relu.1.forward.output.0.pt
"$MSDUMP" compare "$SRC/testdata/compare/cnn_bug_vs_ref/L1_tensor/npu/step0/rank0" bench -o out --threads 1 | sed -E 's/_[0-9]{14}\./_<TS>./'
echo "exit ${PIPESTATUS[0]}"
grep '^Functional.relu.1.forward.output.0,' out/*.csv | cut -d, -f1,9-14

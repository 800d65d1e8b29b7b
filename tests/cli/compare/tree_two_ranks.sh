# A tree of 2 steps x 2 ranks (npu under bf16 autocast): tables per step directory, the tree's answers last.
P="$SRC/testdata/compare/cnn_2rank/L1_statistics"
"$MSDUMP" compare "$P/npu" "$P/bench" -o out --jobs 2 2>/dev/null | sed -E 's/_[0-9]{14}\./_<TS>./'
echo "exit ${PIPESTATUS[0]}"
find out -type f | sort | sed -E 's/_[0-9]{14}\./_<TS>./'

# Two shards of a tree (whole steps each) and `report merge` of their batch reports: the merge equals an
# unsharded run's report but for the tables' time-stamped names.
P="$SRC/testdata/compare/cnn_2rank/L1_statistics"
for k in 0 1; do
  "$MSDUMP" compare "$P/npu" "$P/bench" -o out -q --shard $k/2 --batch-report r$k.json; echo "shard $k/2: exit $?"
done
grep -h '"key"' r0.json r1.json
"$MSDUMP" compare "$P/npu" "$P/bench" -o whole -q --batch-report whole.json
"$MSDUMP" report merge r0.json r1.json -o merged.json; echo "merge: exit $?"
diff <(grep -v '"output"' merged.json) <(grep -v '"output"' whole.json) && echo "merged report equals the unsharded one"

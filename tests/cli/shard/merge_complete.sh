# All 4 shards, given in any order, merge into the unsharded run's --batch-report byte for byte;
# the merge's exit code is the run's verdict (1: findings in step7/rank1).
cp -r "$SRC/testdata/trees/sharded_run" run42
"$MSDUMP" verify run42 --quiet --batch-report whole.json >/dev/null
for k in 0 1 2 3; do
  "$MSDUMP" verify run42 --shard $k/4 --jobs 2 --quiet --exit-zero-on-findings --batch-report reports/shard-$k.json >/dev/null || echo "shard $k: exit $?"
done
"$MSDUMP" report merge reports/shard-3.json reports/shard-1.json reports/shard-0.json reports/shard-2.json -o merged/run42.json
echo "merge: exit $?"
cmp whole.json merged/run42.json && echo "merged == unsharded --batch-report"
grep -A3 '"run"' merged/run42.json
grep '"shard"' merged/run42.json

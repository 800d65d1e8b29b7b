# merge refuses, naming the files, every set that is not exactly the shards of one run: a shard
# missing, a shard twice, another N, another run's options, another run's tree, an old report.
cp -r "$SRC/testdata/trees/sharded_run" run42
for k in 0 1 2 3; do "$MSDUMP" verify run42 --shard $k/4 --quiet --batch-report s$k.json >/dev/null; done
merge() { "$MSDUMP" report merge "$@" -o merged.json; echo "exit $?"; }
merge s0.json s1.json s3.json
merge s0.json s1.json
cp s1.json s1-again.json
merge s0.json s1.json s2.json s3.json s1-again.json
"$MSDUMP" verify run42 --shard 2/3 --quiet --batch-report n3.json >/dev/null
merge s0.json s1.json n3.json s3.json
"$MSDUMP" verify run42 --shard 2/4 --quiet --no-tensors --batch-report other-options.json >/dev/null
merge s0.json s1.json other-options.json s3.json
rm -r run42/step9/rank1
"$MSDUMP" verify run42 --shard 2/4 --quiet --batch-report other-tree.json >/dev/null
merge s0.json s1.json other-tree.json s3.json
sed -e 's/"msdump_batch_report": 2/"msdump_batch_report": 1/' s2.json >old.json
merge s0.json s1.json old.json s3.json
[ -e merged.json ] && echo "merged.json written" || echo "no merged.json"

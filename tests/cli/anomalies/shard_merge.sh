# Two shards of an anomalies run merge into exactly the unsharded run's batch report; a merge of
# one shard alone is refused.
cd "$SRC"
for k in 0 1; do
  "$MSDUMP" anomalies testdata/anomalies/tree --shard $k/2 --quiet --exit-zero-on-findings --batch-report "$OLDPWD/shard-$k.json" >/dev/null 2>&1
  echo "shard $k exit $?"
done
"$MSDUMP" anomalies testdata/anomalies/tree --quiet --batch-report "$OLDPWD/whole.json" >/dev/null 2>&1
echo "unsharded exit $?"
cd "$OLDPWD"
"$MSDUMP" report merge shard-1.json shard-0.json -o merged.json
echo "merge exit $?"
cmp merged.json whole.json && echo "merged == unsharded"
"$MSDUMP" report merge shard-0.json -o alone.json
echo "merge of one shard exit $?"

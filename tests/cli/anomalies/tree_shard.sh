# --shard 0/2 takes step0 (both ranks): no origin there.
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/tree --shard 0/2 --quiet

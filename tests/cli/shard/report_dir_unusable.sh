# A --batch-report whose directory cannot be made fails before any dump is verified (no verdict
# lines on stdout), not after the whole shard's work.
cp -r "$SRC/testdata/trees/sharded_run" run42
touch reports
"$MSDUMP" verify run42 --shard 0/4 --batch-report reports/shard-0.json

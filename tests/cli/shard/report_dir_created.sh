# The directories of --batch-report and of verify's -o are created when missing (shards of a
# Slurm array all write into a reports/ directory nobody made).
cp -r "$SRC/testdata/trees/sharded_run" run42
"$MSDUMP" verify run42 --shard 2/8 --quiet --batch-report reports/a/shard-2.json --report json -o out/b/verify.json
echo "exit $?"
find reports out -type f | sort

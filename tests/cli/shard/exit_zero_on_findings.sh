# --exit-zero-on-findings: a shard with findings exits 0 (a scheduler records it as done) while
# its batch report still carries the findings; without it, 1; items that could not be
# processed (here: the golden to compare with is missing) still exit 2 with it.
cp -r "$SRC/testdata/trees/sharded_run" run42
"$MSDUMP" verify run42 --shard 7/8 --quiet --exit-zero-on-findings --batch-report s7.json >/dev/null
echo "with: exit $?; $(grep -c '"status": "findings"' s7.json) item with findings in the report"
"$MSDUMP" verify run42 --shard 7/8 --quiet >/dev/null
echo "without: exit $?"
"$MSDUMP" verify run42 --shard 7/8 --quiet --exit-zero-on-findings --against missing/dump.json --batch-report s7.json >/dev/null 2>&1
echo "could not run: exit $?; $(grep -c '"status": "failed"' s7.json) failed items in the report"

# JSON report of the tree (step and rank per anomaly), and the batch report (no timings).
work=$PWD
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/tree --report json --batch-report "$work/batch.json"
rc=$?
cat "$work/batch.json"
exit $rc

# -o writes the report atomically; the terminal still gets one verdict line per dump.
work=$PWD
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/nan_grad --report json -o "$work/report.json"
rc=$?
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["summary"]["origins"], r["summary"]["first_backward_origin"]["entry"])' "$work/report.json"
exit $rc

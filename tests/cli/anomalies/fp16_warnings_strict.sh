# --strict: the same warnings fail (exit 1).
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/fp16_warnings --strict

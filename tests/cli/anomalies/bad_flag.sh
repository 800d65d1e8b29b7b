# An --overflow-fraction outside (0, 1]: a usage error.
"$MSDUMP" anomalies "$SRC/testdata/anomalies/fp16_warnings" --overflow-fraction 2

# A truncated dump.json: exit 2 with the file, line and column.
mkdir bad
head -c 600 "$SRC/testdata/anomalies/forward_mix/dump.json" >bad/dump.json
"$MSDUMP" anomalies bad

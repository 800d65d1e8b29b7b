# JSON report of the same model at L0 in tensor mode: module origins with exact counts from the .pt files.
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/forward_L0_tensor --report json

# --no-tensors: the same origins judged from the statistics alone (no counts).
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/forward_L0_tensor --no-tensors

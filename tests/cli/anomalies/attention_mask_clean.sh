# masked_fill(mask, -inf) before a softmax: the -inf is an argument (info), not an origin: exit 0.
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/attention_mask

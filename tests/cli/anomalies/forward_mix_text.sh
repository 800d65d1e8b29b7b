# Text report of the mix-level model: log of zeros, 1/0, 0/0 and a float16 overflow, each an origin inside its module.
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/forward_mix

# float16 outputs at 65504 and an overflowed float16 Mean/Norm: warnings, exit 0.
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/fp16_warnings

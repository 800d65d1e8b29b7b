# --overflow-fraction 0.01: the float16 output of torch.full (1000, 1.5% of 65504) is an overflow risk too.
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/fp16_warnings --overflow-fraction 0.01 --report json

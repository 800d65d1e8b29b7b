# A tree of two steps and two ranks: the first step with an origin, and an origin only rank 1 has.
cd "$SRC"
"$MSDUMP" anomalies testdata/anomalies/tree --jobs 2 --quiet

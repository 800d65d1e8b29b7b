# A real float32 leaf whose Mean, summed in float32, lies 2 ULP below Min: valid, exit 0.
cd "$SRC"
"$MSDUMP" verify testdata/good/rounding/float32_mean_below_min

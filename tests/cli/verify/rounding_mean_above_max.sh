# The same leaf with Mean 1% above Max, beyond what 12 float32 additions can explain: exit 1.
cd "$SRC"
"$MSDUMP" verify testdata/bad/mean_above_max_by_1pct

# JSON report of a dump whose Max and Min are swapped.
cd "$SRC"
"$MSDUMP" verify testdata/mutations/min_greater_than_max --report json

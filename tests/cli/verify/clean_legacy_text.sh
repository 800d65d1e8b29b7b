# A real legacy-profile dump (cut to 12 entries) verifies clean.
cd "$SRC"
"$MSDUMP" verify testdata/good/msprobe/legacy_mix_statistics_step0_cut/dump.json

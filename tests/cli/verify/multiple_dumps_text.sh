# Several paths in one run: a clean dump and one with a duplicate entry name; exit 1 for the run.
# (--quiet: no progress lines and no summary table, which carry timings)
cd "$SRC"
"$MSDUMP" verify testdata/good/msprobe/cnn_L0_tensor_all_step0 testdata/mutations/duplicate_entry_name --quiet

# --max-findings 2 keeps two findings and counts the rest.
cd "$SRC"
"$MSDUMP" verify testdata/good/msprobe/cnn_mix_md5_all_step1 --max-findings 2

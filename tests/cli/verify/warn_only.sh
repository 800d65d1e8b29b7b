# --warn-only checksum downgrades the md5 race errors to warnings: exit 0.
cd "$SRC"
"$MSDUMP" verify testdata/good/msprobe/cnn_mix_md5_all_step1 --warn-only checksum

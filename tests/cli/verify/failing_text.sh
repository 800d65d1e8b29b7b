# The real md5 dump with msprobe's in-place checksum race: five checksum errors, exit 1.
cd "$SRC"
"$MSDUMP" verify testdata/good/msprobe/cnn_mix_md5_all_step1

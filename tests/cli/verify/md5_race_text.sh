# The real md5 dump with msprobe's in-place checksum race: five checksum warnings, exit 0 (valid msprobe output).
cd "$SRC"
"$MSDUMP" verify testdata/good/msprobe/cnn_mix_md5_all_step1

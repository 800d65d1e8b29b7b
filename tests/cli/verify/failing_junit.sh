# JUnit report on stdout (time attributes normalized): a dump against a golden it has renamed an entry of.
work=$PWD
cd "$SRC"
"$MSDUMP" verify testdata/mutations/renamed_entry --against testdata/good/msprobe/cnn_L0_tensor_all_step0 \
  --report junit >"$work/stdout.xml"
rc=$?
sed -E 's/time="[0-9.]+"/time="T"/g' "$work/stdout.xml"
exit $rc

# JSON report written with -o: a wrong md5 found against the tensor files.
work=$PWD
cd "$SRC"
"$MSDUMP" verify testdata/mutations/md5_wrong --tensors testdata/good/msprobe/cnn_L0_tensor_all_step0/dump_tensor_data \
  --report json -o "$work/report.json"
rc=$?
cat "$work/report.json"
exit $rc

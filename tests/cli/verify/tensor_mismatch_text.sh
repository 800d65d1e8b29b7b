# Shape and 1-ULP Max defects found against the good dump's tensor files (text report).
cd "$SRC"
"$MSDUMP" verify testdata/mutations/shape_changed --tensors testdata/good/msprobe/cnn_L0_tensor_all_step0/dump_tensor_data
echo "exit $?"
"$MSDUMP" verify testdata/mutations/max_off_by_1ulp --tensors testdata/good/msprobe/cnn_L0_tensor_all_step0/dump_tensor_data

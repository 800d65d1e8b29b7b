# An unknown report format: usage error, exit 2.
"$MSDUMP" verify "$SRC/testdata/good/msprobe/cnn_L0_tensor_all_step0" --report xml

# A real L0 tensor dump verifies clean: the text report's summary line, exit 0.
cd "$SRC"
"$MSDUMP" verify testdata/good/msprobe/cnn_L0_tensor_all_step0

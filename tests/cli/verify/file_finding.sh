# Tensor files that cannot be read give "file" findings naming the file, the entry and the
# JSON path: a directory and a FIFO (nothing hangs) where tensor files should be, a link to a
# file outside the dump, and a data_name that leaves dump_tensor_data/.
cp -r "$SRC/testdata/good/msprobe/cnn_L0_tensor_all_step0" d || exit 99
cp d/dump_tensor_data/Module.fc.Linear.forward.0.output.0.pt outside.pt
cd d/dump_tensor_data
rm Module.conv1.Conv2d.forward.0.input.0.pt && mkdir Module.conv1.Conv2d.forward.0.input.0.pt
rm Module.conv1.Conv2d.forward.0.output.0.pt && mkfifo Module.conv1.Conv2d.forward.0.output.0.pt
rm Module.fc.Linear.forward.0.output.0.pt && ln -s ../../outside.pt Module.fc.Linear.forward.0.output.0.pt
cd ../..
sed -i 's#"data_name": "Module.relu.ReLU.forward.0.output.0.pt"#"data_name": "../dump.json"#' d/dump.json
"$MSDUMP" verify d

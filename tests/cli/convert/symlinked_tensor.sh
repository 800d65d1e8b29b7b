# A tensor file that is a symbolic link is an invalid input (exit 2) even when it points inside
# the input, for every task: files named by data_name or source.file are opened beneath the
# input directory without following links. Nothing is written for the refused run.
cp -r "$SRC/testdata/good/msprobe/cnn_L0_tensor_all_step0" d || exit 99
mv d/dump_tensor_data/Module.fc.Linear.forward.0.output.0.pt d/kept.pt || exit 99
ln -s ../kept.pt d/dump_tensor_data/Module.fc.Linear.forward.0.output.0.pt || exit 99
"$MSDUMP" convert d -o out --quiet --task tensor; echo "tensor: exit $?"
"$MSDUMP" convert d -o out2 --quiet --task statistics; echo "statistics: exit $?"
ls out/dump_tensor_data 2>/dev/null | grep -c Module.fc.Linear.forward.0.output
# A capture's source.file that is a link.
cp -r "$SRC/testdata/captures/tiny_mix" cap || exit 99
mv cap/t0.npy cap/real_t0.npy && ln -s real_t0.npy cap/t0.npy || exit 99
"$MSDUMP" convert cap -o out3 --quiet; echo "capture: exit $?"

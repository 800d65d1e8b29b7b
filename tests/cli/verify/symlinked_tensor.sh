# A tensor file that is a symbolic link is refused even when it points inside the dump: files
# named by data_name are opened beneath the dump's directory without following links. The
# dump's directory itself, given on the command line, may be a link.
cp -r "$SRC/testdata/good/msprobe/cnn_L0_tensor_all_step0" d || exit 99
mv d/dump_tensor_data/Module.fc.Linear.forward.0.output.0.pt d/kept.pt || exit 99
ln -s ../kept.pt d/dump_tensor_data/Module.fc.Linear.forward.0.output.0.pt || exit 99
ln -s d via || exit 99
"$MSDUMP" verify via

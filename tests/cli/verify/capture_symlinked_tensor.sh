# verify --capture converts the capture the way convert does: a source.file that is a symbolic
# link (here to a file inside the capture) is refused, naming the file, and verify stops as for
# any invalid input.
cp -r "$SRC/testdata/captures/tiny_mix" cap || exit 99
"$MSDUMP" convert cap -o out --quiet || exit 99
mv cap/t0.npy cap/real_t0.npy && ln -s real_t0.npy cap/t0.npy || exit 99
"$MSDUMP" verify out --capture cap --no-tensors

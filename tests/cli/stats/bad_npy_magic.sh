# A file that is neither a .pt zip nor an .npy: exit 2.
cd "$SRC/testdata/bad/tensors"
"$MSDUMP" stats npy_bad_magic.npy

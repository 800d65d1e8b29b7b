# A good file before a bad one: the good leaf is printed, then the error; exit 2.
cd "$SRC/testdata"
"$MSDUMP" stats good/tensors/f32.pt bad/tensors/storage_record_missing.pt

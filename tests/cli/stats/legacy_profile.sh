# The legacy profile writes integer statistics as floats and Mean/Norm for int64.
cd "$SRC/testdata/good/tensors"
"$MSDUMP" stats --profile legacy i64.pt scalar_i64.pt

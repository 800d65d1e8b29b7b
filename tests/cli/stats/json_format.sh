# --format json for the same kind of fixtures.
cd "$SRC/testdata/good/tensors"
"$MSDUMP" stats --format json f32.pt bool.pt scalar_i64.pt empty_2x0_i32.pt

# summary_mode xor in JSON.
cd "$SRC/testdata/good/tensors"
"$MSDUMP" stats --summary-mode xor --format json f32.pt i32.pt

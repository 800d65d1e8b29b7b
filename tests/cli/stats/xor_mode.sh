# summary_mode xor: the XOR checksum instead of statistics (0-dim float: the value itself).
cd "$SRC/testdata/good/tensors"
"$MSDUMP" stats --summary-mode xor f32.pt bool.pt scalar_f32.pt

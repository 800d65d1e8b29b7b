# summary_mode md5: statistics plus the CRC-32 of the tensor's bytes.
cd "$SRC/testdata/good/tensors"
"$MSDUMP" stats --summary-mode md5 f32.pt u8.pt bf16.pt

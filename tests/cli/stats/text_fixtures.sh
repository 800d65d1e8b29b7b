# Text leaves for a few committed tensor fixtures: float32, bfloat16, bool, 0-dim, empty, int64, float16 .npy.
cd "$SRC/testdata/good/tensors"
"$MSDUMP" stats f32.pt bf16.pt bool.pt scalar_f32.pt empty_2x0_f32.npy i64.pt f16.npy

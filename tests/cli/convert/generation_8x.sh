# Re-converting an msprobe 8.x dump keeps its form byte for byte: the un-numbered
# parameters_grad name, no is_recompute added (legacy profile detected from the input).
"$MSDUMP" convert "$SRC/testdata/generations/good/pytorch_8x_statistics" -o out --quiet; echo "exit $?"
cmp out/dump.json "$SRC/testdata/generations/good/pytorch_8x_statistics/dump.json" && echo "dump.json identical"
# The summary mode comes from the leaves' keys: a string value "md5" does not make it md5.
"$MSDUMP" convert "$SRC/testdata/generations/good/md5_word_in_value" -o md5 --quiet; echo "exit $?"
grep -c '"md5"' md5/dump.json
echo "converted to the current profile, the entry names stay as they are:"
"$MSDUMP" convert "$SRC/testdata/generations/good/pytorch_8x_statistics" -o cur --quiet --profile current; echo "exit $?"
grep -o '"Module[^"]*parameters_grad[^"]*"' cur/dump.json
echo "a tensor dump without its tensor files cannot be converted:"
"$MSDUMP" convert "$SRC/testdata/generations/good/pytorch_8x" -o tens --quiet; echo "exit $?"

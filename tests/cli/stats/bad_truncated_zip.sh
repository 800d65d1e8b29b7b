# A .pt whose zip is cut short: exit 2 with the reader's message.
cd "$SRC/testdata/bad/tensors"
"$MSDUMP" stats truncated_zip.pt

# Convert tiny_mix as a tensor dump: dump_tensor_data/ is written and dump.json verifies clean.
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o out --task tensor >log.txt
rc=$?
sed -E 's/in [0-9]+\.[0-9]+ s/in X.XX s/' log.txt
ls out out/dump_tensor_data
head -n 25 out/dump.json
"$MSDUMP" verify out || rc=$?
exit $rc

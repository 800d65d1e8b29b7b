# A capture whose last line was cut mid-write: a warning, the complete events converted, exit 1.
"$MSDUMP" convert "$SRC/testdata/captures/truncated" -o out >log.txt
rc=$?
sed -E 's/in [0-9]+\.[0-9]+ s/in X.XX s/' log.txt
head -n 12 out/dump.json
exit $rc

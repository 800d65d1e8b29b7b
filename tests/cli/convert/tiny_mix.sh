# Convert the tiny_mix capture; show the output files and the start of dump.json (timing normalized).
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o out >log.txt
rc=$?
sed -E 's/in [0-9]+\.[0-9]+ s/in X.XX s/' log.txt
ls out
head -n 40 out/dump.json
exit $rc

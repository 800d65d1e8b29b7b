# -o writes the text report to a file (nothing on stdout); the exit code still says "findings".
"$MSDUMP" verify "$SRC/testdata/mutations/min_greater_than_max" -o report.txt
rc=$?
echo "exit $rc"
cat report.txt
exit $rc

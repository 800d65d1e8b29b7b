# A trace event of an unknown kind is skipped with a warning (exit 0, dump written); --strict
# makes it an error that names the line (exit 2, no dump.json).
"$MSDUMP" convert "$SRC/testdata/bad/captures/unknown_kind" -o lax --quiet
echo "exit $?"; [ -f lax/dump.json ] && echo "lax/dump.json written"
"$MSDUMP" convert "$SRC/testdata/bad/captures/unknown_kind" -o strict --quiet --strict
echo "exit $?"; [ -f strict/dump.json ] || echo "no strict/dump.json"

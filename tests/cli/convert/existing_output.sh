# A second conversion into the same directory without --force refuses: exit 2; with --force it replaces.
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o out >/dev/null || exit 99
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o out
echo "exit $?"
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o out --force --quiet
echo "exit $?"
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o out

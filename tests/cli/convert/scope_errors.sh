# Bad scopes are usage errors (exit 2) naming the offending name and what was expected.
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o a --level L1 --scope Module.fc.Linear.forward.0 Functional.relu.0.forward
echo "exit $?"
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o b --scope relu Functional.relu.0.forward
echo "exit $?"
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o full --quiet || exit 99
"$MSDUMP" convert full -o c --scope Module.fc.Linear.forward.0 Functional.relu.0.forward
echo "exit $?"

# --capture converts the capture the way the dump was written: a dump converted at L1 is
# compared with an L1 conversion (not the capture's mix: no module entry is "missing"), and an
# md5 dump with an md5 conversion, so a changed md5 is found; a legacy dump with a legacy
# conversion (the int64 target's Mean/Norm are numbers there, null in the current profile).
C="$SRC/testdata/captures/tiny_mix"
"$MSDUMP" convert "$C" -o l1 --quiet --level L1 || exit 99
echo "== L1 dump of a mix capture"
"$MSDUMP" verify l1 --capture "$C"
echo "exit $?"
"$MSDUMP" convert "$C" -o md5 --quiet --summary-mode md5 || exit 99
sed -i '0,/"md5": "0cd350f6"/s//"md5": "deadbeef"/' md5/dump.json
echo "== md5 dump with one md5 changed"
"$MSDUMP" verify md5 --capture "$C"
echo "exit $?"
"$MSDUMP" convert "$C" -o legacy --quiet --profile legacy || exit 99
echo "== legacy dump"
"$MSDUMP" verify legacy --capture "$C"
echo "exit $?"

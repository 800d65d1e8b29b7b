# --scope replays msprobe's range over the capture's events: entries and the sections kept.
show() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["data"]
for k, v in d.items(): print(" ", k, ",".join(v))
' "$1/dump.json"; }
echo "mix, from an API to an API (the end API keeps only its inputs):"
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o mix --quiet --scope Functional.linear.0.forward Functional.relu.0.forward
echo "exit $?"; show mix
echo "L1, one backward name:"
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o l1 --quiet --level L1 --scope Functional.relu.0.backward
echo "exit $?"; show l1
echo "L0, from a module to a module:"
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o l0 --quiet --level L0 --scope Module.act.ReLU.forward.0 Module.fc.Linear.backward.0
echo "exit $?"; show l0
echo "an msprobe dump at L1 (API range over entries in file order):"
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o full --quiet || exit 99
"$MSDUMP" convert full -o redo --quiet --level L1 --scope Functional.linear.0.forward Functional.relu.0.forward
echo "exit $?"; show redo

# Dumps in the forms msprobe wrote up to 8.x verify clean (un-numbered parameters_grad, MSAdapter
# leaves with requires_grad, no is_recompute): the profile is decided from the forms (legacy).
cd "$SRC/testdata/generations/good"
for d in pytorch_8x mindspore_8x mindtorch_8x pytorch_8x_statistics; do
  "$MSDUMP" verify "$d"; echo "exit $?"
done
echo "the same with --profile legacy, and the JSON report's profile:"
"$MSDUMP" verify pytorch_8x --profile legacy; echo "exit $?"
"$MSDUMP" verify pytorch_8x --report json | python3 -c "import json, sys; print(json.load(sys.stdin)[\"summary\"][\"profile\"])"
echo "a MindSpore dump without parameters_grad carries no form of one generation: undetermined"
python3 -c '
import json, sys
d = json.load(open("mindspore_8x/dump.json"))
del d["data"]["Cell.conv2.Conv2d.parameters_grad"]
json.dump(d, open(sys.argv[1], "w"), indent=1)' "$OLDPWD/ms.json"
"$MSDUMP" verify "$OLDPWD/ms.json"; echo "exit $?"
"$MSDUMP" verify "$OLDPWD/ms.json" --report json | python3 -c "import json, sys; print(json.load(sys.stdin)[\"summary\"][\"profile\"])"

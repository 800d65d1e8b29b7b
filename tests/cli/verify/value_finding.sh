# A non-tensor value (the eps float argument of layer_norm) changed against a golden: one
# "value" finding with both values; the unchanged copy is clean.
"$MSDUMP" convert "$SRC/testdata/captures/pytorch_values" -o golden --quiet || exit 99
cp -r golden same && cp -r golden changed
sed -i '0,/"value": 1e-05/s//"value": 0.001/' changed/dump.json
"$MSDUMP" verify same --against golden
echo "exit $?"
"$MSDUMP" verify changed --against golden
echo "exit $?"

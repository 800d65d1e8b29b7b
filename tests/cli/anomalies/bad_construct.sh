# A construct.json that is not child -> parent: exit 2 naming the file and the key.
cp -r "$SRC/testdata/anomalies/forward_mix" dump
echo '{"Torch.log.0.forward": 3}' >dump/construct.json
"$MSDUMP" anomalies dump

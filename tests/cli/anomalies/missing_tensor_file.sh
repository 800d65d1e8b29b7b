# Tensor mode with a tensor file gone: exit 2 naming the file (--no-tensors still answers from the statistics).
cp -r "$SRC/testdata/anomalies/forward_L0_tensor" dump
rm dump/dump_tensor_data/Module.log_block.LogBlock.forward.0.output.0.pt
"$MSDUMP" anomalies dump
echo "exit $?"
"$MSDUMP" anomalies dump --no-tensors --report json | python3 -c 'import json, sys; print(json.load(sys.stdin)["summary"]["origins"])'

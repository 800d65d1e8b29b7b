# A MindSpore dump against a PyTorch golden: API names through the built-in table (MintFunctional.relu ->
# Functional.relu), Cell.* rows through --cell-mapping, MindSpore dtype names (Float32) against PyTorch's.
# The NPU side is the cnn_bug_vs_ref sample renamed as MindSpore writes it; verdicts equal the PyTorch pair's.
P="$SRC/testdata/compare/cnn_bug_vs_ref/mix_statistics"
mkdir npu
python3 - "$P/npu/step0/rank0/dump.json" npu/dump.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["framework"] = "mindspore"
def dtypes(v):
    if isinstance(v, dict):
        return {k: ({"torch.float32": "Float32", "torch.int64": "Int64"}.get(x, x) if k == "dtype" else dtypes(x)) for k, x in v.items()}
    return [dtypes(x) for x in v] if isinstance(v, list) else v
def name(k):
    for a, b in (("Functional.", "MintFunctional."), ("Module.", "Cell.")):
        if k.startswith(a): return b + k[len(a):]
    return k
d["data"] = {name(k): dtypes(v) for k, v in d["data"].items()}
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
"$MSDUMP" compare npu/dump.json "$P/bench/step0/rank0/dump.json" -o out --cell-mapping | sed -E 's/_[0-9]{14}\./_<TS>./'
echo "exit ${PIPESTATUS[0]}"

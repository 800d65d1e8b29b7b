# --precision high is msprobe's "precision": "high". Its current PyTorch writer then leaves
# Mean/Norm null for every non-scalar tensor (as msprobe does); the legacy one computes all
# statistics in float32, so float16 / bfloat16 leaves get Mean/Norm rounded to float32 instead
# of their own dtype. The leaves whose Mean or Norm differ from --precision low:
C="$SRC/testdata/captures/pytorch_stats"
for profile in current legacy; do
  "$MSDUMP" convert "$C" -o $profile-low --quiet --profile $profile || exit 99
  "$MSDUMP" convert "$C" -o $profile-high --quiet --profile $profile --precision high || exit 99
done
python3 - <<'PY'
import json
def leaves(v, path=""):
    if isinstance(v, dict) and "dtype" in v and "Mean" in v:
        yield path, v
    elif isinstance(v, dict):
        for k, x in v.items(): yield from leaves(x, f"{path}/{k}")
    elif isinstance(v, list):
        for i, x in enumerate(v): yield from leaves(x, f"{path}/{i}")
for profile in ("current", "legacy"):
    low, high = (json.load(open(f"{profile}-{p}/dump.json"))["data"] for p in ("low", "high"))
    print(f"== {profile}")
    changed = same = 0
    for (p, a), (_, b) in zip(leaves(low), leaves(high)):
        if (a["Mean"], a["Norm"]) == (b["Mean"], b["Norm"]): same += 1; continue
        changed += 1
        print(f"{p} {a['dtype']}: Mean {a['Mean']!r} -> {b['Mean']!r}, Norm {a['Norm']!r} -> {b['Norm']!r}")
    print(f"{changed} leaves changed, {same} the same")
PY

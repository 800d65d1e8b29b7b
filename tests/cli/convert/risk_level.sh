# A capture recording every call (header risk_level ALL, testdata/captures/risk_all: tiny_mix plus
# a low-risk Tensor.reshape) converts at msprobe's default FOCUS: reshape's data and stack go,
# its construct.json edges stay. ALL keeps it; CORE also drops linear, relu and cross_entropy
# (msprobe's sets). --list turns the filter off, as in msprobe.
C="$SRC/testdata/captures/risk_all"
names() { python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["data"]))' "$1/dump.json"; }
stacked() { python3 -c 'import json,sys; print(" ".join(n for g in json.load(open(sys.argv[1])).values() for n in g[0]))' "$1/stack.json"; }
edges() { grep -o '"Tensor.reshape[^"]*"' "$1/construct.json" | tr '\n' ' '; echo; }
for r in default FOCUS ALL CORE; do
  flag=(--risk-level "$r"); [ "$r" = default ] && flag=()
  "$MSDUMP" convert "$C" -o "$r" --quiet "${flag[@]}"; echo "$r: exit $?"
  echo "  dump: $(names "$r")"; echo "  stack: $(stacked "$r")"; echo "  construct: $(edges "$r")"
done
"$MSDUMP" convert "$C" -o listed --quiet --list reshape; echo "list: exit $?"
echo "  dump: $(names listed)"
# a capture without risk_level (tiny_mix) converts unfiltered unless asked
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o tiny --quiet; echo "tiny default: exit $?"
echo "  dump: $(names tiny)"
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o tiny_core --quiet --risk-level CORE; echo "tiny CORE: exit $?"
echo "  dump: $(names tiny_core)"

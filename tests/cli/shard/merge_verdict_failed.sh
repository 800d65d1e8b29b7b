# A convert shard with an input that could not be processed (a malformed capture) exits 2, even
# with --exit-zero-on-findings; its report still counts, and the merge's verdict is 2 as well.
for s in 0 1; do
  for r in 0 1; do mkdir -p run42/step$s; cp -r "$SRC/testdata/captures/tree_steps/step0/rank$r" run42/step$s/rank$r; done
done
rm -r run42/step1/rank1
cp -r "$SRC/testdata/bad/captures/malformed_line3" run42/step1/rank1
for k in 0 1; do
  "$MSDUMP" convert run42 -o out --shard $k/2 --quiet --exit-zero-on-findings --batch-report s$k.json 2>/dev/null
  echo "shard $k: exit $?"
done
"$MSDUMP" report merge s0.json s1.json -o merged.json
echo "merge: exit $?"
grep -E '"(items|ok|findings|failed)":' merged.json | tail -4

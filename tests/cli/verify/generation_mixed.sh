# A file mixing the forms of two generations is a finding: numbered and un-numbered
# parameters_grad; is_recompute (legacy) with native integer statistics (current); an
# un-numbered parameters_grad whose data_name has a counter.
cd "$SRC/testdata/generations/bad"
for d in mixed_grad_names mixed_profiles grad_data_name; do
  "$MSDUMP" verify "$d"; echo "exit $?"
done
echo "a given profile holds every leaf to it; the other profile's forms are one more finding:"
"$MSDUMP" verify mixed_profiles --profile current; echo "exit $?"
"$MSDUMP" verify "$SRC/testdata/generations/good/pytorch_8x" --profile current; echo "exit $?"
echo "a bad --profile value:"
"$MSDUMP" verify mixed_profiles --profile newest; echo "exit $?"

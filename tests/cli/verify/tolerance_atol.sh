# --atol adds an absolute term to the Mean/Norm bound (against tensor files in units of the
# tensor's mean |x|; against a golden in the statistic's own units): the 1% Mean defect
# (0.00106 off) fails at --atol 0.001 and passes at --atol 0.1; against a golden a Mean x1.5
# fails with --atol 0.001 and passes with --atol 1.
cd "$SRC"
T=testdata/good/msprobe/cnn_L0_tensor_all_step0/dump_tensor_data
for a in 0.001 0.1; do
  echo "== tensor files, --atol $a"
  "$MSDUMP" verify testdata/mutations/mean_off_by_1pct --tensors $T --atol $a
  echo "exit $?"
done
for a in 0.001 1; do
  echo "== golden, --atol $a"
  "$MSDUMP" verify testdata/mutations/golden_mean_changed --against testdata/good/msprobe/cnn_L0_tensor_all_step0 --atol $a
  echo "exit $?"
done

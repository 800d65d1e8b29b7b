# The real msprobe dumps hold no NaN or Inf: exit 0.
cd "$SRC"
"$MSDUMP" anomalies testdata/good/msprobe/cnn_L0_tensor_all_step0 testdata/good/msprobe/cnn_mix_md5_all_step1 \
  testdata/good/msprobe/legacy_mix_statistics_step0_cut --quiet

# Re-converting an msprobe tensor dump: dump_data_dir names the output's dump_tensor_data/
# (OUT as given, or --dump-path), never the input's; a statistics re-conversion has none.
D="$SRC/testdata/good/msprobe/cnn_L0_tensor_all_step0"
echo "input:      $(grep '"dump_data_dir"' "$D/dump.json")"
"$MSDUMP" convert "$D" -o out/rank0 --quiet || exit 99
echo "default:    $(grep '"dump_data_dir"' out/rank0/dump.json)"
"$MSDUMP" convert "$D" -o other --quiet --dump-path /data/run42/step0/rank0 || exit 99
echo "--dump-path: $(grep '"dump_data_dir"' other/dump.json)"
"$MSDUMP" convert "$D" -o stats --quiet --task statistics || exit 99
echo "statistics: $(grep '"dump_data_dir"' stats/dump.json)"
"$MSDUMP" verify out/rank0

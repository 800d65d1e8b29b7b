# Mapping files that are no mapping, or repeat a key: exit 2 before any dump is read.
P="$SRC/testdata/compare/cnn_bug_vs_ref/mix_statistics"
printf -- '- a\n- b\n' >list.yaml
"$MSDUMP" compare "$P/npu/step0/rank0" "$P/bench/step0/rank0" -o out --data-mapping list.yaml; echo "exit $?"
printf 'a: b\na: c\n' >twice.yaml
"$MSDUMP" compare "$P/npu/step0/rank0" "$P/bench/step0/rank0" -o out --data-mapping twice.yaml; echo "exit $?"
"$MSDUMP" compare "$P/npu/step0/rank0" "$P/bench/step0/rank0" -o out --cell-mapping missing.yaml; echo "exit $?"

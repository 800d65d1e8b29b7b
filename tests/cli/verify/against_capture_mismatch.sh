# A dump with a changed Mean verified against a capture-converted golden: one statistic finding.
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o out --quiet || exit 99
sed -i '0,/"Mean": 0.609375/s//"Mean": 0.625/' out/dump.json
"$MSDUMP" verify out --capture "$SRC/testdata/captures/tiny_mix" --no-tensors

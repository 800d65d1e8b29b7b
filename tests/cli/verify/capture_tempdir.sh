# verify --capture converts into a private directory under $TMPDIR and removes it on every
# path: after a clean run, after findings, after a capture whose level cannot give the dump's,
# and after a conversion that fails halfway (a source.file leaving the capture, L1 like the dump).
mkdir tmp && export TMPDIR=$PWD/tmp
C="$SRC/testdata/captures/tiny_mix"
"$MSDUMP" convert "$C" -o out --quiet || exit 99
"$MSDUMP" convert "$C" -o l1 --quiet --level L1 || exit 99
"$MSDUMP" verify out --capture "$C" >/dev/null
echo "clean: exit $?, left in TMPDIR: $(ls -A tmp | wc -l)"
sed -i '0,/"Mean": 0.609375/s//"Mean": 0.625/' out/dump.json
"$MSDUMP" verify out --capture "$C" >/dev/null
echo "findings: exit $?, left in TMPDIR: $(ls -A tmp | wc -l)"
"$MSDUMP" verify out --capture "$SRC/testdata/captures/pytorch_stats"
echo "level error: exit $?, left in TMPDIR: $(ls -A tmp | wc -l)"
"$MSDUMP" verify l1 --capture "$SRC/testdata/bad/captures/path_escape"
echo "conversion error: exit $?, left in TMPDIR: $(ls -A tmp | wc -l)"

# The ranks of one step are compared by entry names: rank2 of a three-rank step, converted at L1
# from the same mix capture, lacks the module entries and diverges: a rank warning (exit 0;
# pipeline stages and point-to-point pairs differ for real); --no-cross-rank skips that
# comparison.
C="$SRC/testdata/captures/tiny_mix"
"$MSDUMP" convert "$C" -o run/step0/rank0 --quiet || exit 99
"$MSDUMP" convert "$C" -o run/step0/rank1 --quiet || exit 99
"$MSDUMP" convert "$C" -o run/step0/rank2 --quiet --level L1 || exit 99
echo "== default"
"$MSDUMP" verify run --quiet --jobs 1
echo "exit $?"
echo "== --no-cross-rank"
"$MSDUMP" verify run --quiet --jobs 1 --no-cross-rank
echo "exit $?"

# A conversion of tiny_mix verified against the capture itself (--capture converts it again): clean.
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o out --quiet || exit 99
"$MSDUMP" verify out --capture "$SRC/testdata/captures/tiny_mix"

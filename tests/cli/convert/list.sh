# --list keeps the entries whose name contains one of the given substrings (msprobe's "list"):
# all 11 entries of tiny_mix without it, only the relu ones with --list relu.
show() { python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["data"]
print(len(d), "entries:"); [print(" ", k) for k in d]
' "$1/dump.json"; }
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o all --quiet
echo "exit $?"; show all
"$MSDUMP" convert "$SRC/testdata/captures/tiny_mix" -o relu --quiet --list relu
echo "exit $?"; show relu

# The sample report in README.md: runs the command of its block (the "$ build/msdump verify ..."
# line, build/msdump replaced by the binary under test) and prints its output, which the
# golden pins; on stderr, whether the README block equals that output (it must, or this test
# fails: README and binary cannot drift apart).
cd "$SRC"
block=$(awk '/^\$ build\/msdump verify testdata\/mutations\/mean_off_by_1pct /{on=1} on&&/^```/{exit} on' README.md)
[ -n "$block" ] || { echo "README.md has no sample report block" >&2; exit 99; }
cmd=$(printf '%s\n' "$block" | head -1)
printf '%s\n' "$cmd"
read -ra args <<<"${cmd#\$ build/msdump }"
out=$("$MSDUMP" "${args[@]}")
rc=$?
printf '%s\n' "$out"
if [ "$(printf '%s\n' "$block" | tail -n +2)" = "$out" ]; then echo "README.md block: same output" >&2
else echo "README.md block differs from the output:" >&2; diff <(printf '%s\n' "$block" | tail -n +2) <(printf '%s\n' "$out") >&2; fi
exit $rc

# A truncated dump.json is a finding (kind json), not a usage error: exit 1.
cd "$SRC"
"$MSDUMP" verify testdata/mutations/truncated

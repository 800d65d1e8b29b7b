# No dump given: usage error, exit 2.
"$MSDUMP" verify

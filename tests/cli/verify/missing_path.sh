# A path that does not exist: exit 2 with a message.
"$MSDUMP" verify no/such/dump

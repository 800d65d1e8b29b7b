# A directory without dump.json: exit 2 with a message.
mkdir empty
"$MSDUMP" verify empty

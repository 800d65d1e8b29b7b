# A path that does not exist: exit 2, naming it.
"$MSDUMP" anomalies does/not/exist

# A file that does not exist: usage error, exit 2.
"$MSDUMP" stats no_such_file.pt

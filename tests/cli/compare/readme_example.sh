# The example output in README.md ("Where do two runs part ways?") is this binary's output, byte for byte
# (the tables' time stamps shown as <time>).
cd "$SRC"
sed -n '/<!-- compare-example:begin -->/,/<!-- compare-example:end -->/p' README.md | sed '1,2d;$d' | sed '$d' >"$OLDPWD/block"
cmd=$(head -1 "$OLDPWD/block")
case "$cmd" in '$ msdump compare '*) ;; *) echo "README example does not start with '\$ msdump compare': $cmd"; exit 1;; esac
tail -n +2 "$OLDPWD/block" >"$OLDPWD/expected"
cmd=${cmd#'$ msdump '}
# shellcheck disable=SC2086
"$MSDUMP" ${cmd/%-o out/-o $OLDPWD/out} | sed -E "s#$OLDPWD/out#out#; s/_[0-9]{14}\\./_<time>./" >"$OLDPWD/actual"
diff "$OLDPWD/expected" "$OLDPWD/actual" && echo "README example matches"

# The example output in README.md ("Where did the NaN come from?") is this binary's output, byte for byte.
cd "$SRC"
sed -n '/<!-- anomalies-example:begin -->/,/<!-- anomalies-example:end -->/p' README.md | sed '1,2d;$d' | sed '$d' >"$OLDPWD/block"
cmd=$(head -1 "$OLDPWD/block")
case "$cmd" in '$ msdump anomalies '*) ;; *) echo "README example does not start with '\$ msdump anomalies': $cmd"; exit 1;; esac
tail -n +2 "$OLDPWD/block" >"$OLDPWD/expected"
# shellcheck disable=SC2086
"$MSDUMP" ${cmd#'$ msdump '} >"$OLDPWD/actual"
diff "$OLDPWD/expected" "$OLDPWD/actual" && echo "README example matches"

#!/usr/bin/env bash
# Golden CLI tests (zstd's cli-tests model). Each tests/cli/<group>/<name>.sh is run from a fresh
# temporary directory with $MSDUMP set to the binary and $SRC to the source tree; its exit code,
# stdout and stderr are compared with <name>.exit, <name>.stdout.exact and <name>.stderr.exact
# (files that do not exist are not compared). --update rewrites the expected files instead.
#   run.sh MSDUMP_BINARY [--update] [NAME_FILTER]
set -uo pipefail
MSDUMP=$(realpath "$1"); shift
UPDATE=0
if [ "${1:-}" = "--update" ]; then UPDATE=1; shift; fi
FILTER=${1:-}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../.." && pwd)
export MSDUMP SRC
passed=0; failed=0
for t in $(find "$HERE" -mindepth 2 -name '*.sh' | sort); do
  name=${t#"$HERE"/}; name=${name%.sh}
  [ -n "$FILTER" ] && [[ "$name" != *"$FILTER"* ]] && continue
  work=$(mktemp -d)
  (cd "$work" && bash "$t" >"$work/.stdout" 2>"$work/.stderr"); rc=$?
  base=${t%.sh}
  # Paths of the temporary directory and the source tree are replaced so golden files are stable.
  for s in stdout stderr; do sed -i -e "s#$work#<TMP>#g" -e "s#$SRC#<SRC>#g" "$work/.$s"; done
  ok=1
  if [ $UPDATE -eq 1 ]; then
    echo "$rc" >"$base.exit"
    cp "$work/.stdout" "$base.stdout.exact"; cp "$work/.stderr" "$base.stderr.exact"
  else
    if [ -f "$base.exit" ] && [ "$(cat "$base.exit")" != "$rc" ]; then
      echo "FAIL $name: exit $rc, expected $(cat "$base.exit")"; ok=0; fi
    for s in stdout stderr; do
      if [ -f "$base.$s.exact" ] && ! diff -u "$base.$s.exact" "$work/.$s" >"$work/.diff"; then
        echo "FAIL $name: $s differs"; head -40 "$work/.diff"; ok=0; fi
    done
  fi
  if [ $ok -eq 1 ]; then passed=$((passed+1)); rm -rf "$work"; else failed=$((failed+1)); echo "  kept $work"; fi
done
echo "cli: $passed passed, $failed failed"
[ $failed -eq 0 ]

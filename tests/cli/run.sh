#!/usr/bin/env bash
# Golden CLI tests (zstd's cli-tests model). Each tests/cli/<group>/<name>.sh is run from a fresh
# temporary directory with $MSDUMP set to the binary and $SRC to the source tree; its exit code,
# stdout and stderr are compared with <name>.exit, <name>.stdout.exact and <name>.stderr.exact;
# a case missing any of the three fails. --update (re)writes the expected files instead.
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
    if [ ! -f "$base.exit" ]; then
      echo "FAIL $name: no expected exit code ($name.exit; run.sh --update writes it)"; ok=0
    elif [ "$(cat "$base.exit")" != "$rc" ]; then
      echo "FAIL $name: exit $rc, expected $(cat "$base.exit")"; ok=0; fi
    for s in stdout stderr; do
      if [ ! -f "$base.$s.exact" ]; then
        echo "FAIL $name: no expected $s ($name.$s.exact; run.sh --update writes it)"; ok=0
      elif ! diff -u "$base.$s.exact" "$work/.$s" >"$work/.diff"; then
        echo "FAIL $name: $s differs"; head -40 "$work/.diff"; ok=0; fi
    done
  fi
  if [ $ok -eq 1 ]; then passed=$((passed+1)); rm -rf "$work"; else failed=$((failed+1)); echo "  kept $work"; fi
done
# An expectation whose case script is gone is stale: it would never be checked again.
if [ -z "$FILTER" ]; then
  for e in $(find "$HERE" -mindepth 2 \( -name '*.exit' -o -name '*.exact' \) | sort); do
    base=${e%.exit}; base=${base%.stdout.exact}; base=${base%.stderr.exact}
    if [ ! -f "$base.sh" ]; then echo "FAIL ${e#"$HERE"/}: expectation without a case (${base#"$HERE"/}.sh)"; failed=$((failed+1)); fi
  done
fi
echo "cli: $passed passed, $failed failed"
[ $failed -eq 0 ]

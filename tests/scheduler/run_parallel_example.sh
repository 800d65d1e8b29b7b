#!/usr/bin/env bash
# The README's GNU parallel example, run as written (Debian's `parallel`), with /data/run42
# replaced by a capture tree of 6 steps x 2 ranks built from testdata/captures/tree_steps:
#   * the 4 shards convert every capture, and their merged report equals the --batch-report of
#     the same conversion run unsharded, byte for byte; the converted trees are identical;
#   * run again, every item is skipped (--resume) and the merge still succeeds;
#   * without one shard's report the merge refuses (exit 2) and names the missing shard.
#   run_parallel_example.sh MSDUMP
set -euo pipefail
MSDUMP=$(realpath "$1")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
source "$SRC/tests/scheduler/readme_example.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v parallel >/dev/null || fail "'parallel' not found: install with scripts/install-deps.sh --with-scheduler"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/msdump-parallel.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/bin"
ln -s "$MSDUMP" "$WORK/bin/msdump"
export PATH=$WORK/bin:$PATH
cd "$WORK"
for step in 0 1 2 3 4 5; do
  for rank in 0 1; do
    mkdir -p run42/step$step
    cp -r "$SRC/testdata/captures/tree_steps/step$((step % 2))/rank$rank" run42/step$step/rank$rank
  done
done
readme_example parallel | sed "s#/data/run42#$WORK/run42#g" >example.sh
grep -q -- "--shard {}/4" example.sh || fail "the README's example no longer has 4 shards: update this test"

# The same conversion unsharded; then its output moves aside so the example starts afresh.
msdump convert "$WORK/run42" -o "$WORK/run42-dump" --resume --jobs 1 --batch-report unsharded.json --quiet ||
  fail "unsharded convert: exit $?"
mv run42-dump unsharded-dump

rc=0
bash example.sh </dev/null >example.out 2>&1 || rc=$?
[ $rc -eq 0 ] || { cat example.out >&2; fail "the example exited $rc"; }
for k in 0 1 2 3; do [ -f conv-$k.json ] || fail "conv-$k.json missing"; done
cmp unsharded.json run42-convert.json || fail "the merged report differs from the unsharded --batch-report"
diff -r unsharded-dump run42-dump >/dev/null || fail "the sharded conversion's output differs from the unsharded one's"
echo "merged report == unsharded --batch-report ($(grep -c '"key"' run42-convert.json) items); outputs identical"

# Resumable: a second run skips every item.
bash example.sh </dev/null >example.out 2>&1 || { cat example.out >&2; fail "the second run exited non-zero"; }
grep -q '"skipped": 12,' run42-convert.json || fail "the second run did not skip all 12 items: $(grep -A6 '"summary"' run42-convert.json)"
echo "second run: 12 items skipped"

rm conv-2.json
rc=0
msdump report merge conv-*.json -o incomplete.json 2>err.txt || rc=$?
[ $rc -eq 2 ] && grep -q "shard 2/4 of the run is missing" err.txt || fail "merge without shard 2: exit $rc, $(cat err.txt)"
echo "parallel example: ok"

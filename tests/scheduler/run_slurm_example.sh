#!/usr/bin/env bash
# The README's Slurm example, run as written on a real one-node Slurm cluster on localhost:
# starts munged, slurmctld and slurmd (slurm_cluster.sh; stopped on exit, also on failure),
# submits the README's array job (8 shards) over testdata/trees/sharded_run (20 dumps, one with
# findings) and the README's afterany merge job, waits for them, and checks that
#   * every array task ended COMPLETED with exit 0 (--exit-zero-on-findings: a shard with
#     findings ran fine);
#   * the merge job ended FAILED with exit code 1: its exit code is the run's verdict (findings);
#   * the merged report equals the unsharded run's --batch-report byte for byte;
#   * without one shard's report the merge refuses (exit 2) and names the missing shard.
# Needs root and Debian's munge slurmctld slurmd slurm-client (scripts/install-deps.sh
# --with-scheduler); a missing package or a daemon that does not start fails the test.
#   run_slurm_example.sh MSDUMP
set -euo pipefail
MSDUMP=$(realpath "$1")
SRC=$(cd "$(dirname "$0")/../.." && pwd)
TREE=$SRC/testdata/trees/sharded_run
source "$SRC/tests/scheduler/slurm_cluster.sh"
source "$SRC/tests/scheduler/readme_example.sh"

fail() { echo "FAIL: $*" >&2; exit 1; }
for tool in munged mungekey munge unmunge slurmctld slurmd sbatch scontrol squeue sinfo; do
  command -v "$tool" >/dev/null || fail "'$tool' not found: install with scripts/install-deps.sh --with-scheduler"
done
[ "$(id -u)" -eq 0 ] || fail "needs root (slurmd runs jobs as their submitting user)"
[ -d "$TREE/step0/rank0" ] || fail "the bundled tree $TREE is missing"

CLUSTER=$(mktemp -d "${TMPDIR:-/tmp}/msdump-slurm.XXXXXX")
finish() {
  local rc=$?
  if [ $rc -ne 0 ]; then
    slurm_logs
    for f in "$CLUSTER"/work/slurm-*.out; do [ -f "$f" ] && { echo "---- $f" >&2; cat "$f" >&2; }; done
  fi
  slurm_stop
  rm -rf "$CLUSTER"
  exit $rc
}
trap finish EXIT
slurm_start

WORK=$CLUSTER/work
mkdir -p "$WORK/bin"
ln -s "$MSDUMP" "$WORK/bin/msdump"
export PATH=$WORK/bin:$PATH  # sbatch passes the environment on to the jobs
cd "$WORK"
readme_example slurm-sbatch | sed "s#/data/run42#$TREE#g" >verify-run42.sbatch
readme_example slurm-submit | sed "s#/data/run42#$TREE#g" >submit.sh
grep -q -- "--array=0-7" verify-run42.sbatch || fail "the README's array is no longer 0-7: update this test's expectations"
bash -eu submit.sh

# Wait (at most 90 s) until no job is pending or running.
for ((i = 0; i < 450; i++)); do
  [ -z "$(squeue -h -o %i)" ] && break
  sleep 0.2
done
[ -z "$(squeue -h -o %i)" ] || { squeue >&2; fail "jobs still queued after 90 s"; }

# One line per job: name, array task id, state, exit code.
scontrol show job -o | awk '{
  name = task = state = code = "-"
  for (i = 1; i <= NF; i++) {
    split($i, kv, "=")
    if (kv[1] == "JobName") name = kv[2]
    else if (kv[1] == "ArrayTaskId") task = kv[2]
    else if (kv[1] == "JobState") state = kv[2]
    else if (kv[1] == "ExitCode") code = kv[2]
  }
  print name, task, state, code
}' | sort >jobs.txt
cat jobs.txt
tasks_done=$(grep -c '^verify-run42.sbatch [0-7] COMPLETED 0:0$' jobs.txt || true)
[ "$tasks_done" -eq 8 ] || fail "expected 8 array tasks COMPLETED with exit 0, got $tasks_done"
grep -qx 'wrap - FAILED 1:0' jobs.txt || fail "expected the merge job FAILED with exit code 1 (findings)"
[ "$(wc -l <jobs.txt)" -eq 9 ] || fail "expected 9 jobs (8 tasks and the merge)"
for k in 0 1 2 3 4 5 6 7; do [ -f "reports/shard-$k.json" ] || fail "reports/shard-$k.json missing"; done

# The unsharded run, as one process; its batch report is what the merge must reproduce.
rc=0
msdump verify "$TREE" --quiet --batch-report unsharded.json >/dev/null || rc=$?
[ $rc -eq 1 ] || fail "unsharded verify: exit $rc, expected 1 (findings)"
cmp unsharded.json run42-verify.json || fail "the merged report differs from the unsharded --batch-report"
echo "merged report == unsharded --batch-report ($(grep -c '"key"' run42-verify.json) items)"

# A shard without a report (a task that died) makes the merge fail and say which.
rm reports/shard-5.json
rc=0
msdump report merge reports/shard-*.json -o incomplete.json 2>err.txt || rc=$?
[ $rc -eq 2 ] || fail "merge without shard 5: exit $rc, expected 2"
grep -q "shard 5/8 of the run is missing" err.txt || fail "merge without shard 5 did not name it: $(cat err.txt)"
[ ! -e incomplete.json ] || fail "an incomplete merge wrote its output"
echo "slurm example: ok"

#!/usr/bin/env bash
# The training run of a profile-guided build (scripts/build.sh --pgo): runs an instrumented
# msdump over bundled data only (testdata/), so that its profile covers the jobs msdump is
# used for: verify (schema and semantic checks of PyTorch current, legacy and MindSpore dumps,
# with and without tensor files, with findings) and convert (captures, statistics and tensor
# tasks). Dumps of 5-30 MB are made from testdata dumps with scripts/bench_gen_dump.py, so the
# per-entry code dominates the profile as it does on real dumps. GCC optimizes for size what
# falls outside the profile's hot working set, so the mix matters: with 1 Mi-element tensors in
# the stats part and 20 MB of dumps, verify came out no faster than a plain build
# (docs/performance.md "PGO build"). Takes ~4 minutes on 2 vCPUs (the instrumented verify counts with
# atomic updates on two threads).
#
# Usage: scripts/pgo_train.sh BUILD/msdump
set -euo pipefail
bin=$(realpath "$1")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Exit codes 0 (clean) and 1 (findings) are both normal here; anything else stops the build.
run() {
  local rc=0
  "$@" >/dev/null 2>&1 || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "pgo_train.sh: '$*' failed with exit code $rc" >&2
    exit 1
  fi
}

i=0
for spec in good/msprobe/cnn_mix_md5_all_step1:30 golden/convert/pytorch_stats/default:15 \
            good/msprobe/legacy_mix_statistics_step0_cut:10 golden/convert/mindspore_cells/md5:5 \
            golden/convert/mindtorch_basic/default:5; do
  i=$((i + 1))
  mkdir -p "$work/gen$i"
  python3 scripts/bench_gen_dump.py "$work/gen$i/dump.json" --mb "${spec#*:}" \
    --template "testdata/${spec%:*}/dump.json" >/dev/null
  run "$bin" verify "$work/gen$i" --no-tensors --quiet --report json
done
run "$bin" verify testdata/good/msprobe/cnn_L0_tensor_all_step0 --quiet
# Convert at volume: the convert benchmark's synthetic capture (many small tensor leaves), and
# the statistics of larger tensors of several dtypes.
python3 -c 'import sys; sys.path.insert(0, "scripts"); import bench_convert; bench_convert.generate(sys.argv[1], 20000)' \
  "$work/capture"
run "$bin" convert "$work/capture" -o "$work/conv-big" --force --quiet
python3 - "$work" <<'PY'
# (.npy files written with the standard library: the training needs no numpy)
import array, random, struct, sys
random.seed(7)
n = 1 << 16
values = [random.gauss(0, 3) for _ in range(n)]
for name, descr, data in (
        ("f4", "<f4", array.array("f", values).tobytes()),
        ("f8", "<f8", array.array("d", values).tobytes()),
        ("f2", "<f2", struct.pack(f"<{n}e", *values)),
        ("i8", "<i8", array.array("q", (int(v * 100) for v in values)).tobytes()),
        ("b1", "|b1", bytes(v > 0 for v in values))):
    header = f"{{'descr': '{descr}', 'fortran_order': False, 'shape': ({n},), }}"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(f"{sys.argv[1]}/t_{name}.npy", "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data)
PY
run "$bin" stats "$work"/t_*.npy
run "$bin" stats --framework mindspore "$work"/t_*.npy
for capture in testdata/captures/*/; do
  name=$(basename "$capture")
  [ -f "$capture/trace.jsonl" ] || continue
  run "$bin" convert "$capture" -o "$work/conv/$name" --force --quiet
  run "$bin" convert "$capture" -o "$work/conv-tensor/$name" --force --quiet --task tensor
  run "$bin" verify "$work/conv-tensor/$name" --quiet
done

#!/usr/bin/env python3
"""Acceptance of msdump_record against msprobe itself (ctest recorder_cnn_acceptance).

Runs testdata/msprobe/current/train_cnn.py (the exact script msprobe's cnn_* samples came from)
with msdump_record in msprobe's place at levels L0, L1 and mix, converts each capture with
`msdump convert --task statistics` and compares every step with msprobe's own dump of the same
run (testdata/msprobe/current/cnn_<level>_statistics_all: msprobe's own output for that script,
copied unchanged, config.json beside each case):

* dump.json: the same bytes once Mean/Norm numbers are set aside, those within the
  tolerance of scripts/compare_dumps.py (same entry names in order, sections, shapes, dtypes,
  non-tensor values, Max/Min exact);
* construct.json: identical bytes;
* stack.json: the same groups of entry names in the same order (frames name this machine's
  paths and the driver script, so only the grouping is compared).

At L1 also task tensor against cnn_L1_tensor_all (dump.json and every tensor file's values).
For mix also summary modes md5 and xor against cnn_mix_md5_all / cnn_mix_xor_all: identical
except the md5 of entries msprobe hashed after an in-place update (its race: the recorder
copied the bytes at the hook), which must be exactly the in-place ops' inputs.

    run_cnn_acceptance.py MSDUMP
"""
import json
import os
import subprocess
import sys
import tempfile

import torch  # the test needs torch: a missing torch is a failure, not a skip

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
SAMPLES = os.path.join(ROOT, "testdata", "msprobe", "current")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import compare_dumps  # noqa: E402

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def record(level, out):
    env = dict(os.environ, PYTHONHASHSEED="1234")
    subprocess.run([sys.executable, os.path.join(HERE, "run_msprobe_script.py"),
                    os.path.join(SAMPLES, "train_cnn.py"), out, level], check=True, env=env)


def convert(msdump, capture, out, *flags):
    r = subprocess.run([msdump, "-q", "convert", capture, "-o", out, *flags],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"convert {capture} {' '.join(flags)}: exit {r.returncode} {r.stderr.strip()}")


def dump_equal(expected, actual, what):
    a, b = open(expected, "rb").read(), open(actual, "rb").read()
    ta, tb = compare_dumps.TOKEN.findall(a), compare_dumps.TOKEN.findall(b)
    same = compare_dumps.TOKEN.sub(b'"\\1": X', a) == compare_dumps.TOKEN.sub(b'"\\1": X', b)
    if not same:
        ea, eb = json.loads(a)["data"], json.loads(b)["data"]
        diff = [k for k in ea if ea[k] != eb.get(k)][:3] or [k for k in eb if k not in ea][:3]
        check(False, f"{what}: dump.json differs outside Mean/Norm (first entries: {diff})")
        return
    bad = [(k, x, y) for (k, x), (_, y) in zip(ta, tb) if x != y and not compare_dumps.close(k, x, y)]
    check(not bad, f"{what}: dump.json equal, {len(ta)} Mean/Norm values, {len(bad)} beyond tolerance")


def stack_groups(path):
    with open(path, encoding="utf-8") as f:
        return [group[0] for group in json.load(f).values()]


def compare_step(sample, out, step, what):
    exp = os.path.join(sample, f"step{step}", "rank0")
    act = os.path.join(out, f"step{step}", "rank0")
    dump_equal(os.path.join(exp, "dump.json"), os.path.join(act, "dump.json"), what)
    with open(os.path.join(exp, "construct.json"), "rb") as f1, open(os.path.join(act, "construct.json"), "rb") as f2:
        check(f1.read() == f2.read(), f"{what}: construct.json identical")
    check(stack_groups(os.path.join(exp, "stack.json")) == stack_groups(os.path.join(act, "stack.json")),
          f"{what}: stack.json groups of names identical")


def main():
    msdump = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as tmp:
        for level in ("L0", "L1", "mix"):
            capture = os.path.join(tmp, f"cap_{level}")
            record(level, capture)
            out = os.path.join(tmp, f"dump_{level}")
            convert(msdump, capture, out, "--task", "statistics")
            for step in (0, 1):
                compare_step(os.path.join(SAMPLES, f"cnn_{level}_statistics_all"), out, step,
                             f"{level} step{step}")
        compare_tensor_task(msdump, tmp)
        capture = os.path.join(tmp, "cap_mix")
        for mode in ("md5", "xor"):
            out = os.path.join(tmp, f"dump_{mode}")
            convert(msdump, capture, out, "--task", "statistics", "--summary-mode", mode)
            for step in (0, 1):
                exp = os.path.join(SAMPLES, f"cnn_mix_{mode}_all", f"step{step}", "rank0", "dump.json")
                act = os.path.join(out, f"step{step}", "rank0", "dump.json")
                compare_summary(exp, act, mode, f"mix {mode} step{step}")
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


def compare_tensor_task(msdump, tmp):
    """Task tensor at L1 against cnn_L1_tensor_all: dump.json (msprobe's dump_path given, so
    dump_data_dir and data_name agree) and every tensor file, value for value."""
    sample = os.path.join(SAMPLES, "cnn_L1_tensor_all")
    with open(os.path.join(sample, "config.json"), encoding="utf-8") as f:
        dump_path = json.load(f)["dump_path"]
    out = os.path.join(tmp, "dump_L1_tensor")
    convert(msdump, os.path.join(tmp, "cap_L1"), out, "--task", "tensor", "--dump-path", dump_path)
    for step in (0, 1):
        exp = os.path.join(sample, f"step{step}", "rank0")
        act = os.path.join(out, f"step{step}", "rank0")
        dump_equal(os.path.join(exp, "dump.json"), os.path.join(act, "dump.json"), f"L1 tensor step{step}")
        files = sorted(os.listdir(os.path.join(exp, "dump_tensor_data")))
        check(files == sorted(os.listdir(os.path.join(act, "dump_tensor_data"))),
              f"L1 tensor step{step}: the same {len(files)} tensor files")
        differ = [n for n in files if n in os.listdir(os.path.join(act, "dump_tensor_data")) and not torch.equal(
            torch.load(os.path.join(exp, "dump_tensor_data", n)), torch.load(os.path.join(act, "dump_tensor_data", n)))]
        check(not differ, f"L1 tensor step{step}: tensor files hold equal values (differing: {differ[:3]})")


def same_leaves(a, b, skip):
    """a == b, except keys in `skip` and Mean/Norm within compare_dumps' tolerance."""
    if isinstance(a, dict) and isinstance(b, dict):
        ka, kb = [k for k in a if k not in skip], [k for k in b if k not in skip]
        if ka != kb:
            return False
        return all(compare_dumps.close(k.encode(), a[k], b[k]) if k in ("Mean", "Norm") and a[k] is not None
                   and b[k] is not None else same_leaves(a[k], b[k], skip) for k in ka)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_leaves(x, y, skip) for x, y in zip(a, b))
    return a == b


def compare_summary(expected, actual, mode, what):
    ea, eb = (json.load(open(p, encoding="utf-8"))["data"] for p in (expected, actual))
    check(list(ea) == list(eb), f"{what}: same entry names in order")
    if list(ea) != list(eb):
        return
    check(all(same_leaves(ea[n], eb[n], ("md5",)) for n in ea),
          f"{what}: every entry equal apart from md5 (Mean/Norm within tolerance)")
    differ = [n for n in ea if not same_leaves(ea[n], eb[n], ())]
    if mode == "xor":
        check(not differ, f"{what}: every xor checksum identical (differing: {differ[:3]})")
        return
    # msprobe hashes CPU tensors later, on the live storage: the inputs of in-place ops can be
    # hashed after the op changed them. Only there may md5 differ.
    inplace = all(n.split(".")[1].endswith("_") for n in differ)
    check(inplace, f"{what}: md5 differs only for in-place ops ({len(differ)} entries: {differ[:4]})")


if __name__ == "__main__":
    sys.exit(main())

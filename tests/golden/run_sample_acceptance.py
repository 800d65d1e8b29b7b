#!/usr/bin/env python3
"""Acceptance checks against real msprobe output (testdata/msprobe/current, README there):

  * converting cnn_L0_tensor_all, cnn_L1_tensor_all, cnn_mix_tensor_forward with only
    --dump-path (the recorded run's, as dump_data_dir names the output's directory) reproduces each step's dump.json (Mean/Norm within tolerance), stack.json and construct.json;
  * --task statistics: cnn_L1_tensor_all -> cnn_L1_statistics_all and
    cnn_mix_tensor_forward -> cnn_mix_statistics_forward;
  * --level L0 --task statistics: cnn_mix_tensor_forward -> exactly the Module entries of
    cnn_mix_statistics_forward, in order.
Then every dump under testdata/msprobe (current and legacy) must verify as expected.
Usage: run_sample_acceptance.py MSDUMP [SAMPLES_DIR] (default: testdata/msprobe of this
checkout). A missing samples directory is a failure, never a skip.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import compare_dumps  # noqa: E402


def same_bytes(a, b):
    return open(a, "rb").read() == open(b, "rb").read()


def main():
    root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                               "testdata", "msprobe")
    msdump, samples = os.path.abspath(sys.argv[1]), os.path.join(root, "current")
    if not os.path.isdir(samples) or not os.path.isdir(os.path.join(root, "legacy")):
        print(f"FAIL real msprobe dumps missing: {root} must hold current/ and legacy/")
        return 1
    passed = failed = 0

    def check(name, ok, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {name} {detail}")

    def dumps_equivalent(expected, actual):
        tokens_a, tokens_b = compare_dumps.TOKEN.findall(open(expected, "rb").read()), None
        a, b = open(expected, "rb").read(), open(actual, "rb").read()
        if compare_dumps.TOKEN.sub(b'"\\1": X', a) != compare_dumps.TOKEN.sub(b'"\\1": X', b):
            return False
        tokens_b = compare_dumps.TOKEN.findall(b)
        return all(x == y or compare_dumps.close(k, x, y) for (k, x), (_, y) in zip(tokens_a, tokens_b))

    with tempfile.TemporaryDirectory(prefix="msdump-accept-") as work:
        def convert(case, out, *args):
            p = subprocess.run([msdump, "convert", os.path.join(samples, case), "-o", os.path.join(work, out), "--quiet",
                                *args], capture_output=True, text=True)
            check(f"convert {case} {' '.join(args)}", p.returncode == 0, p.stderr)

        def recorded_dump_path(case):
            # msprobe's dump_path of the recorded run: dump_data_dir minus step0/rank0/dump_tensor_data
            header = json.load(open(os.path.join(samples, case, "step0", "rank0", "dump.json")))
            return os.path.dirname(os.path.dirname(os.path.dirname(header["dump_data_dir"])))

        for case in ("cnn_L0_tensor_all", "cnn_L1_tensor_all", "cnn_mix_tensor_forward"):
            # dump_data_dir names the output's tensor directory: --dump-path gives the recorded one.
            convert(case, case, "--dump-path", recorded_dump_path(case))
            for step in ("step0", "step1"):
                exp, act = os.path.join(samples, case, step, "rank0"), os.path.join(work, case, step, "rank0")
                check(f"{case}/{step} dump.json", dumps_equivalent(f"{exp}/dump.json", f"{act}/dump.json"))
                for f in ("stack.json", "construct.json"):
                    check(f"{case}/{step} {f}", same_bytes(f"{exp}/{f}", f"{act}/{f}"))
        for src, golden in (("cnn_L1_tensor_all", "cnn_L1_statistics_all"),
                            ("cnn_mix_tensor_forward", "cnn_mix_statistics_forward")):
            convert(src, src + "-stat", "--task", "statistics")
            for step in ("step0", "step1"):
                exp, act = os.path.join(samples, golden, step, "rank0"), os.path.join(work, src + "-stat", step, "rank0")
                check(f"{src} --task statistics/{step}", dumps_equivalent(f"{exp}/dump.json", f"{act}/dump.json"))
        convert("cnn_mix_tensor_forward", "l0", "--level", "L0", "--task", "statistics")
        for step in ("step0", "step1"):
            exp = json.load(open(os.path.join(samples, "cnn_mix_statistics_forward", step, "rank0", "dump.json")))
            act = json.load(open(os.path.join(work, "l0", step, "rank0", "dump.json")))
            modules = [(k, v) for k, v in exp["data"].items() if k.startswith("Module.")]

            def strip(o):
                if isinstance(o, dict):
                    return {k: strip(v) for k, v in o.items() if k not in ("Mean", "Norm")}
                return [strip(x) for x in o] if isinstance(o, list) else o
            check(f"--level L0 {step}", [k for k, _ in modules] == list(act["data"]) and act["level"] == "L0"
                  and strip(dict(modules)) == strip(act["data"]))
    # Every sample verifies without error (its .pt files recomputed where it has them); the md5 race
    # of cnn_mix_md5_all/step1 is a warning on exactly the in-place ops' inputs.
    race = {f"/data/Tensor.{op}.forward/input_args/0/md5" for op in ("add_.5", "add_.6", "mul_.3", "add_.7", "add_.8")}
    roots = [samples, os.path.join(root, "legacy")]
    p = subprocess.run([msdump, "verify", *roots, "--report", "json", "--quiet"], capture_output=True, text=True)
    reports = json.loads(p.stdout)["reports"]
    tensors = sum(r["summary"]["tensors_checked"] for r in reports)
    for r in reports:
        f = r["summary"]["file"]
        errors = {x["pointer"] for x in r["findings"] if x["severity"] == "error"}
        warned = {x["pointer"] for x in r["findings"] if x["severity"] == "warning" and x["kind"] == "checksum"}
        want = race if "cnn_mix_md5_all/step1" in f else set()
        check(f"verify {f}", not errors and warned == want, sorted(errors)[:5])
    check("every dump reported", len(reports) == 28, len(reports))
    check("every sample .pt recomputed", tensors == 468, tensors)
    # ...and from the leaves alone (--no-tensors): the same verdicts, no tensor file read.
    p = subprocess.run([msdump, "verify", *roots, "--no-tensors", "--report", "json", "--quiet"], capture_output=True,
                       text=True)
    leaf_reports = json.loads(p.stdout)["reports"]
    for r in leaf_reports:
        f = r["summary"]["file"]
        errors = {x["pointer"] for x in r["findings"] if x["severity"] == "error"}
        warned = {x["pointer"] for x in r["findings"] if x["severity"] == "warning" and x["kind"] == "checksum"}
        want = race if "cnn_mix_md5_all/step1" in f else set()
        check(f"verify --no-tensors {f}", not errors and warned == want and r["summary"]["tensors_checked"] == 0,
              sorted(errors)[:5])
    check("every dump reported with --no-tensors", len(leaf_reports) == 28, len(leaf_reports))
    print(f"sample verify: {len(reports)} dumps, {tensors} tensor files recomputed and matched their leaves")
    print(f"sample acceptance: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

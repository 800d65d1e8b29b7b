#!/usr/bin/env python3
"""Property test of verify's statistic rules, with torch as the oracle.

testdata/gen/gen_stat_property.py (run with the Python that has torch) writes dumps whose leaves
torch computed exactly as msprobe does, for the current and legacy profiles, with tensor files
and as leaves alone. verify must report no error on any of them, and must have checked every
tensor file. Then a copy of each leaves-only dump with Means moved far outside [Min, Max] and
Norms made negative must fail with one error per planted defect, so the rules are live.

  run_stat_property.py MSDUMP [--count N] [--seed S] [--max-numel N] [--torch-python PY]

CI runs a fixed-seed subset (the defaults); `--count 5000 --max-numel 1000000` is the full run.
A missing torch is a failure, never a skip.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "testdata", "gen", "gen_stat_property.py")


def verify(msdump, path):
    p = subprocess.run([msdump, "verify", path, "--report", "json"], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"verify {path} exited {p.returncode}: {p.stderr}")
    return json.loads(p.stdout)


def errors(report):
    return [f for f in report["findings"] if f["severity"] == "error"]


def plant_defects(src, dst):
    """Copies a leaves-only dump.json with defects only a working rule finds; returns the JSON
    pointers of the leaves it changed."""
    dump = json.load(open(src))
    planted = set()
    for name, entry in dump["data"].items():
        for section in ("input_args", "output"):
            for i, leaf in enumerate(entry.get(section, [])):
                mx, mn, mean = leaf.get("Max"), leaf.get("Min"), leaf.get("Mean")
                if leaf.get("shape") == [] or not all(isinstance(v, float) and math.isfinite(v) for v in (mx, mn, mean)):
                    continue
                # a 16-bit Mean of many elements may come from a 16-bit sum, whose bound (a
                # warning) is wider than the planted defect: bfloat16 beyond 64, float16 beyond 512
                limit = {"torch.bfloat16": 64, "torch.float16": 512}.get(leaf["dtype"])
                half_sum = limit is not None and math.prod(leaf["shape"]) > limit
                if len(planted) % 2 == 0 and not half_sum:
                    leaf["Mean"] = mx + 2 * max(abs(mx), abs(mn)) + 1.0
                elif isinstance(leaf.get("Norm"), float) and math.isfinite(leaf["Norm"]) and leaf["Norm"] > 0:
                    leaf["Norm"] = -leaf["Norm"]
                else:
                    continue
                planted.add(f"/data/{name}/{section}/{i}")
    os.makedirs(dst)
    with open(os.path.join(dst, "dump.json"), "w") as f:
        json.dump(dump, f, indent=1)
    return planted


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("msdump")
    ap.add_argument("--count", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--max-numel", type=int, default=200000)
    ap.add_argument("--torch-python", default="/usr/bin/python3")
    a = ap.parse_args()
    msdump = os.path.abspath(a.msdump)
    passed = failed = 0

    def check(name, ok, detail=""):
        nonlocal passed, failed
        passed += ok
        failed += not ok
        if not ok:
            print(f"FAIL {name}: {detail}")

    with tempfile.TemporaryDirectory(prefix="msdump-prop-") as work:
        g = subprocess.run([a.torch_python, "-W", "ignore", GEN, work, "--count", str(a.count), "--seed",
                            str(a.seed), "--max-numel", str(a.max_numel)], capture_output=True, text=True)
        if g.returncode != 0:
            print(f"FAIL generator (needs python3-torch: scripts/install-deps.sh --with-torch): {g.stderr[-2000:]}")
            print("stat property: 0 passed, 1 failed")
            return 1
        manifest = json.load(open(os.path.join(work, "manifest.json")))
        with_files = sum(1 for m in manifest if math.prod(m["shape"]) > 0)
        check("generator made the corpus", len(manifest) >= a.count, f"{len(manifest)} tensors")
        for profile in ("current", "legacy"):
            for kind in ("tensors", "leaves"):
                r = verify(msdump, os.path.join(work, profile, kind))
                errs = errors(r)
                check(f"{profile}/{kind}: no error", not errs,
                      "\n  ".join(f"{e['pointer']}: {e['message']}" for e in errs[:20]))
                checked = r["summary"].get("tensors_checked", 0)
                want = with_files if kind == "tensors" else 0
                check(f"{profile}/{kind}: {want} tensor files checked", checked == want, f"checked {checked}")
            planted_dir = os.path.join(work, profile, "planted")
            planted = plant_defects(os.path.join(work, profile, "leaves", "dump.json"), planted_dir)
            r = verify(msdump, planted_dir)
            found = {e["pointer"].rsplit("/", 1)[0] for e in errors(r)}
            check(f"{profile}: every planted defect found, nothing else", planted and found == planted,
                  f"planted {len(planted)}, missed {sorted(planted - found)[:5]}, other {sorted(found - planted)[:5]}")
        print(f"{len(manifest)} tensors, seed {a.seed}, up to {a.max_numel} elements")
    print(f"stat property: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

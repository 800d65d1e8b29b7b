#!/usr/bin/env python3
"""Checks `msdump anomalies` on the NaN-producing model dumps and on mutated real dumps.

  run_anomaly_fixtures.py MSDUMP

From the repository root (found from this file's location):
  - testdata/anomalies/* (testdata/gen/gen_anomalies.py): the exact origins (entry, pointer,
    kind, counts, module), first forward / backward origins, other roles and the exit code
    each dump must give, as worked out from the model's code;
  - testdata/good/msprobe/*: real msprobe dumps without NaN: no anomaly, exit 0;
  - mutations of those real dumps, judged from statistics only (--no-tensors): one output's
    Max set to NaN, its Min to -Infinity (construct.json kept: the module is checked too), a backward output's Max to Infinity (origins at
    exactly that entry and leaf), a Norm set to Infinity (a stat overflow: exit 0, 1 with
    --strict), an input and the output of one entry set to NaN (propagated, no origin).
The last line is "N passed, M failed"; the exit code is 1 when anything failed.
"""
import copy
import json
import os
import subprocess
import sys
import shutil
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIX = "testdata/anomalies"


def origin(entry, leaf, kind, module, counts=None, downstream=None):
    o = {"entry": entry, "pointer": "/data/%s/%s" % (entry, leaf), "kind": kind, "module": module, "counts": counts}
    if downstream is not None:
        o["downstream"] = downstream
    return o


def counts(nan=0, inf=0, ninf=0, total=0):
    return {"nan": nan, "inf": inf, "-inf": ninf, "total": total}


# What each model must give (testdata/gen/gen_anomalies.py).
FIXTURES = [
    {"path": FIX + "/forward_mix", "args": [], "exit": 1,
     "origins": [
         origin("Torch.log.0.forward", "output/0", "-inf", "Module.log_block.LogBlock.forward.0", downstream=1),
         origin("Torch.div.0.forward", "output/0", "inf", "Module.div_block.DivBlock.forward.0"),
         origin("Torch.div.1.forward", "output/0", "nan", "Module.div_block.DivBlock.forward.0"),
         origin("Tensor.mul.0.forward", "output/0", "inf", "Module.half_block.HalfBlock.forward.0", downstream=1)],
     "first_origin": "Torch.log.0.forward", "first_backward_origin": None, "others": []},
    # L0 in tensor mode: the modules are the origins, with exact counts from the .pt files.
    {"path": FIX + "/forward_L0_tensor", "args": [], "exit": 1,
     "origins": [
         origin("Module.log_block.LogBlock.forward.0", "output/0", "-inf", "Module.log_block.LogBlock.forward.0",
                counts(ninf=7, total=12)),
         origin("Module.div_block.DivBlock.forward.0", "output/0/0", "mixed", "Module.div_block.DivBlock.forward.0",
                counts(nan=12, inf=12, total=24)),
         origin("Module.half_block.HalfBlock.forward.0", "output/0", "inf", "Module.half_block.HalfBlock.forward.0",
                counts(inf=8, total=12))],
     "first_origin": "Module.log_block.LogBlock.forward.0", "first_backward_origin": None, "others": []},
    # The same dump from its statistics only: the same origins, no counts.
    {"path": FIX + "/forward_L0_tensor", "args": ["--no-tensors"], "exit": 1,
     "origins": [
         origin("Module.log_block.LogBlock.forward.0", "output/0", "-inf", "Module.log_block.LogBlock.forward.0"),
         origin("Module.div_block.DivBlock.forward.0", "output/0/0", "mixed", "Module.div_block.DivBlock.forward.0"),
         origin("Module.half_block.HalfBlock.forward.0", "output/0", "inf", "Module.half_block.HalfBlock.forward.0")],
     "first_origin": "Module.log_block.LogBlock.forward.0", "first_backward_origin": None, "others": []},
    {"path": FIX + "/attention_mask", "args": [], "exit": 0, "origins": [],
     "first_origin": None, "first_backward_origin": None,
     "others": [("argument", "Tensor.masked_fill.0.forward", "/data/Tensor.masked_fill.0.forward/input_args/2")]},
    {"path": FIX + "/nan_grad", "args": [], "exit": 1,
     "origins": [
         origin("Torch.atan2.0.backward", "output/0", "nan", "Module.atan_block.AtanBlock.backward.0", downstream=2),
         origin("Torch.sqrt.0.backward", "output/0", "inf", "Module.sqrt_block.SqrtBlock.backward.0", downstream=0)],
     "first_origin": None, "first_backward_origin": "Torch.atan2.0.backward", "others": []},
    {"path": FIX + "/fp16_warnings", "args": [], "exit": 0, "origins": [],
     "first_origin": None, "first_backward_origin": None,
     "others": [("stat-overflow", "Tensor.half.0.forward", "/data/Tensor.half.0.forward/output/0"),
                ("overflow-risk", "Tensor.half.0.forward", "/data/Tensor.half.0.forward/output/0"),
                ("stat-overflow", "Torch.full.0.forward", "/data/Torch.full.0.forward/output/0")]},
    {"path": FIX + "/fp16_warnings", "args": ["--strict"], "exit": 1, "origins": [],
     "first_origin": None, "first_backward_origin": None,
     "others": [("stat-overflow", "Tensor.half.0.forward", "/data/Tensor.half.0.forward/output/0"),
                ("overflow-risk", "Tensor.half.0.forward", "/data/Tensor.half.0.forward/output/0"),
                ("stat-overflow", "Torch.full.0.forward", "/data/Torch.full.0.forward/output/0")]},
    {"path": FIX + "/tree", "args": [], "exit": 1,
     "origins": [origin("Torch.div.0.forward", "output/0", "mixed", None)],
     "first_origin": "Torch.div.0.forward", "first_backward_origin": None, "others": [],
     "summary": {"dumps": 4, "first_step_with_origin": 1, "ranks_with_origins": [1],
                 "rank_divergences": [{"step": 1, "entry": "Torch.div.0.forward", "ranks": [1], "missing_in": [0]}]}},
]


def run(msdump, path, args):
    cmd = [msdump, "anomalies", path, "--report", "json", "--quiet"] + list(args)
    p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    try:
        report = json.loads(p.stdout.decode("utf-8"))
    except ValueError:
        report = None
    return cmd, p.returncode, report, p.stderr.decode("utf-8", "replace")


def check(name, msdump, path, args, want_exit, want_origins, first, first_backward, others, summary=None):
    cmd, rc, report, err = run(msdump, path, args)
    problems = []
    if rc != want_exit:
        problems.append("exit %d, expected %d (%s)" % (rc, want_exit, err.strip()))
    if report is None:
        problems.append("no JSON report")
    else:
        got = [a for a in report["anomalies"] if a["role"] == "origin"]
        keys = ["entry", "pointer", "kind", "module", "counts"]
        got_o = [{k: a[k] for k in keys} for a in got]
        want_o = [{k: o[k] for k in keys} for o in want_origins]
        if got_o != want_o:
            problems.append("origins %s, expected %s" % (json.dumps(got_o), json.dumps(want_o)))
        for g, w in zip(got, want_origins):
            if "downstream" in w and g["downstream"] != w["downstream"]:
                problems.append("%s downstream %d, expected %d" % (g["entry"], g["downstream"], w["downstream"]))
        s = report["summary"]
        if (s["first_origin"] or {}).get("entry") != first:
            problems.append("first_origin %s, expected %s" % (s["first_origin"], first))
        if (s["first_backward_origin"] or {}).get("entry") != first_backward:
            problems.append("first_backward_origin %s, expected %s" % (s["first_backward_origin"], first_backward))
        got_others = [(a["role"], a["entry"], a["pointer"]) for a in report["anomalies"] if a["role"] != "origin"]
        if got_others != [tuple(o) for o in others]:
            problems.append("other anomalies %s, expected %s" % (got_others, others))
        if s["origins"] != len(want_origins):
            problems.append("summary origins %d, expected %d" % (s["origins"], len(want_origins)))
        for k, v in (summary or {}).items():
            if s.get(k) != v:
                problems.append("summary %s = %s, expected %s" % (k, s.get(k), v))
    if problems:
        print("FAIL %s: %s\n  %s" % (name, " ".join(cmd), "\n  ".join(problems)))
        return False
    return True


def leaf_of(entry, section):
    """The first tensor leaf of a section (a list, or the first value of an object)."""
    v = entry.get(section)
    while isinstance(v, (list, dict)) and not (isinstance(v, dict) and "type" in v):
        items = v if isinstance(v, list) else list(v.values())
        items = [i for i in items if i is not None]
        if not items:
            return None
        v = items[0]
    return v if isinstance(v, dict) and v.get("type", "").endswith("Tensor") and isinstance(v.get("Max"), float) else None


def write_mutant(src_dir, out_dir, mutate):
    with open(os.path.join(ROOT, src_dir, "dump.json")) as f:
        dump = json.load(f)
    mutate(dump["data"])
    os.makedirs(out_dir)
    with open(os.path.join(out_dir, "dump.json"), "w") as f:
        json.dump(dump, f, indent=1)
    shutil.copy(os.path.join(ROOT, src_dir, "construct.json"), out_dir)


def module_of(src_dir, entry):
    """A module entry is its own module; an API entry's is its parent in construct.json."""
    if entry.startswith("Module."):
        return entry
    with open(os.path.join(ROOT, src_dir, "construct.json")) as f:
        parent = json.load(f).get(entry)
    return parent[0] if isinstance(parent, list) else parent


def first_entry(data, want, section):
    for name, e in data.items():
        if want(name) and leaf_of(e, section) is not None:
            return name
    return None


def mutation_checks(msdump, tmp):
    results = []
    sources = ["testdata/good/msprobe/cnn_L0_tensor_all_step0", "testdata/good/msprobe/cnn_mix_md5_all_step1",
               "testdata/good/msprobe/legacy_mix_statistics_step0_cut"]
    forward = lambda n: ".forward" in n
    backward = lambda n: ".backward" in n
    for src in sources:
        with open(os.path.join(ROOT, src, "dump.json")) as f:
            data = json.load(f)["data"]
        base = os.path.basename(src)
        names = [n for n in data if forward(n) and leaf_of(data[n], "output") is not None]
        # Max = NaN / Min = -Infinity on the output of the first and of a middle forward entry.
        for pick in sorted({names[0], names[len(names) // 2]}):
            for key, value, kind in (("Max", float("nan"), "nan"), ("Min", float("-inf"), "-inf")):
                out = os.path.join(tmp, "%s-%s-%s" % (base, pick, key))
                write_mutant(src, out, lambda d: leaf_of(d[pick], "output").__setitem__(key, value))
                results.append(check("%s %s output %s" % (base, pick, key), msdump, out, ["--no-tensors"], 1,
                                     [origin(pick, "output/0", kind, module_of(src, pick))], pick, None, []))
        # A Norm overflow alone: a warning.
        pick = names[0]
        out = os.path.join(tmp, "%s-%s-norm" % (base, pick))
        write_mutant(src, out, lambda d: leaf_of(d[pick], "output").__setitem__("Norm", float("inf")))
        others = [("stat-overflow", pick, "/data/%s/output/0" % pick)]
        results.append(check("%s %s Norm" % (base, pick), msdump, out, ["--no-tensors"], 0, [], None, None, others))
        results.append(check("%s %s Norm --strict" % (base, pick), msdump, out, ["--no-tensors", "--strict"], 1, [],
                             None, None, others))
        # A non-finite input and output: propagated from before the dump, no origin.
        pick = first_entry(data, lambda n: forward(n) and leaf_of(data[n], "output") is not None, "input_args")
        if pick:
            out = os.path.join(tmp, "%s-%s-through" % (base, pick))

            def through(d, pick=pick):
                leaf_of(d[pick], "input_args")["Max"] = float("nan")
                leaf_of(d[pick], "output")["Max"] = float("nan")
            write_mutant(src, out, through)
            results.append(check("%s %s input and output NaN" % (base, pick), msdump, out, ["--no-tensors"], 0, [],
                                 None, None, [("propagated", pick, "/data/%s/output/0" % pick)]))
        # A backward output: the first backward origin.
        pick = first_entry(data, backward, "output")
        if pick and leaf_of(data[pick], "input") is not None:
            out = os.path.join(tmp, "%s-%s-grad" % (base, pick))
            write_mutant(src, out, lambda d: leaf_of(d[pick], "output").__setitem__("Max", float("inf")))
            results.append(check("%s %s grad Max" % (base, pick), msdump, out, ["--no-tensors"], 1,
                                 [origin(pick, "output/0", "inf", module_of(src, pick))], None, pick, []))
    return results


def main():
    msdump = os.path.abspath(sys.argv[1])
    results = []
    for i, f in enumerate(FIXTURES):
        results.append(check("%s %s" % (f["path"], " ".join(f["args"])), msdump, f["path"], f["args"], f["exit"],
                             f["origins"], f["first_origin"], f["first_backward_origin"], f["others"], f.get("summary")))
    for d in sorted(os.listdir(os.path.join(ROOT, "testdata/good/msprobe"))):
        path = "testdata/good/msprobe/" + d
        if os.path.isfile(os.path.join(ROOT, path, "dump.json")):
            results.append(check(path, msdump, path, [], 0, [], None, None, []))
    with tempfile.TemporaryDirectory() as tmp:
        results += mutation_checks(msdump, tmp)
    passed = sum(1 for r in results if r)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())

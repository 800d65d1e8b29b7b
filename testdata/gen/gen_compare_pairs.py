#!/usr/bin/python3
"""Reference pairs for `msdump compare`: real msprobe dumps of two sides of one small model and
msprobe's own compare results on them (testdata/compare/, see its README.md).

msprobe is NOT part of this repository and no test needs it; this script is how the reference
data was made and can be remade. It needs the Debian interpreter (torch 1.13 CPU, pandas,
numpy, yaml, tqdm, openpyxl) and a checkout of msprobe's python tree:

    /usr/bin/python3 testdata/gen/gen_compare_pairs.py --msprobe /tmp/msprobe/python all
    /usr/bin/python3 testdata/gen/gen_compare_pairs.py --msprobe /tmp/msprobe/python check

`all` rewrites testdata/compare/{cnn_extra_call,cnn_bias_log,bias_log_mix,nan_inf_masks}/ (dumps,
msprobe's compare outputs, EXPECTED_FUZZY.json, TRUTH.json); `dump PAIR` / `compare PAIR` do one
half (after `all`, regenerate testdata/compare/cases.json: `make-cases`); `check` re-runs every
msprobe compare recorded under testdata/compare/*/msprobe/*/run.json (the committed sample pairs
too), testdata/compare/variants/*/msprobe/*/run.json and testdata/compare/steps/*/msprobe/*/run.json,
and reports any result file that
differs from the committed one (names modulo timestamps).

msprobe targets torch >= 2.1. Two torch-1.13 gaps are patched at run time in the dumping child
(never in msprobe's files): `Tensor.untyped_storage` (defined as `storage().untyped()`) and
`torch._C._autograd._get_creation_meta` (made to report the default creation meta, so msprobe's
reset of it in module backward hooks is skipped). msprobe's compare imports modules it does not
use for PyTorch dumps (protobuf, onnx, matplotlib, einops), and its MindSpore compare imports
mindspore, which it does not call on dump.json files: they are replaced by empty stand-ins.

Determinism: seeds 1234 (python, numpy, torch; PYTHONHASHSEED=1234), one thread, inputs drawn
from a fixed generator. Absolute paths written by msprobe (dump_data_dir, this script's frames in
stack.json, dump_path in config.json) are rewritten to the neutral root /srv/oracle/... .
"""

import argparse
import glob
import importlib.abc
import importlib.machinery
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import types

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(REPO, "testdata", "compare")
NEUTRAL_ROOT = "/srv/oracle/samples/compare"
NEUTRAL_SCRIPT = "/srv/oracle/gen_compare_pairs.py"
SEED = 1234
# Packages msprobe's python tree imports at start-up but never calls on the dump and compare paths
# used here (protobuf, ONNX, einops, matplotlib; mindspore for its MindSpore compare of dump.json
# files, gen_compare_variants.py); Debian has none of them, so the driver lets an
# import of them succeed with inert stand-ins (_StubFinder below). Only this generator uses them.
STUB_MODULES = ["mindspore", "google", "onnx", "onnxruntime", "skl2onnx", "einops", "matplotlib"]

# ---------------------------------------------------------------------------------------------
# The pairs. Each run is dumped once per side with the same config; `side` tells the model
# which variant to build.

PAIRS = {
    "cnn_extra_call": {
        "runs": {
            "L1_statistics": {"task": "statistics", "summary_mode": "statistics"},
            "L1_md5": {"task": "statistics", "summary_mode": "md5"},
            "L1_tensor": {"task": "tensor", "summary_mode": "statistics"},
        },
        "compares": [
            # (id, run, kind, flags)
            ("L1_statistics.step0", "L1_statistics", "file", []),
            ("L1_md5.step0", "L1_md5", "file", []),
            ("L1_tensor.step0", "L1_tensor", "file", []),
            ("L1_tensor.step0.fm", "L1_tensor", "file", ["-fm"]),
            ("L1_statistics.step0.fm", "L1_statistics", "file", ["-fm"]),
            ("L1_statistics.step0.dm", "L1_statistics", "file", ["-dm", "{pair}/data_mapping.yaml"]),
            ("L1_tensor.step0.dm", "L1_tensor", "file", ["-dm", "{pair}/data_mapping.yaml"]),
        ],
    },
    "cnn_bias_log": {
        "runs": {
            "L1_statistics": {"task": "statistics", "summary_mode": "statistics"},
            "L1_tensor": {"task": "tensor", "summary_mode": "statistics"},
        },
        "compares": [
            ("L1_statistics.step0", "L1_statistics", "file", []),
            ("L1_tensor.step0", "L1_tensor", "file", []),
            ("L1_statistics.step0.dir-da", "L1_statistics", "dir", ["-da"]),
            ("L1_tensor.step0.dir-da", "L1_tensor", "dir", ["-da"]),
        ],
    },
    "bias_log_mix": {
        # cnn_bias_log's model and inputs at level mix: module and parameter-gradient rows next
        # to the API rows, in every mode.
        "runs": {
            "mix_statistics": {"task": "statistics", "summary_mode": "statistics", "level": "mix"},
            "mix_md5": {"task": "statistics", "summary_mode": "md5", "level": "mix"},
            "mix_tensor": {"task": "tensor", "summary_mode": "statistics", "level": "mix"},
        },
        "compares": [
            ("mix_statistics.step0", "mix_statistics", "file", []),
            ("mix_md5.step0", "mix_md5", "file", []),
            ("mix_tensor.step0", "mix_tensor", "file", []),
        ],
    },
    "nan_inf_masks": {
        "runs": {
            "L1_statistics": {"task": "statistics", "summary_mode": "statistics"},
            "L1_tensor": {"task": "tensor", "summary_mode": "statistics"},
        },
        "compares": [
            ("L1_statistics.step0", "L1_statistics", "file", []),
            ("L1_tensor.step0", "L1_tensor", "file", []),
        ],
    },
}

# ---------------------------------------------------------------------------------------------
# Models (the dumping child imports torch; the parent does not need it).


def build_model(pair, side):
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class SmallCNN(nn.Module):
        """The sample CNN; with `extra_call` one more F.relu call whose result is dropped."""

        def __init__(self, extra_call):
            super().__init__()
            self.extra_call = extra_call
            self.conv1 = nn.Conv2d(3, 4, kernel_size=3, padding=1)
            self.bn1 = nn.BatchNorm2d(4)
            self.relu = nn.ReLU()
            self.pool = nn.MaxPool2d(2)
            self.conv2 = nn.Conv2d(4, 4, kernel_size=3, padding=1)
            self.fc = nn.Linear(4 * 4 * 4, 5)

        def forward(self, x):
            x = self.bn1(self.conv1(x))
            if self.extra_call:
                # The extra call: npu Functional.relu.0; its result is unused (so it has no
                # backward entry) and its tensor is passed by keyword, so its first row
                # (`...input.input`) has no namesake among the bench rows: a counter-blind
                # sequential matcher leaves it unmatched and pairs the real calls correctly.
                F.relu(input=x)
            x = self.pool(self.relu(x))
            x = self.relu(self.conv2(x))   # the same ReLU module, called a second time
            x = torch.flatten(x, 1)
            return self.fc(x)

    class BiasLogNet(nn.Module):
        """fc1 -> log -> fc2. fc1's bias is large enough that every fc1 output is positive on
        the bench side; the npu side lowers one bias element so that this output goes negative
        for some samples and its log turns NaN."""

        def __init__(self, shift_bias):
            super().__init__()
            self.fc1 = nn.Linear(6, 4)
            self.fc2 = nn.Linear(4, 3)
            with torch.no_grad():
                self.fc1.bias.copy_(torch.tensor([3.0, 3.0, 3.0, 3.0]))
                if shift_bias:
                    self.fc1.bias[2] -= 3.5

        def forward(self, x):
            h = torch.log(self.fc1(x))
            return self.fc2(h)

    class MaskNet(nn.Module):
        """An identity Linear (bench bias 0, npu bias [0, 0.5, 0.5, 0]) feeding log, exp and
        exp(2h) of hand-picked inputs: NaN of log and inf of exp at the same positions on both
        sides (values elsewhere partly different), and one position where only the npu side
        overflows in exp(2h) (44.5 * 2 > log(float32 max) > 44 * 2)."""

        def __init__(self, shift_bias):
            super().__init__()
            self.fc = nn.Linear(4, 4)
            with torch.no_grad():
                self.fc.weight.copy_(torch.eye(4))
                self.fc.bias.copy_(torch.tensor([0.0, 0.5, 0.5, 0.0] if shift_bias else [0.0] * 4))

        def forward(self, x):
            h = self.fc(x)
            a = torch.log(h)            # NaN at the same positions on both sides
            b = torch.exp(h)            # inf at the same positions on both sides
            c = torch.exp(h * 2)        # inf at (0, 1) on the npu side only
            c.max()                     # 0-d: inf on both sides
            return torch.nan_to_num(a).sum() + torch.clamp(b, max=1e4).mean() + torch.clamp(c, max=1e4).mean()

    if pair == "cnn_extra_call":
        return SmallCNN(extra_call=(side == "npu"))
    if pair == "nan_inf_masks":
        return MaskNet(shift_bias=(side == "npu"))
    if pair in ("cnn_bias_log", "bias_log_mix"):
        return BiasLogNet(shift_bias=(side == "npu"))
    raise SystemExit(f"unknown pair {pair}")


def make_batch(pair):
    import torch
    gen = torch.Generator().manual_seed(SEED)
    if pair == "cnn_extra_call":
        return torch.randn(2, 3, 8, 8, generator=gen), torch.randint(0, 5, (2,), generator=gen)
    if pair == "nan_inf_masks":
        return torch.tensor([[-1.0, 44.0, 100.0, 2.0], [3.0, -2.0, 0.25, 95.0]]), None
    return torch.randn(4, 6, generator=gen), torch.randint(0, 3, (4,), generator=gen)


def fwd_loss(model, batch):
    import torch.nn.functional as F
    x, y = batch
    if y is None:
        return model(x)   # the model computes its own loss
    return F.cross_entropy(model(x), y)


def patch_torch_113():
    """The two torch-1.13 gaps msprobe's dump side trips over, patched in this process only."""
    import torch
    if not hasattr(torch.Tensor, "untyped_storage"):
        torch.Tensor.untyped_storage = lambda self: self.storage().untyped()
    autograd = torch._C._autograd
    if not hasattr(autograd, "_get_creation_meta"):
        autograd.CreationMeta = lambda value: value
        autograd._get_creation_meta = lambda tensor: 0
        autograd._set_creation_meta = lambda tensor, meta: None


def run_child(pair, side, config):
    """One dump: one training step (forward, loss, backward) between start and stop."""
    import numpy as np
    import torch
    torch.set_num_threads(1)
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    patch_torch_113()
    from msprobe.pytorch import PrecisionDebugger
    debugger = PrecisionDebugger(config_path=config)
    torch.manual_seed(SEED)                       # weights
    model = build_model(pair, side)
    batch = make_batch(pair)
    model.train()
    debugger.start(model=model, rank_id=0)
    loss = fwd_loss(model, batch)
    loss.backward()
    debugger.stop()
    debugger.step()
    return 0


# ---------------------------------------------------------------------------------------------
# Stand-ins for modules msprobe imports but never uses on PyTorch dumps.


class _Anything(type):
    def __getattr__(cls, name):
        return _Stub


class _Stub(metaclass=_Anything):
    def __init__(self, *args, **kwargs):
        pass

    def __call__(self, *args, **kwargs):
        return _Stub()

    def __getattr__(self, name):
        return _Stub()


class _StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name == "__version__":  # (msprobe's MindSpore compare checks mindspore's version)
            return "2.6.0"
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname, path, target=None):
        if fullname.split(".")[0] in STUB_MODULES:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        module = _StubModule(spec.name)
        module.__path__ = []
        return module

    def exec_module(self, module):
        pass


def install_stubs():
    sys.meta_path.append(_StubFinder())
    try:
        import packaging.version  # noqa: F401
    except ImportError:
        # Debian ships `packaging` inside pip/setuptools only: use that copy.
        import importlib
        vendored = importlib.import_module("pip._vendor.packaging")
        importlib.import_module("pip._vendor.packaging.version")
        sys.modules["packaging"] = vendored
        sys.modules["packaging.version"] = vendored.version


def run_msprobe_cli(argv):
    import runpy
    sys.argv = ["msprobe"] + argv
    runpy.run_module("msprobe.msprobe", run_name="__main__")


# ---------------------------------------------------------------------------------------------
# Parent side: dumps, path rewriting, compares.


def child_env(msprobe_python):
    env = dict(os.environ)
    env["PYTHONPATH"] = msprobe_python
    env["PYTHONHASHSEED"] = str(SEED)
    env["OMP_NUM_THREADS"] = "1"
    return env


def write_json(path, obj, indent=1):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=indent)
        f.write("\n")


def config_for(run, dump_path):
    spec = PAIRS_RUN_CACHE[run]
    section = {"scope": [], "list": [], "data_mode": ["all"], "summary_mode": spec["summary_mode"]}
    if spec["task"] == "statistics":
        section = {"scope": [], "list": [], "tensor_list": [], "data_mode": ["all"],
                   "summary_mode": spec["summary_mode"]}
    return {"task": spec["task"], "dump_path": dump_path, "rank": [], "step": [], "level": spec.get("level", "L1"),
            "async_dump": False, "extra_info": True, spec["task"]: section}


PAIRS_RUN_CACHE = {}


def rewrite_paths(side_dir, neutral_side_dir):
    """Replaces the machine's absolute paths in what msprobe wrote by the neutral root."""
    script = os.path.abspath(__file__)
    for name in glob.glob(os.path.join(side_dir, "**", "*.json"), recursive=True):
        with open(name, encoding="utf-8") as f:
            text = f.read()
        new = text.replace(side_dir, neutral_side_dir).replace(script, NEUTRAL_SCRIPT)
        if new != text:
            with open(name, "w", encoding="utf-8") as f:
                f.write(new)


def dump_pair(pair, msprobe_python):
    pair_dir = os.path.join(OUT, pair)
    for run, spec in PAIRS[pair]["runs"].items():
        PAIRS_RUN_CACHE[run] = spec
        for side in ("bench", "npu"):
            side_dir = os.path.join(pair_dir, run, side)
            shutil.rmtree(side_dir, ignore_errors=True)
            os.makedirs(side_dir)
            config = os.path.join(side_dir, "config.json")
            write_json(config, config_for(run, side_dir), indent=4)
            cmd = [sys.executable, os.path.abspath(__file__), "--msprobe", msprobe_python,
                   "child", pair, side, config]
            proc = subprocess.run(cmd, env=child_env(msprobe_python), cwd=side_dir,
                                  capture_output=True, text=True)
            if proc.returncode != 0:
                sys.stderr.write(proc.stdout + proc.stderr)
                raise SystemExit(f"dump {pair}/{run}/{side} failed (rc {proc.returncode})")
            rewrite_paths(side_dir, f"{NEUTRAL_ROOT}/{pair}/{run}/{side}")
            print(f"dumped {pair}/{run}/{side}")
    if pair == "cnn_extra_call":
        write_data_mapping(pair_dir)


def write_data_mapping(pair_dir):
    """-dm: the extra call's successors mapped back by one (forward rows only: msprobe's -dm
    renumbers bench backward keys, so backward rows would hit other calls, see README)."""
    lines = ["# npu row name: bench row name"]
    for npu, bench in ((1, 0), (2, 1)):
        for leaf in ("input.0", "input.inplace", "output.0"):
            lines.append(f"Functional.relu.{npu}.forward.{leaf}: Functional.relu.{bench}.forward.{leaf}")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(pair_dir, "data_mapping.yaml"), "w", encoding="utf-8") as f:
        f.write(text)


def compare_paths(run, kind):
    if kind == "file":
        return (f"{run}/npu/step0/rank0/dump.json", f"{run}/bench/step0/rank0/dump.json")
    return (f"{run}/npu/step0", f"{run}/bench/step0")


def run_compare(pair_dir, cid, run, kind, flags, msprobe_python, paths=None):
    """msprobe's compare of a run of a pair, into <pair_dir>/msprobe/<cid>/ (with run.json and
    msprobe.log); `paths` (npu, bench), relative to pair_dir, instead of the run's own."""
    out_rel = f"msprobe/{cid}"
    out_dir = os.path.join(pair_dir, out_rel)
    shutil.rmtree(out_dir, ignore_errors=True)
    npu, bench = paths or compare_paths(run, kind)
    flags = [f.replace("{pair}/", "") for f in flags]
    argv = ["compare", "-tp", npu, "-gp", bench, "-o", out_rel] + flags
    cmd = [sys.executable, os.path.abspath(__file__), "--msprobe", msprobe_python, "msprobe"] + argv
    start = time.time()
    proc = subprocess.run(cmd, env=child_env(msprobe_python), cwd=pair_dir,
                          capture_output=True, text=True)
    wall = time.time() - start
    os.makedirs(out_dir, exist_ok=True)
    log = (proc.stdout + proc.stderr).replace(pair_dir, ".").replace(REPO, "<repo>").replace(
        os.path.dirname(os.path.abspath(msprobe_python)), "<msprobe>").replace(
        os.path.abspath(__file__), NEUTRAL_SCRIPT)
    with open(os.path.join(out_dir, "msprobe.log"), "w", encoding="utf-8") as f:
        f.write(log)
    files = sorted(n for n in os.listdir(out_dir) if n not in ("msprobe.log", "run.json"))
    write_json(os.path.join(out_dir, "run.json"), {
        "id": cid, "run": run, "kind": kind, "step": "step0", "flags": flags,
        "cmd": "msprobe " + " ".join(argv), "cwd": "<pair dir>", "rc": proc.returncode,
        "wall_s": round(wall, 2), "files": files})
    return proc.returncode, files


def compare_pair(pair, msprobe_python):
    pair_dir = os.path.join(OUT, pair)
    for cid, run, kind, flags in PAIRS[pair]["compares"]:
        rc, files = run_compare(pair_dir, cid, run, kind, flags, msprobe_python)
        print(f"compare {pair} {cid}: rc={rc} files={files}")
    if pair == "cnn_extra_call":
        write_expected_fuzzy(pair_dir)
    if pair == "cnn_bias_log":
        write_bias_log_truth(pair_dir)


# ---------------------------------------------------------------------------------------------
# Ground truth derived from the models (not from any compare tool).

ROW_RE = re.compile(r"^(Functional\.relu)\.(\d+)\.(forward|backward)(\..*)$")


def npu_rows(dump_json):
    """Row names of a dump in msprobe's table order (per entry: inputs, outputs)."""
    with open(dump_json, encoding="utf-8") as f:
        data = json.load(f)["data"]
    rows = []

    def visit(prefix, value):
        if isinstance(value, dict) and isinstance(value.get("type"), str):
            # tensor dumps: the row is named after the tensor file (a tensor passed by keyword
            # is `<entry>.kwargs.<name>` there, not `<entry>.input.<name>`)
            data_name = value.get("data_name")
            if isinstance(data_name, str) and data_name not in ("", "-1"):
                rows.append(data_name.rsplit(".", 1)[0])
            else:
                rows.append(prefix)
        elif value is None:
            rows.append(prefix)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                visit(f"{prefix}.{i}", item)
        elif isinstance(value, dict):
            for key, item in value.items():
                visit(f"{prefix}.{key}", item)

    for entry, body in data.items():
        for key in ("input_args", "input_kwargs", "input"):
            if key in body:
                visit(f"{entry}.input", body[key])
        if "output" in body:
            visit(f"{entry}.output", body["output"])
    return rows


def fuzzy_partner(row):
    """The extra F.relu call is npu Functional.relu.0.forward: every later Functional.relu call
    on the npu side is the bench call one counter lower; the extra call has no partner (its
    result is unused, so it has no backward entry). Everything else keeps its name."""
    m = ROW_RE.match(row)
    if not m:
        return row
    counter = int(m.group(2))
    if counter == 0:
        return None
    return f"{m.group(1)}.{counter - 1}.{m.group(3)}{m.group(4)}"


def fuzzy_agreement(pair_dir, expected):
    """How many rows of msprobe's own -fm table (tensor mode, where its fuzzy match works)
    differ from the expected pairing; printed as a cross-check, not used to derive it."""
    names = glob.glob(os.path.join(pair_dir, "msprobe", "L1_tensor.step0.fm", "*.csv"))
    if not names:
        return "no msprobe -fm table"
    import csv
    with open(names[0], newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    got = [(r["NPU Name"], None if r["Bench Name"] == "N/A" else r["Bench Name"]) for r in table]
    want = [(e["npu"], e["bench"]) for e in expected]
    return "agrees" if got == want else f"DIFFERS in {sum(a != b for a, b in zip(got, want))} rows"


def write_expected_fuzzy(pair_dir):
    expected = {}
    for run in PAIRS["cnn_extra_call"]["runs"]:
        rows = npu_rows(os.path.join(pair_dir, run, "npu", "step0", "rank0", "dump.json"))
        expected[run] = [{"npu": r, "bench": fuzzy_partner(r)} for r in rows]
    write_json(os.path.join(pair_dir, "EXPECTED_FUZZY.json"), {
        "pair": "cnn_extra_call",
        "rule": "npu Functional.relu.0.forward (the extra call) is unmatched; npu "
                "Functional.relu.<k>.<direction> pairs with bench Functional.relu.<k-1>.<direction>;"
                " every other npu row pairs with the bench row of the same name",
        "runs": expected}, indent=1)
    print("EXPECTED_FUZZY vs msprobe -fm (tensor):", fuzzy_agreement(pair_dir, expected["L1_tensor"]))


def write_bias_log_truth(pair_dir):
    truth = {
        "pair": "cnn_bias_log",
        "kind": "shifted parameter upstream of a log",
        "step": 0,
        "rank": 0,
        "first_difference": {"entry": "Functional.linear.0.forward",
                             "row": "Functional.linear.0.forward.input.2"},
        "first_divergence": {"entry": "Torch.log.0.forward",
                             "row": "Torch.log.0.forward.output.0"},
        "description": (
            "npu fc1.bias[2] is 3.5 lower than on the bench. Every row before fc1's "
            "Functional.linear.0.forward is identical; its input.2 (the bias) is the first row "
            "that differs, and its output differs (fc1 output column 2 shifted by -3.5, still "
            "finite). Torch.log.0.forward reads that output: column 2 is negative for some "
            "samples on the npu side, so the log output holds NaN there while the bench output "
            "is finite everywhere; that is the first row that turns non-finite and the first "
            "row msprobe marks error. Downstream (fc2, the loss, every gradient) carries NaN."),
        "note_msprobe_da": (
            "msprobe -da (directory mode) names Functional.linear.0.forward instead: its output's "
            "relative statistics exceed its 50 % bar; it looks at outputs only, not at where a "
            "value first turns non-finite."),
    }
    write_json(os.path.join(pair_dir, "TRUTH.json"), truth)


# ---------------------------------------------------------------------------------------------
# check: re-run recorded compares, compare the result files with the committed ones.

TS_RE = re.compile(r"_\d{14}(?=\.(csv|json|xlsx)$)|(?<=diff_analyze_)\d+(?=\.json$)")


def normalized(name):
    return TS_RE.sub("_<ts>", name) if not name.startswith("diff_analyze_") else "diff_analyze_<ns>.json"


def content(path):
    """A result file's content: its bytes; for a workbook, its members but the document
    properties (which carry the time it was written)."""
    if not path.endswith(".xlsx"):
        with open(path, "rb") as f:
            return f.read()
    import zipfile
    with zipfile.ZipFile(path) as z:
        return {n: z.read(n) for n in z.namelist() if n != "docProps/core.xml"}


def check_all(msprobe_python):
    bad = 0
    runs = [run for group in ("*", "variants/*", "steps/*")
            for run in glob.glob(os.path.join(OUT, group, "msprobe", "*", "run.json"))]
    for run_json in sorted(runs):
        with open(run_json, encoding="utf-8") as f:
            rec = json.load(f)
        out_dir = os.path.dirname(run_json)
        pair_dir = os.path.dirname(os.path.dirname(out_dir))
        tmp_rel = f"/tmp/gen_compare_check/{os.path.basename(pair_dir)}/{rec['id']}"
        shutil.rmtree(tmp_rel, ignore_errors=True)
        argv = rec["cmd"].split()[1:]
        argv[argv.index("-o") + 1] = tmp_rel
        cmd = [sys.executable, os.path.abspath(__file__), "--msprobe", msprobe_python, "msprobe"] + argv
        proc = subprocess.run(cmd, env=child_env(msprobe_python), cwd=pair_dir,
                              capture_output=True, text=True)
        got = {normalized(n): os.path.join(tmp_rel, n) for n in os.listdir(tmp_rel)} \
            if os.path.isdir(tmp_rel) else {}
        want = {normalized(n): os.path.join(out_dir, n) for n in rec["files"]}
        problems = []
        if proc.returncode != rec["rc"]:
            problems.append(f"rc {proc.returncode} != {rec['rc']}")
        if sorted(got) != sorted(want):
            problems.append(f"files {sorted(got)} != {sorted(want)}")
        for key in sorted(set(got) & set(want)):
            if key.startswith("diff_analyze_"):
                continue  # holds a nanosecond time stamp only in its name; content compared below
            if content(got[key]) != content(want[key]):
                problems.append(f"{key} differs")
        for key in sorted(set(got) & set(want)):
            if key.startswith("diff_analyze_"):
                with open(got[key], "rb") as a, open(want[key], "rb") as b:
                    if a.read() != b.read():
                        problems.append(f"{key} differs")
        label = f"{os.path.basename(pair_dir)}/{rec['id']}"
        print(f"{'OK  ' if not problems else 'DIFF'} {label}" + ("" if not problems else ": " + "; ".join(problems)))
        bad += bool(problems)
    print(f"{bad} differing compare run(s)")
    return 1 if bad else 0


# ---------------------------------------------------------------------------------------------
# make-cases: testdata/compare/cases.json for tests/golden/run_compare_goldens.py (result file
# names carry msprobe's time stamps, so this runs after every `all`/`compare`).


def _one(pattern):
    hits = sorted(glob.glob(os.path.join(OUT, pattern)))
    if len(hits) != 1:
        raise SystemExit(f"expected one file for {pattern}, found {hits}")
    return os.path.relpath(hits[0], OUT)


def _expect(output, pair, cid, rank=None):
    rank_part = f"rank{rank}_" if rank is not None else ""
    return {"output": output,
            "msprobe": _one(f"{pair}/msprobe/{cid}/compare_result_{rank_part}[0-9]*.csv")}


def _file_paths(pair, run, step=0):
    return (f"{pair}/{run}/npu/step{step}/rank0/dump.json", f"{pair}/{run}/bench/step{step}/rank0/dump.json")


def dm_deviations(pair, run):
    """Backward rows msprobe's -dm table pairs with another call than their true partner (the
    EXPECTED_FUZZY pairing: -dm maps the forward rows, backward rows pair by backward order on
    both sides). With every backward row paired truly, no row of the -dm table is an error."""
    import csv
    with open(os.path.join(OUT, pair, "EXPECTED_FUZZY.json"), encoding="utf-8") as f:
        truth = {e["npu"]: e["bench"] for e in json.load(f)["runs"][run]}
    with open(os.path.join(OUT, _one(f"{pair}/msprobe/{run}.step0.dm/compare_result_[0-9]*.csv")),
              newline="", encoding="utf-8") as f:
        table = list(csv.DictReader(f))
    rows = {}
    for r in table:
        got = None if r["Bench Name"] == "N/A" else r["Bench Name"]
        if ".backward." in r["NPU Name"] and got != truth[r["NPU Name"]]:
            rows[r["NPU Name"]] = truth[r["NPU Name"]]
    return {"reason": "msprobe keys the npu side of a data mapping without backward renumbering; "
                      "msdump renumbers both sides, so these backward rows pair with their true "
                      "partners (EXPECTED_FUZZY.json)",
            "exit": 0, "rows": rows}


def make_cases():
    cases = []

    def table(name, npu, bench, expect, flags=(), note=None):
        case = {"name": name, "kind": "table", "npu": npu, "bench": bench, "flags": list(flags),
                "expect": expect}
        if note:
            case["note"] = note
        cases.append(case)

    pair = "cnn_bug_vs_ref"
    for run in ("mix_statistics", "L1_tensor"):
        for step in (0, 1):
            table(f"{pair} {run} step{step} dump.json", *_file_paths(pair, run, step),
                  [_expect("compare_result_<ts>.csv", pair, f"{run}.step{step}")])
    table(f"{pair} mix_statistics step0 rank dir", f"{pair}/mix_statistics/npu/step0/rank0",
          f"{pair}/mix_statistics/bench/step0/rank0",
          [_expect("compare_result_rank0_<ts>.csv", pair, "mix_statistics.step0")],
          note="a rank directory pair gives the file-mode table, named after the rank")
    for run in ("mix_statistics", "L1_tensor"):
        table(f"{pair} {run} tree", f"{pair}/{run}/npu", f"{pair}/{run}/bench",
              [_expect(f"step{s}/compare_result_rank0_<ts>.csv", pair, f"{run}.step{s}") for s in (0, 1)])
    pair = "cnn_2rank"
    for run in ("L1_statistics", "L1_tensor"):
        for step in (0, 1):
            table(f"{pair} {run} step{step} dir", f"{pair}/{run}/npu/step{step}", f"{pair}/{run}/bench/step{step}",
                  [_expect(f"compare_result_rank{r}_<ts>.csv", pair, f"{run}.step{step}.dir", r) for r in (0, 1)])
        table(f"{pair} {run} tree", f"{pair}/{run}/npu", f"{pair}/{run}/bench",
              [_expect(f"step{s}/compare_result_rank{r}_<ts>.csv", pair, f"{run}.step{s}.dir", r)
               for s in (0, 1) for r in (0, 1)])
    pair = "cnn_extra_call"
    for run in ("L1_statistics", "L1_md5", "L1_tensor"):
        table(f"{pair} {run} exact", *_file_paths(pair, run), [_expect("compare_result_<ts>.csv", pair, f"{run}.step0")])
    table(f"{pair} L1_tensor --fuzzy", *_file_paths(pair, "L1_tensor"),
          [_expect("compare_result_<ts>.csv", pair, "L1_tensor.step0.fm")], flags=["--fuzzy"])
    for run in ("L1_statistics", "L1_tensor"):
        table(f"{pair} {run} --data-mapping", *_file_paths(pair, run),
              [_expect("compare_result_<ts>.csv", pair, f"{run}.step0.dm")],
              flags=["--data-mapping", f"@data/{pair}/data_mapping.yaml"],
              note="msprobe's -dm keys bench backward rows by their backward order but npu rows by "
                   "their written names, so npu Functional.conv2d.1.backward pairs with bench "
                   "conv2d.0.backward and 0 with 1; msdump renumbers both sides: see deviations")
        cases[-1]["deviations"] = dm_deviations(pair, run)
    for run in ("L1_statistics", "L1_md5", "L1_tensor"):
        case = {"name": f"{pair} {run} --fuzzy pairs", "kind": "fuzzy",
                "npu": _file_paths(pair, run)[0], "bench": _file_paths(pair, run)[1], "flags": ["--fuzzy"],
                "output": "compare_result_<ts>.csv", "expected_fuzzy": f"{pair}/EXPECTED_FUZZY.json",
                "run": run,
                "self_test": [{"tables": f"{pair}/msprobe/{run}.step0/compare_result_*.csv", "must_pass": False}]}
        if run == "L1_tensor":
            case["self_test"].append(
                {"tables": f"{pair}/msprobe/L1_tensor.step0.fm/compare_result_*.csv", "must_pass": True})
        cases.append(case)
    for pair in ("cnn_bias_log", "nan_inf_masks"):
        for run in ("L1_statistics", "L1_tensor"):
            table(f"{pair} {run}", *_file_paths(pair, run), [_expect("compare_result_<ts>.csv", pair, f"{run}.step0")])
    for run in ("mix_statistics", "mix_md5", "mix_tensor"):
        table(f"bias_log_mix {run}", *_file_paths("bias_log_mix", run),
              [_expect("compare_result_<ts>.csv", "bias_log_mix", f"{run}.step0")])
    for pair, runs in (("cnn_bug_vs_ref", ("mix_statistics", "L1_tensor")),
                       ("cnn_bias_log", ("L1_statistics", "L1_tensor"))):
        for run in runs:
            cases.append({"name": f"{pair} {run} first difference/divergence", "kind": "truth",
                          "npu": f"{pair}/{run}/npu", "bench": f"{pair}/{run}/bench", "flags": [],
                          "truth": f"{pair}/TRUTH.json"})
    import gen_compare_variants  # the variant pairs (testdata/compare/variants/)
    cases.extend(gen_compare_variants.cases())
    cases.extend(gen_compare_variants.step_pair_cases())
    write_json(os.path.join(OUT, "cases.json"), {
        "comment": "Cases of tests/golden/run_compare_goldens.py (made by testdata/gen/"
                   "gen_compare_pairs.py make-cases): paths relative to testdata/compare; '@data/' "
                   "in a flag is that directory; '<ts>' in an output pattern is a YYYYmmddHHMMSS "
                   "time stamp.",
        "cases": cases})
    print(f"wrote cases.json: {len(cases)} cases")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--msprobe", required=True, help="msprobe's python/ directory")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("all")
    for name in ("dump", "compare"):
        p = sub.add_parser(name)
        p.add_argument("pair", choices=sorted(PAIRS))
    sub.add_parser("check")
    sub.add_parser("make-cases")
    p = sub.add_parser("child")
    p.add_argument("pair")
    p.add_argument("side")
    p.add_argument("config")
    p = sub.add_parser("msprobe")
    p.add_argument("argv", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    msprobe_python = os.path.abspath(a.msprobe)
    if a.cmd in ("child", "msprobe"):
        sys.path.insert(0, msprobe_python)
        install_stubs()
        if a.cmd == "child":
            sys.exit(run_child(a.pair, a.side, a.config))
        run_msprobe_cli(a.argv)
        return
    if a.cmd == "check":
        sys.exit(check_all(msprobe_python))
    if a.cmd == "make-cases":
        make_cases()
        return
    pairs = sorted(PAIRS) if a.cmd == "all" else [a.pair]
    for pair in pairs:
        if a.cmd in ("all", "dump"):
            dump_pair(pair, msprobe_python)
        if a.cmd in ("all", "compare"):
            compare_pair(pair, msprobe_python)
    if a.cmd == "all":
        make_cases()


if __name__ == "__main__":
    main()

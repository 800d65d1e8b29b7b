#!/usr/bin/python3
"""Variant pairs for `msdump compare`: real msprobe dump pairs (testdata/compare/) with entries
rewritten, by seeded rules, into the leaf kinds and edge cases msprobe writes but the sample
models do not make (scalars of every type, nested containers, NaN / Infinity / null / integer
/ boolean statistics, 0-d and empty tensors, dtype and shape mismatches, distributed leaves,
missing and extra entries), and msprobe's own compare table for each.

msprobe is NOT part of this repository and no test needs it; this script is how the reference
tables under testdata/compare/variants/ were made and can be remade (the Debian interpreter and
msprobe's python tree, as for gen_compare_pairs.py, whose driver runs msprobe here):

    /usr/bin/python3 testdata/gen/gen_compare_variants.py --msprobe /tmp/msprobe/python all
    /usr/bin/python3 testdata/gen/gen_compare_variants.py --msprobe /tmp/msprobe/python steps
    /usr/bin/python3 testdata/gen/gen_compare_pairs.py --msprobe /tmp/msprobe/python make-cases

`all` rewrites testdata/compare/variants/ (the dumps and msprobe's outputs); `steps` rewrites
testdata/compare/steps/ (msprobe's tables of step 0 against step 1 of the real runs under
testdata/msprobe/); make-cases adds their cases to cases.json (gen_compare_pairs.make_cases calls
`cases()` and `step_pair_cases()` here).

Every variant starts from both sides of one real pair (BASES) and applies one theme (THEMES) to
both sides with one seed, so a differing row points at one rule. Values are written the way
msprobe writes them (json.dump, indent 1; NaN and Infinity as Python's json writes them), and the
leaf forms follow msprobe's dump format (docs/compare.md "Rows"). stack.json and construct.json
are the base pair's: entries a theme adds have no stack.
"""

import argparse
import copy
import glob
import json
import math
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_compare_pairs as gcp  # noqa: E402  (the msprobe driver and the file helpers)

OUT = os.path.join(gcp.OUT, "variants")

# (name, pair, run): the real pairs the variants start from.
BASES = {
    "mix": ("cnn_bug_vs_ref", "mix_statistics"),
    "md5": ("cnn_extra_call", "L1_md5"),
    "l1": ("cnn_bias_log", "L1_statistics"),
    "tensor": ("cnn_bug_vs_ref", "L1_tensor"),
}


def tensor(dtype="torch.float32", shape=(2, 3), stats=(1.5, -0.5, 0.25, 2.0), requires_grad=True, md5=None):
    leaf = {"type": "torch.Tensor", "dtype": dtype, "shape": list(shape),
            "Max": stats[0], "Min": stats[1], "Mean": stats[2], "Norm": stats[3]}
    if requires_grad is not None:
        leaf["requires_grad"] = requires_grad
    if md5 is not None:
        leaf["md5"] = md5
    return leaf


def leaves(value):
    """Every tensor leaf (dict with type torch.Tensor) below value, in order."""
    if isinstance(value, dict):
        if value.get("type") == "torch.Tensor":
            yield value
            return
        for v in value.values():
            yield from leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from leaves(v)


def directed(data):
    return [k for k in data if k.endswith(".forward") or k.endswith(".backward") or ".forward." in k
            or ".backward." in k or "parameters_grad" in k]


def has_md5(data):
    return any("md5" in leaf for v in data.values() for leaf in leaves(v))


# ---------------------------------------------------------------------------------------------
# Themes: each gets (npu data, bench data, rng) and rewrites both in place.

def scalar_pairs(rng):
    """(npu leaf, bench leaf) pairs of non-tensor leaves: same or different values."""
    return [
        ({"type": "int", "value": 3}, {"type": "int", "value": 3}),
        ({"type": "int", "value": 3}, {"type": "int", "value": 4}),
        ({"type": "int", "value": -7}, {"type": "int", "value": 0}),
        ({"type": "float", "value": 0.5}, {"type": "float", "value": 0.5}),
        ({"type": "float", "value": 1e-05}, {"type": "float", "value": 2.5e-05}),
        ({"type": "float", "value": 0.1}, {"type": "float", "value": 0.0}),
        ({"type": "float", "value": float("nan")}, {"type": "float", "value": 1.0}),
        ({"type": "float", "value": float("inf")}, {"type": "float", "value": float("inf")}),
        ({"type": "bool", "value": True}, {"type": "bool", "value": True}),
        ({"type": "bool", "value": True}, {"type": "bool", "value": False}),
        ({"type": "str", "value": "mean"}, {"type": "str", "value": "mean"}),
        ({"type": "str", "value": "mean"}, {"type": "str", "value": "sum"}),
        ({"type": "float64", "value": 2.0}, {"type": "float64", "value": 2.0}),
        ({"type": "int64", "value": 5}, {"type": "int64", "value": 6}),
        ({"type": "torch.dtype", "value": "torch.float16"}, {"type": "torch.dtype", "value": "torch.float16"}),
        ({"type": "torch.dtype", "value": "torch.float16"}, {"type": "torch.dtype", "value": "torch.bfloat16"}),
        ({"type": "torch.device", "value": "cpu"}, {"type": "torch.device", "value": "cuda:0"}),
        ({"type": "torch.Size", "value": [2, 3]}, {"type": "torch.Size", "value": [2, 3]}),
        ({"type": "torch.Size", "value": [2, 3]}, {"type": "torch.Size", "value": [3, 2]}),
        ({"type": "slice", "value": [0, None, 1]}, {"type": "slice", "value": [0, None, 1]}),
        ({"type": "slice", "value": [1, 4, None]}, {"type": "slice", "value": [0, 4, None]}),
        ({"type": "ellipsis", "value": "..."}, {"type": "ellipsis", "value": "..."}),
        ({"type": "torch.memory_format", "format": "contiguous_format"},
         {"type": "torch.memory_format", "format": "channels_last"}),
        (None, None),
        ({}, {}),
    ]


def theme_scalars(npu, bench, rng, tensor_dirs=None):
    """Non-tensor arguments of every kind, as extra positional and keyword arguments."""
    pairs = scalar_pairs(rng)
    names = [k for k in directed(npu) if k in bench and k.endswith("forward")]
    rng.shuffle(names)
    for i, (n, b) in enumerate(pairs):
        entry = names[i % len(names)]
        ne, be = npu[entry], bench[entry]
        if i % 2 == 0 and isinstance(ne.get("input_args"), list) and isinstance(be.get("input_args"), list):
            ne["input_args"].append(copy.deepcopy(n))
            be["input_args"].append(copy.deepcopy(b))
        else:
            key = f"arg{i}"
            ne.setdefault("input_kwargs", {})[key] = copy.deepcopy(n)
            be.setdefault("input_kwargs", {})[key] = copy.deepcopy(b)


def theme_nesting(npu, bench, rng, tensor_dirs=None):
    """Tensors inside nested lists and dicts, null items, empty containers, outputs as a dict."""
    names = [k for k in directed(npu) if k in bench]
    rng.shuffle(names)
    for i, entry in enumerate(names[:8]):
        ne, be = npu[entry], bench[entry]
        t = tensor(stats=(rng.uniform(0, 3), rng.uniform(-3, 0), rng.uniform(-1, 1), rng.uniform(0, 9)))
        tb = copy.deepcopy(t)
        tb["Max"] = t["Max"] * (1 + (0.5 if i % 3 == 0 else 0.0))
        kind = i % 4
        if kind == 0:
            nested_n, nested_b = [[t, None], [copy.deepcopy(t)]], [[tb, None], [copy.deepcopy(tb)]]
            ne.setdefault("input_args", []).append(nested_n)
            be.setdefault("input_args", []).append(nested_b)
        elif kind == 1:
            ne.setdefault("input_kwargs", {})["opts"] = {"inner": {"t": t, "none": None}, "list": [t, []]}
            be.setdefault("input_kwargs", {})["opts"] = {"inner": {"t": tb, "none": None}, "list": [tb, []]}
        elif kind == 2 and "output" in ne and "output" in be:
            ne["output"] = {"values": ne["output"], "indices": [None, t]}
            be["output"] = {"values": be["output"], "indices": [None, tb]}
        else:
            ne.setdefault("input_args", []).append([])
            be.setdefault("input_args", []).append([])
            ne["input_args"].append(None)
            be["input_args"].append(None)


def theme_stats(npu, bench, rng, tensor_dirs=None):
    """Statistics at the edges: NaN, Infinity, null, zeros, equal, tiny and huge values, integer
    and boolean tensors, 0-d and empty tensors, negative zero."""
    nan, inf = float("nan"), float("inf")
    cases = [
        ((nan, nan, nan, nan), (1.0, 0.0, 0.5, 2.0), "torch.float32", (2, 3)),
        ((inf, -inf, nan, inf), (inf, -inf, nan, inf), "torch.float32", (2, 3)),
        ((1.0, 0.0, 0.5, 2.0), (inf, 0.0, 0.5, 2.0), "torch.float32", (2, 3)),
        ((0.0, 0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0), "torch.float32", (4,)),
        ((1.0, -1.0, 0.0, 3.0), (0.0, 0.0, 0.0, 0.0), "torch.float32", (4,)),
        ((0.0, -0.0, 0.0, 0.0), (1e-30, -1e-30, 1e-31, 1e-30), "torch.float32", (4,)),
        ((3.4e38, -3.4e38, 1e37, 3.4e38), (3.3e38, -3.4e38, 1e37, 3.4e38), "torch.float32", (8,)),
        ((7, -3, 1.5, 12.0), (7, -3, 1.5, 12.0), "torch.int64", (5,)),
        ((7, -3, None, None), (8, -3, None, None), "torch.int64", (5,)),
        ((True, False, None, None), (True, True, None, None), "torch.bool", (3,)),
        ((2.5, 2.5, 2.5, 2.5), (2.25, 2.25, 2.25, 2.25), "torch.float32", ()),
        ((None, None, None, None), (None, None, None, None), "torch.float32", (0, 3)),
        ((None, None, None, None), (1.0, 1.0, 1.0, 1.0), "torch.float32", (2,)),
        ((1.0, 0.5, 0.75, 1.5), (1.0000001, 0.5, 0.75, 1.5), "torch.float16", (2, 2)),
        ((65504.0, -65504.0, 0.0, 65504.0), (60000.0, -65504.0, 0.0, 65504.0), "torch.float16", (2,)),
        ((1.0, 0.5, 0.75, 1.5), (1.25, 0.5, 0.75, 1.5), "torch.bfloat16", (2, 2)),
        ((123456789.0, 1.0, 5.0, 1e8), (123456788.0, 1.0, 5.0, 1e8), "torch.float64", (3,)),
        ((0.3, 0.1, 0.2, 0.4), (0.30000000000000004, 0.1, 0.2, 0.4), "torch.float64", (3,)),
    ]
    names = [k for k in directed(npu) if k in bench]
    rng.shuffle(names)
    for i, (ns, bs, dtype, shape) in enumerate(cases):
        entry = names[i % len(names)]
        n_leaves, b_leaves = list(leaves(npu[entry])), list(leaves(bench[entry]))
        if not n_leaves or not b_leaves:
            continue
        k = rng.randrange(min(len(n_leaves), len(b_leaves)))
        for leaf, stats in ((n_leaves[k], ns), (b_leaves[k], bs)):
            leaf["dtype"], leaf["shape"] = dtype, list(shape)
            leaf["Max"], leaf["Min"], leaf["Mean"], leaf["Norm"] = stats


def theme_dtypes(npu, bench, rng, tensor_dirs=None):
    """Bench leaves of another dtype (within and across msprobe's dtype groups), another shape,
    another requires_grad, a missing statistic key."""
    changes = [
        ("dtype", "torch.float16"), ("dtype", "torch.bfloat16"), ("dtype", "torch.float64"),
        ("dtype", "torch.int64"), ("dtype", "torch.bool"), ("dtype", "torch.int32"),
        ("shape", "transpose"), ("shape", "extra"), ("requires_grad", None), ("drop", "Mean"),
        ("drop", "requires_grad"), ("dtype", "torch.complex64"),
    ]
    names = [k for k in directed(npu) if k in bench]
    rng.shuffle(names)
    for i, (what, how) in enumerate(changes):
        entry = names[i % len(names)]
        b_leaves = list(leaves(bench[entry]))
        if not b_leaves:
            continue
        leaf = b_leaves[rng.randrange(len(b_leaves))]
        if what == "dtype":
            leaf["dtype"] = how
        elif what == "shape":
            leaf["shape"] = list(reversed(leaf["shape"])) + ([] if how == "transpose" else [1])
            if how == "transpose" and len(leaf["shape"]) < 2:
                leaf["shape"] = leaf["shape"] + [1]
        elif what == "requires_grad":
            leaf["requires_grad"] = not leaf.get("requires_grad", False)
        else:
            leaf.pop(how, None)


def renamed_copy(value, old, new, tensor_dirs, src_side, dst_side):
    """A copy of an entry's value (or a leaf) as entry `new` writes it: its tensor files (if
    any) copied under names starting `new` where they started `old`."""
    value = copy.deepcopy(value)
    for leaf in leaves(value):
        if tensor_dirs and leaf.get("data_name"):
            name = leaf["data_name"].replace(old, new, 1)
            shutil.copyfile(os.path.join(tensor_dirs[src_side], leaf["data_name"]),
                            os.path.join(tensor_dirs[dst_side], name))
            leaf["data_name"] = name
    return value


def theme_structure(npu, bench, rng, tensor_dirs=None):
    """Entries only on one side, entries without a direction, a call with one output fewer on
    the bench side, bench entries in another order."""
    names = [k for k in directed(npu) if k in bench]
    rng.shuffle(names)
    for entry in names[:2]:
        del bench[entry]
    bench["Functional.dropout.0.forward"] = renamed_copy(npu[names[2]], names[2], "Functional.dropout.0.forward",
                                                         tensor_dirs, "npu", "bench")
    npu["Functional.gelu.0.forward"] = renamed_copy(npu[names[3]], names[3], "Functional.gelu.0.forward",
                                                    tensor_dirs, "npu", "npu")
    for side in ("npu", "bench"):
        (npu if side == "npu" else bench)["Tensor.__setitem__.0"] = renamed_copy(
            npu[names[3]], names[3], "Tensor.__setitem__.0", tensor_dirs, "npu", side)
    for entry in names[4:]:
        out = bench[entry].get("output")
        if isinstance(out, list) and len(out) > 0 and isinstance(out[0], dict):
            out.append(renamed_copy(out[0], f"{entry}.output.0", f"{entry}.output.{len(out)}", tensor_dirs,
                                    "bench", "bench"))
            npu[entry].setdefault("output", []).append(None)
            break
    keys = list(bench)
    a, b = sorted(rng.sample(range(len(keys)), 2))
    keys[a], keys[b] = keys[b], keys[a]
    reordered = {k: bench[k] for k in keys}
    bench.clear()
    bench.update(reordered)


def theme_dist(npu, bench, rng, tensor_dirs=None):
    """Communication calls: process groups, src/dst arguments, P2POp objects, reduce ops."""
    group = {"type": "torch.ProcessGroup", "group_ranks": [0, 1], "group_id": "9f5f6d2a"}
    group_b = {"type": "torch.ProcessGroup", "group_ranks": [0, 2], "group_id": "1c9a7e31"}
    t = tensor(shape=(4,), stats=(2.0, -1.0, 0.5, 3.0))
    tb = tensor(shape=(4,), stats=(2.0, -1.0, 0.5, 3.5))
    npu["Distributed.all_reduce.0.forward"] = {
        "input_args": [t, {"type": "torch.distributed.ReduceOp", "value": "RedOpType.SUM"}],
        "input_kwargs": {"group": group}, "output": [None]}
    bench["Distributed.all_reduce.0.forward"] = {
        "input_args": [tb, {"type": "torch.distributed.ReduceOp", "value": "RedOpType.SUM"}],
        "input_kwargs": {"group": group_b}, "output": [None]}
    npu["Distributed.broadcast.0.forward"] = {
        "input_args": [t], "input_kwargs": {"src": {"type": "int", "value": 0}, "group_src": {"type": "int", "value": 1}},
        "output": [None]}
    bench["Distributed.broadcast.0.forward"] = {
        "input_args": [t], "input_kwargs": {"src": {"type": "int", "value": 1}, "group_src": {"type": "int", "value": 1}},
        "output": [None]}
    p2p = {"class_type": "torch.distributed.P2POp", "tensor": t, "op": "isend", "peer": 1, "tag": 0,
           "group_id": "3a1b2c4d"}
    p2p_b = dict(p2p, tensor=tb)
    npu["Distributed.batch_isend_irecv.0.forward"] = {"input_args": [[p2p, dict(p2p, op="irecv")]], "output": [None]}
    bench["Distributed.batch_isend_irecv.0.forward"] = {"input_args": [[p2p_b, dict(p2p_b, op="irecv")]],
                                                       "output": [None]}
    npu["Distributed.send.0.forward"] = {"input_args": [t], "input_kwargs": {"dst": {"type": "int", "value": 1}},
                                         "output": [None]}
    bench["Distributed.send.0.forward"] = {"input_args": [t], "input_kwargs": {"dst": {"type": "int", "value": 1}},
                                           "output": [None]}


def theme_md5(npu, bench, rng, tensor_dirs=None):
    """md5 values that differ, md5 on scalars, a leaf without md5."""
    names = [k for k in directed(npu) if k in bench]
    rng.shuffle(names)
    for i, entry in enumerate(names[:6]):
        b_leaves = list(leaves(bench[entry]))
        if not b_leaves:
            continue
        leaf = b_leaves[rng.randrange(len(b_leaves))]
        if i % 3 == 0:
            leaf["md5"] = "%08x" % rng.getrandbits(32)
        elif i % 3 == 1:
            leaf["Max"] = leaf["Max"] + 1.0 if isinstance(leaf["Max"], float) else leaf["Max"]
        else:
            leaf.pop("md5", None)
    entry = names[6]
    for side, v in ((npu, 3), (bench, 4)):
        side[entry].setdefault("input_kwargs", {})["k"] = {"type": "int", "value": v}


def theme_modules(npu, bench, rng, tensor_dirs=None):
    """Module entries with a null parameter and an extra one, a parameters_grad member more, a
    module called once more."""
    mods = [k for k in directed(npu) if k.startswith("Module.") and k in bench and ".forward." in k]
    grads = [k for k in directed(npu) if "parameters_grad" in k and k in bench]
    for i, entry in enumerate(mods[:3]):
        for side in (npu, bench):
            params = side[entry].setdefault("parameters", {})
            params["running_mean"] = None if i == 0 else tensor(shape=(4,), stats=(0.5, -0.5, 0.0, 1.0),
                                                                requires_grad=False)
    for entry in grads[:2]:
        for side, scale in ((npu, 1.0), (bench, 1.5)):
            # One item: msprobe names every item of such a list alike and joins them all against
            # all (docs/compare.md, differences), so a list of several is a unit test's case.
            side[entry]["extra"] = [tensor(shape=(3,), stats=(scale, -scale, 0.0, scale), requires_grad=False)]
    if mods:
        again = mods[0].rsplit(".", 1)[0] + ".9"
        npu[again] = copy.deepcopy(npu[mods[0]])
        bench[again] = copy.deepcopy(bench[mods[0]])


def theme_unpaired(npu, bench, rng, tensor_dirs=None):
    """Rows without a partner, by a missing bench entry and by the dtype gate (for tensor dumps:
    nothing here invents a tensor file)."""
    names = [k for k in directed(npu) if k in bench and list(leaves(bench[k])) and k != "Tensor.add_.0.forward"]
    rng.shuffle(names)
    for entry in names[:2]:
        del bench[entry]
    if "Tensor.add_.0.forward" in bench:
        del bench["Tensor.add_.0.forward"]
    gated = list(leaves(bench[names[2]]))
    gated[rng.randrange(len(gated))]["dtype"] = "torch.float64"


def scale_norms(value, factor, offset=0.0):
    for leaf in leaves(value):
        if isinstance(leaf.get("Norm"), float):
            leaf["Norm"] = leaf["Norm"] * factor + offset


def theme_verdicts(npu, bench, rng, tensor_dirs=None):
    """Bench norms moved so that the checkers fire (or just do not): outputs off by more than
    half with exact inputs, outputs ten times further off than inputs, a bench norm of zero,
    inputs already off (the output check is skipped), names the checkers treat specially."""
    names = [k for k in directed(npu) if k in bench and k.endswith("forward") and "output" in bench[k]
             and list(leaves(bench[k].get("output")))]
    rng.shuffle(names)
    plan = [(1.0, 1.6), (1.0, 1.45), (1.0, 1.2), (1.01, 1.2), (1.01, 1.05), (1.2, 2.0), (1.0, 0.0), (0.5, 0.5)]
    for (fin, fout), entry in zip(plan, names):
        for key in ("input_args", "input_kwargs", "parameters"):
            if key in bench[entry]:
                scale_norms(bench[entry][key], fin)
        scale_norms(bench[entry]["output"], fout)
    # Names: communication calls and module paths whose second part is `to` skip the input /
    # output checkers; `qkv` and `gate_up` in a bench name excuse a dtype difference.
    base = copy.deepcopy(npu[names[-1]])
    for name, dtype in (("Distributed.all_reduce.1.forward", None), ("Module.to.Linear.forward.0", None),
                        ("Module.layers.0.attn.qkv.Linear.forward.0", "torch.float16"),
                        ("Module.mlp.gate_up.Linear.forward.0", "torch.bfloat16"),
                        ("Module.mlp.down.Linear.forward.0", "torch.float64")):
        npu[name] = copy.deepcopy(base)
        bench[name] = copy.deepcopy(base)
        scale_norms(bench[name]["output"], 3.0)
        if dtype:
            for leaf in leaves(bench[name]):
                leaf["dtype"] = dtype


def theme_recompute(npu, bench, rng, tensor_dirs=None):
    """Activation recomputation on the npu side: every forward call made twice (counters run
    ahead), backward entries keep the first call's counter."""
    renamed = {}
    for k, v in npu.items():
        renamed[k] = v
        if k.endswith(".forward") and not k.startswith("Module."):
            head, counter, _ = k.rsplit(".", 2)
            renamed[f"{head}.{int(counter) + 100}.forward"] = copy.deepcopy(v)
    npu.clear()
    npu.update(renamed)


MS_DTYPES = {"torch.float32": "Float32", "torch.float16": "Float16", "torch.bfloat16": "BFloat16",
             "torch.float64": "Float64", "torch.int64": "Int64", "torch.int32": "Int32", "torch.bool": "Bool",
             "torch.uint8": "UInt8", "torch.complex64": "Complex64"}


def ms_name(name):
    """An entry name (or a tensor file name) as MindSpore's dump would spell it."""
    name = name.replace("Module.", "Cell.", 1) if name.startswith("Module.") else name
    return (name.replace("Functional.conv2d.", "Primitive.conv2d.Conv2D.", 1)
            .replace("Functional.relu.", "Mint.relu.", 1)
            .replace("Functional.linear.", "MintFunctional.linear.", 1)
            .replace("Functional.max_pool2d.", "Jit.max_pool2d.", 1))


def as_framework(doc, framework, tensor_dir=None):
    """The dump as a MindSpore or mindtorch one: framework key, tensor leaves of type
    mindspore.Tensor with MindSpore dtype names and no requires_grad, dtype objects as
    mindspore.dtype; MindSpore names its modules Cell (mindtorch keeps Module) and its API
    prefixes Mint / MintFunctional / Primitive / Jit, and saves tensors as .npy files (those
    of `tensor_dir` are converted and renamed with their entries)."""
    doc["framework"] = framework
    if tensor_dir and framework == "mindspore":
        import numpy
        import torch
        for name in sorted(os.listdir(tensor_dir)):
            if name.endswith(".pt"):
                t = torch.load(os.path.join(tensor_dir, name))
                array = (t.float() if t.dtype == torch.bfloat16 else t).numpy()  # (numpy has no bfloat16)
                numpy.save(os.path.join(tensor_dir, ms_name(name)[:-3] + ".npy"), array)
                os.remove(os.path.join(tensor_dir, name))

    def leaf(v):
        if isinstance(v, dict):
            if v.get("type") == "torch.Tensor":
                v["type"] = "mindspore.Tensor"
                v["dtype"] = MS_DTYPES.get(v["dtype"], v["dtype"])
                v.pop("requires_grad", None)
                if v.get("data_name") and framework == "mindspore":
                    v["data_name"] = ms_name(v["data_name"])[:-3] + ".npy"
            elif v.get("type") == "torch.dtype":
                v["type"], v["value"] = "mindspore.dtype", MS_DTYPES.get(v["value"], v["value"])
            for x in v.values():
                leaf(x)
        elif isinstance(v, list):
            for x in v:
                leaf(x)

    renamed = {}
    for k, v in doc["data"].items():
        leaf(v)
        renamed[ms_name(k) if framework == "mindspore" else k] = v
    doc["data"] = renamed


def tensor_leaves(data):
    """(entry, leaf) of every leaf with a tensor file, in order."""
    return [(k, leaf) for k in data for leaf in leaves(data[k]) if leaf.get("data_name")]


def theme_tensors(npu, bench, rng, tensor_dirs=None):
    """Tensor files rewritten on one or both sides (the dump's statistics follow): tiny and
    large relative errors, noise, NaN and Infinity at the same or other places, zeros, a sign
    flip, float16 / bfloat16 / float64 / integer / boolean data, 0-d and empty tensors, a shape
    that differs only by a dimension of 1, and one that differs truly."""
    import torch
    torch.manual_seed(rng.randrange(1 << 30))
    edits = [
        ("scale", 1e-4), ("scale", 2e-3), ("scale", 0.5), ("noise", 1e-2), ("nan_same", None),
        ("nan_other", None), ("inf_bench", None), ("zeros_bench", None), ("zeros_both", None),
        ("negate", None), ("half", torch.float16), ("half", torch.bfloat16), ("double", torch.float64),
        ("int", torch.int64), ("bool", torch.bool), ("scalar", None), ("empty", None), ("unsqueeze", None),
        ("transpose", None),
    ]
    n_leaves = {leaf["data_name"]: leaf for _, leaf in tensor_leaves(npu)}
    candidates = [(k, leaf) for k, leaf in tensor_leaves(bench)
                  if leaf["data_name"] in n_leaves and leaf.get("dtype") == "torch.float32" and len(leaf["shape"]) >= 2]
    rng.shuffle(candidates)

    def load(side, name):
        return torch.load(os.path.join(tensor_dirs[side], name))

    def save(side, leaf, t):
        torch.save(t.contiguous(), os.path.join(tensor_dirs[side], leaf["data_name"]))
        leaf["dtype"], leaf["shape"] = str(t.dtype), list(t.shape)
        if t.numel() == 0:
            leaf["Max"] = leaf["Min"] = leaf["Mean"] = leaf["Norm"] = None
            return
        f = t.double() if t.dtype != torch.bool else t
        if t.dtype == torch.bool:
            leaf["Max"], leaf["Min"], leaf["Mean"], leaf["Norm"] = bool(f.any()), bool(f.all()), None, None
        elif not t.dtype.is_floating_point:
            leaf["Max"], leaf["Min"] = int(f.max()), int(f.min())
            leaf["Mean"] = leaf["Norm"] = None
        else:
            leaf["Max"], leaf["Min"] = float(f.max()), float(f.min())
            leaf["Mean"], leaf["Norm"] = float(f.mean()), float(f.norm())

    for (what, arg), (entry, b_leaf) in zip(edits, candidates):
        n_leaf = n_leaves[b_leaf["data_name"]]
        x = load("npu", n_leaf["data_name"])
        y = x.clone()
        if what == "scale":
            y = x * (1 + arg)
        elif what == "noise":
            y = x + arg * torch.randn_like(x)
        elif what in ("nan_same", "nan_other"):
            x = x.clone()
            x.view(-1)[0] = float("nan")
            y.view(-1)[0 if what == "nan_same" else 1] = float("nan")
        elif what == "inf_bench":
            y.view(-1)[2] = float("inf")
        elif what == "zeros_bench":
            y = torch.zeros_like(x)
        elif what == "zeros_both":
            x, y = torch.zeros_like(x), torch.zeros_like(x)
        elif what == "negate":
            y = -x
        elif what in ("half", "double"):
            y = x.to(arg)
        elif what == "int":
            x, y = (x * 10).round().to(torch.int64), (x * 10).floor().to(torch.int64)
        elif what == "bool":
            x, y = x > 0, x > 0.05
        elif what == "scalar":
            x, y = x.reshape(-1)[0].clone(), x.reshape(-1)[1].clone()
        elif what == "empty":
            x, y = x.reshape(-1)[:0].clone(), x.reshape(-1)[:0].clone()
        elif what == "unsqueeze":
            y = x.unsqueeze(0)
        elif what == "transpose":
            y = x.transpose(0, 1)
        save("npu", n_leaf, x)
        save("bench", b_leaf, y)


THEMES = {
    "scalars": theme_scalars,
    "nesting": theme_nesting,
    "stats": theme_stats,
    "dtypes": theme_dtypes,
    "structure": theme_structure,
    "dist": theme_dist,
    "md5": theme_md5,
    "modules": theme_modules,
    "unpaired": theme_unpaired,
    "verdicts": theme_verdicts,
    "recompute": theme_recompute,
    "tensors": theme_tensors,
}

# (variant name, base, theme, seed[, framework the dumps are rewritten as: "<framework>" both
# sides, "<framework>:npu" the npu side only; msprobe compares a mindtorch dump only against a
# PyTorch or MindSpore one])
VARIANTS = [
    ("scalars_mix", "mix", "scalars", 11),
    ("scalars_md5", "md5", "scalars", 12),
    ("nesting_mix", "mix", "nesting", 21),
    ("nesting_md5", "md5", "nesting", 22),
    ("stats_mix", "mix", "stats", 31),
    ("stats_l1", "l1", "stats", 32),
    ("stats_md5", "md5", "stats", 33),
    ("dtypes_mix", "mix", "dtypes", 41),
    ("dtypes_md5", "md5", "dtypes", 42),
    ("structure_mix", "mix", "structure", 51),
    ("structure_md5", "md5", "structure", 52),
    ("dist_l1", "l1", "dist", 61),
    ("dist_md5", "md5", "dist", 62),
    ("md5_md5", "md5", "md5", 71),
    ("modules_mix", "mix", "modules", 81),
    ("unpaired_mix", "mix", "unpaired", 91),
    ("unpaired_md5", "md5", "unpaired", 92),
    ("unpaired_tensor", "tensor", "unpaired", 93),
    ("unpaired_tensor_ints", "tensor", "unpaired", 94),
    ("verdicts_mix", "mix", "verdicts", 101),
    ("verdicts_l1", "l1", "verdicts", 102),
    ("recompute_mix", "mix", "recompute", 111),
    ("mindspore_stats", "mix", "stats", 121, "mindspore"),
    ("mindspore_dtypes", "mix", "dtypes", 122, "mindspore"),
    ("mindspore_unpaired", "mix", "unpaired", 123, "mindspore"),
    ("mindspore_md5", "md5", "scalars", 124, "mindspore"),
    ("mindtorch_vs_pytorch_dtypes", "mix", "dtypes", 131, "mindtorch:npu"),
    ("mindtorch_vs_pytorch_structure", "mix", "structure", 132, "mindtorch:npu"),
    ("mindspore_vs_pytorch_stats", "mix", "stats", 141, "mindspore:npu"),
    ("tensors_a", "tensor", "tensors", 151),
    ("tensors_b", "tensor", "tensors", 152),
    ("structure_tensor", "tensor", "structure", 161),
    ("mindspore_tensors", "tensor", "tensors", 171, "mindspore"),
    ("mindspore_vs_pytorch_tensors", "tensor", "unpaired", 172, "mindspore:npu"),
]

# Variants whose table msprobe also wrote as a workbook (--xlsx), kept as <run>.step0.xlsx.
XLSX = ["scalars_mix", "stats_mix", "md5_md5", "unpaired_tensor", "dtypes_mix"]

# Variants also compared in directory mode with msprobe's -da (first-divergence analysis): its
# diff_analyze file (if any) is kept under <run>.step0.dir-da.
DIFF_ANALYZE = ["stats_mix", "verdicts_mix", "dtypes_mix", "scalars_mix", "unpaired_mix", "tensors_a",
                "unpaired_tensor", "dist_l1"]

# Variants also compared with fuzzy matching (msprobe's -fm, which pairs correctly in tensor
# mode only): its table of each is kept as <run>.step0.fm.
FUZZY = ["unpaired_tensor", "tensors_a", "structure_tensor"]


def base_dir(base, side):
    pair, run = BASES[base]
    return os.path.join(gcp.OUT, pair, run, side, "step0", "rank0")


def make_variant(name, base, theme, seed, framework=None):
    pair, run = BASES[base]
    docs = {}
    for side in ("npu", "bench"):
        with open(os.path.join(base_dir(base, side), "dump.json"), encoding="utf-8") as f:
            docs[side] = json.load(f)
    rng = random.Random(seed)
    out_dirs = {side: os.path.join(OUT, name, run, side, "step0", "rank0") for side in ("npu", "bench")}
    for side, out in out_dirs.items():
        os.makedirs(out, exist_ok=True)
        tensors = os.path.join(base_dir(base, side), "dump_tensor_data")
        if os.path.isdir(tensors):
            shutil.copytree(tensors, os.path.join(out, "dump_tensor_data"))
    tensor_dirs = {side: os.path.join(out, "dump_tensor_data") for side, out in out_dirs.items()}
    if not os.path.isdir(tensor_dirs["npu"]):
        tensor_dirs = None
    THEMES[theme](docs["npu"]["data"], docs["bench"]["data"], rng, tensor_dirs)
    if framework:
        # "<framework>": both sides; "<framework>:npu": the npu side only, against PyTorch.
        framework, _, only = framework.partition(":")
        for side, doc in docs.items():
            if not only or side == only:
                as_framework(doc, framework, tensor_dirs[side] if tensor_dirs else None)
    if not has_md5(docs["npu"]["data"]) == has_md5(docs["bench"]["data"]):
        raise SystemExit(f"{name}: the theme left md5 on one side only")
    for side, out in out_dirs.items():
        gcp.write_json(os.path.join(out, "dump.json"), docs[side])
        for extra in ("stack.json", "construct.json"):
            shutil.copyfile(os.path.join(base_dir(base, side), extra), os.path.join(out, extra))
    return run


def make_all(msprobe_python):
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(OUT)
    for name, base, theme, seed, *framework in VARIANTS:
        run = make_variant(name, base, theme, seed, *framework)
        # A MindSpore dump against a PyTorch one: msprobe maps API names only with -am (its
        # built-in table), which msdump applies to every such pair. (Not for mindtorch, whose
        # names are PyTorch's: -am would only add msprobe's backward mis-pairing of mappings.)
        flags = ["-am"] if framework and framework[0] == "mindspore:npu" else []
        runs = [(f"{run}.step0", flags)] + ([(f"{run}.step0.fm", flags + ["-fm"])] if name in FUZZY else []) + \
            ([(f"{run}.step0.xlsx", flags + ["--xlsx"])] if name in XLSX else [])
        runs = [(cid, "file", cflags) for cid, cflags in runs]
        if name in DIFF_ANALYZE:
            runs.append((f"{run}.step0.dir-da", "dir", flags + ["-da"]))
        for cid, kind, cflags in runs:
            rc, files = gcp.run_compare(os.path.join(OUT, name), cid, run, kind, cflags, msprobe_python)
            print(f"variant {name} ({theme} on {'/'.join(BASES[base])}) {cid}: msprobe rc={rc} files={files}")
            if rc != 0 or not any(f.endswith((".csv", ".xlsx", ".json")) for f in files):
                raise SystemExit(f"msprobe compare failed on variant {name}: see {OUT}/{name}/msprobe/")


CROSS_DTYPE_DEVIATION = {
    "reason": "a cross-framework pair: msprobe compares MindSpore's dtype texts with PyTorch's as "
              "they are (Float32 against torch.float32 is a dtype error on every tensor row); "
              "msdump reads them in one spelling (docs/compare.md, differences)",
    "messages": ["error: The dtype of NPU and Bench are inconsistent."],
    "dtype_spelling": {ms: pt for pt, ms in MS_DTYPES.items()},
}


# Step pairs: step 0 of each real msprobe run under testdata/msprobe/ against its own step 1 (the
# weights moved by one optimizer step, so the values differ), in every level, task and summary
# mode those runs have, the legacy format included (not cnn_mix_structure: a structure dump has no
# data, msprobe writes no table). msprobe's table of each is kept under
# testdata/compare/steps/<run>/msprobe/step0-vs-step1/.
MSPROBE_RUNS = os.path.join(gcp.REPO, "testdata", "msprobe")
STEP_PAIRS = {
    "cnn_L0_statistics_all": "current/cnn_L0_statistics_all/step{}/rank0",
    "cnn_L0_tensor_all": "current/cnn_L0_tensor_all/step{}/rank0",
    "cnn_L1_statistics_all": "current/cnn_L1_statistics_all/step{}/rank0",
    "cnn_L1_statistics_all_high": "current/cnn_L1_statistics_all_high/step{}/rank0",
    "cnn_L1_statistics_all_noextra": "current/cnn_L1_statistics_all_noextra/step{}/rank0",
    "cnn_L1_statistics_all_proc": "current/cnn_L1_statistics_all_proc/step{}/proc23542",
    "cnn_L1_tensor_all": "current/cnn_L1_tensor_all/step{}/rank0",
    "cnn_mix_md5_all": "current/cnn_mix_md5_all/step{}/rank0",
    "cnn_mix_statistics_all": "current/cnn_mix_statistics_all/step{}/rank0",
    "cnn_mix_statistics_forward": "current/cnn_mix_statistics_forward/step{}/rank0",
    "cnn_mix_tensor_forward": "current/cnn_mix_tensor_forward/step{}/rank0",
    "cnn_mix_xor_all": "current/cnn_mix_xor_all/step{}/rank0",
    "legacy": "legacy/step{}/proc2016",
}
STEPS_OUT = os.path.join(gcp.OUT, "steps")


STEP_PAIR_ID = "step0-vs-step1"


def step_pair_paths(name, start=gcp.OUT):
    """The two dump.json files of a step pair, relative to `start`."""
    rel = os.path.relpath(MSPROBE_RUNS, start)
    return tuple(f"{rel}/{STEP_PAIRS[name].format(step)}/dump.json" for step in (0, 1))


def make_step_pairs(msprobe_python):
    """msprobe's compare of every step pair, into steps/<run>/msprobe/<STEP_PAIR_ID>/."""
    shutil.rmtree(STEPS_OUT, ignore_errors=True)
    for name in STEP_PAIRS:
        pair_dir = os.path.join(STEPS_OUT, name)
        os.makedirs(pair_dir)
        rc, files = gcp.run_compare(pair_dir, STEP_PAIR_ID, name, "file", [], msprobe_python,
                                    paths=step_pair_paths(name, pair_dir))
        print(f"step pair {name}: msprobe rc={rc} files={files}")
        if rc != 0 or not files:
            raise SystemExit(f"msprobe compare failed on step pair {name}: see {pair_dir}/msprobe/")


def step_pair_cases():
    out = []
    for name in STEP_PAIRS:
        npu, bench = step_pair_paths(name)
        out.append({"name": f"step pair {name} (step 0 against step 1)", "kind": "table", "npu": npu,
                    "bench": bench, "flags": [],
                    "expect": [gcp._expect("compare_result_<ts>.csv", f"steps/{name}", STEP_PAIR_ID)]})
    return out


def cases():
    """One table case per variant (for gen_compare_pairs.make_cases)."""
    out = []
    for name, base, theme, _seed, *framework in VARIANTS:
        run = BASES[base][1]
        pair = f"variants/{name}"
        case = {"name": f"variant {name} ({theme})", "kind": "table",
                "npu": f"{pair}/{run}/npu/step0/rank0/dump.json",
                "bench": f"{pair}/{run}/bench/step0/rank0/dump.json", "flags": [],
                "expect": [gcp._expect("compare_result_<ts>.csv", pair, f"{run}.step0")]}
        if framework and framework[0].endswith(":npu"):
            case["deviations"] = CROSS_DTYPE_DEVIATION
        out.append(case)
        if name in XLSX:
            out.append({"name": f"variant {name} ({theme}) --xlsx", "kind": "xlsx", "npu": case["npu"],
                        "bench": case["bench"], "flags": ["--xlsx"], "output": "compare_result_<ts>.xlsx",
                        "msprobe": gcp._one(f"{pair}/msprobe/{run}.step0.xlsx/compare_result_[0-9]*.xlsx")})
        if name in DIFF_ANALYZE:
            found = sorted(glob.glob(os.path.join(gcp.OUT, pair, "msprobe", f"{run}.step0.dir-da", "diff_analyze_*.json")))
            out.append({"name": f"variant {name} ({theme}) --diff-analyze", "kind": "diff_analyze",
                        "npu": f"{pair}/{run}/npu/step0", "bench": f"{pair}/{run}/bench/step0",
                        "flags": ["--diff-analyze"],
                        "msprobe": [os.path.relpath(f, gcp.OUT) for f in found]})
        if name in FUZZY:
            out.append(dict(case, name=f"variant {name} ({theme}) --fuzzy", flags=["--fuzzy"],
                            expect=[gcp._expect("compare_result_<ts>.csv", pair, f"{run}.step0.fm")]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--msprobe", required=True, help="msprobe's python/ directory")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("all")
    sub.add_parser("steps")
    a = ap.parse_args()
    if a.cmd == "steps":
        make_step_pairs(os.path.abspath(a.msprobe))
        return
    make_all(os.path.abspath(a.msprobe))


if __name__ == "__main__":
    main()

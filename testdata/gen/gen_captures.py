#!/usr/bin/python3
"""Golden test data for `msdump convert`: captures (trace.jsonl + tensor files) and the
dump.json / stack.json / construct.json msprobe would write for them.

Run from anywhere with the Debian interpreter (it has torch 1.13 and numpy 1.24):

    /usr/bin/python3 testdata/gen/gen_captures.py

It rewrites, deterministically:
  testdata/captures/<name>/...            good captures
  testdata/bad/captures/<defect>/...      defective captures + expect.json
  testdata/golden/convert/<capture>/<variant>/{dump,stack,construct}.json[, tensor_files.txt]
  testdata/golden/convert/variants.json   the msdump options that produce each golden

The second half of this file is a small *reference converter*: it re-reads every capture from
disk (trace.jsonl + tensor files) and applies msprobe's rules (docs/trace-format.md and
docs/format.md) to produce the goldens. Statistics are computed exactly (rational
arithmetic / math.fsum in float64) and rounded once to the statistic's dtype; each Mean/Norm is
cross-checked against two other roundings (float64 -> dtype through torch, and exact rational ->
dtype) and the generator refuses to write a golden whose value would depend on that choice.
"""

import collections
import decimal
import json
import math
import os
import shutil
import struct
import sys
import zlib
from fractions import Fraction

import numpy as np
import torch

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CAPTURES = os.path.join(REPO, "testdata", "captures")
BAD = os.path.join(REPO, "testdata", "bad", "captures")
GOLDEN = os.path.join(REPO, "testdata", "golden", "convert")
OUT = "out"  # the -o directory the golden tests pass, literally

# =============================================================================================
# Part 1: writing captures
# =============================================================================================

TORCH_DTYPE_NAME = {
    torch.float32: "torch.float32", torch.float16: "torch.float16", torch.bfloat16: "torch.bfloat16",
    torch.float64: "torch.float64", torch.int8: "torch.int8", torch.int16: "torch.int16",
    torch.int32: "torch.int32", torch.int64: "torch.int64", torch.uint8: "torch.uint8",
    torch.bool: "torch.bool", torch.complex64: "torch.complex64", torch.complex128: "torch.complex128",
}
MS_DTYPE_OF_NP = {
    "float32": "Float32", "float16": "Float16", "float64": "Float64", "int8": "Int8", "int16": "Int16",
    "int32": "Int32", "int64": "Int64", "uint8": "UInt8", "bool": "Bool", "complex64": "Complex64",
    "complex128": "Complex128",
}


def bf16_bits(t):
    """Raw little-endian bytes of a bfloat16 tensor."""
    return t.contiguous().view(torch.int16).numpy().astype("<i2").tobytes()


class Capture:
    """Collects the lines of one trace.jsonl and writes the tensor files it references."""

    def __init__(self, root, header, ensure_ascii=True):
        self.root = root
        self.header = header
        self.ensure_ascii = ensure_ascii
        self.lines = []
        self.blobs = collections.OrderedDict()  # name -> bytearray
        if os.path.isdir(root):
            shutil.rmtree(root)
        os.makedirs(root)

    # ---- tensor files -----------------------------------------------------------------------
    def _path(self, fname):
        p = os.path.join(self.root, fname)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        return p

    def pt(self, t, fname):
        p = self._path(fname)
        if not os.path.exists(p):
            torch.save(t.detach().clone().contiguous(), p)
        return {"file": fname}

    def npy(self, a, fname):
        p = self._path(fname)
        if not os.path.exists(p):
            np.save(p, np.array(a, order="C", copy=True))
        return {"file": fname}

    def blob(self, fname, raw):
        buf = self.blobs.setdefault(fname, bytearray())
        off = len(buf)
        buf.extend(raw)
        src = {"file": fname}
        if off:
            src["offset"] = off
        return src

    # ---- leaves -----------------------------------------------------------------------------
    def tleaf(self, t, store, requires_grad=False, ttype="torch.Tensor", extra=None, extra_first=False):
        """PyTorch tensor leaf. store = 'x.pt' | 'x.npy' | ('blob.bin',)."""
        if isinstance(store, tuple):
            raw = bf16_bits(t) if t.dtype == torch.bfloat16 else t.contiguous().numpy().tobytes()
            src = self.blob(store[0], raw)
        elif store.endswith(".npy"):
            src = self.npy(t.numpy(), store)
        else:
            src = self.pt(t, store)
        leaf = {"type": ttype, "dtype": TORCH_DTYPE_NAME[t.dtype], "shape": list(t.shape)}
        if extra and extra_first:
            leaf.update(extra)
        leaf["requires_grad"] = requires_grad
        leaf["source"] = src
        if extra and not extra_first:
            leaf.update(extra)
        return leaf

    def msleaf(self, a, store, dtype=None, extra=None, requires_grad=None):
        """MindSpore / mindtorch tensor leaf from a numpy array (float32 for BFloat16)."""
        if dtype is None:
            dtype = MS_DTYPE_OF_NP[str(a.dtype)]
        if isinstance(store, tuple):
            if dtype == "BFloat16":
                raw = bf16_bits(torch.from_numpy(np.ascontiguousarray(a)).to(torch.bfloat16))
            else:
                raw = np.array(a, order="C").tobytes()
            src = self.blob(store[0], raw)
        else:
            src = self.npy(a, store)
        leaf = {"type": "mindspore.Tensor", "dtype": dtype, "shape": list(a.shape)}
        if requires_grad is not None:
            leaf["requires_grad"] = requires_grad
        if extra:
            leaf.update(extra)
        leaf["source"] = src
        return leaf

    # ---- events -----------------------------------------------------------------------------
    def data(self, name, **sections):
        ev = {"kind": "data", "name": name}
        ev.update(sections)
        self.lines.append(ev)

    def stack(self, name, frames):
        self.lines.append({"kind": "stack", "name": name, "frames": list(frames)})

    def construct(self, name, parent):
        self.lines.append({"kind": "construct", "name": name, "parent": parent})

    def raw_line(self, text):
        self.lines.append(text)

    def write(self, truncate_last_at=None):
        for fname, buf in self.blobs.items():
            with open(self._path(fname), "wb") as f:
                f.write(bytes(buf))
        texts = [json.dumps(self.header)]
        for ev in self.lines:
            texts.append(ev if isinstance(ev, str) else json.dumps(ev, ensure_ascii=self.ensure_ascii))
        body = "".join(t + "\n" for t in texts)
        if truncate_last_at is not None:
            body = body[:-1]  # drop the final newline
            last_start = body.rfind("\n") + 1
            body = body[:last_start + truncate_last_at]
        with open(os.path.join(self.root, "trace.jsonl"), "wb") as f:
            f.write(body.encode("utf-8"))

    def line_of(self, pred):
        """1-based trace line number of the first event matching pred (header = line 1)."""
        for i, ev in enumerate(self.lines):
            if not isinstance(ev, str) and pred(ev):
                return i + 2
        raise KeyError


def I(v):
    return {"type": "int", "value": v}


def F(v):
    return {"type": "float", "value": v}


def B(v):
    return {"type": "bool", "value": v}


def S(v):
    return {"type": "str", "value": v}


def dyadic(gen, shape, den=16, lo=-32, hi=33, dtype=torch.float32):
    """Small exactly-representable values k/den, so every derived tensor is exact."""
    return (torch.randint(lo, hi, shape, generator=gen).to(torch.float64) / den).to(dtype)


# ---------------------------------------------------------------------------------------------
# tiny_mix: the README example. PyTorch, level mix: Linear -> ReLU -> cross_entropy, backward,
# parameter grads. Module forwards are two events (pre-hook inputs, then output+parameters).
# ---------------------------------------------------------------------------------------------


def gen_tiny_mix():
    cap = Capture(os.path.join(CAPTURES, "tiny_mix"),
                  {"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": 0, "rank": 0,
                   "level": "mix"})
    g = torch.Generator().manual_seed(1)
    x = dyadic(g, (2, 4))
    W = dyadic(g, (3, 4), den=8, lo=-8, hi=9)
    b = dyadic(g, (3,), den=8, lo=-8, hi=9)
    y = x @ W.t() + b
    r = torch.relu(y)
    target = torch.tensor([2, 0], dtype=torch.int64)
    yr = r.clone().requires_grad_(True)
    loss = torch.nn.functional.cross_entropy(yr, target)
    loss.backward()
    g_r = yr.grad.clone()
    g_y = g_r * (y > 0).to(torch.float32)
    g_W = g_y.t() @ x
    g_b = g_y.sum(0)
    one = torch.tensor(1.0)

    fr_fc = ["File net.py, line 9, in forward, \n return self.fc(x)"]
    fr_act = ["File net.py, line 10, in forward, \n return self.act(y)"]
    fr_ce = ["File net.py, line 20, in <module>, \n loss = F.cross_entropy(net(x), target)"]

    X = cap.tleaf(x, "t0.npy")
    Wl = cap.tleaf(W, "fc.weight.pt", True)
    bl = cap.tleaf(b, "fc.bias.pt", True)
    Y = cap.tleaf(y, "y.pt", True)
    R = cap.tleaf(r, "r.npy", True)
    T = cap.tleaf(target, "target.npy")
    L = cap.tleaf(loss.detach(), "loss.pt", True)

    # forward
    cap.stack("Module.fc.Linear.forward.0", fr_fc)
    cap.data("Module.fc.Linear.forward.0", input_args=[X], input_kwargs={})
    cap.construct("Functional.linear.0.forward", "Module.fc.Linear.forward.0")
    cap.construct("Module.fc.Linear.forward.0", None)
    cap.stack("Functional.linear.0.forward", fr_fc)
    cap.data("Functional.linear.0.forward", input_args=[X, Wl, bl], input_kwargs={})
    cap.data("Functional.linear.0.forward", output=[Y])
    cap.data("Module.fc.Linear.forward.0", output=[Y], parameters={"weight": Wl, "bias": bl})
    cap.stack("Module.act.ReLU.forward.0", fr_act)
    cap.data("Module.act.ReLU.forward.0", input_args=[Y], input_kwargs={})
    cap.construct("Functional.relu.0.forward", "Module.act.ReLU.forward.0")
    cap.construct("Module.act.ReLU.forward.0", None)
    cap.stack("Functional.relu.0.forward", fr_act)
    cap.data("Functional.relu.0.forward", input_args=[Y], input_kwargs={"inplace": B(False)})
    cap.data("Functional.relu.0.forward", output=[R])
    cap.data("Module.act.ReLU.forward.0", output=[R], parameters={})
    cap.construct("Functional.cross_entropy.0.forward", None)
    cap.stack("Functional.cross_entropy.0.forward", fr_ce)
    cap.data("Functional.cross_entropy.0.forward", input_args=[R, T],
             input_kwargs={"reduction": S("mean"), "label_smoothing": F(0.0)})
    cap.data("Functional.cross_entropy.0.forward", output=[L])
    # backward (gradients in one raw blob)
    G1 = cap.tleaf(one, ("grads.bin",))
    GR = cap.tleaf(g_r, ("grads.bin",))
    GY = cap.tleaf(g_y, ("grads.bin",))
    GW = cap.tleaf(g_W, ("grads.bin",))
    GB = cap.tleaf(g_b, ("grads.bin",))
    cap.construct("Functional.cross_entropy.0.backward", None)
    cap.data("Functional.cross_entropy.0.backward", input=[G1], output=[GR, None])
    cap.construct("Functional.relu.0.backward", "Module.act.ReLU.backward.0")
    cap.data("Functional.relu.0.backward", input=[GR], output=[GY])
    cap.construct("Module.act.ReLU.backward.0", None)
    cap.data("Module.act.ReLU.backward.0", input=[GR], output=[GY])
    cap.construct("Functional.linear.0.backward", "Module.fc.Linear.backward.0")
    cap.data("Functional.linear.0.backward", input=[GY], output=[GB, None, cap.tleaf(g_W.t(), ("grads.bin",))])
    cap.data("Module.fc.Linear.parameters_grad.0", bias=[GB])
    cap.construct("Module.fc.Linear.backward.0", None)
    cap.data("Module.fc.Linear.backward.0", input=[GY], output=[None])
    cap.data("Module.fc.Linear.parameters_grad.0", weight=[GW])
    cap.write()
    return cap


# ---------------------------------------------------------------------------------------------
# pytorch_values: every non-tensor value kind of docs/format.md §5.3 plus tensor-leaf extras.
# Written with ensure_ascii=False so the trace holds raw UTF-8 the converter must escape.
# ---------------------------------------------------------------------------------------------
def gen_pytorch_values():
    cap = Capture(os.path.join(CAPTURES, "pytorch_values"),
                  {"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": 0, "rank": 0,
                   "level": "L1"}, ensure_ascii=False)
    g = torch.Generator().manual_seed(2)
    frames = ["File /home/user/values.py, line 31, in run, \n y = api(*args, **kwargs)  # 注释 ✓",
              "File /home/user/values.py, line 40, in <module>, \n run()"]

    def api(name, **sections):
        cap.stack(name, frames)
        cap.data(name, **sections)

    a = dyadic(g, (2, 3))
    h = dyadic(g, (2, 3), dtype=torch.float16)
    # numbers: ints (incl. a big one), floats in every repr form, bools
    api("Torch.full.0.forward",
        input_args=[{"type": "torch.Size", "value": [2, 3]}, F(1e-05)],
        input_kwargs={"dtype": {"type": "torch.dtype", "value": "torch.float16"},
                      "device": {"type": "torch.device", "value": "cpu:None"},
                      "requires_grad": B(False), "pin_memory": B(True), "layout": None})
    cap.data("Torch.full.0.forward", output=[cap.tleaf(h, "h.pt")])
    api("Torch.as_tensor.0.forward",
        input_args=[[I(0), I(-1), I(1180591620717411303424), I(-9223372036854775809),
                     F(1e+16), F(-0.0), F(float("nan")), F(float("inf")), F(float("-inf")), F(0.1),
                     F(123456792.0), F(1e-07), F(5e-324), F(1.7976931348623157e+308), F(9999999198822400.0),
                     F(0.0001), F(1.0000000272564224e+16), F(3.0)]],
        input_kwargs={"device": {"type": "torch.device", "value": "cuda:0"}, "copy": B(True)},
        output=[cap.tleaf(dyadic(g, (18,), dtype=torch.float64), "as_tensor_out.npy")])
    # strings: non-ASCII, emoji (surrogate pair when escaped), control chars, quotes, DEL
    api("Torch.einsum.0.forward",
        input_args=[S("ij,jk->ik ünïcödé 😀 \"q\" \\ \n\t\b\f\r \x7f \x01 末"),
                    cap.tleaf(a, "a.pt"), cap.tleaf(a.t().contiguous(), "at.npy")],
        input_kwargs={"naïve_key": S("é"), "empty": S("")})
    cap.data("Torch.einsum.0.forward", output=[cap.tleaf(a @ a.t(), "aat.pt", True)])
    # slice / ellipsis / positional dtype and device -> {} / memory_format / None output
    api("Tensor.__setitem__.0.forward",
        input_args=[cap.tleaf(a, "a.pt"),
                    [{"type": "slice", "value": [0, 1, None]}, {"type": "ellipsis", "value": "..."},
                     {"type": "slice", "value": [None, None, None]}],
                    cap.tleaf(torch.tensor(0.5), "half.pt")],
        input_kwargs={},
        output=[None])
    api("Tensor.to.0.forward",
        input_args=[cap.tleaf(a, "a.pt", True), {}, {}],
        input_kwargs={"non_blocking": B(True),
                      "memory_format": {"type": "torch.memory_format", "format": "preserve_format"},
                      "device": {"type": "torch.device", "value": "cpu"}},
        output=[cap.tleaf(a.to(torch.bfloat16), ("values.bin",), True)])
    api("Tensor.contiguous.0.forward",
        input_args=[cap.tleaf(a, "a.pt")],
        input_kwargs={"memory_format": {"type": "torch.memory_format", "format": "channels_last"},
                      "fmt2": {"type": "torch.memory_format", "format": None}},
        output=[cap.tleaf(a, "a.pt")])
    # numpy scalars and ndarrays (ndarray stats follow numpy: computed in float64 here)
    nd_i = np.array([[3, -1], [4, 10]], dtype=np.int64)
    nd_f = np.array([0.5, 1.5, -2.0, 4.0, 0.25], dtype=np.float64)
    api("Torch.from_numpy.0.forward",
        input_args=[{"type": "numpy.ndarray", "dtype": "int64", "shape": [2, 2], "source": cap.npy(nd_i, "nd_i.npy")},
                    {"type": "float32", "value": float(np.float32(0.1))},
                    {"type": "int64", "value": 7}, {"type": "bool_", "value": True},
                    {"type": "float64", "value": 2.5}, {"type": "int8", "value": -3},
                    {"type": "str_", "value": "np"}],
        input_kwargs={"arr": {"type": "numpy.ndarray", "dtype": "float64", "shape": [5],
                              "source": cap.npy(nd_f, "nd_f.npy")}},
        output=[cap.tleaf(torch.from_numpy(nd_i), "nd_i_t.pt")])
    # distributed: ProcessGroup, ReduceOp, output = args + kwargs values
    grp = {"type": "torch.ProcessGroup", "group_ranks": [0, 1],
           "group_id": "%08x" % zlib.crc32(b"[0, 1]")}
    red = {"type": "torch.distributed.ReduceOp", "value": "RedOpType.SUM"}
    ar = dyadic(g, (4,))
    api("Distributed.all_reduce.0.forward",
        input_args=[cap.tleaf(ar, "ar_in.pt")],
        input_kwargs={"op": red, "group": grp, "async_op": B(False)})
    cap.data("Distributed.all_reduce.0.forward",
             output=[cap.tleaf(ar * 2, "ar_out.pt"), red, grp, B(False)])
    # P2POp (class_type, no "type"), its tensor gets a data_name at the P2POp's own path
    p_send = dyadic(g, (3,))
    p_recv = torch.zeros(3)
    gid = "%08x" % zlib.crc32(b"[0, 1]")
    p2p = [{"class_type": "torch.distributed.P2POp", "tensor": cap.tleaf(p_send, ("values.bin",)),
            "op": "isend", "peer": 1, "tag": 0, "group_id": gid},
           {"class_type": "torch.distributed.P2POp", "tensor": cap.tleaf(p_recv, ("values.bin",)),
            "op": "irecv", "peer": 1, "tag": 0, "group_id": gid}]
    api("Distributed.batch_isend_irecv.0.forward", input_args=[p2p], input_kwargs={})
    cap.data("Distributed.batch_isend_irecv.0.forward", output=[p2p])
    # DTensor extras (capture key order differs from msprobe's), meta / fake tensors, nesting,
    # namedtuple output as an object
    d = dyadic(g, (2, 2))
    dt1 = cap.tleaf(d, "dt.pt", True, ttype="torch.distributed.tensor.DTensor",
                    extra={"placements": [{"Shard": {"dim": 0}}, {"Replicate": {}}], "device_mesh": [[0, 1], [2, 3]]},
                    extra_first=True)
    dt2 = cap.tleaf(d * 2, ("values.bin",), False, ttype="torch.distributed.tensor.DTensor",
                    extra={"device_mesh": [0, 1], "placements": [{"Partial": {"reduce_op": "sum"}}]})
    meta = {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 4], "requires_grad": False,
            "source": None}
    fake = {"type": "torch._subclasses.fake_tensor.FakeTensor", "dtype": "torch.bfloat16", "shape": [2],
            "requires_grad": True, "source": None}
    mn, mx = d.min(), d.max()
    api("Torch.aminmax.0.forward",
        input_args=[dt1, meta],
        input_kwargs={"opts": {"scale": F(0.5), "pair": [dt2, None, {"inner": cap.tleaf(d, "dt.pt")}],
                               "fake": fake, "7": I(7)}},
        output={"min": cap.tleaf(mn, "mn.pt"), "max": cap.tleaf(mx, "mx.pt")})
    cap.write()
    return cap


# ---------------------------------------------------------------------------------------------
# pytorch_stats: one tensor per statistics rule of docs/format.md §6.1 / §6.2.
# ---------------------------------------------------------------------------------------------
def f8_e4m3fn_decode(b):
    s = -1.0 if b & 0x80 else 1.0
    e = (b >> 3) & 0xF
    m = b & 7
    if e == 0xF and m == 7:
        return float("nan")
    if e == 0:
        return s * m / 8.0 * 2.0 ** -6
    return s * (1 + m / 8.0) * 2.0 ** (e - 7)


def f8_e5m2_decode(b):
    s = -1.0 if b & 0x80 else 1.0
    e = (b >> 2) & 0x1F
    m = b & 3
    if e == 0x1F:
        return s * float("inf") if m == 0 else float("nan")
    if e == 0:
        return s * m / 4.0 * 2.0 ** -14
    return s * (1 + m / 4.0) * 2.0 ** (e - 15)


def gen_pytorch_stats():
    cap = Capture(os.path.join(CAPTURES, "pytorch_stats"),
                  {"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": 0, "rank": 0,
                   "level": "L1"})
    g = torch.Generator().manual_seed(3)
    frames = ["File /home/user/stats.py, line 12, in probe, \n y = t.clone()",
              "File /home/user/stats.py, line 30, in <module>, \n probe(t)"]
    nan, inf = float("nan"), float("inf")
    cases = [
        ("fp32", torch.randn(4, 4, generator=g), "fp32.pt"),
        ("fp32_64", torch.randn(64, generator=g) * 3 + 1, ("stats.bin",)),
        ("fp16", torch.randn(16, generator=g).to(torch.float16), "fp16.npy"),
        ("bf16", torch.randn(2, 8, generator=g).to(torch.bfloat16), "bf16.pt"),
        ("bf16_raw", (torch.randn(12, generator=g) * 100).to(torch.bfloat16), ("stats.bin",)),
        ("fp64", torch.randn(6, generator=g, dtype=torch.float64), "fp64.pt"),
        ("int8", torch.tensor([-128, -3, 0, 5, 127, 9, -1, 2], dtype=torch.int8), "int8.npy"),
        ("int16", torch.tensor([-300, 2, 32767, -32768, 1, 0], dtype=torch.int16), ("stats.bin",)),
        ("int32", torch.tensor([[100000, -7], [16777217, 3]], dtype=torch.int32), "int32.pt"),
        ("int64", torch.tensor([2 ** 62 + 1, -2 ** 40, 967, 19, 0, -5], dtype=torch.int64), "int64.pt"),
        ("uint8", torch.tensor([0, 255, 17, 3, 200], dtype=torch.uint8), "uint8.npy"),
        ("bool", torch.tensor([[False, False, False], [True, True, True]]), "bool.pt"),
        ("bool_false", torch.tensor([False, False]), ("stats.bin",)),
        ("c64", torch.tensor([3 + 4j, 7 - 24j, 1j, 0.5, -8 - 6j, 20 + 21j], dtype=torch.complex64), "c64.npy"),
        ("c128", torch.tensor([6 + 8j, 0.25, -2j], dtype=torch.complex128), "c128.pt"),
        ("s_fp32", torch.tensor(-3.25), "s_fp32.pt"),
        ("s_int64", torch.tensor(-7), "s_int64.npy"),
        ("s_bool", torch.tensor(True), "s_bool.pt"),
        ("s_bf16", torch.tensor(-1.3).to(torch.bfloat16), "s_bf16.pt"),
        ("s_fp16", torch.tensor(-0.1).to(torch.float16), ("stats.bin",)),
        ("s_uint8", torch.tensor(200, dtype=torch.uint8), "s_uint8.pt"),
        ("empty", torch.zeros(0), "empty.pt"),
        ("empty2d", torch.zeros(2, 0, dtype=torch.int64), "empty2d.npy"),
        ("nan", torch.tensor([1.0, nan, -2.0, 0.5]), "nan.pt"),
        ("pinf", torch.tensor([1.0, inf, -2.0]), "pinf.pt"),
        ("ninf", torch.tensor([1.0, -inf, 4.0]), ("stats.bin",)),
        ("pminf", torch.tensor([inf, -inf, 1.0]), "pminf.pt"),
        ("nan_bf16", torch.tensor([nan, 1.0]).to(torch.bfloat16), "nan_bf16.pt"),
        ("fp16_big", torch.tensor([60000.0, -60000.0, 30000.0, 1.0]).to(torch.float16), "fp16_big.pt"),
        ("fp64_nan", torch.tensor([1.5, nan], dtype=torch.float64), "fp64_nan.npy"),
    ]
    count = collections.Counter()
    for label, t, store in cases:
        name = "Tensor.clone.%d.forward" % count["clone"]
        count["clone"] += 1
        leaf = cap.tleaf(t, store, requires_grad=(label == "fp32"))
        cap.stack(name, frames)
        cap.data(name, input_args=[leaf], input_kwargs={})
        cap.data(name, output=[leaf])
    # float8: raw bytes built by hand (torch 1.13 has no float8 dtypes)
    f8 = {"torch.float8_e4m3fn": bytes([0x38, 0xB8, 0x7E, 0x01, 0x40, 0x00, 0x81, 0x5D]),   # 1,-1,448,2^-9,2,0,-2^-9,..
          "torch.float8_e5m2": bytes([0x3C, 0xBC, 0x7B, 0x01, 0x40, 0x00, 0x42, 0xC5])}
    for dtype, raw in f8.items():
        name = "Tensor.to.%d.forward" % count["to"]
        count["to"] += 1
        src = cap.blob("f8.bin", raw)
        leaf = {"type": "torch.Tensor", "dtype": dtype, "shape": [2, 4], "requires_grad": False, "source": src}
        cap.stack(name, frames)
        cap.data(name, input_args=[cap.tleaf(torch.ones(2, 4), "ones.pt"), {}], input_kwargs={})
        cap.data(name, output=[leaf])
    cap.write()
    return cap


# ---------------------------------------------------------------------------------------------
# mindspore_cells: framework mindspore, Cell.* modules (one event each, written after their
# children, as MindSpore's forward hook does), Mint/MintFunctional/Primitive/Jit/Tensor APIs.
# ---------------------------------------------------------------------------------------------
def bf16_round_np(a):
    a = np.asarray(a, dtype=np.float32)
    t = torch.from_numpy(np.array(a, order="C", copy=True).reshape(-1))
    return t.to(torch.bfloat16).to(torch.float32).numpy().reshape(a.shape)


def gen_mindspore_cells():
    cap = Capture(os.path.join(CAPTURES, "mindspore_cells"),
                  {"format": "msdump-trace", "version": 1, "framework": "mindspore", "step": 0, "rank": 0,
                   "level": "mix"})
    rs = np.random.RandomState(4)
    fr = lambda line, src: ["File /home/user/ms_net.py, line %d, in construct, \n %s" % (line, src),
                            "File /home/user/ms_net.py, line 50, in <module>, \n out = net(x)"]
    x = bf16_round_np(rs.randn(2, 4))
    w = bf16_round_np(rs.randn(3, 4))
    bb = bf16_round_np(rs.randn(3))
    y = bf16_round_np(x @ w.T)
    z = bf16_round_np(y + bb)
    zf = z.astype(np.float32)
    r = np.maximum(zf, 0).astype(np.float32)
    gt = zf > 0
    X = cap.msleaf(x, "x.npy", "BFloat16")
    Wl = cap.msleaf(w, "w.npy", "BFloat16", extra={"layout": {"Device Matrix": [2, 1], "Tensor Map": [1, -1]},
                                                   "hsdp_shard_size": 2})
    Bl = cap.msleaf(bb, ("ms.bin",), "BFloat16")
    Y = cap.msleaf(y, "y.npy", "BFloat16")
    Z = cap.msleaf(z, ("ms.bin",), "BFloat16")
    ZF = cap.msleaf(zf, "zf.npy")
    R = cap.msleaf(r, "r.npy")
    GT = cap.msleaf(gt, "gt.npy")

    cap.construct("Primitive.matmul.MatMul.0.forward", "Cell.dense.Dense.forward.0")
    cap.stack("Primitive.matmul.MatMul.0.forward", fr(12, "y = self.matmul(x, self.weight)"))
    cap.data("Primitive.matmul.MatMul.0.forward", input_args=[X, Wl], input_kwargs={"transpose_b": B(True)})
    cap.data("Primitive.matmul.MatMul.0.forward", output=[Y])
    cap.construct("Mint.add.0.forward", "Cell.dense.Dense.forward.0")
    cap.stack("Mint.add.0.forward", fr(13, "return mint.add(y, self.bias)"))
    cap.data("Mint.add.0.forward", input_args=[Y, Bl], input_kwargs={"alpha": I(1)})
    cap.data("Mint.add.0.forward", output=[Z])
    cap.construct("Cell.dense.Dense.forward.0", None)
    cap.stack("Cell.dense.Dense.forward.0", fr(30, "x = self.act(self.dense(x))"))
    cap.data("Cell.dense.Dense.forward.0", input_args=[X], input_kwargs={}, output=[Z],
             parameters={"weight": Wl, "bias": Bl})
    cap.construct("Functional.cast.0.forward", None)
    cap.stack("Functional.cast.0.forward", fr(31, "x = ops.cast(x, ms.float32)"))
    cap.data("Functional.cast.0.forward", input_args=[Z, {"type": "mindspore.dtype", "value": "Float32"}],
             input_kwargs={})
    cap.data("Functional.cast.0.forward", output=[ZF])
    cap.construct("MintFunctional.relu.0.forward", "Cell.act.ReLU.forward.0")
    cap.stack("MintFunctional.relu.0.forward", fr(20, "return mint.nn.functional.relu(x)"))
    cap.data("MintFunctional.relu.0.forward", input_args=[ZF], input_kwargs={})
    cap.data("MintFunctional.relu.0.forward", output=[R])
    cap.construct("Cell.act.ReLU.forward.0", None)
    cap.stack("Cell.act.ReLU.forward.0", fr(32, "x = self.act(x)"))
    cap.data("Cell.act.ReLU.forward.0", input_args=[ZF], input_kwargs={}, output=[R], parameters={})
    cap.construct("Tensor.__gt__.0.forward", None)
    cap.stack("Tensor.__gt__.0.forward", fr(33, "mask = x > 0"))
    cap.data("Tensor.__gt__.0.forward", input_args=[R, F(0.0)], input_kwargs={})
    cap.data("Tensor.__gt__.0.forward", output=[GT])
    # Jit: one event, input_kwargs always {}
    ji = np.array([4, -2, 7, 1], dtype=np.int64)
    cap.construct("Jit.JitFunction.0.forward", None)
    cap.stack("Jit.JitFunction.0.forward", fr(34, "k = jit_fn(idx)"))
    cap.data("Jit.JitFunction.0.forward", input_args=[cap.msleaf(ji, "ji.npy")], input_kwargs={},
             output=[cap.msleaf(np.array(10, dtype=np.int64), "ji_sum.npy")])
    # more dtypes through Mint.clone
    extra = [
        cap.msleaf(rs.randn(5).astype(np.float16), "c_f16.npy"),
        cap.msleaf(rs.randn(4), "c_f64.npy"),
        cap.msleaf(np.array([[5, -9], [300, 2]], dtype=np.int32), ("ms.bin",)),
        cap.msleaf(np.array([0, 255, 9], dtype=np.uint8), "c_u8.npy"),
        cap.msleaf(np.array([3 + 4j, 1j, -0.5], dtype=np.complex64), "c_c64.npy"),
        cap.msleaf(np.zeros((0, 3), dtype=np.float32), "c_empty.npy"),
        cap.msleaf(np.array(-7, dtype=np.int64), "c_s_i64.npy"),
        cap.msleaf(bf16_round_np(np.array(2.7)), "c_s_bf16.npy", "BFloat16"),
        cap.msleaf(np.array([False, False]), "c_bool.npy"),
        cap.msleaf(np.array([1.0, np.nan], dtype=np.float32), "c_nan.npy"),
    ]
    for i, lf in enumerate(extra):
        name = "Mint.clone.%d.forward" % i
        cap.construct(name, None)
        cap.stack(name, fr(40, "c = mint.clone(t)"))
        cap.data(name, input_args=[lf], input_kwargs={"dtype": {"type": "mindspore.dtype", "value": lf["dtype"]}})
        cap.data(name, output=[lf])
    # distributed P2POp (MindSpore class_type, group_id null)
    p = rs.randn(3).astype(np.float32)
    p2p = {"class_type": "mindspore.mint.distributed.P2POp", "tensor": cap.msleaf(p, "p2p.npy"),
           "op": "isend", "peer": 1, "tag": 0, "group_id": None}
    cap.construct("MintDistributed.batch_isend_irecv.0.forward", None)
    cap.stack("MintDistributed.batch_isend_irecv.0.forward", fr(41, "reqs = dist.batch_isend_irecv(ops)"))
    cap.data("MintDistributed.batch_isend_irecv.0.forward", input_args=[[p2p]], input_kwargs={})
    cap.data("MintDistributed.batch_isend_irecv.0.forward", output=[[p2p]])
    # backward
    g_r = cap.msleaf(np.ones((2, 3), dtype=np.float32), "g_r.npy")
    g_z = cap.msleaf(gt.astype(np.float32), "g_z.npy")
    g_zb = bf16_round_np(gt.astype(np.float32))
    g_w = bf16_round_np(g_zb.T @ x)
    g_b = bf16_round_np(g_zb.sum(0))
    GZB = cap.msleaf(g_zb, ("ms_grad.bin",), "BFloat16")
    cap.construct("Tensor.__gt__.0.backward", None)
    cap.data("Tensor.__gt__.0.backward", input=[None], output=[None, None])
    cap.construct("MintFunctional.relu.0.backward", "Cell.act.ReLU.backward.0")
    cap.data("MintFunctional.relu.0.backward", input=[g_r], output=[g_z])
    cap.construct("Cell.act.ReLU.backward.0", None)
    cap.data("Cell.act.ReLU.backward.0", input=[g_r], output=[g_z])
    cap.construct("Functional.cast.0.backward", None)
    cap.data("Functional.cast.0.backward", input=[g_z], output=[GZB])
    cap.construct("Mint.add.0.backward", "Cell.dense.Dense.backward.0")
    cap.data("Mint.add.0.backward", input=[GZB], output=[GZB, cap.msleaf(g_b, ("ms_grad.bin",), "BFloat16")])
    cap.data("Cell.dense.Dense.parameters_grad.0", weight=[cap.msleaf(g_w, ("ms_grad.bin",), "BFloat16")])
    cap.construct("Primitive.matmul.MatMul.0.backward", "Cell.dense.Dense.backward.0")
    cap.data("Primitive.matmul.MatMul.0.backward", input=[GZB],
             output=[cap.msleaf(bf16_round_np(g_zb @ w), ("ms_grad.bin",), "BFloat16"),
                     cap.msleaf(g_w, ("ms_grad.bin",), "BFloat16")])
    cap.construct("Cell.dense.Dense.backward.0", None)
    cap.data("Cell.dense.Dense.backward.0", input=[GZB], output=[None])
    cap.data("Cell.dense.Dense.parameters_grad.0", bias=[cap.msleaf(g_b, ("ms_grad.bin",), "BFloat16")])
    cap.write()
    return cap


# ---------------------------------------------------------------------------------------------
# mindtorch_basic: framework mindtorch (MSAdapter): Module.* names, mindspore.Tensor leaves, .npy
# ---------------------------------------------------------------------------------------------
def gen_mindtorch_basic():
    cap = Capture(os.path.join(CAPTURES, "mindtorch_basic"),
                  {"format": "msdump-trace", "version": 1, "framework": "mindtorch", "step": 0, "rank": 0,
                   "level": "mix"})
    rs = np.random.RandomState(5)
    fr = lambda line, src: ["File /home/user/mt_net.py, line %d, in forward, \n %s" % (line, src),
                            "File /home/user/mt_net.py, line 60, in <module>, \n loss = net(x).sum()"]
    x = rs.randn(2, 3).astype(np.float32)
    w = rs.randn(2, 3).astype(np.float32)
    b = rs.randn(2).astype(np.float32)
    y = (x @ w.T + b).astype(np.float32)
    s = np.array(y.sum(dtype=np.float64), dtype=np.float32)
    idx = np.array([1, 0, 3], dtype=np.int64)
    X = cap.msleaf(x, "x.npy", requires_grad=False)
    Wl = cap.msleaf(w, "w.npy", requires_grad=True)
    Bl = cap.msleaf(b, ("mt.bin",), requires_grad=True)
    Y = cap.msleaf(y, "y.npy", requires_grad=True)
    cap.construct("Functional.linear.0.forward", "Module.fc.Linear.forward.0")
    cap.stack("Functional.linear.0.forward", fr(8, "return F.linear(x, self.weight, self.bias)"))
    cap.data("Functional.linear.0.forward", input_args=[X, Wl, Bl], input_kwargs={})
    cap.data("Functional.linear.0.forward", output=[Y])
    cap.construct("Module.fc.Linear.forward.0", None)
    cap.stack("Module.fc.Linear.forward.0", fr(20, "y = self.fc(x)"))
    cap.data("Module.fc.Linear.forward.0", input_args=[X], input_kwargs={}, output=[Y],
             parameters={"weight": Wl, "bias": Bl})
    grp = {"type": "mindspore.ProcessGroup", "group_ranks": [0], "group_id": "%08x" % zlib.crc32(b"[0]")}
    cap.construct("Torch.index_select.0.forward", None)
    cap.stack("Torch.index_select.0.forward", fr(21, "k = torch.index_select(y, 1, idx)"))
    cap.data("Torch.index_select.0.forward",
             input_args=[Y, I(1), cap.msleaf(idx, ("mt.bin",))],
             input_kwargs={"dtype": {"type": "mindspore.dtype", "value": "Float32"}, "group": grp})
    cap.data("Torch.index_select.0.forward", output=[cap.msleaf(y[:, [1, 0]].copy(), "k.npy")])
    cap.construct("Tensor.sum.0.forward", None)
    cap.stack("Tensor.sum.0.forward", fr(22, "return y.sum()"))
    cap.data("Tensor.sum.0.forward", input_args=[Y], input_kwargs={})
    cap.data("Tensor.sum.0.forward", output=[cap.msleaf(s, "s.npy")])
    one = cap.msleaf(np.array(1.0, dtype=np.float32), ("mt.bin",))
    ones = cap.msleaf(np.ones((2, 2), dtype=np.float32), ("mt.bin",))
    gw = (np.ones((2, 2), dtype=np.float32).T @ x).astype(np.float32)
    cap.construct("Tensor.sum.0.backward", None)
    cap.data("Tensor.sum.0.backward", input=[one], output=[ones])
    cap.construct("Functional.linear.0.backward", "Module.fc.Linear.backward.0")
    cap.data("Functional.linear.0.backward", input=[ones],
             output=[None, cap.msleaf(gw, "gw.npy"), cap.msleaf(np.full(2, 2.0, np.float32), "gb.npy")])
    cap.data("Module.fc.Linear.parameters_grad.0", weight=[cap.msleaf(gw, "gw.npy")])
    cap.construct("Module.fc.Linear.backward.0", None)
    cap.data("Module.fc.Linear.backward.0", input=[ones], output=[None])
    cap.data("Module.fc.Linear.parameters_grad.0", bias=[cap.msleaf(np.full(2, 2.0, np.float32), "gb.npy")])
    cap.write()
    return cap


# ---------------------------------------------------------------------------------------------
# truncated: the capture process died while writing the last line (no final newline).
# ---------------------------------------------------------------------------------------------
def small_events(cap, g):
    a = dyadic(g, (2, 2))
    A = cap.tleaf(a, "a.npy", True)
    R = cap.tleaf(torch.relu(a), "r.pt", True)
    fr = ["File /home/user/small.py, line 5, in <module>, \n y = F.relu(a)"]
    cap.stack("Functional.relu.0.forward", fr)
    cap.data("Functional.relu.0.forward", input_args=[A], input_kwargs={})
    cap.data("Functional.relu.0.forward", output=[R])
    cap.stack("Tensor.__mul__.0.forward", ["File /home/user/small.py, line 6, in <module>, \n z = y * 2"])
    cap.data("Tensor.__mul__.0.forward", input_args=[R, I(2)], input_kwargs={})
    return a


def gen_truncated():
    cap = Capture(os.path.join(CAPTURES, "truncated"),
                  {"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": 0, "rank": 0,
                   "level": "L1"})
    g = torch.Generator().manual_seed(6)
    a = small_events(cap, g)
    cap.data("Tensor.__mul__.0.forward", output=[cap.tleaf(torch.relu(a) * 2, "z.pt", True)])
    cap.write(truncate_last_at=60)
    return cap


# ---------------------------------------------------------------------------------------------
# header_defaults: the header sets task tensor + summary_mode md5 (data_name before md5)
# ---------------------------------------------------------------------------------------------
def gen_header_defaults():
    cap = Capture(os.path.join(CAPTURES, "header_defaults"),
                  {"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": 0, "rank": 0,
                   "level": "L1", "task": "tensor", "summary_mode": "md5"})
    g = torch.Generator().manual_seed(8)
    a = small_events(cap, g)
    d = dyadic(g, (2, 2))
    cap.data("Tensor.__mul__.0.forward", output=[cap.tleaf(torch.relu(a) * 2, "z.pt", True)])
    cap.stack("Torch.stack.0.forward", ["File /home/user/small.py, line 7, in <module>, \n w = torch.stack(ts)"])
    cap.data("Torch.stack.0.forward",
             input_args=[[cap.tleaf(d, "d.pt", True, ttype="torch.distributed.tensor.DTensor",
                                    extra={"device_mesh": [0, 1], "placements": [{"Shard": {"dim": 1}}]}),
                          {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 2], "requires_grad": False,
                           "source": None},
                          cap.tleaf(torch.zeros(0, 2), "e.pt")]],
             input_kwargs={"dim": I(0)})
    cap.data("Torch.stack.0.forward", output=[cap.tleaf(torch.stack([d, d]), ("s.bin",))])
    cap.write()
    return cap


# ---------------------------------------------------------------------------------------------
# tree_steps: a tree of traces step<N>/rank<R>/trace.jsonl converts into the same tree
# ---------------------------------------------------------------------------------------------
def gen_tree_steps():
    root = os.path.join(CAPTURES, "tree_steps")
    if os.path.isdir(root):
        shutil.rmtree(root)
    caps = []
    for step in (0, 1):
        for rank in (0, 1):
            cap = Capture(os.path.join(root, "step%d" % step, "rank%d" % rank),
                          {"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": step,
                           "rank": rank, "level": "mix"})
            g = torch.Generator().manual_seed(100 + 10 * step + rank)
            x = dyadic(g, (2, 2))
            w = dyadic(g, (2, 2))
            y = x @ w.t()
            fr = ["File /home/user/tree.py, line 11, in forward, \n return self.proj(x)"]
            X = cap.tleaf(x, "x.npy")
            Wl = cap.tleaf(w, "w.pt", True)
            Y = cap.tleaf(y, ("t.bin",), True)
            cap.stack("Module.proj.Linear.forward.0", fr)
            cap.data("Module.proj.Linear.forward.0", input_args=[X], input_kwargs={})
            cap.construct("Functional.linear.0.forward", "Module.proj.Linear.forward.0")
            cap.construct("Module.proj.Linear.forward.0", None)
            cap.stack("Functional.linear.0.forward", fr)
            cap.data("Functional.linear.0.forward", input_args=[X, Wl, None], input_kwargs={})
            cap.data("Functional.linear.0.forward", output=[Y])
            cap.data("Module.proj.Linear.forward.0", output=[Y], parameters={"weight": Wl})
            cap.write()
            caps.append(cap)
    return root


# ---------------------------------------------------------------------------------------------
# bad captures
# ---------------------------------------------------------------------------------------------
def bad_capture(defect, level="L1"):
    return Capture(os.path.join(BAD, defect),
                   {"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": 0, "rank": 0,
                    "level": level})


def gen_bad():
    """Returns {defect: (capture, expect dict)}."""
    res = {}
    g = torch.Generator().manual_seed(7)

    cap = bad_capture("malformed_line3")
    small_events(cap, g)
    cap.lines[1] = '{"kind": "data", "name": "Functional.relu.0.forward", "input_args": [}'
    cap.write()
    res["malformed_line3"] = (cap, {"exit": 2, "stderr_contains": ["trace.jsonl:3"], "output": "none",
                                    "description": "line 3 is not valid JSON (it is not the last line, so it is "
                                                   "an error, not a truncation)"})

    cap = bad_capture("missing_tensor")
    small_events(cap, g)
    cap.data("Tensor.__mul__.0.forward", output=[{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 2],
                                                  "requires_grad": True, "source": {"file": "missing.pt"}}])
    cap.write()
    ln = len(cap.lines) + 1
    res["missing_tensor"] = (cap, {"exit": 1, "stderr_contains": ["trace.jsonl:%d" % ln, "missing.pt"],
                                   "output": "golden",
                                   "description": "a tensor file does not exist: reported with its line, the "
                                                  "entry is still written with null statistics, exit 1"})

    cap = bad_capture("dtype_mismatch")
    small_events(cap, g)
    x = torch.ones(2, 2)
    cap.npy(x.numpy(), "x.npy")
    cap.data("Tensor.__mul__.0.forward", output=[{"type": "torch.Tensor", "dtype": "torch.float16", "shape": [2, 2],
                                                  "requires_grad": True, "source": {"file": "x.npy"}}])
    cap.write()
    ln = len(cap.lines) + 1
    res["dtype_mismatch"] = (cap, {"exit": 2, "stderr_contains": ["trace.jsonl:%d" % ln, "x.npy"], "output": "none",
                                   "description": "leaf says torch.float16, the .npy holds float32 (<f4)"})

    cap = bad_capture("path_escape")
    cap.stack("Functional.relu.0.forward", ["File /home/user/small.py, line 5, in <module>, \n y = F.relu(a)"])
    cap.data("Functional.relu.0.forward",
             input_args=[{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 2], "requires_grad": False,
                          "source": {"file": "../missing_tensor/r.pt"}}], input_kwargs={})
    cap.write()
    res["path_escape"] = (cap, {"exit": 2, "stderr_contains": ["trace.jsonl:3", "/input_args/0/source/file"],
                                "output": "none",
                                "description": "source.file leaves the capture directory with '..' (the target "
                                               "exists: the path itself must be refused)"})

    cap = bad_capture("path_absolute")
    cap.data("Functional.relu.0.forward",
             input_args=[{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [1], "requires_grad": False,
                          "source": {"file": "/etc/hostname"}}], input_kwargs={})
    cap.write()
    res["path_absolute"] = (cap, {"exit": 2, "stderr_contains": ["trace.jsonl:2", "/input_args/0/source/file"],
                                  "output": "none", "description": "source.file is an absolute path"})

    cap = bad_capture("unknown_kind")
    a = small_events(cap, g)
    cap.lines.insert(2, {"kind": "frobnicate", "name": "Functional.relu.0.forward", "payload": [1, 2]})
    cap.data("Tensor.__mul__.0.forward", output=[cap.tleaf(torch.relu(a) * 2, "z.pt", True)])
    cap.write()
    res["unknown_kind"] = (cap, {"exit": 0, "stderr_contains": ["trace.jsonl:4", "frobnicate"], "output": "golden",
                                 "description": "an unknown event kind is a warning (forward compatibility); "
                                                "the rest converts normally"})

    cap = bad_capture("header_version2")
    cap.header = dict(cap.header, version=2)
    small_events(cap, g)
    cap.write()
    res["header_version2"] = (cap, {"exit": 2, "stderr_contains": ["trace.jsonl:1", "version"], "output": "none",
                                    "description": "header version 2 is newer than this reader (1)"})

    cap = bad_capture("bad_shape")
    cap.data("Functional.relu.0.forward", input_args=[], input_kwargs={},
             output=[{"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, -1], "requires_grad": False,
                      "source": {"file": "r.pt"}}])
    cap.pt(torch.ones(2, 2), "r.pt")
    cap.write()
    res["bad_shape"] = (cap, {"exit": 2, "stderr_contains": ["trace.jsonl:2", "/output/0/shape"], "output": "none",
                              "description": "a negative dimension in a tensor leaf's shape"})

    cap = bad_capture("not_a_trace")
    cap.header = {"format": "something-else", "version": 1, "framework": "pytorch"}
    small_events(cap, g)
    cap.write()
    res["not_a_trace"] = (cap, {"exit": 2, "stderr_contains": ["trace.jsonl:1", "format"], "output": "none",
                                "description": "header format is not msdump-trace"})
    return res


# =============================================================================================
# Part 2: the reference converter (msprobe's rules)
# =============================================================================================

class ConvError(Exception):
    pass


# ---- exact rounding --------------------------------------------------------------------------
FMT = {"float32": (24, -126, 127), "float16": (11, -14, 15), "bfloat16": (8, -126, 127),
       "float64": (53, -1022, 1023)}
TORCH_OF = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16,
            "float64": torch.float64}


def round_rational(q, fmt):
    """Round an exact rational to the nearest value of an IEEE binary format (ties to even)."""
    p, emin, emax = FMT[fmt]
    if q == 0:
        return 0.0
    sign = -1.0 if q < 0 else 1.0
    a = abs(Fraction(q))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if Fraction(2) ** e > a:
        e -= 1
    if Fraction(2) ** (e + 1) <= a:
        e += 1
    e = max(e, emin)
    quantum = Fraction(2) ** (e - p + 1)
    n = round(a / quantum)  # Fraction.__round__: half to even
    v = n * quantum
    maxfin = (2 ** p - 1) * Fraction(2) ** (emax - p + 1)
    if v > maxfin:
        return sign * float("inf")
    return sign * float(v)


decimal.getcontext().prec = 120


def sqrt_rational(q):
    """sqrt of an exact rational as a Fraction accurate to ~1e-100 relative (exact for squares)."""
    q = Fraction(q)
    if q == 0:
        return Fraction(0)
    n, d = q.numerator, q.denominator
    # exact when both are perfect squares
    rn, rd = math.isqrt(n), math.isqrt(d)
    if rn * rn == n and rd * rd == d:
        return Fraction(rn, rd)
    v = (decimal.Decimal(n) / decimal.Decimal(d)).sqrt()
    return Fraction(v)


def round_value(exact_q, dbl, fmt, what):
    """The single rounding of a statistic; cross-checked so the golden does not depend on it."""
    r1 = round_rational(exact_q, fmt)
    r2 = round_rational(Fraction(dbl), fmt)
    r3 = torch.tensor(dbl, dtype=torch.float64).to(TORCH_OF[fmt]).item()
    if not (r1 == r2 == r3) or math.copysign(1, r1) != math.copysign(1, r2):
        raise ConvError("ambiguous rounding of %s: exact %r fsum %r torch %r" % (what, r1, r2, r3))
    return r1


def float_stats(vals, fmt):
    """Max, Min, Mean, Norm of float values (exactly representable in fmt)."""
    if any(math.isnan(v) for v in vals):
        nan = float("nan")
        return [nan, nan, nan, nan]
    mx, mn = max(vals), min(vals)
    pinf = any(v == float("inf") for v in vals)
    ninf = any(v == float("-inf") for v in vals)
    if pinf or ninf:
        mean = float("nan") if (pinf and ninf) else (float("inf") if pinf else float("-inf"))
        return [mx, mn, mean, float("inf")]
    n = len(vals)
    exact_sum = sum(Fraction(v) for v in vals)
    mean = round_value(exact_sum / n, math.fsum(vals) / n, fmt, "mean")
    sq = sum(Fraction(v) ** 2 for v in vals)
    norm = round_value(sqrt_rational(sq), math.sqrt(math.fsum(v * v for v in vals)), fmt, "norm")
    return [mx, mn, mean, norm]


def to_f32(v):
    return round_rational(Fraction(v), "float32") if math.isfinite(v) else float(v)


def cabs(vals, fmt):
    out = []
    for z in vals:
        q = Fraction(z.real) ** 2 + Fraction(z.imag) ** 2
        r = round_rational(sqrt_rational(q), fmt)
        ref = float(np.abs(np.complex64(z) if fmt == "float32" else np.complex128(z)))
        if r != ref:
            raise ConvError("|z| of %r: exact %r numpy %r" % (z, r, ref))
        out.append(r)
    return out


FLOATS = ("float32", "float16", "bfloat16")
INTS = ("int8", "int16", "int32", "int64", "uint8")
F8 = ("float8_e4m3fn", "float8_e5m2")


def nan_max(vals):
    return float("nan") if any(isinstance(v, float) and math.isnan(v) for v in vals) else max(vals)


def nan_min(vals):
    return float("nan") if any(isinstance(v, float) and math.isnan(v) for v in vals) else min(vals)


def stats_pytorch(dk, shape, vals, profile):
    if len(vals) == 0:
        return [None] * 4
    if dk in F8:
        if profile == "current":
            return [None] * 4
        dk = "float32"  # legacy: cast to float32 first (exact)
    if dk in ("complex64", "complex128"):
        fmt = "float32" if dk == "complex64" else "float64"
        a = cabs(vals, fmt)
        return [max(a), min(a), round_value(sum(Fraction(v) for v in a) / len(a), math.fsum(a) / len(a), fmt,
                                            "complex mean"), None]
    if dk == "bool":
        return [any(vals), all(vals), None, None]
    if shape == []:
        v = vals[0]
        return [v, v, v, v]
    if dk in FLOATS or (dk == "float32"):
        return float_stats(vals, dk)
    if profile == "current":  # ints, float64: native max/min, no mean/norm
        return [nan_max(vals), nan_min(vals), None, None]
    return float_stats([to_f32(float(v)) if not isinstance(v, int) else round_rational(Fraction(v), "float32")
                        for v in vals], "float32")


def stats_mindspore(dk, shape, vals):
    if len(vals) == 0:
        return [None] * 4
    if dk == "bool":
        return [any(vals), all(vals), None, None]
    if shape == []:
        v = vals[0]
        return [v, v, v, v]
    if dk in ("complex64", "complex128"):
        fmt = "float32" if dk == "complex64" else "float64"
        a = cabs(vals, fmt)
        n = len(a)
        return [max(a), min(a), round_value(sum(Fraction(v) for v in a) / n, math.fsum(a) / n, fmt, "mean"),
                round_value(sqrt_rational(sum(Fraction(v) ** 2 for v in a)), math.sqrt(math.fsum(v * v for v in a)),
                            fmt, "norm")]
    if dk in FLOATS:
        return float_stats(vals, dk)
    return float_stats([round_rational(Fraction(v), "float32") if math.isfinite(v) else float(v) for v in vals],
                       "float32")


def stats_ndarray(dk, vals):
    """numpy rules (np.max/min/mean, np.linalg.norm); captures keep the sums exact in float64."""
    if len(vals) == 0:
        return [None] * 4
    n = len(vals)
    mean_q = sum(Fraction(v) for v in vals) / n
    mean = float(mean_q)
    if Fraction(math.fsum(vals)) != sum(Fraction(v) for v in vals):
        raise ConvError("ndarray sum not exact")
    sq = sum(Fraction(v) ** 2 for v in vals)
    norm = round_rational(sqrt_rational(sq), "float64")
    return [max(vals), min(vals), mean, norm]


def xor_checksum(own_bytes, dk, shape, vals):
    if len(vals) == 0 or dk in F8:
        return None
    if shape == []:
        v = vals[0]
        if isinstance(v, bool):
            return "0x%016x" % int(v)
        if isinstance(v, int):
            return "0x%016x" % (v & (2 ** 64 - 1))
        return v
    b = own_bytes + b"\0" * ((-len(own_bytes)) % 8)
    acc = 0
    for (w,) in struct.iter_unpack("<q", b):
        acc ^= w
    return "0x%016x" % (acc & (2 ** 64 - 1))


# ---- loading tensor payloads ------------------------------------------------------------------
RAW = {  # dtype key -> (itemsize, numpy dtype or None)
    "float32": (4, "<f4"), "float16": (2, "<f2"), "float64": (8, "<f8"), "bfloat16": (2, None),
    "int8": (1, "<i1"), "int16": (2, "<i2"), "int32": (4, "<i4"), "int64": (8, "<i8"), "uint8": (1, "<u1"),
    "bool": (1, "<u1"), "complex64": (8, "<c8"), "complex128": (16, "<c16"),
    "float8_e4m3fn": (1, None), "float8_e5m2": (1, None),
}
MS_KEY = {"Float32": "float32", "Float16": "float16", "BFloat16": "bfloat16", "Float64": "float64",
          "Int8": "int8", "Int16": "int16", "Int32": "int32", "Int64": "int64", "UInt8": "uint8", "Bool": "bool",
          "Complex64": "complex64", "Complex128": "complex128"}


def dtype_key(leaf, fw):
    d = leaf["dtype"]
    if fw == "pytorch" or d.startswith("torch."):
        return d[len("torch."):]
    return MS_KEY[d]


class Payload:
    def __init__(self, dk, vals, own_bytes, ms_crc_bytes=None):
        self.dk, self.vals, self.own, self.ms_crc = dk, vals, own_bytes, ms_crc_bytes


def decode_raw(dk, raw):
    if dk == "bfloat16":
        u = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
        return u.view("<f4").astype(np.float64).tolist()
    if dk == "float8_e4m3fn":
        return [f8_e4m3fn_decode(x) for x in raw]
    if dk == "float8_e5m2":
        return [f8_e5m2_decode(x) for x in raw]
    arr = np.frombuffer(raw, dtype=RAW[dk][1])
    if dk == "bool":
        return [bool(x) for x in arr.tolist()]
    return arr.tolist()


def load_payload(capdir, leaf, fw):
    src = leaf["source"]
    if src is None:
        return None
    path = os.path.join(capdir, src["file"])
    if not os.path.isfile(path):
        return None
    dk = dtype_key(leaf, fw) if leaf["type"] != "numpy.ndarray" else leaf["dtype"]
    shape = leaf["shape"]
    with open(path, "rb") as f:
        head = f.read(6)
    if head[:4] == b"PK\x03\x04":
        t = torch.load(path)
        assert list(t.shape) == shape, (path, t.shape, shape)
        assert TORCH_DTYPE_NAME[t.dtype][6:] == dk, (path, t.dtype, dk)
        t = t.contiguous()
        if t.dtype == torch.bfloat16:
            return Payload(dk, t.float().flatten().tolist(), bf16_bits(t))
        return Payload(dk, t.flatten().tolist(), t.numpy().tobytes())
    if head == b"\x93NUMPY":
        a = np.load(path)
        assert list(a.shape) == shape, (path, a.shape, shape)
        a = np.array(a, order="C", copy=True)
        if dk == "bfloat16":  # MindSpore: bf16 saved as float32
            assert a.dtype == np.float32
            vals = a.flatten().astype(np.float64).tolist()
            assert all(v == bf16_round_np(np.float32(v)) or math.isnan(v) for v in vals), path
            return Payload(dk, vals, None, a.tobytes())
        assert str(a.dtype) == (dk if dk != "bool" else "bool"), (path, a.dtype, dk)
        vals = a.flatten().tolist()
        return Payload(dk, vals, a.tobytes())
    n = 1
    for s in shape:
        n *= s
    size = RAW[dk][0] * n
    off = src.get("offset", 0)
    with open(path, "rb") as f:
        f.seek(off)
        raw = f.read(size)
    assert len(raw) == size
    vals = decode_raw(dk, raw)
    ms = None
    if dk == "bfloat16":
        ms = np.array(vals, dtype="<f4").tobytes()
    return Payload(dk, vals, raw, ms)


# ---- the converter ----------------------------------------------------------------------------
def is_module(name):
    return name.startswith("Module.") or name.startswith("Cell.")


def is_backward(name):
    parts = name.split(".")
    return parts[-1] == "backward" or (len(parts) >= 2 and parts[-2] == "backward")


def is_params_grad(name):
    parts = name.split(".")
    return len(parts) >= 2 and parts[-2] == "parameters_grad"


def keep_for_level(name, level):
    if level == "mix":
        return True
    return is_module(name) if level == "L0" else not is_module(name)


def allowed_modes(data_mode):
    if "all" in data_mode:
        return {"forward", "backward", "input", "output"}
    s = set(data_mode)
    if "forward" not in s and "backward" not in s:
        s |= {"forward", "backward"}
    if "input" not in s and "output" not in s:
        s |= {"input", "output"}
    return s


SECTION_NEEDS = {
    ("forward", "input_args"): ("forward", "input"), ("forward", "input_kwargs"): ("forward", "input"),
    ("forward", "output"): ("forward", "output"), ("forward", "parameters"): ("forward", "output"),
    ("backward", "input"): ("backward", "input"), ("backward", "output"): ("backward", "output"),
}
CATEGORY = {("forward", "input_args"): "input", ("forward", "input_kwargs"): "kwargs",
            ("forward", "output"): "output", ("forward", "parameters"): "parameters",
            ("backward", "input"): "input", ("backward", "output"): "output"}


class Converter:
    def dump_data_dir(self):
        # os.path.join(dump_path, "dump_tensor_data"), dump_path = the header's, else the output
        # directory; PyTorch keeps it as given, the MindSpore side (mindspore, mindtorch) makes it
        # absolute first (<WORK>: the directory convert runs in, as run_convert_goldens.py writes it).
        dump_path = self.header.get("dump_path", self.out_dir)
        if self.fw != "pytorch":
            dump_path = os.path.normpath(os.path.join("<WORK>", dump_path))
        return dump_path + "/dump_tensor_data"

    def __init__(self, capdir, level=None, task=None, summary_mode=None, data_mode=None, profile="current",
                 out_dir=OUT):
        self.capdir = capdir
        self.out_dir = out_dir
        self.findings = []
        lines, self.truncated = self.read_lines(capdir)
        self.header = lines[0]
        self.events = lines[1:]
        fw = self.fw = self.header["framework"]
        self.level = level or self.header.get("level", "mix")
        self.task = task or self.header.get("task", "statistics")
        self.sm = summary_mode or self.header.get("summary_mode", "statistics")
        self.data_mode = data_mode or ["all"]
        self.allowed = allowed_modes(self.data_mode)
        self.profile = profile
        self.ext = ".pt" if fw == "pytorch" else ".npy"
        self.files = set()

    @staticmethod
    def read_lines(capdir):
        with open(os.path.join(capdir, "trace.jsonl"), "rb") as f:
            text = f.read().decode("utf-8")
        parts = text.split("\n")
        truncated = False
        out = []
        for i, p in enumerate(parts):
            if p == "" and i == len(parts) - 1:
                continue
            try:
                out.append(json.loads(p))
            except ValueError:
                if i == len(parts) - 1:  # last line, no final newline
                    truncated = True
                    continue
                raise
        return out, truncated

    # ---- values ---------------------------------------------------------------------------
    def render(self, v, path, dn_prefix):
        """Render a section value; path = list of suffix parts; dn_prefix = data_name stem."""
        if isinstance(v, list):
            return [self.render(x, path + [i], dn_prefix) for i, x in enumerate(v)]
        if isinstance(v, dict):
            if "source" in v and "type" in v:
                return self.render_leaf(v, path, dn_prefix)
            out = {}
            p2p = "class_type" in v and "P2POp" in str(v["class_type"])
            for k, x in v.items():
                out[k] = self.render(x, path if (p2p and k == "tensor") else path + [k], dn_prefix)
            return out
        return v

    def data_name(self, path, dn_prefix):
        if isinstance(dn_prefix, tuple):  # parameters_grad: fixed save name
            return dn_prefix[0] + self.ext
        return dn_prefix + "".join("." + str(p) for p in path) + self.ext

    def render_leaf(self, leaf, path, dn_prefix):
        fw = self.fw
        pay = load_payload(self.capdir, leaf, fw)
        shape = leaf["shape"]
        out = {"type": leaf["type"], "dtype": leaf["dtype"], "shape": list(shape)}
        tensor_task = self.task == "tensor"
        if leaf["type"] == "numpy.ndarray":
            st = stats_ndarray(leaf["dtype"], pay.vals) if pay else [None] * 4
            out.update(zip(("Max", "Min", "Mean", "Norm"), st))
            if tensor_task and pay is not None:
                out["data_name"] = self.data_name(path, dn_prefix)
                self.files.add(out["data_name"])
            return out
        if fw == "pytorch":
            if self.sm == "xor":
                out["md5"] = xor_checksum(pay.own, pay.dk, shape, pay.vals) if pay else None
            else:
                st = stats_pytorch(pay.dk, shape, pay.vals, self.profile) if pay else [None] * 4
                out.update(zip(("Max", "Min", "Mean", "Norm"), st))
            out["requires_grad"] = leaf["requires_grad"]
            for k in ("device_mesh", "placements"):
                if k in leaf:
                    out[k] = leaf[k]
            if tensor_task and pay is not None and len(pay.vals) > 0:
                out["data_name"] = self.data_name(path, dn_prefix)
                self.files.add(out["data_name"])
            if self.sm == "md5":
                out["md5"] = "%08x" % zlib.crc32(pay.own) if pay else None
            return out
        # mindspore / mindtorch
        st = stats_mindspore(pay.dk, shape, pay.vals) if pay else [None] * 4
        out.update(zip(("Max", "Min", "Mean", "Norm"), st))
        if leaf.get("layout"):
            out["layout"] = leaf["layout"]
        if leaf.get("hsdp_shard_size"):
            out["hsdp_shard_size"] = leaf["hsdp_shard_size"]
        if "layout" in leaf and not leaf["layout"]:
            out["layout"] = leaf["layout"]
        if tensor_task and pay is not None:
            out["data_name"] = self.data_name(path, dn_prefix)
            self.files.add(out["data_name"])
        if self.sm == "md5":
            if pay is None:
                out["md5"] = None
            else:
                out["md5"] = "%08x" % zlib.crc32(pay.ms_crc if pay.dk == "bfloat16" else pay.own)
        return out

    # ---- merge ----------------------------------------------------------------------------
    def update_data(self, data, name, secs, move_module):
        if name in data:
            if move_module and name.startswith("Module."):
                entry = data.pop(name)
                entry.update(secs)
                data[name] = entry
            else:
                data[name].update(secs)
        else:
            data[name] = secs

    def run(self):
        data = collections.OrderedDict()
        stacks = collections.OrderedDict()
        construct = collections.OrderedDict()
        legacy = self.profile == "legacy"
        legacy_pending = {}
        pt = self.fw == "pytorch"
        forward_only = ("forward" in self.data_mode and "backward" not in self.data_mode
                        and "all" not in self.data_mode)
        for ev in self.events:
            kind = ev.get("kind")
            name = ev.get("name")
            if kind == "stack":
                if keep_for_level(name, self.level):
                    stacks.setdefault(tuple(ev["frames"]), []).append(name)
            elif kind == "construct":
                if self.level == "L1" or not keep_for_level(name, self.level):
                    continue
                construct[name] = ev["parent"]
            elif kind == "data":
                if not keep_for_level(name, self.level):
                    continue
                raw = {k: v for k, v in ev.items() if k not in ("kind", "name")}
                if is_params_grad(name):
                    if forward_only:
                        continue
                    secs = {k: self.render(v, [], (name + "." + k,)) for k, v in raw.items()}
                    self.update_data(data, name, secs, move_module=not legacy)
                    continue
                direction = "backward" if is_backward(name) else "forward"
                secs = collections.OrderedDict()
                for k, v in raw.items():
                    if k == "is_recompute":
                        continue
                    need = SECTION_NEEDS[(direction, k)]
                    if need[0] in self.allowed and need[1] in self.allowed:
                        secs[k] = self.render(v, [], name + "." + CATEGORY[(direction, k)])
                if legacy and pt and direction == "forward":
                    rec = raw.get("is_recompute", False)
                    if name.startswith("Module."):
                        # legacy: one analyze_forward at forward-hook time (the event with output)
                        if "output" not in raw:
                            legacy_pending.setdefault(name, collections.OrderedDict()).update(secs)
                            continue
                        full = legacy_pending.pop(name, collections.OrderedDict())
                        full.update(secs)
                        if "parameters" in raw and "parameters" not in full and full:
                            full["parameters"] = self.render(raw["parameters"], [], name + ".parameters")
                        if "parameters" in full:  # parameters after output
                            full.move_to_end("parameters")
                        secs = full
                        if secs:
                            secs["is_recompute"] = rec
                    elif secs:
                        # legacy API forward: is_recompute follows the inputs (pre-hook), or the
                        # output when the inputs were not collected (forward hook)
                        ordered = collections.OrderedDict()
                        for k in ("input_args", "input_kwargs"):
                            if k in secs:
                                ordered[k] = secs[k]
                        ordered["is_recompute"] = rec
                        for k, v in secs.items():
                            ordered[k] = v
                        secs = ordered
                if not secs:
                    continue
                self.update_data(data, name, dict(secs), move_module=not legacy)
        dump = collections.OrderedDict()
        dump["task"] = self.task
        dump["level"] = self.level
        dump["framework"] = self.fw
        dump["dump_data_dir"] = self.dump_data_dir() if self.task == "tensor" else None
        dump["data"] = data
        stack_json = {str(i): [names, list(frames)] for i, (frames, names) in enumerate(stacks.items())}
        return dump, stack_json, construct


def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(obj, f, indent=1)


ARGS = {
    "level": "--level", "task": "--task", "summary_mode": "--summary-mode", "profile": "--profile",
}


def trace_dirs(capdir):
    """Relative directories holding a trace.jsonl ('' for a single capture), sorted."""
    if os.path.isfile(os.path.join(capdir, "trace.jsonl")):
        return [""]
    found = []
    for dirpath, _dirs, files in os.walk(capdir):
        if "trace.jsonl" in files:
            found.append(os.path.relpath(dirpath, capdir))
    return sorted(found)


def make_golden(capture_id, capdir, variant, opts, manifest, exit_code=0, stderr=None):
    gdir = os.path.join(GOLDEN, capture_id, variant)
    if os.path.isdir(gdir):
        shutil.rmtree(gdir)
    for rel in trace_dirs(capdir):
        out_dir = OUT + ("/" + rel if rel else "")
        conv = Converter(os.path.join(capdir, rel), out_dir=out_dir, **opts)
        dump, stack, construct = conv.run()
        odir = os.path.join(gdir, rel)
        write_json(os.path.join(odir, "dump.json"), dump)
        write_json(os.path.join(odir, "stack.json"), stack)
        write_json(os.path.join(odir, "construct.json"), construct)
        if conv.task == "tensor":
            with open(os.path.join(odir, "tensor_files.txt"), "w") as f:
                f.write("".join(n + "\n" for n in sorted(conv.files)))
    args = []
    for k, flag in ARGS.items():
        if k in opts:
            args += [flag, opts[k]]
    for m in opts.get("data_mode", []):
        args += ["--data-mode", m]
    item = collections.OrderedDict()
    item["capture"] = capture_id
    item["variant"] = variant
    item["path"] = os.path.relpath(capdir, REPO)
    item["args"] = args
    item["golden"] = os.path.relpath(gdir, REPO)
    item["exit"] = exit_code
    if stderr:
        item["stderr_contains"] = stderr
    manifest.append(item)


PT_VARIANTS = [
    ("default", {}),
    ("L0", {"level": "L0"}),
    ("L1", {"level": "L1"}),
    ("tensor", {"task": "tensor"}),
    ("md5", {"summary_mode": "md5"}),
    ("xor", {"summary_mode": "xor"}),
    ("forward", {"data_mode": ["forward"]}),
    ("backward", {"data_mode": ["backward"]}),
    ("input", {"data_mode": ["input"]}),
    ("forward_output", {"data_mode": ["forward", "output"]}),
    ("legacy", {"profile": "legacy"}),
]


def main():
    manifest = []
    caps = {}
    caps["tiny_mix"] = gen_tiny_mix()
    caps["pytorch_values"] = gen_pytorch_values()
    caps["pytorch_stats"] = gen_pytorch_stats()
    caps["mindspore_cells"] = gen_mindspore_cells()
    caps["mindtorch_basic"] = gen_mindtorch_basic()
    caps["truncated"] = gen_truncated()
    caps["header_defaults"] = gen_header_defaults()
    tree_root = gen_tree_steps()
    bad = gen_bad()

    if os.path.isdir(GOLDEN):
        shutil.rmtree(GOLDEN)
    plan = {
        "tiny_mix": [v for v in PT_VARIANTS],
        "pytorch_values": [v for v in PT_VARIANTS if v[0] in ("default", "tensor", "md5", "xor", "legacy")],
        "pytorch_stats": [v for v in PT_VARIANTS if v[0] in ("default", "tensor", "md5", "xor", "legacy")],
        "mindspore_cells": [("default", {}), ("tensor", {"task": "tensor"}), ("md5", {"summary_mode": "md5"}),
                            ("L0", {"level": "L0"}), ("L1", {"level": "L1"})],
        "mindtorch_basic": [("default", {}), ("tensor", {"task": "tensor"})],
    }
    for cid, variants in plan.items():
        for vname, opts in variants:
            make_golden(cid, caps[cid].root, vname, opts, manifest)
    make_golden("header_defaults", caps["header_defaults"].root, "default", {}, manifest)
    make_golden("header_defaults", caps["header_defaults"].root, "statistics",
                {"task": "statistics", "summary_mode": "statistics"}, manifest)
    make_golden("tree_steps", tree_root, "default", {}, manifest)
    make_golden("tree_steps", tree_root, "tensor", {"task": "tensor"}, manifest)
    make_golden("tree_steps", tree_root, "L0", {"level": "L0"}, manifest)
    make_golden("truncated", caps["truncated"].root, "default", {}, manifest, exit_code=1,
                stderr=["trace.jsonl:%d" % (len(caps["truncated"].lines) + 1), "truncated"])
    for defect, (cap, exp) in bad.items():
        exp = collections.OrderedDict([("description", exp["description"]), ("exit", exp["exit"]),
                                       ("stderr_contains", exp["stderr_contains"]), ("output", exp["output"])])
        if exp["output"] == "golden":
            make_golden(defect, cap.root, "default", {}, manifest, exit_code=exp["exit"],
                        stderr=exp["stderr_contains"])
            exp["golden"] = "testdata/golden/convert/%s/default" % defect
        else:
            item = collections.OrderedDict([("capture", defect), ("variant", "error"),
                                            ("path", os.path.relpath(cap.root, REPO)), ("args", []),
                                            ("golden", None), ("exit", exp["exit"]),
                                            ("stderr_contains", exp["stderr_contains"])])
            manifest.append(item)
        with open(os.path.join(cap.root, "expect.json"), "w") as f:
            json.dump(exp, f, indent=1)
            f.write("\n")
    # usage error: --level may only narrow the header's level
    manifest.append(collections.OrderedDict([
        ("capture", "pytorch_stats"), ("variant", "widen_level"), ("path", "testdata/captures/pytorch_stats"),
        ("args", ["--level", "L0"]), ("golden", None), ("exit", 2), ("stderr_contains", ["L0", "L1"])]))
    with open(os.path.join(GOLDEN, "variants.json"), "w") as f:
        json.dump({"out": OUT,
                   "about": "msdump convert <path> -o out <args> run in an empty temporary directory must exit "
                            "with <exit> and print every <stderr_contains> fragment on stderr. Every "
                            "dump.json/stack.json/construct.json under <golden>/<rel>/ must equal "
                            "out/<rel>/<same name> byte for byte (<rel> is empty for a single capture, "
                            "step<N>/rank<R> for a tree), and for each <golden>/<rel>/tensor_files.txt "
                            "out/<rel>/dump_tensor_data/ holds exactly the files it lists. golden null: "
                            "no output is compared.",
                   "variants": manifest}, f, indent=1)
        f.write("\n")
    print("wrote %d variants" % len(manifest))


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
"""Property-test corpus for verify's statistic rules, with torch as the oracle.

Makes COUNT random tensors (every dtype msprobe dumps; 0-dim up to ~1e6 elements; constants,
signed zeros, subnormals, values near the dtype's limits, NaN / +-Inf mixes; contiguous tensors
and live non-contiguous views: transposed, sliced, stepped, expanded) and writes, for each
profile, the dump msprobe would write for them:

  OUT/<profile>/tensors/   task "tensor": dump.json + dump_tensor_data/*.pt
  OUT/<profile>/leaves/    task "statistics": the same leaves without data_name

Each leaf is computed the way msprobe does (docs/format.md §6.1 for the current profile, §6.2
for the legacy one): the torch reductions in the dtypes msprobe uses, on the live view, with
.item() to a Python number; the tensor file holds the contiguous clone msprobe saves. The
project's claim is that `msdump verify` reports no error on any of these dumps.

  /usr/bin/python3 testdata/gen/gen_stat_property.py OUT [--count N] [--seed S] [--max-numel N]

Needs python3-torch (Debian). Deterministic for a given seed and torch build.
"""
import argparse
import json
import math
import os
import random
import shutil

import numpy as np
import torch

DTYPES = ["float32", "float16", "bfloat16", "float64", "int8", "int16", "int32", "int64", "uint8", "bool",
          "complex64"]
FLOATS = {"float32", "float16", "bfloat16", "float64"}
INTS = {"int8", "int16", "int32", "int64", "uint8"}


def pick_numel(rng, max_numel):
    """Mostly small tensors, some large: log-uniform in three bands."""
    r = rng.random()
    hi = 1e4 if r < 0.88 else 1e5 if r < 0.97 else max_numel
    hi = min(hi, max_numel)
    if rng.random() < 0.03:
        return 0
    return max(1, int(round(math.exp(rng.uniform(0, math.log(hi))))))


def pick_shape(rng, numel):
    """A shape of about numel elements with 1-4 dims (exact numel is not needed)."""
    if numel == 0:
        return [rng.randint(0, 3), 0][: rng.randint(1, 2)] if rng.random() < 0.5 else [0]
    ndim = rng.randint(1, 4)
    shape = []
    rest = numel
    for i in range(ndim - 1):
        d = max(1, int(round(rest ** rng.uniform(0.1, 0.6))))
        shape.append(d)
        rest = max(1, rest // d)
    shape.append(max(1, rest))
    rng.shuffle(shape)
    return shape


def finfo(dtype):
    return torch.finfo(getattr(torch, dtype))


def float_values(rng, gen, dtype, n):
    """n values of a float dtype following one of several patterns (computed in float64, then cast)."""
    fi = finfo(dtype)
    pattern = rng.choice(["randn", "rand", "offset", "const", "const_frac", "zeros", "subnormal", "near_max",
                          "huge_range", "nonfinite", "tiny_scale", "ints"])
    t = torch.empty(n, dtype=torch.float64)
    if pattern == "randn":
        t = torch.randn(n, generator=gen, dtype=torch.float64) * (10 ** rng.uniform(-3, 3))
    elif pattern == "rand":
        t = torch.rand(n, generator=gen, dtype=torch.float64) * (10 ** rng.uniform(-3, 3))
    elif pattern == "offset":
        t = rng.choice([1000.0, -50.0, 1.0]) + torch.rand(n, generator=gen, dtype=torch.float64)
    elif pattern == "const":
        t.fill_(rng.choice([1.0, -1.0, 0.1, 1 / 3, 1 / 12, 7.0, -2.5e-3, 1e4]))
    elif pattern == "const_frac":
        t.fill_(1.0 / rng.randint(2, 1000))
    elif pattern == "zeros":
        t = torch.where(torch.rand(n, generator=gen) < 0.5, torch.tensor(0.0, dtype=torch.float64),
                        torch.tensor(-0.0, dtype=torch.float64))
    elif pattern == "subnormal":
        tiny = fi.tiny
        t = (torch.rand(n, generator=gen, dtype=torch.float64) * 2 - 1) * tiny * rng.choice([0.5, 0.01, 1.0])
    elif pattern == "near_max":
        t = (torch.rand(n, generator=gen, dtype=torch.float64) * 0.5 + 0.5) * fi.max * rng.choice([1.0, -1.0])
        if rng.random() < 0.5:
            t = t * torch.where(torch.rand(n, generator=gen) < 0.5, 1.0, -1.0).double()
    elif pattern == "huge_range":
        t = torch.randn(n, generator=gen, dtype=torch.float64) * torch.pow(
            10.0, torch.randint(-6, 7, (n,), generator=gen).double())
    elif pattern == "nonfinite" and n > 0:
        t = torch.randn(n, generator=gen, dtype=torch.float64)
        specials = [math.nan, math.inf, -math.inf]
        chosen = rng.sample(specials, rng.randint(1, 3))
        k = max(1, int(n * rng.choice([0.0, 0.01, 0.5, 1.0])))
        idx = torch.randint(0, n, (k,), generator=gen)
        vals = torch.tensor([chosen[i % len(chosen)] for i in range(k)], dtype=torch.float64)
        t[idx] = vals
    elif pattern == "tiny_scale":
        t = torch.randn(n, generator=gen, dtype=torch.float64) * fi.eps * fi.tiny * 1e3
    elif pattern == "ints" or pattern == "nonfinite":
        t = torch.randint(-100, 100, (n,), generator=gen).double()
    return t.to(getattr(torch, dtype)), pattern


def int_values(rng, gen, dtype, n):
    ii = torch.iinfo(getattr(torch, dtype))
    pattern = rng.choice(["small", "full", "const", "extremes"])
    if pattern == "small":
        lo, hi = max(ii.min, -100), min(ii.max, 100)
        t = torch.randint(lo, hi + 1, (n,), generator=gen, dtype=torch.int64)
    elif pattern == "full":
        # randint's bounds are int64: draw in two halves for int64
        lo, hi = ii.min, ii.max
        if dtype == "int64":
            t = torch.randint(-2 ** 62, 2 ** 62, (n,), generator=gen, dtype=torch.int64) * 2 + torch.randint(
                0, 2, (n,), generator=gen, dtype=torch.int64)
        else:
            t = torch.randint(lo, hi + 1, (n,), generator=gen, dtype=torch.int64)
    elif pattern == "const":
        t = torch.full((n,), rng.choice([0, 1, ii.max, ii.min]), dtype=torch.int64)
    else:
        t = torch.tensor([rng.choice([ii.min, ii.max, 0, -1 if ii.min < 0 else 1]) for _ in range(n)],
                         dtype=torch.int64)
    return t.to(getattr(torch, dtype)), pattern


def values(rng, gen, dtype, n):
    if dtype in FLOATS:
        return float_values(rng, gen, dtype, n)
    if dtype in INTS:
        return int_values(rng, gen, dtype, n)
    if dtype == "bool":
        p = rng.choice([0.0, 0.5, 1.0, 0.01])
        return torch.rand(n, generator=gen) < p, f"bool p={p}"
    re_, pat = float_values(rng, gen, "float32", n)
    im, _ = float_values(rng, gen, "float32", n)
    return torch.complex(re_, im), "complex " + pat


def make_view(rng, base, shape):
    """The live tensor msprobe sees: the base itself or a non-contiguous view of it."""
    t = base.reshape(shape)
    kind = rng.choice(["contiguous", "contiguous", "transposed", "sliced", "stepped", "expanded", "permuted"])
    if t.dim() == 0 or t.numel() == 0:
        return t, "contiguous"
    if kind == "transposed" and t.dim() >= 2:
        return t.transpose(0, t.dim() - 1), kind
    if kind == "permuted" and t.dim() >= 3:
        return t.permute(*reversed(range(t.dim()))), kind
    if kind == "sliced" and t.shape[0] > 1:
        return t[1:], kind
    if kind == "stepped" and t.shape[-1] > 2:
        return t[..., ::2], kind
    if kind == "expanded":
        s = t.reshape(-1)[:1].reshape([1] * t.dim())
        return s.expand(*[max(1, d) for d in t.shape]), kind
    return t, "contiguous"


def item(x):
    return x.item()


HALF_OR_SINGLE = (torch.float32, torch.float16, torch.bfloat16)


def stats_common(t):
    """The rules both PyTorch profiles share (docs/format.md §6.1 rules 3, 6, 7, 8), or None."""
    if t.numel() == 0:
        return [None] * 4
    if t.dtype.is_complex:
        a = np.abs(t.detach().cpu().numpy())
        return [a.max().item(), a.min().item(), a.mean().item(), None]
    if t.dtype == torch.bool:
        return [item(torch.any(t)), item(torch.all(t)), None, None]
    if t.dim() == 0:
        v = item(t)
        return [v, v, v, v]
    return None


def stats_current(t):
    """docs/format.md §6.1 (PyTorch, current profile), precision low."""
    common = stats_common(t)
    if common is not None:
        return common
    if t.dtype in HALF_OR_SINGLE:
        return [item(torch.max(t)), item(torch.min(t)), item(torch.mean(t)), item(torch.norm(t))]
    return [item(torch.max(t)), item(torch.min(t)), None, None]


def stats_legacy(t):
    """docs/format.md §6.2 (PyTorch, legacy profile): float64 and integers through float32."""
    common = stats_common(t)
    if common is not None:
        return common
    if t.dtype not in HALF_OR_SINGLE:
        t = t.float()
    return [item(torch.max(t)), item(torch.min(t)), item(torch.mean(t)), item(torch.norm(t))]


def leaf(t, st, data_name):
    d = {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": list(t.shape),
         "Max": st[0], "Min": st[1], "Mean": st[2], "Norm": st[3], "requires_grad": False}
    if data_name is not None:
        d["data_name"] = data_name
    return d


def write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1)
    os.replace(tmp, path)


def generate(out, count, seed, max_numel):
    rng = random.Random(seed)
    gen = torch.Generator().manual_seed(seed)
    torch.set_num_threads(1)
    profiles = {"current": stats_current, "legacy": stats_legacy}
    dumps = {}
    for p in profiles:
        for kind in ("tensors", "leaves"):
            d = os.path.join(out, p, kind)
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(os.path.join(d, "dump_tensor_data") if kind == "tensors" else d)
            dumps[(p, kind)] = {"task": "tensor" if kind == "tensors" else "statistics", "level": "L1",
                                "framework": "pytorch",
                                "dump_data_dir": os.path.join(d, "dump_tensor_data") if kind == "tensors" else None,
                                "data": {}}
    manifest = []
    for i in range(0, count, 2):
        entry = f"Tensor.add.{i // 2}.forward"
        sections = []
        for section, slot in (("input", "input_args"), ("output", "output")):
            dtype = rng.choice(DTYPES)
            numel = pick_numel(rng, max_numel)
            if rng.random() < 0.04:
                shape = []
                numel = 1
            else:
                shape = pick_shape(rng, numel)
                numel = math.prod(shape)
            base, pattern = values(rng, gen, dtype, numel)
            live, view = make_view(rng, base, shape)
            saved = live.clone().contiguous().detach()
            data_name = f"{entry}.{section}.0.pt" if live.numel() > 0 else None
            for p, fn in profiles.items():
                st = fn(live)
                dumps[(p, "tensors")].setdefault("data", {})
                for kind in ("tensors", "leaves"):
                    e = dumps[(p, kind)]["data"].setdefault(entry, {"input_args": [], "input_kwargs": {}})
                    if p == "legacy" and slot == "output":
                        e["is_recompute"] = False
                    e.setdefault(slot, []).append(leaf(live, st, data_name if kind == "tensors" else None))
            if data_name is not None:
                for p in profiles:
                    torch.save(saved, os.path.join(out, p, "tensors", "dump_tensor_data", data_name))
            manifest.append({"entry": entry, "section": section, "dtype": dtype, "shape": list(live.shape),
                             "pattern": pattern, "view": view})
            sections.append(section)
    for (p, kind), obj in dumps.items():
        write_json(os.path.join(out, p, kind, "dump.json"), obj)
    write_json(os.path.join(out, "manifest.json"), manifest)
    return manifest


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=5000, help="tensors (default 5000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-numel", type=int, default=1_000_000)
    a = ap.parse_args()
    m = generate(a.out, a.count, a.seed, a.max_numel)
    print(f"gen_stat_property: {len(m)} tensors in {a.out} (seed {a.seed})")


if __name__ == "__main__":
    main()

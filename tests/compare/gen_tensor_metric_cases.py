#!/usr/bin/env python3
"""Writes the tensor-mode metric fixtures of tests/compare/tensor_metrics_test.cpp.

For every case a pair of tensors (.pt through torch.save, or .npy) goes to
testdata/compare/tensor_metrics/cases/, and the six cells msprobe's tensor mode gives for the pair
(Cosine, EucDist, MaxAbsErr, MaxRelativeErr, One Thousandth Err Ratio, Five Thousandths Err Ratio)
go to testdata/compare/tensor_metrics/expected.json. The cells are computed below with numpy the way
msprobe computes them (docs/compare.md, tensor mode): bfloat16 read as float32, squeeze, the
validation chain, the relative error in numpy's result type of (npu, bench, float32), then float64
metrics. Deterministic (fixed seeds); run with the system python (numpy 1.24, torch 1.13):

    /usr/bin/python3 tests/compare/gen_tensor_metric_cases.py
"""

import json
import math
import os
import shutil

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "testdata", "compare", "tensor_metrics")
COSINE_EPS = 2.220446049250313e-16


# ---- msprobe's metrics, in numpy ---------------------------------------------------------------

def load(path):
    if path.endswith(".npy"):
        a = np.load(path)
    else:
        t = torch.load(path, map_location="cpu", weights_only=True).detach()
        if t.dtype == torch.bfloat16:
            t = t.float()
        a = t.numpy()
    return np.squeeze(a)


def round12(x):
    return float("%.12f" % x)


def text(s):
    return s  # a text cell


def num(x):
    return float(x)  # a float cell


def is_float(a):
    return a.dtype.kind == "f"


def zero_d(n, b):
    if n.dtype == bool:
        n, b = n.astype(float), b.astype(float)
    with np.errstate(all="ignore"):
        d = np.max(np.abs(n - b))
        max_abs = text("Nan") if np.isnan(d) else num(round12(d))
        nf = n if is_float(n) else n.astype(float)
        bf = b if is_float(b) else b.astype(float)
        t = np.result_type(nf, bf, np.float32)  # 0-d arrays choose by value: float32 unless huge
        nt, bt = nf.astype(t), bf.astype(t)
        if bt == 0:
            nt, bt = nt + np.finfo(t).eps, bt + np.finfo(t).eps
        r = np.abs((nt - bt) / bt)
        max_rel = text("Nan") if np.isnan(r) else num(round12(r))
    u = text("unsupported")
    return [u, u, max_abs, max_rel, u, u]


def cells(n, b):
    if n.size == 0:
        return [text("unsupported")] * 6
    if n.shape != b.shape:
        return [text("shape unmatched")] * 6
    if n.ndim == 0:
        return zero_d(n, b)
    n, b = n.copy(), b.copy()
    n_inf, b_inf = np.isinf(n.astype(float)), np.isinf(b.astype(float))
    n_nan, b_nan = np.isnan(n.astype(float)), np.isnan(b.astype(float))
    if n_inf.any() or n_nan.any() or b_inf.any() or b_nan.any():
        if not (np.array_equal(n_inf, b_inf) and np.array_equal(n_nan, b_nan)):
            return [text("N/A")] * 6
        n[n_inf | n_nan] = 0
        b[b_inf | b_nan] = 0
    with np.errstate(all="ignore"):
        nf = n if is_float(n) else n.astype(float)
        bf = b if is_float(b) else b.astype(float)
        t = np.result_type(nf, bf, np.float32)
        nt, bt = nf.astype(t), bf.astype(t)
        zero = bt == 0
        nt[zero] += np.finfo(t).eps
        bt[zero] += np.finfo(t).eps
        r = np.abs((nt - bt) / bt)
        n64, b64 = n.reshape(-1).astype(float), b.reshape(-1).astype(float)
        dot = n64.dot(b64)
        na, nb = np.linalg.norm(n64), np.linalg.norm(b64)
        if na <= COSINE_EPS and nb <= COSINE_EPS:
            cos = num(1.0)
        elif na <= COSINE_EPS or nb <= COSINE_EPS:
            cos = text("Nan")
        else:
            c = dot / (na * nb)
            if np.isnan(c):
                cos = text("Nan")
            else:
                c = round12(c)
                cos = num(float("%.6f" % c) if c > 0.9999 else c)
        euc = num(np.linalg.norm(n64 - b64))
        d = np.max(np.abs(n64 - b64))
        max_abs = text("Nan") if np.isnan(d) else num(round12(d))
        m = np.max(r)
        max_rel = text("Nan") if np.isnan(m) else num(round12(m))
        one = num(round12(np.sum(r < 0.001) / r.size))
        five = num(round12(np.sum(r < 0.005) / r.size))
    return [cos, euc, max_abs, max_rel, one, five]


# ---- the cases ---------------------------------------------------------------------------------

def t(a, dtype=None):
    return torch.tensor(a, dtype=dtype)


def cases():
    g = torch.Generator().manual_seed(20241202)
    rnd = lambda *s: torch.randn(*s, generator=g)
    f32 = rnd(64, 33)
    f32_noise = f32 + 1e-4 * rnd(64, 33)
    f32_noise[::7] = f32[::7]
    with_zeros = f32_noise.clone()
    with_zeros[3, ::3] = 0
    big = rnd(4099)
    big_b = big * (1 + 2e-3 * rnd(4099))
    big_b[::5] = 0
    nan_n = rnd(6, 10)
    nan_b = nan_n + 0.01 * rnd(6, 10)
    nan_n[1, 2] = nan_b[1, 2] = float("nan")
    nan_n[4, 7] = nan_b[4, 7] = float("inf")
    nan_n[5, 0] = float("-inf")
    nan_b[5, 0] = float("-inf")
    pm_n, pm_b = nan_n.clone(), nan_b.clone()
    pm_n[2, 2], pm_b[2, 2] = float("inf"), float("-inf")
    diff_n, diff_b = nan_n.clone(), nan_b.clone()
    diff_b[1, 2] = 0.5
    nan_vs_inf_n, nan_vs_inf_b = nan_n.clone(), nan_b.clone()
    nan_vs_inf_b[1, 2] = float("inf")
    ints = torch.randint(-50, 50, (7, 9), generator=g)
    ints_b = ints + torch.randint(-1, 2, (7, 9), generator=g)
    ints_b[0, :4] = 0
    bools = torch.rand(40, generator=g) > 0.5
    bools_b = bools.clone()
    bools_b[::4] = ~bools_b[::4]
    h = rnd(300).half()
    h_b = (h.float() * (1 + 1e-3 * rnd(300))).half()
    h_b[::11] = 0
    d = rnd(17, 5).double()
    d_b = d * (1 + 1e-9 * rnd(17, 5).double())
    d_b[2, 1] = 0
    near = rnd(512) * 3
    near_b = near * (1 + 1e-7 * rnd(512))
    thr_b = torch.tensor([1000.0, 1000.0, 1000.0, 200.0, 3.0, -7.0])
    thr_n = torch.tensor([1001.0, 1000.5, 1005.0, 201.0, 3.0, -7.0])
    over_n = torch.tensor([3e38, 1.0, -2.0])
    over_b = torch.tensor([-3e38, 1.0, -2.5])
    sub_n = torch.tensor([1e-45, 3e-39, 0.0, -1e-40])
    sub_b = torch.tensor([2e-45, 3e-39, 1e-45, 0.0])
    tiny_n = torch.tensor([1e-17, -2e-17, 0.0])
    tiny_b = torch.tensor([3e-17, 1e-17, 5e-17])
    return [
        ("f32_random", f32, f32_noise),
        ("f32_bench_zeros", f32, with_zeros),
        ("f32_4099_blocks", big, big_b),
        ("f32_negative_cosine", big, -big_b),
        ("f32_cosine_above_0_9999", near, near_b),
        ("f32_identical", f32, f32.clone()),
        ("f32_thresholds", thr_n, thr_b),
        ("f64_thresholds", thr_n.double(), thr_b.double()),
        ("f32_overflowing_difference", over_n, over_b),
        ("f32_subnormals", sub_n, sub_b),
        ("f32_norms_below_eps", tiny_n, tiny_b),
        ("f32_npu_norm_below_eps", tiny_n, f32[0, :3].clone()),
        ("f16", h, h_b),
        ("f16_vs_f32", h, h_b.float() * 1.0001),
        ("bf16_vs_f32", f32.bfloat16(), f32_noise),
        ("bf16", f32.bfloat16(), with_zeros.bfloat16()),
        ("f64", d, d_b),
        ("f64_vs_f32", d, d_b.float()),
        ("int64", ints, ints_b),
        ("int32_vs_int64", ints.int(), ints_b),
        ("int64_vs_f32", ints, ints_b.float() + 0.25),
        ("uint8", torch.arange(0, 250, 10, dtype=torch.uint8), torch.arange(3, 253, 10, dtype=torch.uint8)),
        ("bool", bools, bools_b),
        ("bool_bench_all_false", bools, torch.zeros(40, dtype=torch.bool)),
        ("zeros_both", torch.zeros(8), torch.zeros(8)),
        ("nan_inf_same_positions", nan_n, nan_b),
        ("plus_inf_vs_minus_inf", pm_n, pm_b),
        ("nan_vs_finite", diff_n, diff_b),
        ("nan_vs_inf", nan_vs_inf_n, nan_vs_inf_b),
        ("npu_inf_bench_finite_int", torch.tensor([1.0, float("inf")]), torch.tensor([1, 2])),
        ("squeeze_1x2x4x8_vs_2x4x8", f32[:8, :8].reshape(1, 2, 4, 8), f32_noise[:8, :8].reshape(2, 4, 8)),
        ("squeeze_to_0d", t([[2.5]]), t([2.0])),
        ("shape_unmatched", f32[:2, :4], f32[:4, :2].clone()),
        ("shape_unmatched_length", f32[0, :3].clone(), f32[0, :4].clone()),
        ("empty", torch.zeros(0), torch.zeros(0)),
        ("empty_npu_only", torch.zeros(0, 3), torch.zeros(3)),
        ("0d_inf_vs_inf", t(float("inf")), t(float("inf"))),
        ("0d_inf_vs_finite", t(float("inf")), t(1.0)),
        ("0d_nan_vs_nan", t(float("nan")), t(float("nan"))),
        ("0d_f32", t(1.6525588035583496), t(1.65328848361969)),
        ("0d_f32_bench_zero", t(0.4656), t(0.0)),
        ("0d_int_5_vs_0", t(5), t(0)),
        ("0d_int_3_vs_5", t(3), t(5)),
        ("0d_bool_true_vs_false", t(True), t(False)),
        ("0d_f64", t(0.1, torch.float64), t(0.3, torch.float64)),
        ("0d_f64_huge", t(1e300, torch.float64), t(3e299, torch.float64)),
        ("0d_f16", t(1.001, torch.float16), t(1.5, torch.float16)),
        ("0d_bf16", t(1.001, torch.bfloat16), t(1.5, torch.bfloat16)),
        ("0d_f16_vs_f32", t(1.001, torch.float16), t(1.5)),
        ("0d_int_vs_f32", t(7), t(2.5)),
    ]


NPY_CASES = {"f32_random", "int64", "f64", "bool", "0d_int_5_vs_0"}


def save(tensor, path):
    if path.endswith(".npy"):
        np.save(path, tensor.numpy())
    else:
        torch.save(tensor.clone(), path)


def cell_text(c):
    return c if isinstance(c, str) else repr(c)


def check_msprobe_rows():
    """The numpy model above must reproduce msprobe's own cells for the copied real dumps."""
    base = os.path.join(OUT, "cnn_bug_vs_ref")
    with open(os.path.join(base, "msprobe_rows.json")) as f:
        rows = json.load(f)["rows"]
    for row in rows:
        got = cells(load(os.path.join(base, "npu", row["npu"])), load(os.path.join(base, "bench", row["bench"])))
        assert [cell_text(c) for c in got] == row["cells"], (row["name"], got)
    return len(rows)


def main():
    out_dir = os.path.join(OUT, "cases")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    listed = []
    for name, n, b in cases():
        ext = ".npy" if name in NPY_CASES else ".pt"
        files = {}
        for side, tensor in (("npu", n), ("bench", b)):
            files[side] = f"{name}.{side}{ext}"
            save(tensor, os.path.join(out_dir, files[side]))
        got = cells(load(os.path.join(out_dir, files["npu"])), load(os.path.join(out_dir, files["bench"])))
        listed.append({"name": name, "npu": files["npu"], "bench": files["bench"], "cells": got})
    with open(os.path.join(OUT, "expected.json"), "w") as f:
        f.write('{"cells": "Cosine, EucDist, MaxAbsErr, MaxRelativeErr, One Thousandth Err Ratio, '
                'Five Thousandths Err Ratio: a string is a text cell, a number a float cell",\n "cases": [\n')
        f.write(",\n".join("  " + json.dumps(c) for c in listed))
        f.write("\n ]}\n")
    print(f"{len(listed)} cases; msprobe rows reproduced: {check_msprobe_rows()}")


if __name__ == "__main__":
    main()

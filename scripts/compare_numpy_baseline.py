#!/usr/bin/env python3
"""A plain Python/NumPy implementation of the work of `msdump compare` on one pair of dumps: the
speed baseline of scripts/bench_compare.py.

It is a baseline for speed, NOT a reference for values: it does the same kind of work as msdump
(and msprobe's compare) in the straightforward way one would write it in Python, and its table is
close to msdump's but not checked against it (msdump's tables are checked against msprobe's own
by tests/golden/run_compare_goldens.py). No effort was made to slow it down, nor to write it in a
contrived way to speed it up; it runs in one process, as msprobe's compare does on a 2-CPU
machine ((cpu_count + 1) // 4 workers).

Work done:
  1. json.load both dump.json files (and the NPU side's stack.json when present);
  2. flatten every entry into rows (input_args, input_kwargs, input, parameters, output,
     parameters_grad; nested lists and dicts), key backward rows by their backward order;
  3. pair the NPU rows with the bench rows through a dict on the key (dtype gate: float16,
     float32 and bfloat16 pair with each other, other dtypes only with themselves);
  4. statistics mode: Max/Min/Mean/L2norm diffs and relative errors of all rows at once as
     NumPy float64 arrays; tensor mode: torch.load each tensor pair (bfloat16 -> float32,
     squeezed) and compute Cosine, EucDist, MaxAbsErr, MaxRelativeErr and the one-thousandth /
     five-thousandths ratios with vectorised NumPy operations;
  5. the per-row checks (dtype, shape, requires_grad, NaN/inf) and per-API checks (output norm
     relative error; tensor mode: one-thousandth ratio and cosine of inputs vs outputs) that set
     Result and Err_message;
  6. write the table with the csv module, in the columns of msdump's/msprobe's table.

Usage: scripts/compare_numpy_baseline.py NPU BENCH -o OUT_DIR
  NPU, BENCH: a rank directory (holding dump.json) or a dump.json. Writes
  OUT_DIR/compare_result_baseline.csv and prints "<rows> rows (<mode>)" on stdout.
"""

import argparse
import csv
import json
import math
import os
import re
import sys

import numpy as np

CONTAINERS = (("input_args", "input", "in"), ("input_kwargs", "input", "in"), ("input", "input", "in"),
              ("parameters", "parameters", "param"), ("output", "output", "out"))
HALF_FLOATS = {"torch.float16", "torch.float32", "torch.bfloat16"}
API_BACKWARD = re.compile(r"^(.*)\.(\d+)\.backward$")
MODULE_BACKWARD = re.compile(r"^(.*)\.backward\.(\d+)$")
STATS = ("Max", "Min", "Mean", "Norm")
STAT_HEADERS = ["Max diff", "Min diff", "Mean diff", "L2norm diff",
                "MaxRelativeErr", "MinRelativeErr", "MeanRelativeErr", "NormRelativeErr"]
TENSOR_HEADERS = ["Cosine", "EucDist", "MaxAbsErr", "MaxRelativeErr",
                  "One Thousandth Err Ratio", "Five Thousandths Err Ratio"]
HEAD = ["NPU Name", "Bench Name", "NPU Dtype", "Bench Dtype", "NPU Tensor Shape", "Bench Tensor Shape",
        "NPU Requires_grad", "Bench Requires_grad"]
VALUES = ["NPU max", "NPU min", "NPU mean", "NPU l2norm", "Bench max", "Bench min", "Bench mean", "Bench l2norm"]
TAIL = ["Requires_grad Consistent", "Result", "Err_message", "NPU_Stack_Info"]


class Row:
    __slots__ = ("name", "entry", "part", "dtype", "shape", "grad", "stats", "data_name")


def text(v):
    """A statistic as the table shows it."""
    if v is None:
        return "None"
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, float) and math.isnan(v):
        return "Nan"
    return str(v)


def number(v):
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return math.nan
    return float(v)


def make_row(name, entry, part, leaf):
    r = Row()
    r.name, r.entry, r.part, r.data_name = name, entry, part, "-1"
    if leaf is None:
        r.dtype = r.shape = "None"
        r.grad = "N/A"
        r.stats = (None, None, None, None)
    elif "dtype" in leaf or leaf.get("type") in ("torch.Tensor", "mindspore.Tensor"):
        r.dtype, r.shape = str(leaf.get("dtype")), str(leaf.get("shape"))
        g = leaf.get("requires_grad")
        r.grad = "N/A" if g is None else text(g)
        r.stats = tuple(leaf.get(s) for s in STATS)
        dn = leaf.get("data_name")
        if dn and dn != "-1":
            r.data_name = dn
            r.name = dn.rsplit(".", 1)[0]
    else:
        v = leaf.get("value")
        r.dtype, r.shape, r.grad = f"<class '{leaf.get('type')}'>", "[]", "N/A"
        r.stats = (v, v, v, v)
    return r


def leaves(value, name, out):
    if value is None:
        out.append((name, None))
    elif isinstance(value, dict):
        if isinstance(value.get("type"), str):
            out.append((name, value))
        else:
            for k, v in value.items():
                leaves(v, f"{name}.{k}", out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            leaves(v, f"{name}.{i}", out)


def entry_rows(entry_name, entry):
    if entry_name.endswith("parameters_grad") or ".parameters_grad." in entry_name:
        rows = []
        for k, v in entry.items():
            leaf = v[0] if isinstance(v, list) and len(v) == 1 else v
            rows.append(make_row(f"{entry_name}.{k}", entry_name, "in", leaf))
        return rows
    parts = {"in": [], "param": [], "out": []}
    for container, shown, part in CONTAINERS:
        if container in entry and entry[container] is not None:
            found = []
            leaves(entry[container], f"{entry_name}.{shown}", found)
            parts[part].extend(make_row(n, entry_name, part, leaf) for n, leaf in found)
    return parts["in"] + parts["param"] + parts["out"]


def load_side(path):
    d = path if os.path.isdir(path) else os.path.dirname(path)
    dump = os.path.join(path, "dump.json") if os.path.isdir(path) else path
    with open(dump) as f:
        doc = json.load(f)
    rows, keys, backward_seen = [], [], {}
    for name, entry in doc.get("data", {}).items():
        key_entry = name
        m = API_BACKWARD.match(name) or MODULE_BACKWARD.match(name)
        if m:
            order = backward_seen.get(m.group(1), 0)
            backward_seen[m.group(1)] = order + 1
            api_style = m.re is API_BACKWARD
            key_entry = f"{m.group(1)}.{order}.backward" if api_style else f"{m.group(1)}.backward.{order}"
        elif not (name.endswith(".forward") or ".forward." in name or "parameters_grad" in name):
            continue
        for r in entry_rows(name, entry):
            rows.append(r)
            keys.append(key_entry + r.name[len(name):])
    return doc, d, rows, keys


def load_stack(d):
    p = os.path.join(d, "stack.json")
    if not os.path.exists(p):
        return {}
    with open(p) as f:
        doc = json.load(f)
    cells = {}
    for k, v in doc.items():
        if isinstance(v, list) and len(v) == 2 and isinstance(v[0], list):
            for name in v[0]:
                cells[name] = str(v[1])
        else:
            cells[k] = str(v)
    return cells


def pair_rows(npu_rows, npu_keys, bench_rows, bench_keys):
    index = dict(zip(bench_keys, bench_rows))
    partners = []
    for r, k in zip(npu_rows, npu_keys):
        b = index.get(k)
        if b is not None and b.dtype != r.dtype and not (r.dtype in HALF_FLOATS and b.dtype in HALF_FLOATS):
            b = None
        partners.append(b)
    return partners


def stats_columns(npu_rows, partners):
    """The eight diff / relative-error cells of every row, from two (rows, 4) float64 arrays."""
    n = np.array([[number(v) for v in r.stats] for r in npu_rows], dtype=np.float64).reshape(-1, 4)
    b = np.array([[number(v) for v in p.stats] if p else [math.nan] * 4 for p in partners],
                 dtype=np.float64).reshape(-1, 4)
    with np.errstate(all="ignore"):
        diff = n - b
        rel = np.abs(diff / b * 100)
    diff_l, rel_l, b_zero = diff.tolist(), rel.tolist(), (b == 0).tolist()
    n_ok, b_ok = np.isfinite(n).tolist(), np.isfinite(b).tolist()
    out = []
    for i, (r, p) in enumerate(zip(npu_rows, partners)):
        if p is None:
            out.append(["N/A"] * 8)
            continue
        diffs, rels = [], []
        for s in range(4):
            nv, bv = r.stats[s], p.stats[s]
            if text(nv) == text(bv):
                diffs.append("0")
                rels.append("0")
            elif n_ok[i][s] and b_ok[i][s]:
                diffs.append(repr(diff_l[i][s]))
                rels.append("inf" if b_zero[i][s] else repr(rel_l[i][s]) + "%")
            elif math.isnan(number(nv)) and math.isnan(number(bv)):
                diffs.append("Diff")
                rels.append("Diff")
            else:
                d = diff_l[i][s]
                cell = "Nan" if math.isnan(d) else repr(d)
                diffs.append(cell)
                rels.append(cell)
        out.append(diffs + rels)
    return out


def load_tensor(path):
    import torch
    try:
        t = torch.load(path, map_location="cpu", weights_only=True)
    except Exception:  # noqa: BLE001 - any unreadable file is "unsupported"
        return None
    t = t.detach()
    if t.dtype == torch.bfloat16:
        t = t.float()
    return t.numpy().squeeze()


def round12(x):
    return float("%.12f" % x)


def tensor_metrics(n, b):
    """The six metric cells of one tensor pair."""
    if n is None or b is None or n.size == 0:
        return ["unsupported"] * 6
    if n.shape != b.shape:
        return ["shape unmatched"] * 6
    if n.ndim > 0:
        n_bad = ~np.isfinite(n) if n.dtype.kind == "f" else None
        b_bad = ~np.isfinite(b) if b.dtype.kind == "f" else None
        if (n_bad is not None and n_bad.any()) or (b_bad is not None and b_bad.any()):
            if n_bad is None or b_bad is None or not (np.array_equal(np.isinf(n), np.isinf(b))
                                                      and np.array_equal(np.isnan(n), np.isnan(b))):
                return ["N/A"] * 6
            n, b = np.where(n_bad, 0, n), np.where(b_bad, 0, b)
    work = np.result_type(n.dtype if n.dtype.kind == "f" else np.float64,
                          b.dtype if b.dtype.kind == "f" else np.float64, np.float32)
    if n.ndim == 0:
        work = np.float32
    nw, bw = n.astype(work), b.astype(work)
    zero = bw == 0
    eps = np.finfo(work).eps
    nw[zero] += eps
    bw[zero] += eps
    with np.errstate(all="ignore"):
        rel = np.abs((nw - bw) / bw)
        absdiff = np.abs(n.astype(np.float64) - b.astype(np.float64))
    max_abs, max_rel = absdiff.max(), rel.max()
    max_abs_cell = "Nan" if math.isnan(max_abs) else round12(max_abs)
    max_rel_cell = "Nan" if math.isnan(max_rel) else round12(max_rel)
    if n.ndim == 0:
        return ["unsupported", "unsupported", max_abs_cell, max_rel_cell, "unsupported", "unsupported"]
    nf, bf = n.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    nn, bn = np.linalg.norm(nf), np.linalg.norm(bf)
    tiny = np.finfo(np.float64).eps
    if nn <= tiny and bn <= tiny:
        cos = 1.0
    elif nn <= tiny or bn <= tiny:
        cos = "Nan"
    else:
        c = float(np.dot(nf, bf) / (nn * bn))
        cos = "Nan" if math.isnan(c) else round12(c)
        if cos != "Nan" and cos > 0.9999:
            cos = round(cos, 6)
    euc = float(np.linalg.norm(nf - bf))
    size = rel.size
    return [cos, euc, max_abs_cell, max_rel_cell, round12(np.count_nonzero(rel < 0.001) / size),
            round12(np.count_nonzero(rel < 0.005) / size)]


def tensor_columns(npu_rows, partners, npu_dir, bench_dir):
    out = []
    for r, p in zip(npu_rows, partners):
        if p is None or r.data_name == "-1" or p.data_name == "-1":
            out.append(["unsupported"] * 6)
            continue
        n = load_tensor(os.path.join(npu_dir, "dump_tensor_data", r.data_name))
        b = load_tensor(os.path.join(bench_dir, "dump_tensor_data", p.data_name))
        out.append(tensor_metrics(n, b))
    return out


def as_fraction(cell):
    """A relative-error or ratio cell as a number, None when it carries none."""
    if isinstance(cell, float):
        return cell
    if isinstance(cell, str) and cell.endswith("%"):
        return float(cell[:-1]) / 100
    return None


def check_rows(npu_rows, partners, metrics, tensor_mode):
    """Result and Err_message of every row: per-row checks, then per-API input/output checks."""
    results = [["pass", []] for _ in npu_rows]
    groups = {}
    for i, r in enumerate(npu_rows):
        groups.setdefault(r.entry, []).append(i)
    for idx in groups.values():
        for i in idx:
            r, p, res = npu_rows[i], partners[i], results[i]
            bad = ("inf", "-inf", "Nan")
            bench_bad = p is not None and (text(p.stats[0]) in bad or text(p.stats[1]) in bad)
            if not bench_bad and (text(r.stats[0]) in bad or text(r.stats[1]) in bad):
                res[0] = "error"
                res[1].append("error: There is nan/inf/-inf in the maximum or minimum value of NPU.")
            if p is not None and r.grad != p.grad:
                res[0] = "error"
                res[1].append("error: The Required_Grad of NPU and Bench are inconsistent")
            if p is not None and r.dtype != p.dtype:
                res[0] = "error"
                res[1].append("error: The dtype of NPU and Bench are inconsistent.")
            if p is not None and r.shape != p.shape:
                res[0] = "error"
                res[1].append("error: The shape of NPU and Bench are inconsistent.")
        ins = [i for i in idx if npu_rows[i].part != "out"]
        outs = [i for i in idx if npu_rows[i].part == "out"]
        if not outs:
            continue
        col = 0 if tensor_mode else 7  # Cosine, or NormRelativeErr
        vals_in = [v for v in (as_fraction(metrics[i][col]) for i in ins) if v is not None]
        vals_out = [v for v in (as_fraction(metrics[i][col]) for i in outs) if v is not None]
        first = results[outs[0]]
        if tensor_mode:
            if min(vals_in, default=1.0) > 0.9 and min(vals_in, default=1.0) - min(vals_out, default=1.0) > 0.1:
                if first[0] == "pass":
                    first[0] = "warning"
                first[1].append("warning: The input/parameters of Cosine > 0.9, and input/parameters - output > 0.1")
        else:
            vin, vout = max(vals_in, default=0.0), max(vals_out, default=0.0)
            if (vin == 0 and vout > 0.1) or (vin > 0 and vout / vin > 10):
                if first[0] == "pass":
                    first[0] = "warning"
                first[1].append("warning: The norm relative error of output is 10 times that of input.")
    return [(level, json.dumps(msgs)) for level, msgs in results]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("npu")
    ap.add_argument("bench")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    npu_doc, npu_dir, npu_rows, npu_keys = load_side(args.npu)
    _, bench_dir, bench_rows, bench_keys = load_side(args.bench)
    stack = load_stack(npu_dir)
    partners = pair_rows(npu_rows, npu_keys, bench_rows, bench_keys)
    tensor_mode = npu_doc.get("task") == "tensor"
    if tensor_mode:
        metrics = tensor_columns(npu_rows, partners, npu_dir, bench_dir)
    else:
        metrics = stats_columns(npu_rows, partners)
    checked = check_rows(npu_rows, partners, metrics, tensor_mode)
    os.makedirs(args.output, exist_ok=True)
    with open(os.path.join(args.output, "compare_result_baseline.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEAD + (TENSOR_HEADERS if tensor_mode else STAT_HEADERS) + VALUES + TAIL
                   + (["Data_name"] if tensor_mode else []))
        stacked = set()
        for r, p, m, (level, msgs) in zip(npu_rows, partners, metrics, checked):
            na = p is None
            stack_cell = "N/A"
            if r.entry not in stacked:
                stacked.add(r.entry)
                stack_cell = stack.get(r.entry, "N/A")
            line = [r.name, "N/A" if na else p.name, r.dtype, "N/A" if na else p.dtype, r.shape,
                    "N/A" if na else p.shape, r.grad, "N/A" if na else p.grad] + m
            line += [text(v) for v in r.stats] + (["N/A"] * 4 if na else [text(v) for v in p.stats])
            line += ["N/A" if na else str(r.grad == p.grad), level, msgs, stack_cell]
            if tensor_mode:
                line.append(str([r.data_name, "N/A" if na else p.data_name]))
            w.writerow(line)
    print(f"{len(npu_rows)} rows ({'tensor' if tensor_mode else 'statistics'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Whole-process `msdump convert` of a synthetic capture with >= 200,000 dump.json entries vs
Python's json.dump(indent=1) of the same data (what msprobe does to write dump.json).

The capture (generated once into --dir/capture): trace.jsonl + ONE shared 1 MiB raw blob. The
model is a stack of blocks; each block is one module forward (pre-hook event + forward-hook
event with parameters), three API calls (forward input event, forward output event, stack and
construct events), their three backwards, the module backward and its parameters_grad: 9
entries per block. Tensor leaves are small float32 / int64 tensors ([16] .. [8, 32]) that point
into the shared blob at various offsets, so reading tensors is cheap and the run measures the
replay, the statistics of many small leaves and the writers; value leaves are int, float, str,
bool, torch.Size and None.

Each round, interleaved:
  msdump convert CAPTURE -o OUT --force --quiet          (timed whole-process, /usr/bin/time -v)
  json.dump(obj, f, indent=1) to a file                    (timed in-process; obj is msdump's
                                                            dump.json, json.load'ed once, not timed)
Output MB/s = dump.json bytes / seconds (msdump's seconds include reading the trace, computing
the statistics and writing stack.json and construct.json too). Target: msdump >= 10x Python.

Usage: scripts/bench_convert.py [--runs 7] [--entries 200000] [--dir $MSDUMP_BENCH_DIR/convert]
"""

import argparse
import json
import os
import random
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

BLOB_BYTES = 1 << 20
INT_REGION = 1 << 19  # int64 values live in the second half of the blob

APIS = [("Functional", "linear"), ("Functional", "gelu"), ("Functional", "dropout"),
        ("Functional", "layer_norm"), ("Torch", "matmul"), ("Tensor", "add"), ("Functional", "softmax"),
        ("Tensor", "view"), ("Torch", "cat")]
SHAPES = [[16], [32], [8, 16], [4, 4, 8], [8, 32], [2, 3, 16], [64]]


def write_blob(path):
    rnd = random.Random(7)
    import struct
    n_f = INT_REGION // 4
    floats = struct.pack(f"<{n_f}f", *(rnd.gauss(0.0, 1.0) for _ in range(n_f)))
    n_i = (BLOB_BYTES - INT_REGION) // 8
    ints = struct.pack(f"<{n_i}q", *(rnd.randrange(-1000, 1000) for _ in range(n_i)))
    with open(path, "wb") as f:
        f.write(floats + ints)


class Gen:
    def __init__(self, seed=1):
        self.rnd = random.Random(seed)
        self.counters = {}

    def tensor(self, requires_grad=True, dtype="torch.float32"):
        shape = self.rnd.choice(SHAPES)
        n = 1
        for d in shape:
            n *= d
        if dtype == "torch.int64":
            off = INT_REGION + 8 * self.rnd.randrange(0, (BLOB_BYTES - INT_REGION) // 8 - n)
        else:
            off = 4 * self.rnd.randrange(0, INT_REGION // 4 - n)
        return ('{"type": "torch.Tensor", "dtype": "%s", "shape": %s, "requires_grad": %s, '
                '"source": {"file": "blob.bin", "offset": %d}}'
                % (dtype, json.dumps(shape), "true" if requires_grad else "false", off))

    def values(self):
        r = self.rnd
        return [
            '{"type": "int", "value": %d}' % r.randrange(-4, 1024),
            '{"type": "float", "value": %r}' % r.choice([1e-05, 0.1, 0.5, 1.0, 2.5e-3]),
            '{"type": "str", "value": "%s"}' % r.choice(["mean", "none", "sum", "tanh"]),
            '{"type": "bool", "value": %s}' % r.choice(["true", "false"]),
            '{"type": "torch.Size", "value": [%d, %d]}' % (r.randrange(1, 64), r.randrange(1, 64)),
            "null",
        ]

    def api_name(self, prefix, api):
        n = self.counters.get((prefix, api), 0)
        self.counters[(prefix, api)] = n + 1
        return f"{prefix}.{api}.{n}"

    def block(self, i, out):
        """Appends the trace lines of one block (9 entries) to out."""
        r = self.rnd
        mod = f"Module.blocks.{i}.mlp.Linear"
        mfwd = f"{mod}.forward.0"
        frames = ('["File train.py, line %d, in forward, \\n return self.mlp(x)", '
                  '"File train.py, line 88, in <module>, \\n loss = model(batch)"]' % (40 + i % 50))
        out.append('{"kind": "stack", "name": "%s", "frames": %s}' % (mfwd, frames))
        out.append('{"kind": "construct", "name": "%s", "parent": null}' % mfwd)
        out.append('{"kind": "data", "name": "%s", "input_args": [%s], "input_kwargs": {}}'
                   % (mfwd, self.tensor(False)))
        apis = []
        for _ in range(3):
            prefix, api = r.choice(APIS)
            base = self.api_name(prefix, api)
            apis.append(base)
            fwd = base + ".forward"
            v = self.values()
            args = [self.tensor(r.random() < 0.5), self.tensor()] + v[:2]
            kwargs = '{"reduction": %s, "inplace": %s, "size": %s, "out": %s}' % (v[2], v[3], v[4], v[5])
            out.append('{"kind": "stack", "name": "%s", "frames": %s}' % (fwd, frames))
            out.append('{"kind": "construct", "name": "%s", "parent": "%s"}' % (fwd, mfwd))
            out.append('{"kind": "data", "name": "%s", "input_args": [%s], "input_kwargs": %s}'
                       % (fwd, ", ".join(args), kwargs))
            outs = [self.tensor()]
            if r.random() < 0.3:
                outs.append(self.tensor(False, "torch.int64"))
            out.append('{"kind": "data", "name": "%s", "output": [%s]}' % (fwd, ", ".join(outs)))
        out.append('{"kind": "data", "name": "%s", "output": [%s], "parameters": {"weight": %s, "bias": %s}}'
                   % (mfwd, self.tensor(), self.tensor(), self.tensor()))
        mbwd = f"{mod}.backward.0"
        for base in reversed(apis):
            bwd = base + ".backward"
            out.append('{"kind": "construct", "name": "%s", "parent": "%s"}' % (bwd, mbwd))
            out.append('{"kind": "data", "name": "%s", "input": [%s], "output": [%s, null]}'
                       % (bwd, self.tensor(False), self.tensor(False)))
        out.append('{"kind": "construct", "name": "%s", "parent": null}' % mbwd)
        out.append('{"kind": "data", "name": "%s", "input": [%s], "output": [%s]}'
                   % (mbwd, self.tensor(False), self.tensor(False)))
        pg = f"{mod}.parameters_grad.0"
        out.append('{"kind": "data", "name": "%s", "weight": [%s], "bias": [%s]}'
                   % (pg, self.tensor(False), self.tensor(False)))


def generate(capture, entries):
    os.makedirs(capture, exist_ok=True)
    write_blob(os.path.join(capture, "blob.bin"))
    g = Gen()
    blocks = -(-entries // 9)
    tmp = os.path.join(capture, "trace.jsonl.tmp")
    with open(tmp, "w", buffering=8 << 20) as f:
        f.write('{"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": 0, "rank": 0, '
                '"level": "mix", "task": "statistics", "summary_mode": "statistics"}\n')
        for start in range(0, blocks, 1000):
            lines = []
            for i in range(start, min(blocks, start + 1000)):
                g.block(i, lines)
            f.write("\n".join(lines) + "\n")
    os.replace(tmp, os.path.join(capture, "trace.jsonl"))
    return blocks * 9


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--entries", type=int, default=200000)
    ap.add_argument("--dir", default=bc.bench_dir("convert"))
    ap.add_argument("--msdump", default=bc.default_msdump())
    args = ap.parse_args()
    bc.require_tools(args.msdump)
    capture = os.path.join(args.dir, f"capture-{args.entries}")
    out = os.path.join(args.dir, f"out-{args.entries}")
    py_out = os.path.join(args.dir, "python-dump.json")
    if not os.path.exists(os.path.join(capture, "trace.jsonl")):
        t0 = time.perf_counter()
        n = generate(capture, args.entries)
        print(f"generated {capture}: {n} entries in {time.perf_counter() - t0:.1f} s", flush=True)
    trace_bytes = os.path.getsize(os.path.join(capture, "trace.jsonl"))

    bc.print_machine(args.msdump)
    md_cmd = [args.msdump, "convert", capture, "-o", out, "--force", "--quiet"]
    print("msdump :", " ".join(md_cmd))
    print(f"python : json.dump(json.load(open('{out}/dump.json')), open('{py_out}', 'w'), indent=1)")

    def run_msdump():
        sec, rss, _ = bc.timed(md_cmd)
        return {"sec": sec, "rss": rss}

    # Warm-up (also produces the dump.json the Python side serializes).
    m = run_msdump()
    dump = os.path.join(out, "dump.json")
    size = os.path.getsize(dump)
    others = sum(os.path.getsize(os.path.join(out, f)) for f in ("stack.json", "construct.json")
                 if os.path.exists(os.path.join(out, f)))
    t0 = time.perf_counter()
    with open(dump) as f:
        obj = json.load(f)
    print(f"warm-up: msdump {m['sec']:.2f} s; json.load of its dump.json (not timed in the rounds) "
          f"{time.perf_counter() - t0:.1f} s; {len(obj['data'])} entries, dump.json {size / 1e6:.1f} MB, "
          f"stack.json + construct.json {others / 1e6:.1f} MB, trace.jsonl {trace_bytes / 1e6:.1f} MB", flush=True)
    if len(obj["data"]) < args.entries:
        sys.exit(f"only {len(obj['data'])} entries")

    def run_python():
        t0 = time.perf_counter()
        with open(py_out, "w") as f:
            json.dump(obj, f, indent=1)
        sec = time.perf_counter() - t0
        return {"sec": sec}

    run_python()
    with open(py_out, "rb") as a, open(dump, "rb") as b:
        same = a.read() == b.read()
    print(f"python's json.dump output is {'byte-identical to' if same else 'DIFFERENT from'} msdump's dump.json",
          flush=True)

    res = bc.interleave(args.runs, [("msdump convert", run_msdump), ("python json.dump", run_python)],
                        warmup=False)
    md = bc.med(res, "msdump convert", "sec")
    py = bc.med(res, "python json.dump", "sec")
    print(f"\n{args.runs} interleaved rounds, {len(obj['data'])} entries, dump.json {size / 1e6:.1f} MB, "
          f"load average at end: {bc.loadavg()}")
    bc.print_table(
        ["contender", "median s", "min s", "max s", "dump.json MB/s", "entries/s", "peak RSS"],
        [["msdump convert (whole process)", f"{md:.2f}", f"{min(x['sec'] for x in res['msdump convert']):.2f}",
          f"{max(x['sec'] for x in res['msdump convert']):.2f}", f"{size / md / 1e6:.0f}",
          f"{len(obj['data']) / md:.0f}", bc.fmt_bytes(bc.med(res, 'msdump convert', 'rss'))],
         ["python json.dump(indent=1) only", f"{py:.2f}", f"{min(x['sec'] for x in res['python json.dump']):.2f}",
          f"{max(x['sec'] for x in res['python json.dump']):.2f}", f"{size / py / 1e6:.1f}",
          f"{len(obj['data']) / py:.0f}", "-"]])
    print(f"\nspeedup (ratio of medians, output MB/s): {py / md:.1f}x  (target >= 10x: "
          f"{'met' if py / md >= 10 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

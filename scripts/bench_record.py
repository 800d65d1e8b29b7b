#!/usr/bin/env python3
"""Benchmark of msdump_record: per-step time of a small CPU transformer (a) without hooks,
(b) under the recorder at L0, L1 and mix, (c) under an in-process statistics hook doing what
msprobe does per tensor (max, min, mean, norm with .item() each, the JSON entry built in memory
with msprobe's merge rule, dump.json written at the end of the step) on the same hook points;
then the recorder's blob write throughput for large tensors against a plain sequential write of
the same bytes.

    /usr/bin/python3 scripts/bench_record.py [--steps 20] [--rounds 5] [--warmup 3] [--threads 1]
    (--rounds, --warmup: of the blob benchmark)

Each configuration runs in a process of its own (hooks installed once, as in training); they
take turns step by step (2 warm-up steps each); medians and minima of the step times are
reported, and the mean CPU time per step of the configuration's process (the recorder's writer
thread included; on a shared machine the steadiest of the three), overhead = configuration -
none.
"""
import argparse
import inspect
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from msdump_record import Recorder  # noqa: E402
from msdump_record.state import StepState  # noqa: E402
from msdump_record.writer import BlobWriter  # noqa: E402
from msdump_record.values import BufferPool, TensorSink  # noqa: E402

D_MODEL, HEADS, FF, LAYERS, BATCH, SEQ, VOCAB = 64, 4, 256, 2, 8, 32, 500


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, D_MODEL)
        self.blocks = nn.ModuleList(nn.TransformerEncoderLayer(D_MODEL, HEADS, FF, dropout=0.0, batch_first=True)
                                    for _ in range(LAYERS))
        self.head = nn.Linear(D_MODEL, VOCAB)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


STACK_FILTER = ("msprobe/core", "msprobe/pytorch", "msprobe/mindspore", "api_dump/api_registry",
                os.sep + "msdump_record" + os.sep)


def msprobe_call_stack():
    """msprobe's analyze_api_call_stack, run at every forward-input collection: inspect.stack(),
    frames without source text or inside the hook layer dropped, one string per frame."""
    frames = []
    for _, path, line, func, code, _ in inspect.stack()[2:]:
        if not code or any(k in path for k in STACK_FILTER):
            continue
        frames.append(f"File {path}, line {line}, in {func}, \n {code[0].strip()}")
    return tuple(frames)


class StatsSink:
    """msprobe's per-tensor work (get_stat_info + _analyze_tensor): the four reductions (any/all
    for bool, the value itself for 0-dim, in float32 for integer and float64 tensors), each read
    back with .item(), and the entry dict in msprobe's key order."""

    @property
    def grads(self):     # backward hooks record through the same sink
        return self

    def forget(self):    # no copies to forget or share
        pass

    def alias(self, original, copy):
        pass

    def leaf(self, t):
        d = t.detach()
        if not d.numel():
            stats = (None,) * 4
        elif d.dtype is torch.bool:
            stats = (torch.any(d).item(), torch.all(d).item(), None, None)
        elif not d.shape:
            v = d.clone().item()
            stats = (v,) * 4
        else:
            if d.dtype is torch.float64 or not d.is_floating_point():
                d = d.float()
            stats = (torch.max(d).item(), torch.min(d).item(), torch.mean(d).item(), torch.norm(d).item())
        return {"type": "torch.Tensor", "dtype": str(t.dtype), "shape": t.shape, "Max": stats[0],
                "Min": stats[1], "Mean": stats[2], "Norm": stats[3], "requires_grad": t.requires_grad}


class StatsHook(Recorder):
    """The recorder's hooks doing msprobe's in-process work instead of copying bytes: statistics
    per tensor, the call stack per forward-input collection, the construct dict (L0 / mix), and
    dump.json, stack.json, construct.json written at step()."""

    def _open_step(self):
        self.sink = StatsSink()
        self.data, self.stacks, self.construct = {}, {}, {}
        self.step_dir = os.path.join(self.dir, f"step{self.loop}")

    def emit_inputs(self, name, sections):
        self.stacks.setdefault(msprobe_call_stack(), []).append(name)
        self.emit_data(name, sections)

    def emit_data(self, name, sections):
        entry = self.data.pop(name, {}) if name.startswith("Module.") else self.data.get(name, {})
        entry.update(sections)
        self.data[name] = entry

    def update_construct(self, api_name):
        if self.level == "L1":
            return
        st = self.state
        if api_name is not None and self.level == "mix":
            self.construct[api_name] = st.api_parent
        for name, parent in st.pending_nodes:
            self.construct.setdefault(name, parent)
        st.pending_nodes.clear()

    def step(self):
        self.stop()
        if self.sink is not None:
            os.makedirs(self.step_dir, exist_ok=True)
            stacks = {str(i): [names, list(frames)] for i, (frames, names) in enumerate(self.stacks.items())}
            for name, obj in (("dump.json", {"task": "statistics", "level": self.level, "data": self.data}),
                              ("stack.json", stacks), ("construct.json", self.construct)):
                with open(os.path.join(self.step_dir, name), "w") as f:
                    json.dump(obj, f, indent=1, default=list)
            self.sink = None
        self.state = StepState()
        self.loop += 1


def one_step(model, opt, tokens, target, hook):
    """(wall seconds, CPU seconds of this process: all its threads, the writer's included)."""
    c0 = time.process_time()
    t0 = time.perf_counter()
    if hook is not None:
        hook.start(model)
    opt.zero_grad()
    loss = F.cross_entropy(model(tokens).reshape(-1, VOCAB), target.reshape(-1))
    loss.backward()
    opt.step()
    if hook is not None:
        hook.stop()
        hook.step()
    return time.perf_counter() - t0, time.process_time() - c0


def run_worker(config, steps, threads, tmp, cpu):
    """One configuration in a process of its own (as in training: one recorder per process, its
    hooks installed once): a step per line read from stdin, "wall CPU" written back; at the end
    the recorder's close (what the writer still had queued: its CPU time is charged to the
    steps). Called right from main(), so the hooks see the stack depth of a plain script. The
    training thread runs on `cpu` in every configuration: on a VM the CPUs differ in speed from
    moment to moment, and a process tends to stay where it was placed."""
    torch.set_num_threads(threads)
    gen = torch.Generator().manual_seed(0)
    batches = [(torch.randint(0, VOCAB, (BATCH, SEQ), generator=gen),
                torch.randint(0, VOCAB, (BATCH, SEQ), generator=gen)) for _ in range(steps)]
    torch.manual_seed(0)
    model = Model()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    hook = None
    if config != "none":
        kind, level = config.split()
        hook = (Recorder if kind == "record" else StatsHook)(os.path.join(tmp, config.replace(" ", "_")), level, rank=0)
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})   # this thread only: the writer thread keeps every CPU
    for tokens, target in batches:
        sys.stdin.readline()
        print(*one_step(model, opt, tokens, target, hook), flush=True)
    sys.stdin.readline()
    c0 = time.process_time()
    if isinstance(hook, Recorder) and not isinstance(hook, StatsHook):
        hook.close()
    print(0.0, time.process_time() - c0, flush=True)


def bench_steps(args, tmp):
    """Every configuration runs in a process of its own (this script with --worker) with its own
    copy of the model; they take turns step by step (the order rotating), so load changes on a
    shared machine hit all of them alike."""
    configs = ["none", "record L0", "record L1", "record mix", "stats L1", "stats mix"]
    runs = {}
    for c in configs:
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", c,
                                 "--steps", str(args.steps + 2), "--threads", str(args.threads),
                                 "--dir", tmp, "--cpu", str(args.cpu)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        runs[c] = (proc, [])
    for i in range(args.steps + 3):   # 2 warm-up steps, the counted ones, then close
        order = configs[i % len(configs):] + configs[:i % len(configs)]
        for c in order:
            proc, times = runs[c]
            proc.stdin.write("go\n")
            proc.stdin.flush()
            t = tuple(float(x) for x in proc.stdout.readline().split())
            if len(t) != 2:
                sys.exit(f"bench_record: the {c!r} worker failed")
            if i >= 2:
                times.append(t)
    for c in configs:
        proc = runs[c][0]
        proc.stdin.close()
        if proc.wait():
            sys.exit(f"bench_record: the {c!r} worker exited with {proc.returncode}")
    med = {c: statistics.median(t for t, _ in runs[c][1] if t) for c in configs}
    low = {c: min(t for t, _ in runs[c][1] if t) for c in configs}
    cpu = {c: sum(u for _, u in runs[c][1]) / args.steps for c in configs}
    print(f"model: {LAYERS} TransformerEncoderLayer(d={D_MODEL}, heads={HEADS}, ff={FF}), batch {BATCH}x{SEQ}, "
          f"SGD momentum; torch {torch.__version__}, {torch.get_num_threads()} thread(s); {args.steps} steps each")
    print(f"{'config':<12} {'median ms':>10} {'overhead':>9} {'min ms':>8} {'overhead':>9} {'CPU ms':>8} {'overhead':>9}")
    for c in configs:
        print(f"{c:<12} {med[c] * 1e3:10.1f} {(med[c] - med['none']) * 1e3:9.1f} "
              f"{low[c] * 1e3:8.1f} {(low[c] - low['none']) * 1e3:9.1f} "
              f"{cpu[c] * 1e3:8.1f} {(cpu[c] - cpu['none']) * 1e3:9.1f}")
    for level in ("L1", "mix"):
        for name, m in (("median wall", med), ("min wall", low), ("CPU", cpu)):
            rec, stats = m[f"record {level}"] - m["none"], m[f"stats {level}"] - m["none"]
            print(f"{level} ({name}): recorder overhead / stats-hook overhead = {rec / stats:.2f} (goal <= 0.25)")


def bench_blobs(args, tmp):
    """Blob write throughput: the same N tensors' bytes (already in memory) reach a file in the
    same directory (a) by a plain sequential write from the tensors' own memory, (b) through the
    recorder: TensorSink.add per tensor (the one synchronous copy the hook makes) and the writer
    thread's writes, timed until everything is on the OS (close + sync). Steady state, as in
    training where a step's tensor sizes recur: one writer and buffer pool for all rounds, the
    first --warmup rounds (where the pool still grows, so copies land in fresh memory) not
    counted; the two sides alternate round by round. Reports wall-clock throughput medians and
    their ratio, and the CPU time of both (the recorder's copy included)."""
    n, size = args.blob_count, args.blob_mib << 20
    tensors = [torch.randn(size // 4) for _ in range(n)]
    total = n * size
    writer = BlobWriter()
    pool = BufferPool(writer.max_bytes)
    plain, rec = [], []
    for r in range(args.warmup + args.rounds):
        path = os.path.join(tmp, "plain.bin")
        c0, t0 = time.process_time(), time.perf_counter()
        with open(path, "wb") as f:
            for t in tensors:
                f.write(memoryview(t.numpy()).cast("B"))
        plain.append((time.perf_counter() - t0, time.process_time() - c0))
        os.remove(path)
        writer.open(os.path.join(tmp, "trace.jsonl"), os.path.join(tmp, "blob.bin"))
        sink = TensorSink(writer, "blob.bin", pool)
        c0, t0 = time.process_time(), time.perf_counter()
        for t in tensors:
            sink.add(t)              # synchronous copy, queued for the writer thread
        writer.close_files()
        writer.sync()
        rec.append((time.perf_counter() - t0, time.process_time() - c0))
        os.remove(os.path.join(tmp, "blob.bin"))
    p = statistics.median(w for w, _ in plain[args.warmup:])
    q = statistics.median(w for w, _ in rec[args.warmup:])
    pc = statistics.median(c for _, c in plain[args.warmup:])
    qc = statistics.median(c for _, c in rec[args.warmup:])
    print(f"blobs: {n} x {args.blob_mib} MiB float32, median of {args.rounds} rounds after {args.warmup} warm-up: "
          f"plain write {total / p / 2**20:.0f} MiB/s, recorder (copy + writer thread) {total / q / 2**20:.0f} MiB/s "
          f"= {p / q:.2f}x (goal >= 0.8); CPU ms plain {pc * 1e3:.0f}, recorder {qc * 1e3:.0f}")


def default_cpu():
    return min(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=3, help="blob rounds not counted (the buffer pool fills)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--blob-count", type=int, default=32)
    ap.add_argument("--blob-mib", type=int, default=4)
    ap.add_argument("--dir", default=None, help="scratch directory (default: a temporary one)")
    ap.add_argument("--cpu", type=int, default=default_cpu(),
                    help="the CPU every configuration's training thread runs on (default: the first allowed)")
    ap.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return run_worker(args.worker, args.steps, args.threads, args.dir, args.cpu)
    torch.set_num_threads(args.threads)
    tmp = tempfile.mkdtemp(prefix="bench_record_", dir=args.dir)
    try:
        steps_dir = os.path.join(tmp, "steps")
        bench_steps(args, steps_dir)
        shutil.rmtree(steps_dir)   # its dirty pages go without write-back, not during the blobs
        bench_blobs(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

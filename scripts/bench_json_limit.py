#!/usr/bin/env python3
"""msdump's JSON speed against the fastest JSON parser: whole-process `msdump verify --no-tensors`
and `msdump anomalies --no-tensors` of a >= 256 MiB real-shaped statistics dump against a simdjson
On-Demand walk of the same file (build/msdump_bench_simdjson_walk: one thread, every key and
string unescaped, every number parsed, msprobe's NaN/Infinity rewritten in memory to
same-length numbers first; its time is the best of 3 walks in one process, its steady state).
Then the output speed of `msdump convert` (dump.json bytes per second) on scripts/bench_convert.py's
200k-entry capture, alone or against a baseline build (--baseline-msdump) in the same rounds.

The dump is made once by scripts/bench_gen_dump.py (real msprobe entries replicated under fresh
names, json.dump(indent=1) text) into --dir and reused; the capture is bench_convert.py's, made
once into --convert-dir. Each round runs, alternating the order between rounds:

  msdump_bench_simdjson_walk FILE 3                                  (its "best" seconds)
  msdump verify FILE --no-tensors --quiet --report json              (wall, /usr/bin/time -v)
  msdump anomalies FILE --no-tensors --quiet --report json           (wall, /usr/bin/time -v)

Ratios are of median throughputs: the walk's seconds over msdump's (>1 is faster than the walk).
msdump runs two threads against the walk's one, so on a 2-vCPU VM another job on the second
vCPU halves the wall ratio: run it on an idle machine (the load averages are printed); the
table also gives msdump's CPU time (user + system) and the walk's seconds over it.
Targets: verify >= 1.0x the walk with peak RSS <= 0.2x the file; anomalies >= 1.5x; convert
>= 3x the baseline build's dump.json bytes/s with byte-identical output.

--quick (a 5 MB dump, a 2,000-entry capture, one round, no warm-up) only checks that it runs.

Usage: scripts/bench_json_limit.py [--runs 5] [--mb 270] [--profile current|legacy]
          [--dir $MSDUMP_BENCH_DIR/json_limit] [--msdump PATH] [--walk PATH]
          [--entries 200000] [--convert-dir $MSDUMP_BENCH_DIR/convert] [--baseline-msdump PATH]
          [--no-convert] [--quick]
"""

import argparse
import filecmp
import os
import re
import resource
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402
import bench_convert  # noqa: E402

VERIFY_GOAL = 1.0
ANOMALIES_GOAL = 1.5
RSS_GOAL = 0.2
CONVERT_GOAL = 3.0


def verdict(ok):
    return "met" if ok else "MISSED"


def run_walk(walk, dump):
    """One walk process: returns its best in-process seconds and its output."""
    cmd = [walk, dump, "3"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr[-4000:])
        sys.exit(f"command failed with exit code {proc.returncode}: {' '.join(cmd)}")
    m = re.search(r"^best: ([0-9.]+) s", proc.stdout, re.M)
    if not m:
        sys.exit(f"no 'best:' line in the output of {' '.join(cmd)}:\n{proc.stdout}")
    return float(m.group(1)), proc.stdout


def json_rounds(args, dump):
    size = os.path.getsize(dump)
    verify = [args.msdump, "verify", dump, "--no-tensors", "--quiet", "--report", "json"]
    anomalies = [args.msdump, "anomalies", dump, "--no-tensors", "--quiet", "--report", "json"]
    print("walk      :", args.walk, dump, "3")
    print("verify    :", " ".join(verify), "> /dev/null")
    print("anomalies :", " ".join(anomalies), "> /dev/null")
    _, text = run_walk(args.walk, dump)
    print("walk output:\n  " + text.strip().replace("\n", "\n  "), flush=True)

    def walk_fn():
        best, _ = run_walk(args.walk, dump)
        return {"sec": best}

    def msdump_fn(cmd, rcs):
        def fn():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            sec, rss, _ = bc.timed(cmd, check_rc=rcs)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            return {"sec": sec, "rss": rss, "cpu": cpu}
        return fn

    res = bc.interleave(args.runs, [("simdjson walk (best of 3)", walk_fn),
                                    ("msdump verify --no-tensors", msdump_fn(verify, (0,))),
                                    ("msdump anomalies --no-tensors", msdump_fn(anomalies, (0, 1)))],
                        warmup=not args.quick)
    walk = bc.med(res, "simdjson walk (best of 3)", "sec")
    print(f"\n{args.runs} alternated rounds, {size / 1e6:.1f} MB dump.json ({size / 2**20:.0f} MiB), "
          f"load average at end: {bc.loadavg()}")
    rows = []
    for label in res:
        s = bc.med(res, label, "sec")
        rss = bc.med(res, label, "rss") if "rss" in res[label][0] else None
        cpu = bc.med(res, label, "cpu") if "cpu" in res[label][0] else None
        rows.append([label, f"{s:.3f}", f"{min(m['sec'] for m in res[label]):.3f}",
                     f"{max(m['sec'] for m in res[label]):.3f}", f"{size / s / 1e6:.0f}",
                     f"{walk / s:.2f}x", f"{cpu:.3f}" if cpu else "-", f"{walk / cpu:.2f}x" if cpu else "-",
                     bc.fmt_bytes(rss) if rss else "-", f"{rss / size:.3f}x" if rss else "-"])
    bc.print_table(["contender", "median s", "min s", "max s", "MB/s", "vs walk", "CPU s", "CPU vs walk",
                    "peak RSS", "RSS / file"], rows)
    print("(CPU s: user + system of the whole process; CPU vs walk: the walk's seconds over it, which a "
          "busy second vCPU does not change. The goals are on wall time.)")
    v = walk / bc.med(res, "msdump verify --no-tensors", "sec")
    a = walk / bc.med(res, "msdump anomalies --no-tensors", "sec")
    rss = bc.med(res, "msdump verify --no-tensors", "rss") / size
    print(f"\njson limit: verify {v:.2f}x the walk's throughput (goal >= {VERIFY_GOAL}x: {verdict(v >= VERIFY_GOAL)}), "
          f"peak RSS {rss:.3f}x the file (goal <= {RSS_GOAL}x: {verdict(rss <= RSS_GOAL)}); "
          f"anomalies {a:.2f}x (goal >= {ANOMALIES_GOAL}x: {verdict(a >= ANOMALIES_GOAL)})", flush=True)


def convert_rounds(args):
    capture = os.path.join(args.convert_dir, f"capture-{args.entries}")
    if not os.path.exists(os.path.join(capture, "trace.jsonl")):
        n = bench_convert.generate(capture, args.entries)
        print(f"generated {capture}: {n} entries", flush=True)
    contenders = [("msdump convert", args.msdump, os.path.join(args.convert_dir, f"out-{args.entries}"))]
    if args.baseline_msdump:
        contenders.append(("baseline convert", args.baseline_msdump,
                           os.path.join(args.convert_dir, f"out-baseline-{args.entries}")))
    fns = []
    for label, binary, out in contenders:
        cmd = [binary, "convert", capture, "-o", out, "--force", "--quiet"]
        print(f"{label}: {' '.join(cmd)}")

        def fn(cmd=cmd):
            sec, rss, _ = bc.timed(cmd)
            return {"sec": sec, "rss": rss}
        fns.append((label, fn))
    res = bc.interleave(args.runs, fns, warmup=not args.quick)
    size = os.path.getsize(os.path.join(contenders[0][2], "dump.json"))
    print(f"\n{args.runs} rounds, {args.entries} entries requested, dump.json {size / 1e6:.1f} MB, "
          f"load average at end: {bc.loadavg()}")
    rows = []
    for label, _, _ in contenders:
        s = bc.med(res, label, "sec")
        rows.append([label, f"{s:.3f}", f"{min(m['sec'] for m in res[label]):.3f}",
                     f"{max(m['sec'] for m in res[label]):.3f}", f"{size / s / 1e6:.1f}",
                     bc.fmt_bytes(bc.med(res, label, "rss"))])
    bc.print_table(["contender", "median s", "min s", "max s", "dump.json MB/s", "peak RSS"], rows)
    mbs = size / bc.med(res, "msdump convert", "sec") / 1e6
    if not args.baseline_msdump:
        print(f"\nconvert: {mbs:.1f} MB/s of dump.json (no --baseline-msdump: no ratio)")
        return
    outs = [c[2] for c in contenders]
    same = True
    for f in ("dump.json", "stack.json", "construct.json"):
        a, b = (os.path.join(o, f) for o in outs)
        if os.path.exists(a) != os.path.exists(b):
            same = False
        elif os.path.exists(a):
            same = same and filecmp.cmp(a, b, shallow=False)
    r = bc.med(res, "baseline convert", "sec") / bc.med(res, "msdump convert", "sec")
    print(f"\nconvert: {mbs:.1f} MB/s of dump.json, {r:.2f}x the baseline (goal >= {CONVERT_GOAL}x: "
          f"{verdict(r >= CONVERT_GOAL)}); outputs {'byte-identical' if same else 'DIFFERENT'}")
    if not same:
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mb", type=float, default=270, help="dump.json size in MB (default 270 > 256 MiB)")
    ap.add_argument("--profile", choices=["current", "legacy"], default="current")
    ap.add_argument("--dir", default=bc.bench_dir("json_limit"))
    ap.add_argument("--msdump", default=bc.default_msdump())
    ap.add_argument("--walk", default=os.path.join(bc.REPO, "build", "msdump_bench_simdjson_walk"))
    ap.add_argument("--entries", type=int, default=200000, help="convert capture entries (default 200000)")
    ap.add_argument("--convert-dir", default=bc.bench_dir("convert"))
    ap.add_argument("--baseline-msdump", help="the baseline build's msdump for the convert ratio")
    ap.add_argument("--no-convert", action="store_true", help="JSON reading only")
    ap.add_argument("--quick", action="store_true",
                    help="5 MB dump, 2,000-entry capture, 1 round, no warm-up: checks that it runs")
    args = ap.parse_args()
    if args.quick:
        args.mb, args.runs, args.entries = 5, 1, 2000
    bc.require_tools(args.msdump)
    if args.baseline_msdump:
        bc.require_tools(args.baseline_msdump)
    if not os.access(args.walk, os.X_OK):
        sys.exit(f"{args.walk} is missing: build with MSDUMP_BENCH=ON and libsimdjson-dev installed")
    d = os.path.join(args.dir, f"{args.profile}-{int(args.mb)}MB")
    os.makedirs(d, exist_ok=True)
    dump = os.path.join(d, "dump.json")
    if not os.path.exists(dump):
        subprocess.run([bc.PYTHON, os.path.join(bc.REPO, "scripts", "bench_gen_dump.py"), dump,
                        "--mb", str(args.mb), "--profile", args.profile], check=True)
    bc.print_machine(args.msdump)
    json_rounds(args, dump)
    if not args.no_convert:
        print()
        convert_rounds(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Batch throughput: `msdump verify TREE` and `msdump convert TREE` over trees of R ranks x 2 steps,
with --jobs 1 and --jobs 2, for R = 64, 128, 256 (the tree doubles, then quadruples).

Trees (generated once under --dir):
  verify:  dumps-R/step{0,1}/rank{0..R-1}/{dump,stack,construct}.json, copies of the real
           msprobe dump testdata/msprobe/current/cnn_mix_statistics_all step{0,1}/rank0
           (43 / 59 entries, 39 / 53 KB dump.json);
  convert: captures-R/step{0,1}/rank{0..R-1}/, copies of testdata/captures/tiny_mix (trace.jsonl
           + its .pt/.npy/raw tensor files).
Each round runs every (command, R, jobs) combination once, interleaved (order reversed on odd
rounds), whole-process under /usr/bin/time -v:
  msdump verify  dumps-R    --jobs J --quiet --report json           (report -> /dev/null)
  msdump convert captures-R -o OUT --force --jobs J --quiet
Items/s = 2R / median seconds. Ratios: jobs 2 vs jobs 1 (speedup), and t(2R)/t(R), t(4R)/t(R)
(2.0 and 4.0 = linear growth).

Usage: scripts/bench_batch.py [--runs 7] [--ranks 64,128,256] [--dir $MSDUMP_BENCH_DIR/batch] [--no-convert]
"""

import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

SAMPLE = os.path.join(bc.REPO, "testdata", "msprobe", "current", "cnn_mix_statistics_all")
CAPTURE = os.path.join(bc.REPO, "testdata", "captures", "tiny_mix")


def make_dump_tree(root, ranks):
    if os.path.exists(os.path.join(root, ".complete")):
        return
    bc.drop_dir(root)
    for step in (0, 1):
        src = os.path.join(SAMPLE, f"step{step}", "rank0")
        for r in range(ranks):
            d = os.path.join(root, f"step{step}", f"rank{r}")
            os.makedirs(d)
            for f in ("dump.json", "stack.json", "construct.json"):
                shutil.copyfile(os.path.join(src, f), os.path.join(d, f))
    open(os.path.join(root, ".complete"), "w").close()


def make_capture_tree(root, ranks):
    if os.path.exists(os.path.join(root, ".complete")):
        return
    bc.drop_dir(root)
    for step in (0, 1):
        for r in range(ranks):
            shutil.copytree(CAPTURE, os.path.join(root, f"step{step}", f"rank{r}"))
    open(os.path.join(root, ".complete"), "w").close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--ranks", default="64,128,256")
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--dir", default=bc.bench_dir("batch"))
    ap.add_argument("--msdump", default=bc.default_msdump())
    ap.add_argument("--no-convert", action="store_true")
    args = ap.parse_args()
    bc.require_tools(args.msdump)
    ranks = [int(x) for x in args.ranks.split(",")]
    jobs = [int(x) for x in args.jobs.split(",")]
    os.makedirs(args.dir, exist_ok=True)
    kinds = ["verify"] + ([] if args.no_convert else ["convert"])
    contenders = []
    for kind in kinds:
        for R in ranks:
            if kind == "verify":
                tree = os.path.join(args.dir, f"dumps-{R}")
                make_dump_tree(tree, R)
            else:
                tree = os.path.join(args.dir, f"captures-{R}")
                make_capture_tree(tree, R)
            for J in jobs:
                if kind == "verify":
                    cmd = [args.msdump, "verify", tree, "--jobs", str(J), "--quiet", "--report", "json"]
                else:
                    cmd = [args.msdump, "convert", tree, "-o", os.path.join(args.dir, f"out-{R}-j{J}"),
                           "--force", "--jobs", str(J), "--quiet"]

                def fn(cmd=cmd):
                    sec, rss, _ = bc.timed(cmd)
                    return {"sec": sec, "rss": rss}
                contenders.append(((kind, R, J), " ".join(cmd), fn))

    bc.print_machine(args.msdump)
    for _, cmd, _ in contenders:
        print("  " + cmd)
    sys.stdout.flush()
    res = bc.interleave(args.runs, [(label, fn) for label, _, fn in contenders], log=False)
    print(f"\n{args.runs} interleaved rounds, load average at end: {bc.loadavg()}")
    rows = []
    for kind in kinds:
        for R in ranks:
            for J in jobs:
                s = bc.med(res, (kind, R, J), "sec")
                base = bc.med(res, (kind, ranks[0], J), "sec")
                j1 = bc.med(res, (kind, R, jobs[0]), "sec")
                rows.append([kind, f"{R} x 2", 2 * R, J, f"{s:.3f}",
                             f"{min(m['sec'] for m in res[(kind, R, J)]):.3f}",
                             f"{2 * R / s:.0f}", f"{j1 / s:.2f}x", f"{s / base:.2f}x ({R // ranks[0]}x items)",
                             bc.fmt_bytes(bc.med(res, (kind, R, J), "rss"))])
    bc.print_table(["command", "tree", "items", "jobs", "median s", "min s", "items/s",
                    f"speedup vs jobs {jobs[0]}", f"time vs {ranks[0]} ranks", "peak RSS"], rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())

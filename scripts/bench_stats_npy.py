#!/usr/bin/env python3
"""Whole-process `msdump stats FILE` vs NumPy on a 512 MiB float32 .npy (np.save of randn).

The baseline is a separate python3 process that np.load's the same file and computes max, min,
mean and linalg.norm (interpreter start and `import numpy` included, as msdump's process start
is). Both run interleaved, page cache warm (one warm-up round), N rounds; medians and the
ratio of medians are printed. Target: msdump >= 5x faster.

Usage: scripts/bench_stats_npy.py [--runs 7] [--dir $MSDUMP_BENCH_DIR/stats] [--msdump build/msdump]
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

NUMPY_SCRIPT = """\
import sys
import numpy as np
a = np.load(sys.argv[1])
print(a.dtype, a.shape, float(a.max()), float(a.min()), float(a.mean()), float(np.linalg.norm(a)))
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--dir", default=bc.bench_dir("stats"))
    ap.add_argument("--msdump", default=bc.default_msdump())
    ap.add_argument("--mib", type=int, default=512, help="file size in MiB (default 512)")
    ap.add_argument("--threads", type=int, default=0, help="msdump stats --threads (0: msdump's default)")
    args = ap.parse_args()
    bc.require_tools(args.msdump)
    os.makedirs(args.dir, exist_ok=True)
    npy = os.path.join(args.dir, f"randn_f32_{args.mib}MiB.npy")
    script = os.path.join(args.dir, "numpy_stats.py")
    with open(script, "w") as f:
        f.write(NUMPY_SCRIPT)
    n = args.mib * 2**20 // 4
    if not os.path.exists(npy) or os.path.getsize(npy) < n * 4:
        print(f"generating {npy} ({n} float32 randn)", flush=True)
        subprocess.run([bc.PYTHON, "-c",
                        "import sys, numpy as np; "
                        "np.save(sys.argv[1], np.random.default_rng(0).standard_normal(int(sys.argv[2]), dtype=np.float32))",
                        npy, str(n)], check=True)
    size = os.path.getsize(npy)

    bc.print_machine(args.msdump)
    md_cmd = [args.msdump, "stats", npy] + (["--threads", str(args.threads)] if args.threads else [])
    py_cmd = [bc.PYTHON, script, npy]
    print("msdump :", " ".join(md_cmd))
    print(subprocess.run(md_cmd, capture_output=True, text=True).stdout.strip())
    print("numpy  :", " ".join(py_cmd))
    print(subprocess.run(py_cmd, capture_output=True, text=True).stdout.strip(), flush=True)

    def run(cmd):
        def fn():
            sec, rss, _ = bc.timed(cmd)
            return {"sec": sec, "rss": rss}
        return fn

    res = bc.interleave(args.runs, [("msdump", run(md_cmd)), ("numpy", run(py_cmd))])
    md = bc.med(res, "msdump", "sec")
    py = bc.med(res, "numpy", "sec")
    print(f"\n{args.runs} interleaved rounds, {bc.fmt_bytes(size)} file, load average at end: {bc.loadavg()}")
    bc.print_table(
        ["contender", "median s", "min s", "max s", "GB/s (median)", "peak RSS (median)"],
        [[label, f"{bc.med(res, label, 'sec'):.3f}", f"{min(m['sec'] for m in res[label]):.3f}",
          f"{max(m['sec'] for m in res[label]):.3f}", f"{size / bc.med(res, label, 'sec') / 1e9:.2f}",
          bc.fmt_bytes(bc.med(res, label, 'rss'))] for label in ("msdump", "numpy")])
    ratio = py / md
    print(f"\nspeedup msdump vs numpy (ratio of medians): {ratio:.1f}x  (target >= 5x: "
          f"{'met' if ratio >= 5 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

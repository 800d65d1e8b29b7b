#!/usr/bin/env python3
"""Whole-process `msdump anomalies` vs `msdump verify` on the verify benchmark's dump.json, in the
same interleaved rounds: anomalies must keep at least verify's throughput (both read the file
once on two threads; verify parses every entry and checks its schema and semantics, anomalies
tells the entries with nothing to report from their text and parses the others).

The file is the one scripts/bench_verify.py uses (scripts/bench_gen_dump.py: real msprobe
entries replicated under fresh names), generated once into --dir and reused. Each round runs

  msdump verify FILE --no-tensors --quiet --report json
  msdump anomalies FILE --no-tensors --quiet --report json

under /usr/bin/time -v (reports to /dev/null); medians of wall time, MB/s and peak RSS, and the
ratio of the medians are printed.

Usage: scripts/bench_anomalies.py [--runs 5] [--mb 1100] [--profile current|legacy]
                                 [--dir $MSDUMP_BENCH_DIR/verify] [--msdump PATH]
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mb", type=float, default=1100, help="dump.json size in MB (default 1100, as bench_verify.py)")
    ap.add_argument("--profile", choices=["current", "legacy"], default="current")
    ap.add_argument("--dir", default=bc.bench_dir("verify"))
    ap.add_argument("--msdump", default=bc.default_msdump())
    args = ap.parse_args()
    bc.require_tools(args.msdump)
    d = os.path.join(args.dir, f"{args.profile}-{int(args.mb)}MB")
    os.makedirs(d, exist_ok=True)
    dump = os.path.join(d, "dump.json")
    if not os.path.exists(dump):
        subprocess.run([bc.PYTHON, os.path.join(bc.REPO, "scripts", "bench_gen_dump.py"), dump,
                        "--mb", str(args.mb), "--profile", args.profile], check=True)
    size = os.path.getsize(dump)

    bc.print_machine(args.msdump)
    verify = [args.msdump, "verify", dump, "--no-tensors", "--quiet", "--report", "json"]
    anomalies = [args.msdump, "anomalies", dump, "--no-tensors", "--quiet", "--report", "json"]
    print("verify    :", " ".join(verify), "> /dev/null")
    print("anomalies :", " ".join(anomalies), "> /dev/null")
    out = subprocess.run([args.msdump, "anomalies", dump, "--no-tensors", "--quiet"], capture_output=True, text=True)
    print(f"msdump anomalies (text report, exit {out.returncode}): {out.stdout.strip()[-300:]}", flush=True)

    def run(cmd):
        def fn():
            sec, rss, _ = bc.timed(cmd, check_rc=(0, 1))
            return {"sec": sec, "rss": rss}
        return fn

    # The text run above read the whole file: the page cache is warm, no warm-up round.
    res = bc.interleave(args.runs, [("msdump verify", run(verify)), ("msdump anomalies", run(anomalies))], warmup=False)
    print(f"\n{args.runs} interleaved rounds, {size / 1e6:.0f} MB dump.json ({args.profile} profile), "
          f"load average at end: {bc.loadavg()}")
    rows = []
    for label in res:
        s = bc.med(res, label, "sec")
        rss = bc.med(res, label, "rss")
        rows.append([label, f"{s:.2f}", f"{min(m['sec'] for m in res[label]):.2f}",
                     f"{max(m['sec'] for m in res[label]):.2f}", f"{size / s / 1e6:.0f}", bc.fmt_bytes(rss)])
    bc.print_table(["contender", "median s", "min s", "max s", "MB/s", "peak RSS"], rows)
    ratio = bc.med(res, "msdump verify", "sec") / bc.med(res, "msdump anomalies", "sec")
    print(f"\nanomalies throughput / verify throughput (ratio of medians): {ratio:.2f}x  "
          f"(target >= 1: {'met' if ratio >= 1 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Whole-process `msdump verify` (schema + semantics, no tensor files) of a >= 1 GB dump.json vs
Python json.load + a trivial recursive walk of the same file.

The file is made by scripts/bench_gen_dump.py (real msprobe entries replicated under fresh names,
written as json.dump(indent=1)); it is generated once into --dir and reused. Each round runs

  msdump verify FILE --no-tensors --quiet --report json        (report to stdout -> /dev/null)
  python3 -c 'json.load + walk' FILE

under /usr/bin/time -v, interleaved; medians of wall time, MB/s (10^6 bytes of file per second)
and peak RSS are printed. Targets: msdump >= 20x Python's MB/s, peak RSS <= 1.5x file size.

The report goes to stdout rather than `-o /dev/null`: -o writes a temporary file and renames it
over the destination, which replaces /dev/null itself with a regular file when run as root.

Usage: scripts/bench_verify.py [--runs 5] [--mb 1100] [--profile current|legacy] [--dir $MSDUMP_BENCH_DIR/verify]
                              [--msdump PATH] [--also LABEL=PATH ...]
"""

import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

WALK_SCRIPT = """\
import json, sys
def walk(v):
    if isinstance(v, dict):
        return 1 + sum(walk(x) for x in v.values())
    if isinstance(v, list):
        return 1 + sum(walk(x) for x in v)
    return 1
with open(sys.argv[1]) as f:
    doc = json.load(f)
print(len(doc["data"]), "entries", walk(doc), "values")
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--mb", type=float, default=1100, help="dump.json size in MB (default 1100 > 1 GiB)")
    ap.add_argument("--profile", choices=["current", "legacy"], default="current")
    ap.add_argument("--dir", default=bc.bench_dir("verify"))
    ap.add_argument("--msdump", default=bc.default_msdump())
    ap.add_argument("--also", action="append", default=[], metavar="LABEL=PATH",
                    help="another msdump binary to time in the same rounds (e.g. plain=build-plain/msdump)")
    args = ap.parse_args()
    bc.require_tools(args.msdump)
    others = []
    for spec in args.also:
        label, sep, path = spec.partition("=")
        if not sep or not label or not path:
            ap.error(f"--also takes LABEL=PATH, not {spec!r}")
        bc.require_tools(path)
        others.append((f"msdump verify ({label})", path))
    d = os.path.join(args.dir, f"{args.profile}-{int(args.mb)}MB")
    os.makedirs(d, exist_ok=True)
    dump = os.path.join(d, "dump.json")
    script = os.path.join(args.dir, "json_load_walk.py")
    with open(script, "w") as f:
        f.write(WALK_SCRIPT)
    if not os.path.exists(dump):
        subprocess.run([bc.PYTHON, os.path.join(bc.REPO, "scripts", "bench_gen_dump.py"), dump,
                        "--mb", str(args.mb), "--profile", args.profile], check=True)
    size = os.path.getsize(dump)

    bc.print_machine(args.msdump)
    md_cmd = [args.msdump, "verify", dump, "--no-tensors", "--quiet", "--report", "json"]
    py_cmd = [bc.PYTHON, script, dump]
    print("msdump :", " ".join(md_cmd), "> /dev/null")
    print("python :", " ".join(py_cmd))
    out = subprocess.run([args.msdump, "verify", dump, "--no-tensors", "--quiet"], capture_output=True, text=True)
    print(f"msdump verify (text report, exit {out.returncode}): {out.stdout.strip()[-300:]}", flush=True)

    def run(cmd):
        def fn():
            sec, rss, _ = bc.timed(cmd)
            return {"sec": sec, "rss": rss}
        return fn

    # The text-report run above read the whole file, so the page cache is warm: no warm-up round
    # (one round of the 1 GB file takes minutes).
    contenders = [("msdump verify", run(md_cmd))]
    for label, path in others:
        print(f"{label}: {path}")
        contenders.append((label, run([path] + md_cmd[1:])))
    contenders.append(("python json.load+walk", run(py_cmd)))
    res = bc.interleave(args.runs, contenders, warmup=False)
    print(f"\n{args.runs} interleaved rounds, {size / 1e6:.0f} MB dump.json ({args.profile} profile), "
          f"load average at end: {bc.loadavg()}")
    rows = []
    for label in res:
        s = bc.med(res, label, "sec")
        rss = bc.med(res, label, "rss")
        rows.append([label, f"{s:.2f}", f"{min(m['sec'] for m in res[label]):.2f}",
                     f"{max(m['sec'] for m in res[label]):.2f}", f"{size / s / 1e6:.0f}",
                     bc.fmt_bytes(rss), f"{rss / size:.2f}x"])
    bc.print_table(["contender", "median s", "min s", "max s", "MB/s", "peak RSS", "RSS / file"], rows)
    md = bc.med(res, "msdump verify", "sec")
    py = bc.med(res, "python json.load+walk", "sec")
    rss = bc.med(res, "msdump verify", "rss")
    print(f"\nspeedup (ratio of medians): {py / md:.1f}x  (target >= 20x: {'met' if py / md >= 20 else 'MISSED'})")
    for label, _ in others:
        other = bc.med(res, label, "sec")
        print(f"{label}: {py / other:.1f}x Python's time")
    print(f"msdump peak RSS / file size: {rss / size:.3f}  (target <= 1.5: {'met' if rss / size <= 1.5 else 'MISSED'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

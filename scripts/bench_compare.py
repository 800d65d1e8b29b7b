#!/usr/bin/env python3
"""Whole-process `msdump compare` against a NumPy baseline (scripts/compare_numpy_baseline.py) on
replicated real pairs, in summary (statistics) and tensor mode.

Pairs (generated once into --dir, reused while the generator's parameters are unchanged): a real
msprobe pair, testdata/compare/cnn_2rank/{L1_statistics,L1_tensor}/{npu,bench}/step0/rank0,
repeated K times per side with consistent call counters, as msprobe's own measurement was made:
copy k of entry <api>.<n>.<dir> becomes <api>.<k * stride(api) + n>.<dir>, stride(api) = 1 + the
largest counter of that API in the template (module style <path>.<dir>.<n> alike), so forward and
backward of one call keep one counter and every API's counters run 0, 1, 2, ... as in a longer
run. stack.json is replicated with the renamed entries; in tensor mode every .pt file is
hard-linked (copied across file systems) under its renamed data_name. Files are written with
json.dump(indent=1), as msprobe writes them.

Sizes: statistics ~25 MB and ~108 MB per dump.json; tensor 10,000 and 60,000 rows. Each round
runs, interleaved (order alternating between rounds):

  msdump compare NPU BENCH -o OUT -q                        (default jobs/threads)
  msdump compare NPU BENCH -o OUT -q --jobs 1 --threads 1   (one thread, for information)
  python3 scripts/compare_numpy_baseline.py NPU BENCH -o OUT

and the medians of wall time and peak RSS (GNU time's, /usr/bin/time -v; without it each run's
own rusage from os.wait4) are printed with the ratio baseline / msdump, rows per second, msdump's
peak RSS per row and its growth per added row between the two sizes of a mode, and msprobe's own
figures (measured elsewhere on a 2-CPU VM of this class, pandas 1.5.3; not re-run here, msprobe
is not needed) with msdump's ratio against them, for information. The output directory is
emptied before each run (outside the timing).

--msprobe DIR (msprobe's python/ directory, a checkout of github.com/Ascend/msprobe; its compare
needs Debian's python3-pandas, -openpyxl, -tqdm and -yaml, and its current HEAD also imports
python3-psutil and python3-torch) adds msprobe's own compare to every
round (not to the warm-up), run through the driver in testdata/gen/gen_compare_pairs.py
(stand-ins for the modules msprobe imports but does not use), and reports its median time and
peak RSS from this run instead of the figures measured elsewhere; after the rounds it checks that
msdump's table equals msprobe's under the golden tests' tolerance
(tests/golden/run_compare_goldens.py), so a speed-up that changes a cell is caught. msprobe takes
about 35 s (25 MB) and 175 s (108 MB) a round: lower --big-rounds to bound the run.

Rounds: --rounds (default 5) after one warm-up round; --big-rounds (default 5) for the 108 MB
and 60,000-row sizes (one baseline run of the 108 MB pair takes about 30 s).

Usage: scripts/bench_compare.py [--quick] [--rounds 5] [--big-rounds 5] [--only stats|tensor]
                               [--dir $MSDUMP_BENCH_DIR/compare] [--msdump PATH] [--python PATH]
                               [--msprobe DIR]
  --quick: small pairs (statistics ~1 MB, tensor ~1,000 rows), 1 round, no warm-up (the ctest
           compare_bench_runs: it checks that the benchmark runs, not its numbers).
"""

import argparse
import errno
import json
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_common as bc  # noqa: E402

TEMPLATES = os.path.join(bc.REPO, "testdata", "compare", "cnn_2rank")
MSPROBE_DRIVER = os.path.join(bc.REPO, "testdata", "gen", "gen_compare_pairs.py")
sys.path.insert(0, os.path.join(bc.REPO, "tests", "golden"))
BASELINE = os.path.join(bc.REPO, "scripts", "compare_numpy_baseline.py")
GENERATOR_VERSION = 1
API_RE = re.compile(r"^(.*)\.(\d+)\.(forward|backward)$")
MODULE_RE = re.compile(r"^(.*)\.(forward|backward|parameters_grad)\.(\d+)$")

# msprobe's compare on this class of VM (2 CPUs), measured elsewhere: (seconds, peak RSS bytes or
# None). Statistics sizes are per dump.json; the 108 MB run had stack.json present.
MSPROBE = {
    "stats-25MB": (30.0, None),
    "stats-108MB": (211.0, 2.4e9),
    "tensor-10000": (19.7, 345e6),
    "tensor-60000": (188.0, 640e6),
}


def split_name(name):
    """(api key, counter, rebuild(counter) -> name) of a dump.json entry name."""
    m = MODULE_RE.match(name)
    if m and (name.startswith("Module.") or name.startswith("Cell.") or not API_RE.match(name)):
        head, kind = m.group(1), m.group(2)
        return ("m", head), int(m.group(3)), lambda n: f"{head}.{kind}.{n}"
    m = API_RE.match(name)
    if m:
        head, kind = m.group(1), m.group(3)
        return ("a", head), int(m.group(2)), lambda n: f"{head}.{n}.{kind}"
    raise SystemExit(f"cannot renumber entry {name!r}")


def strides(docs):
    out = {}
    for doc in docs:
        for name in doc["data"]:
            key, n, _ = split_name(name)
            out[key] = max(out.get(key, 0), n + 1)
    return out


def renamer(stride):
    def rename(name, k):
        key, n, rebuild = split_name(name)
        return rebuild(k * stride[key] + n)
    return rename


def rename_data_names(value, old, new, links):
    """Copy of an entry value with every data_name <old>.<rest> renamed to <new>.<rest>."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "data_name" and isinstance(v, str) and v.startswith(old + "."):
                out[k] = new + v[len(old):]
                links.append((v, out[k]))
            else:
                out[k] = rename_data_names(v, old, new, links)
        return out
    if isinstance(value, list):
        return [rename_data_names(v, old, new, links) for v in value]
    return value


def link(src, dst):
    try:
        os.link(src, dst)
    except OSError as e:
        if e.errno != errno.EXDEV:
            raise
        shutil.copyfile(src, dst)


def write_side(src_dir, dst_dir, doc, rename, copies):
    os.makedirs(dst_dir, exist_ok=True)
    data, links = {}, []
    for k in range(copies):
        for name, entry in doc["data"].items():
            new = rename(name, k)
            data[new] = rename_data_names(entry, name, new, links) if doc.get("task") == "tensor" else entry
    out = {key: value for key, value in doc.items() if key != "data"}
    if out.get("dump_data_dir"):
        out["dump_data_dir"] = os.path.join(dst_dir, "dump_tensor_data")
    out["data"] = data
    with open(os.path.join(dst_dir, "dump.json"), "w") as f:
        json.dump(out, f, indent=1)
    with open(os.path.join(src_dir, "stack.json")) as f:
        stack = json.load(f)
    new_stack = {}
    for k in range(copies):
        for key, (names, frames) in stack.items():
            new_stack[str(k * len(stack) + int(key))] = [[rename(n, k) for n in names], frames]
    with open(os.path.join(dst_dir, "stack.json"), "w") as f:
        json.dump(new_stack, f, indent=1)
    shutil.copyfile(os.path.join(src_dir, "construct.json"), os.path.join(dst_dir, "construct.json"))
    if links:
        tensors = os.path.join(dst_dir, "dump_tensor_data")
        os.makedirs(tensors, exist_ok=True)
        for old, new in links:
            link(os.path.join(src_dir, "dump_tensor_data", old), os.path.join(tensors, new))


def make_pair(run, copies, dst):
    """dst/{npu,bench}/step0/rank0 with `copies` copies of the template pair `run`; reused when the
    stamp matches."""
    stamp = {"version": GENERATOR_VERSION, "run": run, "copies": copies}
    stamp_file = os.path.join(dst, "pair.json")
    if os.path.exists(stamp_file):
        with open(stamp_file) as f:
            if json.load(f) == stamp:
                return
    subprocess.run([sys.executable, os.path.abspath(__file__), "--generate", run, str(copies), dst], check=True)
    with open(stamp_file, "w") as f:
        json.dump(stamp, f)


def generate(run, copies, dst):
    bc.drop_dir(dst)
    srcs = {side: os.path.join(TEMPLATES, run, side, "step0", "rank0") for side in ("npu", "bench")}
    docs = {}
    for side, src in srcs.items():
        with open(os.path.join(src, "dump.json")) as f:
            docs[side] = json.load(f)
    rename = renamer(strides(docs.values()))
    print(f"generating {dst} ({copies} copies of {run})", flush=True)
    for side, src in srcs.items():
        write_side(src, os.path.join(dst, side, "step0", "rank0"), docs[side], rename, copies)


def copies_for_mb(mb):
    """Copies of the statistics template whose npu dump.json is about `mb` MB."""
    src = os.path.join(TEMPLATES, "L1_statistics", "npu", "step0", "rank0", "dump.json")
    with open(src) as f:
        doc = json.load(f)
    rename = renamer(strides([doc]))
    copies = 1
    for _ in range(2):  # the second estimate sizes copies with the counters of the target
        sample = range(max(0, copies - 10), copies + 10)
        data = {rename(n, k): e for k in sample for n, e in doc["data"].items()}
        copies = max(1, round(mb * 1e6 / (len(json.dumps({"data": data}, indent=1)) / len(sample))))
    return copies


def copies_for_rows(args, rows):
    return max(1, round(rows / compared_rows(args, os.path.join(TEMPLATES, "L1_tensor"))))


def compared_rows(args, pair):
    """msdump compare's row count of pair/{npu,bench}/step0/rank0, and its exit code."""
    out = subprocess.run([args.msdump, "compare", os.path.join(pair, "npu", "step0", "rank0"),
                          os.path.join(pair, "bench", "step0", "rank0"), "--report", "json",
                          "-o", out_dir(args, "report")], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"msdump compare failed on {pair} (exit {out.returncode}): {out.stderr[-2000:]}")
    return json.loads(out.stdout)["summary"]["rows"]


def out_dir(args, label):
    return os.path.join(args.dir, "out", label)


def timed(cmd, ok_codes=(0, 1)):
    """(wall seconds, peak RSS bytes) of one run of cmd (exit codes in ok_codes: for msdump 0 and 1,
    findings, are fine; msprobe exits 1 when it fails):
    from /usr/bin/time -v when installed, else the child's own rusage from os.wait4. The latter
    cannot read below this process's resident size when it forked (the kernel carries the
    pre-exec high-water mark over), so the pairs are generated in a separate process to keep that
    floor at a bare interpreter's ~10 MB."""
    if os.access(bc.GNU_TIME, os.X_OK):
        sec, rss, _ = bc.timed(cmd, check_rc=ok_codes)
        return sec, rss
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    proc.stderr.close()
    if proc.returncode not in ok_codes:
        sys.stderr.write(err.decode(errors="replace")[-4000:])
        sys.exit(f"command failed with exit code {proc.returncode}: {' '.join(cmd)}")
    return wall, usage.ru_maxrss * 1024


def contender(cmd, out, ok_codes=(0, 1)):
    def fn():
        bc.drop_dir(out)
        sec, rss = timed(cmd + ["-o", out], ok_codes)
        return {"sec": sec, "rss": rss}
    return fn


def measure(args, size, pair, rounds):
    npu = os.path.join(pair, "npu", "step0", "rank0")
    bench = os.path.join(pair, "bench", "step0", "rank0")
    md = [args.msdump, "compare", npu, bench, "-q"]
    md1 = md + ["--jobs", "1", "--threads", "1"]
    py = [args.python, BASELINE, npu, bench]
    rows = compared_rows(args, pair)
    mb = os.path.getsize(os.path.join(npu, "dump.json")) / 1e6
    print(f"\n== {size}: {rows} rows, npu dump.json {mb:.1f} MB", flush=True)
    print("msdump  :", " ".join(md + ["-o", "OUT"]))
    print("baseline:", " ".join(py + ["-o", "OUT"]), flush=True)
    contenders = [("msdump", contender(md, out_dir(args, "msdump"))),
                  ("msdump 1 thread", contender(md1, out_dir(args, "msdump1"))),
                  ("numpy baseline", contender(py, out_dir(args, "baseline")))]
    if not args.quick:  # (the warm-up round, without msprobe)
        for _, fn in contenders:
            fn()
    if args.msprobe:
        mp = msprobe_cmd(args, npu, bench)
        print("msprobe :", " ".join(mp + ["-o", "OUT"]), flush=True)
        contenders.append(("msprobe", contender(mp, out_dir(args, "msprobe"), ok_codes=(0,))))
    res = bc.interleave(rounds, contenders, warmup=False)
    result = {"size": size, "rows": rows, "mb": mb, "rounds": rounds, "res": res}
    if args.msprobe:
        check_against_msprobe(args, npu, bench)
        result["msprobe"] = {"sec": bc.med(res, "msprobe", "sec"), "rss": bc.med(res, "msprobe", "rss")}
    bc.drop_dir(os.path.join(args.dir, "out"))
    return result


def only_csv(directory):
    found = sorted(f for f in os.listdir(directory) if f.endswith(".csv"))
    if len(found) != 1:
        sys.exit(f"expected one compare_result CSV in {directory}, found {found}")
    return os.path.join(directory, found[0])


def msprobe_cmd(args, npu, bench):
    return ["/usr/bin/python3", MSPROBE_DRIVER, "--msprobe", os.path.abspath(args.msprobe), "msprobe", "compare",
            "-tp", os.path.join(npu, "dump.json"), "-gp", os.path.join(bench, "dump.json")]


def check_against_msprobe(args, npu, bench):
    """msdump's table of the pair against msprobe's from the last round."""
    import run_compare_goldens  # tests/golden: the tolerance the fidelity tests state
    mine = out_dir(args, "msdump-table")
    bc.drop_dir(mine)
    subprocess.run([args.msdump, "compare", npu, bench, "-q", "-o", mine], check=False)
    deviations = run_compare_goldens.compare_tables(only_csv(mine), only_csv(out_dir(args, "msprobe")), limit=5)
    if deviations:
        sys.exit("msdump's table differs from msprobe's:\n  " + "\n  ".join(map(str, deviations)))
    print("  msdump's table equals msprobe's (golden tolerance)", flush=True)


def summary(results, growth=True):
    print(f"\nload average at end: {bc.loadavg()}")
    rows = []
    for r in results:
        res = r["res"]
        md, md1, py = (bc.med(res, k, "sec") for k in ("msdump", "msdump 1 thread", "numpy baseline"))
        rss = bc.med(res, "msdump", "rss")
        ref = (r["msprobe"]["sec"], r["msprobe"]["rss"]) if "msprobe" in r else MSPROBE.get(r["size"])
        rows.append([r["size"], r["rows"], f"{r['mb']:.1f}", r["rounds"], f"{md:.3f}", f"{md1:.3f}", f"{py:.2f}",
                     f"{py / md:.1f}x", f"{r['rows'] / md:,.0f}", bc.fmt_bytes(rss), f"{rss / r['rows']:.0f}",
                     bc.fmt_bytes(bc.med(res, "numpy baseline", "rss")),
                     f"{ref[0]:.1f}" if ref else "-", f"{ref[0] / md:.0f}x" if ref else "-",
                     bc.fmt_bytes(ref[1]) if ref and ref[1] else "-"])
    bc.print_table(["size", "rows", "npu MB", "rounds", "msdump s", "msdump 1-thr s", "baseline s",
                    "baseline/msdump", "msdump rows/s", "msdump RSS", "RSS B/row", "baseline RSS",
                    "msprobe s*", "msprobe/msdump*", "msprobe RSS*"], rows)
    same_run = all("msprobe" in r for r in results)
    print(("* msprobe's compare run here (--msprobe), in the same rounds; its table equals msdump's.\n" if same_run else
           "* msprobe's compare measured elsewhere on this VM class (2 CPUs), not re-run here (--msprobe runs it);"
           " ratios for information.\n") +
          "  Goals: >= 100x msprobe in summary mode, >= 20x in tensor mode, memory flat in the rows.")
    if growth and len(results) > 1:
        a, b = results[0], results[-1]
        ra, rb = bc.med(a["res"], "msdump", "rss"), bc.med(b["res"], "msdump", "rss")
        per_row = (rb - ra) / max(1, b["rows"] - a["rows"])
        print(f"msdump peak RSS growth {a['size']} -> {b['size']}: {per_row:.0f} B per added row")


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--generate":  # make_pair's child process
        generate(sys.argv[2], int(sys.argv[3]), sys.argv[4])
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--big-rounds", type=int, default=5)
    ap.add_argument("--only", choices=["stats", "tensor"])
    ap.add_argument("--dir", default=bc.bench_dir("compare"))
    ap.add_argument("--msdump", default=bc.default_msdump())
    ap.add_argument("--msprobe", help="msprobe's python/ directory: run its compare here too")
    ap.add_argument("--python", default=bc.PYTHON,
                    help="interpreter of the baseline (NumPy; torch for tensor mode)")
    args = ap.parse_args()
    if not os.access(args.msdump, os.X_OK):
        sys.exit(f"{args.msdump} is missing: scripts/build.sh")
    if args.quick:
        args.dir = os.path.join(args.dir, "quick")
        stats_sizes, tensor_sizes = [("stats-1MB", 1, 1)], [("tensor-1000", 1000, 1)]
    else:
        stats_sizes = [("stats-25MB", 25, args.rounds), ("stats-108MB", 108, args.big_rounds)]
        tensor_sizes = [("tensor-10000", 10000, args.rounds), ("tensor-60000", 60000, args.big_rounds)]
    bc.print_machine(args.msdump)
    results = []
    groups = []
    if args.only != "tensor":
        groups.append([(s, "L1_statistics", copies_for_mb(mb), n) for s, mb, n in stats_sizes])
    if args.only != "stats":
        groups.append([(s, "L1_tensor", copies_for_rows(args, rows), n) for s, rows, n in tensor_sizes])
    for group in groups:
        done = []
        for size, run, copies, rounds in group:
            pair = os.path.join(args.dir, size)
            make_pair(run, copies, pair)
            done.append(measure(args, size, pair, rounds))
        summary(done)
        results += done
    if len(groups) > 1:
        print("\nall sizes:")
        summary(results, growth=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())

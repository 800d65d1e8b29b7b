"""Shared helpers of the whole-process benchmarks (scripts/bench_*.py).

Every benchmark runs msdump and its baseline interleaved in the same run (round r times each
contender once; the order alternates between rounds), quotes medians over the rounds and takes
ratios of medians. Peak RSS comes from GNU time (`/usr/bin/time -v`, Debian package `time`).
"""

import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GNU_TIME = "/usr/bin/time"
# The baselines need NumPy; Debian's python3-numpy lives with /usr/bin/python3.
PYTHON = "/usr/bin/python3"


def bench_dir(name):
    """Where a benchmark keeps its generated data between runs: $MSDUMP_BENCH_DIR/NAME, by
    default under the system's temporary directory (msdump-bench/NAME)."""
    root = os.environ.get("MSDUMP_BENCH_DIR") or os.path.join(tempfile.gettempdir(), "msdump-bench")
    return os.path.join(root, name)


def default_msdump():
    return os.path.join(REPO, "build", "msdump")


def require_tools(msdump):
    if not os.access(GNU_TIME, os.X_OK):
        sys.exit(f"{GNU_TIME} is missing: apt-get install time")
    if not os.access(msdump, os.X_OK):
        sys.exit(f"{msdump} is missing: scripts/build.sh")


def machine_info():
    model = "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            text = f.read()
        m = re.search(r"^flags\s*:(.*)$", text, re.M)
        if m:
            fl = m.group(1).split()
            flags = "avx512f" if "avx512f" in fl else ("avx2" if "avx2" in fl else "")
    except OSError:
        pass
    mem = "?"
    try:
        with open("/proc/meminfo") as f:
            mem = f"{int(f.readline().split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    return {
        "nproc": os.cpu_count(),
        "cpu": model + (f" ({flags})" if flags else ""),
        "mem": mem,
        "kernel": platform.release(),
    }


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def print_machine(msdump):
    info = machine_info()
    ver = subprocess.run([msdump, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"machine: nproc={info['nproc']}, cpu={info['cpu']}, mem={info['mem']}, "
          f"kernel {info['kernel']}; load average at start: {loadavg()}")
    print(f"binary: {msdump} ({ver}, built {time.strftime('%Y-%m-%d %H:%M', time.localtime(os.path.getmtime(msdump)))}); "
          f"copy build/msdump elsewhere and pass --msdump when others rebuild during a run")
    sys.stdout.flush()


def timed(cmd, stdout=subprocess.DEVNULL, check_rc=(0,), env=None):
    """Runs cmd under GNU time; returns (wall seconds, peak RSS bytes, returncode)."""
    fd, tfile = tempfile.mkstemp(prefix="bench-time-", suffix=".txt")
    os.close(fd)
    try:
        start = time.perf_counter()
        proc = subprocess.run([GNU_TIME, "-v", "-o", tfile] + list(cmd), stdout=stdout,
                              stderr=subprocess.PIPE, env=env)
        wall = time.perf_counter() - start
        with open(tfile) as f:
            report = f.read()
    finally:
        os.unlink(tfile)
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    rss = int(m.group(1)) * 1024 if m else 0
    if check_rc is not None and proc.returncode not in check_rc:
        sys.stderr.write(proc.stderr.decode(errors="replace")[-4000:])
        sys.exit(f"command failed with exit code {proc.returncode}: {' '.join(cmd)}")
    return wall, rss, proc.returncode


def median(values):
    return statistics.median(values)


def interleave(rounds, contenders, warmup=True, log=True):
    """contenders: list of (label, fn) where fn() returns a dict of measurements (must include
    'sec'). Runs one warm-up round (not recorded) then `rounds` rounds, alternating the order.
    Returns {label: [dict per round]}."""
    results = {label: [] for label, _ in contenders}
    if warmup:
        for label, fn in contenders:
            fn()
    for r in range(rounds):
        order = contenders if r % 2 == 0 else list(reversed(contenders))
        for label, fn in order:
            m = fn()
            results[label].append(m)
            if log:
                extras = " ".join(f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
                                  for k, v in m.items() if k != "sec")
                print(f"  round {r + 1}/{rounds} {label}: {m['sec']:.3f} s {extras}", flush=True)
    return results


def med(results, label, key):
    return median([m[key] for m in results[label]])


def fmt_bytes(n):
    if n >= 2**30:
        return f"{n / 2**30:.2f} GiB"
    return f"{n / 2**20:.0f} MiB"


def print_table(headers, rows):
    widths = [max(len(str(h)), *(len(str(r[i])) for r in rows)) for i, h in enumerate(headers)]
    line = "  ".join(str(h).ljust(w) for h, w in zip(headers, widths))
    print(line)
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    sys.stdout.flush()


def drop_dir(path):
    shutil.rmtree(path, ignore_errors=True)

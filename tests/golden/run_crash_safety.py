#!/usr/bin/env python3
"""Crash safety of `msdump convert`: SIGKILL at random moments must never leave a
partially written output file, and a rerun with --resume must produce output identical to an
uninterrupted run.

Builds a capture tree (RANKS ranks, ENTRIES entries each, tensors in one raw blob per rank),
converts it once without interruption (the reference), then TRIALS times: starts the same
conversion, kills it with SIGKILL after a random delay within the reference's run time, checks
that every output file that exists (temporaries aside) is byte-identical to the reference's,
reruns with --resume and requires the whole output tree to equal the reference.
Usage: run_crash_safety.py MSDUMP [TRIALS]
"""
import filecmp
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

RANKS, ENTRIES = 6, 400


def make_capture(root):
    rnd = random.Random(7)
    for r in range(RANKS):
        d = os.path.join(root, "step0", f"rank{r}")
        os.makedirs(d)
        with open(os.path.join(d, "blob.bin"), "wb") as blob:
            blob.write(struct.pack("<4096f", *[rnd.uniform(-3, 3) for _ in range(4096)]))
        with open(os.path.join(d, "trace.jsonl"), "w") as t:
            t.write(json.dumps({"format": "msdump-trace", "version": 1, "framework": "pytorch", "step": 0,
                                "rank": r, "level": "L1", "task": "tensor"}) + "\n")
            for i in range(ENTRIES):
                def leaf(k):
                    return {"type": "torch.Tensor", "dtype": "torch.float32", "shape": [4, 8],
                            "requires_grad": False, "source": {"file": "blob.bin", "offset": 4 * ((i * 7 + k * 32) % 4000)}}
                name = f"Functional.linear.{i}.forward"
                t.write(json.dumps({"kind": "stack", "name": name, "frames": [f"File m.py, line {i % 9}, in f, \n y()"]}) + "\n")
                t.write(json.dumps({"kind": "data", "name": name, "input_args": [leaf(0), {"type": "int", "value": i}],
                                    "input_kwargs": {}}) + "\n")
                t.write(json.dumps({"kind": "data", "name": name, "output": [leaf(1)]}) + "\n")


def files_of(root):
    out = {}
    for dirpath, _, names in os.walk(root):
        for n in names:
            out[os.path.relpath(os.path.join(dirpath, n), root)] = os.path.join(dirpath, n)
    return out


def main():
    msdump = os.path.abspath(sys.argv[1])
    trials = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    rnd = random.Random(int(os.environ.get("MSDUMP_CRASH_SEED", "1")))
    failures = []
    with tempfile.TemporaryDirectory(prefix="msdump-crash-") as work:
        cap, ref, out = (os.path.join(work, x) for x in ("capture", "ref", "out"))
        make_capture(cap)
        cmd = [msdump, "convert", cap, "--dump-path", "/dumps/run", "--jobs", "2", "--quiet"]
        start = time.monotonic()
        subprocess.run(cmd + ["-o", ref], check=True)
        ref_seconds = time.monotonic() - start
        ref_files = files_of(ref)
        killed = 0
        for trial in range(trials):
            shutil.rmtree(out, ignore_errors=True)
            delay = rnd.uniform(0, ref_seconds * 1.1)
            p = subprocess.Popen(cmd + ["-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(delay)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                killed += 1
            p.wait()
            # 1. No output file is ever partial: whatever exists equals the reference.
            for rel, path in files_of(out).items() if os.path.isdir(out) else []:
                if ".msdump-tmp-" in rel:
                    continue
                if rel not in ref_files:
                    failures.append(f"trial {trial}: unexpected file {rel}")
                elif not filecmp.cmp(path, ref_files[rel], shallow=False):
                    failures.append(f"trial {trial}: {rel} differs from the reference (partially written?)")
            # 2. --resume completes it identically, leaving no temporaries.
            r = subprocess.run(cmd + ["-o", out, "--resume"], capture_output=True, text=True)
            if r.returncode != 0:
                failures.append(f"trial {trial}: --resume exited {r.returncode}: {r.stderr[:300]}")
                continue
            got = files_of(out)
            if sorted(got) != sorted(ref_files):
                failures.append(f"trial {trial}: after --resume the file set differs: "
                                f"missing {sorted(set(ref_files) - set(got))[:3]}, extra {sorted(set(got) - set(ref_files))[:3]}")
                continue
            for rel in ref_files:
                if not filecmp.cmp(got[rel], ref_files[rel], shallow=False):
                    failures.append(f"trial {trial}: after --resume {rel} differs")
        for f in failures[:20]:
            print("FAIL", f)
        print(f"crash safety: {trials} trials ({killed} killed mid-run, reference {ref_seconds:.2f} s, "
              f"{len(ref_files)} output files)")
        print(f"crash safety: {trials - len(set(f.split(':')[0] for f in failures))} passed, "
              f"{len(set(f.split(':')[0] for f in failures))} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

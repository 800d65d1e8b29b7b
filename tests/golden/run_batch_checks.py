#!/usr/bin/env python3
"""Batch behaviour of convert and verify over trees of steps and ranks, end to end through the CLI:

  * verify of a tree (2 steps x 4 ranks): one rank with a dropped entry is reported by the
    cross-rank check (kind rank, a warning, at the first diverging entry) and only that rank;
  * --shard K/3 reports merged with `msdump report merge` equal the unsharded report, byte for byte;
  * convert of a capture tree with one broken item: the others are converted, the exit code is 2,
    the broken item is named;
  * --inputs-from reads the work list from stdin.
Usage: run_batch_checks.py MSDUMP
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

SRC = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    msdump = os.path.abspath(sys.argv[1])
    passed = failed = 0

    def check(name, ok, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {name}: {detail}")

    with tempfile.TemporaryDirectory(prefix="msdump-batch-") as work:
        good = os.path.join(SRC, "testdata/good/msprobe/cnn_L0_tensor_all_step0/dump.json")
        tree = os.path.join(work, "tree")
        for step in range(2):
            for rank in range(4):
                d = os.path.join(tree, f"step{step}", f"rank{rank}")
                os.makedirs(d)
                shutil.copy(good, os.path.join(d, "dump.json"))
        # rank 2 of step 1 misses an entry
        bad = os.path.join(tree, "step1", "rank2", "dump.json")
        doc = json.load(open(bad))
        dropped = list(doc["data"])[3]
        del doc["data"][dropped]
        with open(bad, "w") as f:
            json.dump(doc, f, indent=1)

        def verify(*args):
            return subprocess.run([msdump, "verify", tree, "--no-tensors", "--quiet", *args], capture_output=True, text=True)

        whole = os.path.join(work, "whole.json")
        p = verify("--report", "json", "--batch-report", whole)
        check("verify tree exit (a rank warning only)", p.returncode == 0, p.stderr)
        report = json.loads(p.stdout)
        rank_findings = [(r["summary"]["file"], f) for r in report["reports"] for f in r["findings"] if f["kind"] == "rank"]
        check("one rank finding", len(rank_findings) == 1, rank_findings)
        if rank_findings:
            file, f = rank_findings[0]
            check("on the diverging rank", file == bad, file)
            check("at the first diverging entry", f["entry"] == list(doc["data"])[3] and f["expected"] == dropped, f)
            check("a warning", f["severity"] == "warning", f)
        for k in range(3):
            p = verify("--shard", f"{k}/3", "--batch-report", os.path.join(work, f"s{k}.json"))
            check(f"shard {k} ran", p.returncode in (0, 1), p.stderr)
        merged = os.path.join(work, "merged.json")
        p = subprocess.run([msdump, "report", "merge", *[os.path.join(work, f"s{k}.json") for k in range(3)], "-o", merged],
                           capture_output=True, text=True)
        check("merge exit (warnings only)", p.returncode == 0, p.stderr)
        check("merged shards == unsharded run", open(merged, "rb").read() == open(whole, "rb").read())

        # convert: one broken capture among good ones
        caps = os.path.join(work, "caps")
        for i in range(3):
            shutil.copytree(os.path.join(SRC, "testdata/captures/tiny_mix"), os.path.join(caps, "step0", f"rank{i}"))
        shutil.rmtree(os.path.join(caps, "step0", "rank1"))
        shutil.copytree(os.path.join(SRC, "testdata/bad/captures/malformed_line3"), os.path.join(caps, "step0", "rank1"))
        out = os.path.join(work, "out")
        p = subprocess.run([msdump, "convert", caps, "-o", out, "--jobs", "2", "--quiet"], capture_output=True, text=True)
        check("convert with a bad item exits 2", p.returncode == 2, p.stderr)
        check("the bad item is named", "step0/rank1" in p.stderr and "trace.jsonl:3" in p.stderr, p.stderr)
        for r in (0, 2):
            check(f"rank{r} converted", os.path.exists(os.path.join(out, "step0", f"rank{r}", "dump.json")))
        check("no output for the bad item", not os.path.exists(os.path.join(out, "step0", "rank1", "dump.json")))

        # --inputs-from -
        p = subprocess.run([msdump, "verify", "--inputs-from", "-", "--no-tensors", "--quiet"],
                           input=f"# list\n{os.path.join(tree, 'step0')}\n", capture_output=True, text=True)
        check("--inputs-from - verifies the listed tree", p.returncode == 0 and p.stdout.count("0 errors, 0 warnings in 18 entries") == 4,
              p.stdout + p.stderr)
    print(f"batch checks: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Writes testdata/trees/sharded_run/: a run of 10 steps x 2 ranks of small statistics dumps, the
tree the sharding tests (tests/scheduler/) verify with Slurm and GNU parallel.

Every step<N>/rank<R>/ is a copy of the convert golden testdata/golden/convert/tree_steps/default/
step<N % 2>/rank<R>/ (dump.json, stack.json, construct.json), except that rank1 of step7 lacks its
last dump.json entry, so the cross-rank check has one finding to report (exit 1).
Deterministic; run it again after the golden changes:  python3 testdata/gen/gen_sharded_tree.py
"""
import json
import os
import shutil

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, "golden", "convert", "tree_steps", "default")
OUT = os.path.join(ROOT, "trees", "sharded_run")
STEPS, RANKS = 10, 2
DIVERGING = ("step7", "rank1")


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    for step in range(STEPS):
        for rank in range(RANKS):
            src = os.path.join(SOURCE, f"step{step % 2}", f"rank{rank}")
            dst = os.path.join(OUT, f"step{step}", f"rank{rank}")
            os.makedirs(dst)
            for name in ("dump.json", "stack.json", "construct.json"):
                shutil.copyfile(os.path.join(src, name), os.path.join(dst, name))
    bad = os.path.join(OUT, *DIVERGING, "dump.json")
    with open(bad) as f:
        doc = json.load(f)
    del doc["data"][list(doc["data"])[-1]]
    with open(bad, "w") as f:
        json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()

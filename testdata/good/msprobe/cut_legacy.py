#!/usr/bin/env python3
"""Cuts the real legacy msprobe dump down to its first N entries (default 12).

  cut_legacy.py SRC_DIR OUT_DIR [N]

SRC_DIR is testdata/msprobe/legacy/step0/proc2016 (dump.json, stack.json, construct.json).
OUT_DIR receives:
  dump.json       the header and the first N entries of "data", unchanged;
  construct.json  the nodes of the kept entries and of their ancestors (so every parent is a node);
  stack.json      the stack groups restricted to kept entries (groups left empty are dropped,
                  the remaining groups keep their original keys and frames).
All three are written with json.dump(indent=1), as msprobe writes them.
"""
import json
import os
import sys


def main():
    src, out = sys.argv[1], sys.argv[2]
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 12
    with open(os.path.join(src, "dump.json")) as f:
        dump = json.load(f)
    names = list(dump["data"])[:n]
    dump["data"] = {k: dump["data"][k] for k in names}
    kept = set(names)

    with open(os.path.join(src, "construct.json")) as f:
        construct = json.load(f)
    nodes = set()
    for name in names:
        cur = name
        while cur is not None and cur not in nodes and cur in construct:
            nodes.add(cur)
            cur = construct[cur]
    construct = {k: v for k, v in construct.items() if k in nodes}

    with open(os.path.join(src, "stack.json")) as f:
        stack = json.load(f)
    cut = {}
    for key, group in stack.items():
        group_names, frames = group
        group_names = [x for x in group_names if x in kept]
        if group_names:
            cut[key] = [group_names, frames]

    os.makedirs(out, exist_ok=True)
    for fname, doc in (("dump.json", dump), ("construct.json", construct), ("stack.json", cut)):
        with open(os.path.join(out, fname), "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()

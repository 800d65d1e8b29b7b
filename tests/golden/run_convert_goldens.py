#!/usr/bin/env python3
"""Golden tests of `msdump convert` (testdata/golden/convert/variants.json).

For every variant: run `msdump convert <path> -o out <args>` in an empty temporary directory,
check the exit code and the stderr fragments, and compare out/{dump,stack,construct}.json byte
for byte with the golden (task tensor: the file names in out/dump_tensor_data/ with
tensor_files.txt). The temporary directory's path, which a MindSpore tensor dump's absolute
dump_data_dir holds, reads <WORK> in the goldens. Usage: run_convert_goldens.py MSDUMP [NAME_FILTER]
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))


def run_variant(msdump, v):
    problems = []
    with tempfile.TemporaryDirectory(prefix="msdump-golden-") as work:
        cmd = [msdump, "convert", os.path.join(SRC, v["path"]), "-o", "out"] + v["args"]
        p = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
        if p.returncode != v["exit"]:
            problems.append(f"exit {p.returncode}, expected {v['exit']}; stderr: {p.stderr.strip()[:500]}")
        for frag in v.get("stderr_contains", []):
            if frag not in p.stderr:
                problems.append(f"stderr lacks {frag!r}: {p.stderr.strip()[:500]}")
        golden = v.get("golden")
        if golden:
            gdir = os.path.join(SRC, golden)
            for name in ("dump.json", "stack.json", "construct.json"):
                g, o = os.path.join(gdir, name), os.path.join(work, "out", name)
                if not os.path.exists(g):
                    if os.path.exists(o):
                        problems.append(f"{name} written but the golden has none")
                    continue
                if not os.path.exists(o):
                    problems.append(f"{name} not written")
                    continue
                got = open(o, "rb").read().replace(os.path.realpath(work).encode() + b"/", b"<WORK>/")
                if open(g, "rb").read() != got:
                    diff = subprocess.run(["diff", g, "-"], input=got, capture_output=True).stdout.decode()
                    problems.append(f"{name} differs:\n" + "\n".join(diff.splitlines()[:20]))
            listing = os.path.join(gdir, "tensor_files.txt")
            if os.path.exists(listing):
                want = open(listing).read().split()
                tdir = os.path.join(work, "out", "dump_tensor_data")
                got = sorted(os.listdir(tdir)) if os.path.isdir(tdir) else []
                if sorted(want) != got:
                    problems.append(f"dump_tensor_data differs: missing {sorted(set(want) - set(got))[:5]}, "
                                    f"extra {sorted(set(got) - set(want))[:5]}")
    return problems


def main():
    msdump = os.path.abspath(sys.argv[1])
    filt = sys.argv[2] if len(sys.argv) > 2 else ""
    variants = json.load(open(os.path.join(SRC, "testdata/golden/convert/variants.json")))["variants"]
    passed = failed = 0
    for v in variants:
        name = f"{v['capture']}/{v['variant']}"
        if filt and filt not in name:
            continue
        problems = run_variant(msdump, v)
        if problems:
            failed += 1
            print(f"FAIL {name}")
            for pr in problems:
                print("  " + pr.replace("\n", "\n  "))
        else:
            passed += 1
    print(f"convert goldens: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

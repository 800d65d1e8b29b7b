#!/usr/bin/env python3
"""Golden tests of `msdump convert` (testdata/golden/convert/variants.json).

For every variant: run `msdump convert <path> -o out <args>` in an empty temporary directory,
check the exit code and the stderr fragments, and compare out/ with the golden directory, which
mirrors it: every directory of a dump (out/ itself, or out/<step>/<rank>/ of a tree) has its
dump.json, stack.json and construct.json compared byte for byte and the file names in its
dump_tensor_data/ compared with tensor_files.txt. An expected file that is not written, or a
written one the golden lacks (tensor_files.txt included), fails the variant. The temporary
directory's path, which a MindSpore tensor dump's absolute dump_data_dir holds, reads <WORK> in
the goldens. Usage: run_convert_goldens.py MSDUMP [NAME_FILTER]
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.dirname(os.path.dirname(HERE))


OUTPUTS = ("dump.json", "stack.json", "construct.json")


def dump_dirs(root, marks):
    """Relative paths of the directories beneath root (itself included) that hold any of marks."""
    found = set()
    for d, subdirs, files in os.walk(root):
        if any(m in files or m in subdirs for m in marks):
            found.add(os.path.relpath(d, root))
    return found


def compare_dump(gdir, odir, work):
    problems = []
    for name in OUTPUTS:
        g, o = os.path.join(gdir, name), os.path.join(odir, name)
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
    tdir = os.path.join(odir, "dump_tensor_data")
    got = sorted(os.listdir(tdir)) if os.path.isdir(tdir) else None
    if not os.path.exists(listing):
        if got is not None:
            problems.append(f"dump_tensor_data written ({len(got)} files) but the golden has no tensor_files.txt")
    elif got is None:
        problems.append("dump_tensor_data not written")
    else:
        want = open(listing).read().split()
        if sorted(want) != got:
            problems.append(f"dump_tensor_data differs: missing {sorted(set(want) - set(got))[:5]}, "
                            f"extra {sorted(set(got) - set(want))[:5]}")
    return problems


def compare_tree(gdir, odir, work):
    """The golden directory mirrors the output one: each dump directory (one, or one per step and
    rank of a tree) holds the expected dump.json, stack.json, construct.json and tensor_files.txt."""
    want = dump_dirs(gdir, OUTPUTS + ("tensor_files.txt",))
    got = dump_dirs(odir, OUTPUTS + ("dump_tensor_data",)) if os.path.isdir(odir) else set()
    problems = []
    if not want:
        problems.append(f"the golden {gdir} holds no expected files")
    for d in sorted(got - want):
        problems.append(f"{os.path.join('out', d)} written but the golden has no such directory")
    for d in sorted(want - got):
        problems.append(f"{os.path.join('out', d)} not written")
    for d in sorted(want & got):
        where = "" if d == "." else d + "/"
        problems += [where + p for p in compare_dump(os.path.join(gdir, d), os.path.join(odir, d), work)]
    return problems


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
            problems += compare_tree(os.path.join(SRC, golden), os.path.join(work, "out"), work)
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

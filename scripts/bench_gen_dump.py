#!/usr/bin/env python3
"""Writes a large msprobe dump.json by replicating the entries of real dumps under fresh names.

Templates: every entry of the given sample dump.json files (default: the current-profile
cnn_mix_statistics_all steps 0 and 1). Each entry is rendered once exactly as msprobe writes it
(json.dump(indent=1)); copy k of template file g renames the entry's call counter to
counter + 1000 * (k * files + g), e.g. Functional.conv2d.0.forward ->
Functional.conv2d.3000.forward, Module.conv1.Conv2d.forward.0 -> Module.conv1.Conv2d.forward.3000,
so names stay valid msprobe names, unique, and forward/backward/parameters_grad entries of one
copy keep matching counters. The output is what json.dump(indent=1) of the whole document would
write (checked byte for byte on a small output by --selfcheck).

Usage: scripts/bench_gen_dump.py OUT.json --mb 1024 [--profile current|legacy | --template DUMP_JSON ...] [--selfcheck]
"""

import argparse
import json
import os
import re
import sys

SAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "msprobe")
PROFILES = {
    "current": [f"{SAMPLES}/current/cnn_mix_statistics_all/step0/rank0/dump.json",
                f"{SAMPLES}/current/cnn_mix_statistics_all/step1/rank0/dump.json"],
    "legacy": [f"{SAMPLES}/legacy/step0/proc2016/dump.json",
               f"{SAMPLES}/legacy/step1/proc2016/dump.json"],
}

# <prefix>.<api>.<N>.<forward|backward>   and   Module.<path>.<Class>.<forward|backward|parameters_grad>.<N>
API_RE = re.compile(r"^(.*)\.(\d+)\.(forward|backward)$")
MOD_RE = re.compile(r"^(.*)\.(forward|backward|parameters_grad)\.(\d+)$")


def renamer(name):
    """Returns f(offset) -> new name."""
    if name.startswith("Module.") or name.startswith("Cell."):
        m = MOD_RE.match(name)
        if m:
            head, kind, n = m.group(1), m.group(2), int(m.group(3))
            return lambda off: f"{head}.{kind}.{n + off}"
    m = API_RE.match(name)
    if m:
        head, n, kind = m.group(1), int(m.group(2)), m.group(3)
        return lambda off: f"{head}.{n + off}.{kind}"
    m = MOD_RE.match(name)
    if m:
        head, kind, n = m.group(1), m.group(2), int(m.group(3))
        return lambda off: f"{head}.{kind}.{n + off}"
    raise SystemExit(f"cannot rename entry {name!r}")


def load_templates(paths):
    groups = []
    header = None
    for p in paths:
        with open(p) as f:
            doc = json.load(f)
        if header is None:
            header = {k: v for k, v in doc.items() if k != "data"}
        entries = []
        for name, entry in doc["data"].items():
            # json.dumps({name: entry}, indent=1) = '{\n "name": {...}\n}'; inside "data" every
            # line is indented by one more space.
            text = json.dumps({"x": entry}, indent=1)
            body = text[len('{\n "x": '):-len("\n}")].replace("\n", "\n ")
            entries.append((renamer(name), body))
        groups.append(entries)
    return header, groups


def generate(out, target_bytes, paths, max_copies=None):
    header, groups = load_templates(paths)
    head = json.dumps({**header, "data": {}}, indent=1)
    assert head.endswith('"data": {}\n}')
    prefix = head[:-len("{}\n}")] + "{\n"
    suffix = "\n }\n}"
    written = len(prefix) + len(suffix)
    n_entries = 0
    first = True
    k = 0
    tmp = out + ".tmp"
    with open(tmp, "w", buffering=8 << 20) as f:
        f.write(prefix)
        while written < target_bytes and (max_copies is None or k < max_copies):
            parts = []
            for g, entries in enumerate(groups):
                off = 1000 * (k * len(groups) + g)
                for ren, body in entries:
                    parts.append(f'  "{ren(off)}": {body}')
            chunk = ",\n".join(parts)
            if not first:
                chunk = ",\n" + chunk
            first = False
            f.write(chunk)
            written += len(chunk.encode()) if not chunk.isascii() else len(chunk)
            n_entries += len(parts)
            k += 1
        f.write(suffix)
    os.replace(tmp, out)
    return n_entries, os.path.getsize(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out")
    ap.add_argument("--mb", type=float, default=1024, help="target size in MB (10^6 bytes)")
    ap.add_argument("--profile", choices=sorted(PROFILES), default="current")
    ap.add_argument("--template", action="append", metavar="DUMP_JSON",
                    help="template dump.json (repeatable; replaces --profile's sample files)")
    ap.add_argument("--selfcheck", action="store_true",
                    help="also check that json.dump(json.load(OUT), indent=1) reproduces OUT (small sizes)")
    args = ap.parse_args()
    n, size = generate(args.out, int(args.mb * 1e6), args.template or PROFILES[args.profile])
    print(f"{args.out}: {n} entries, {size} bytes")
    if args.selfcheck:
        with open(args.out) as f:
            text = f.read()
        doc = json.loads(text)
        assert len(doc["data"]) == n, "duplicate names"
        assert json.dumps(doc, indent=1) == text, "not what json.dump(indent=1) writes"
        print("selfcheck: identical to json.dump(indent=1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

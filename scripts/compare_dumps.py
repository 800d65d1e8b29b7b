#!/usr/bin/env python3
"""Checks that a dump.json written by msdump is equivalent to msprobe's for the same tensors: the
bytes are identical, except Mean/Norm values, which may differ within docs/tensor-formats.md §4.6
tolerances (a float32 sum depends on the order of its additions; Max/Min/shapes/names do not).

Usage: compare_dumps.py EXPECTED ACTUAL  -> prints a summary, exit 0 if equivalent.
Strategy: both files must have the same bytes once every "Mean"/"Norm" number token is replaced
by a placeholder; the replaced pairs are then compared numerically.
"""
import math
import re
import struct
import sys

TOKEN = re.compile(rb'"(Mean|Norm)": (-?[0-9][0-9.eE+-]*|NaN|-?Infinity)')


def ulp32(x):
    x = abs(x)
    if x == 0 or math.isinf(x) or math.isnan(x):
        return 1e-45
    b = struct.unpack("<I", struct.pack("<f", x))[0]
    return struct.unpack("<f", struct.pack("<I", b + 1))[0] - struct.unpack("<f", struct.pack("<I", b))[0]


def close(key, a, b):
    fa, fb = float(a), float(b)
    if math.isnan(fa) or math.isnan(fb):
        return math.isnan(fa) and math.isnan(fb)
    if fa == fb:
        return True
    if key == b"Mean":
        return abs(fa - fb) <= 4 * ulp32(fa) + 1e-6 * max(abs(fa), 1e-30) or abs(fa - fb) <= 1e-7
    return abs(fa - fb) <= max(1e-4 * abs(fa), 2 * ulp32(fa))


def main():
    a, b = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
    ta, tb = TOKEN.findall(a), TOKEN.findall(b)
    if TOKEN.sub(b'"\\1": X', a) != TOKEN.sub(b'"\\1": X', b):
        print("DIFFERENT outside Mean/Norm")
        return 1
    exact = sum(1 for x, y in zip(ta, tb) if x == y)
    near = [(k, x, y) for (k, x), (_, y) in zip(ta, tb) if x != y]
    bad = [n for n in near if not close(*n)]
    print(f"same bytes outside Mean/Norm; Mean/Norm: {exact} identical, {len(near) - len(bad)} within tolerance, {len(bad)} beyond")
    for k, x, y in bad[:5]:
        print(f"  {k.decode()}: {x.decode()} vs {y.decode()}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

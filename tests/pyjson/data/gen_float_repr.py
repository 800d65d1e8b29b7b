#!/usr/bin/env python3
"""Generates float_repr.txt: one line per double, "<16 hex digits of the bits> <json.dumps(x)>".

json.dumps(float) is repr(float) except NaN/Infinity/-Infinity. The table is the oracle for
tests/pyjson/pyfloat_test.cpp. Deterministic (fixed seed); rerun with the python3 that has the
json module: python3 gen_float_repr.py > float_repr.txt
"""
import json
import math
import random
import struct


def bits_to_float(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]


def float_to_bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


rng = random.Random(20261130)
values = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 0.1, 0.5, 2.0, 3.0, 10.0, 100.0,
          5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
          1e-05, 1e-07, 0.0001, 0.001, 1e15, 1e16, 1e17, 1e22, 1e23, 123456792.0, 9999999198822400.0,
          1.0000000272564224e16, 9007199254740993.0, 9007199254740992.0, 2.5124688148498535,
          0.6666666865348816, 1.7320507764816284, 1.4142135381698608, 2.015564441680908,
          3.029174327850342, -0.08519717305898666, 0.30000000000000004, 1 / 3, 2 / 3, math.pi,
          math.e, 65504.0, 3.4028234663852886e38, 1.1754943508222875e-38, 1.401298464324817e-45]
for e in range(-330, 310):
    for m in (1.0, 1.5, 9.999999999999999, 5.0, 2.5):
        try:
            values.append(m * 10.0 ** e)
        except OverflowError:
            pass
for k in range(-60, 60):
    values.append(2.0 ** k)
    values.append(2.0 ** k - 2.0 ** (k - 53))
for b in (0x0000000000000001, 0x000FFFFFFFFFFFFF, 0x0010000000000000, 0x7FEFFFFFFFFFFFFF):
    values.append(bits_to_float(b))
# Boundaries between positional and scientific notation.
for s in ("0.0001", "0.00009999999999999999", "0.000099999", "9999999999999998.0", "1e16",
          "1234567890123456.7", "0.00012345678901234567"):
    values.append(float(s))
for _ in range(3000):
    values.append(bits_to_float(rng.getrandbits(64)))
for _ in range(2000):
    values.append(rng.uniform(-10.0, 10.0))
for _ in range(2000):
    values.append(f32(rng.gauss(0.0, 1.0) * 10.0 ** rng.randint(-12, 12)))
for _ in range(1000):
    values.append(f32(rng.uniform(-1.0, 1.0)))
for _ in range(500):
    values.append(float(rng.randint(-(10 ** 17), 10 ** 17)))

seen = set()
for x in values:
    b = float_to_bits(x)
    if math.isnan(x):
        b = 0x7FF8000000000000
    if b in seen:
        continue
    seen.add(b)
    print("%016x %s" % (b, json.dumps(x)))

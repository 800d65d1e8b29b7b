#!/usr/bin/python3
"""Writes the tensor fixtures of msdump's tensor layer (lib/tensor/).

Run with Debian's /usr/bin/python3 (torch 1.13, numpy 1.24):

    /usr/bin/python3 testdata/gen/gen_tensor_fixtures.py

Outputs (all small, committed so CI needs no torch):
  testdata/good/tensors/*.pt, *.npy     files every reader must accept
  testdata/good/tensors/written/*       np.save / torch.save output of contiguous tensors; the C++
                                        writers must reproduce them byte for byte
  testdata/good/tensors/manifest.json   per file: format, dtype, shape, strides, checksums, torch's
                                        own statistics and exact reference statistics
  testdata/bad/tensors/*                one defect per file; the C++ tests assert the exact error

Files torch 1.13 cannot write (torch 2.x records, location tags of absent devices, big-endian
storages, float8/uint16-64 via _rebuild_tensor_v3) are built with write_torch_like_zip() and the
small pickle emitter below, which reproduce torch 1.13's layout bit-identically (asserted at start).
"""

import io
import json
import math
import os
import pickle
import re
import struct
import sys
import zipfile
import zlib
from decimal import Decimal, getcontext

import numpy as np
import torch
import torch.serialization

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GOOD = os.path.join(ROOT, "testdata", "good", "tensors")
BAD = os.path.join(ROOT, "testdata", "bad", "tensors")
WRITTEN = os.path.join(GOOD, "written")

# --------------------------------------------------------------------------------------------
# torch-like zip writer (layout of caffe2/serialize/inline_container.cc + miniz, torch 1.13)


def _padding(cursor, name_len):
    start = cursor + 30 + name_len + 4
    pad = (-start) % 64
    return b"FB" + struct.pack("<H", pad) + b"Z" * pad


def write_torch_like_zip(archive, records, force_zip64=False):
    """records: list of (record name, bytes) in file order; returns the archive bytes.
    force_zip64 writes every central entry with 0xFFFFFFFF sizes/offset and a ZIP64 extra field
    (what torch writes for records beyond 4 GiB), without needing a 4 GiB file."""
    out = bytearray()
    central = []
    for name, data in records:
        full = (archive + "/" + name).encode()
        offset = len(out)
        extra = _padding(offset, len(full))
        flags = 0x0808 if data else 0x0800  # miniz: empty records have no data descriptor
        out += struct.pack("<IHHHHHIIIHH", 0x04034B50, 0, flags, 0, 0, 0, 0, 0, 0, len(full), len(extra))
        out += full + extra + data
        crc = zlib.crc32(data) & 0xFFFFFFFF
        if data:
            out += struct.pack("<IIII", 0x08074B50, crc, len(data), len(data))
        central.append((full, crc, len(data), offset))
    cd_offset = len(out)
    for full, crc, size, offset in central:
        extra = b""
        if force_zip64:
            extra = struct.pack("<HHQQQ", 1, 24, size, size, offset)
            size = offset = 0xFFFFFFFF
        out += struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 0, 0, 0x0808 if size else 0x0800, 0, 0, 0, crc, size, size,
                           len(full), len(extra), 0, 0, 0, 0, offset)
        out += full + extra
    cd_size = len(out) - cd_offset
    eocd64 = len(out)
    n = len(central)
    out += struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 0x031E, 45, 0, 0, n, n, cd_size, cd_offset)
    out += struct.pack("<IIQI", 0x07064B50, 0, eocd64, 1)
    out += struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, n, n, cd_size, cd_offset, 0)
    return bytes(out)


# --------------------------------------------------------------------------------------------
# protocol-2 pickle emitter producing exactly what Python's pickler writes for torch's reduce


class Pickle:
    def __init__(self, protocol=2):
        self.b = bytearray(b"\x80" + bytes([protocol]))
        self.memo = 0

    def put(self):
        if self.memo < 256:
            self.b += b"q" + bytes([self.memo])
        else:
            self.b += b"r" + struct.pack("<I", self.memo)
        self.memo += 1

    def glob(self, module, name):
        self.b += b"c" + module.encode() + b"\n" + name.encode() + b"\n"
        self.put()

    def mark(self):
        self.b += b"("

    def string(self, s):
        e = s.encode()
        self.b += b"X" + struct.pack("<I", len(e)) + e
        self.put()

    def integer(self, v):
        if 0 <= v <= 0xFF:
            self.b += b"K" + bytes([v])
        elif 0 <= v <= 0xFFFF:
            self.b += b"M" + struct.pack("<H", v)
        elif -0x80000000 <= v <= 0x7FFFFFFF:
            self.b += b"J" + struct.pack("<i", v)
        else:
            raw = pickle.encode_long(v)
            self.b += b"\x8a" + bytes([len(raw)]) + raw

    def int_tuple(self, values):
        if not values:
            self.b += b")"
            return
        if len(values) <= 3:
            for v in values:
                self.integer(v)
            self.b += bytes([0x84 + len(values)])
        else:
            self.mark()
            for v in values:
                self.integer(v)
            self.b += b"t"
        self.put()

    def raw(self, data):
        self.b += data

    def stop(self):
        self.b += b"."
        return bytes(self.b)


def tensor_pickle(storage_type, key, location, numel, offset, size, stride, requires_grad=False,
                  v3_dtype=None, rebuild_module="torch._utils", storage_module="torch"):
    """The data.pkl torch writes for one tensor (v2), or torch 2.x's v3 record when v3_dtype."""
    p = Pickle()
    p.glob(rebuild_module, "_rebuild_tensor_v3" if v3_dtype else "_rebuild_tensor_v2")
    p.mark()
    p.mark()
    p.string("storage")
    p.glob(storage_module, storage_type)
    p.string(key)
    p.string(location)
    p.integer(numel)
    p.raw(b"t")
    p.put()
    p.raw(b"Q")
    p.integer(offset)
    p.int_tuple(list(size))
    p.int_tuple(list(stride))
    p.raw(b"\x88" if requires_grad else b"\x89")
    p.glob("collections", "OrderedDict")
    p.raw(b")R")
    p.put()
    if v3_dtype:
        p.glob("torch", v3_dtype)
    p.raw(b"t")
    p.put()
    p.raw(b"R")
    p.put()
    return p.stop()


def handmade_pt(archive, pkl, storages, extra_records=()):
    """torch 1.13 record order (storages sorted as strings) unless extra_records reorders."""
    records = [("data.pkl", pkl)]
    records += list(extra_records)
    records += [("data/" + k, v) for k, v in sorted(storages.items())]
    records.append(("version", b"3\n"))
    return write_torch_like_zip(archive, records)


# --------------------------------------------------------------------------------------------
# checksums and statistics for the manifest

getcontext().prec = 60


def xor_checksum(data):
    data = data + b"\0" * ((-len(data)) % 8)
    acc = 0
    for (w,) in struct.iter_unpack("<Q", data):
        acc ^= w
    return "0x%016x" % acc


def _item(t):
    v = t.item()
    if isinstance(v, complex):
        return None
    return v


def torch_stats(t):
    out = {}
    for name, fn in (("max", torch.max), ("min", torch.min), ("mean", torch.mean), ("norm", torch.norm)):
        if t is None or t.numel() == 0:
            out["torch_" + name] = None
            continue
        try:
            out["torch_" + name] = _item(fn(t))
        except (RuntimeError, TypeError):
            out["torch_" + name] = None
    return out


def reference_stats(values):
    """values: float64 numpy array (complex: complex128). Exact-ish mean and L2 norm via Decimal."""
    if values.size == 0:
        return {"ref_mean": None, "ref_norm": None}
    flat = values.reshape(-1)
    if np.iscomplexobj(flat):
        sq = sum(Decimal(float(abs(z))) ** 2 for z in flat)
        return {"ref_mean": None, "ref_norm": float(sq.sqrt())}
    if not np.all(np.isfinite(flat)):
        return {"ref_mean": float(np.mean(flat)), "ref_norm": float(np.linalg.norm(flat))}
    s = sum(Decimal(float(x)) for x in flat)
    sq = sum(Decimal(float(x)) ** 2 for x in flat)
    return {"ref_mean": float(s / len(flat)), "ref_norm": float(sq.sqrt())}


MANIFEST = {}

TORCH_NAME = {
    torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float32: "float32",
    torch.float64: "float64", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
    torch.int64: "int64", torch.uint8: "uint8", torch.bool: "bool", torch.complex64: "complex64",
    torch.complex128: "complex128",
}
NP_NAME = {
    "float16": "float16", "float32": "float32", "float64": "float64", "int8": "int8",
    "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8", "uint16": "uint16",
    "uint32": "uint32", "uint64": "uint64", "bool": "bool", "complex64": "complex64",
    "complex128": "complex128",
}


def add_manifest(rel, fmt, dtype, shape, element_bytes, values, torch_tensor, requires_grad=False,
                 strides=None, storage_offset=0, location="", big_endian=False):
    entry = {
        "format": fmt,
        "dtype": dtype,
        "shape": list(shape),
        "strides": list(strides) if strides is not None else None,
        "storage_offset": storage_offset,
        "requires_grad": requires_grad,
        "location": location,
        "big_endian": big_endian,
        "numel": int(np.prod(shape)) if shape else 1,
        "crc32": "%08x" % (zlib.crc32(element_bytes) & 0xFFFFFFFF),
        "xor": xor_checksum(element_bytes),
    }
    entry.update(torch_stats(torch_tensor))
    entry.update(reference_stats(values))
    MANIFEST[rel] = entry


def contiguous_bytes(t):
    """C-order element bytes of a torch tensor (little-endian host)."""
    c = t.detach().contiguous()
    if c.dtype == torch.bfloat16:
        return c.view(torch.int16).numpy().tobytes()
    return c.numpy().tobytes()


def float64_values(t):
    t = t.detach()
    if t.is_complex():
        return t.to(torch.complex128).numpy()
    return t.to(torch.float64).numpy()


def save_pt(name, t, **kw):
    path = os.path.join(GOOD, name)
    torch.save(t, path, **kw)
    if kw.get("_use_new_zipfile_serialization") is False:
        # legacy storage keys are memory addresses; make them stable so regeneration is a no-op
        with open(path, "rb") as f:
            raw = f.read()
        raw = re.sub(rb"X.{4}\d{6,}", b"X\x01\x00\x00\x00" + b"0", raw, flags=re.S)
        with open(path, "wb") as f:
            f.write(raw)
    add_manifest(name, "pt", TORCH_NAME[t.dtype], tuple(t.shape), contiguous_bytes(t), float64_values(t),
                 t.detach(), requires_grad=t.requires_grad, strides=t.stride(),
                 storage_offset=t.storage_offset(), location="cpu")


def save_npy(name, a, data=None, dtype_name=None, header_patch=None):
    """np.save, optionally with the header text patched (same length) or data replaced."""
    path = os.path.join(GOOD, name)
    buf = io.BytesIO()
    np.save(buf, a)
    raw = buf.getvalue()
    if header_patch:
        old, new = header_patch
        assert len(old) == len(new) and raw.count(old) == 1
        raw = raw.replace(old, new)
    with open(path, "wb") as f:
        f.write(raw)
    native = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=True)
    tt = None
    try:
        tt = torch.from_numpy(native.copy())
    except TypeError:
        tt = None
    values = native.astype(np.complex128 if np.iscomplexobj(native) else np.float64)
    strides = None
    if a.ndim:
        if np.isfortran(a) and a.ndim > 1:
            strides = [int(np.prod(a.shape[:k])) for k in range(a.ndim)]
        else:
            strides = [int(np.prod(a.shape[k + 1:])) for k in range(a.ndim)]
    else:
        strides = []
    add_manifest(name, "npy", dtype_name or NP_NAME[native.dtype.name], a.shape, native.tobytes(), values, tt,
                 strides=strides, big_endian=a.dtype.byteorder == ">")


# --------------------------------------------------------------------------------------------


def self_check():
    """write_torch_like_zip + tensor_pickle must reproduce torch.save bit for bit."""
    buf_path = "/tmp/msdump_gen_selfcheck.pt"
    for t in (torch.arange(6.0), torch.arange(300, dtype=torch.int64).reshape(3, 4, 5, 5),
              torch.tensor(2.5), torch.ones(2, 3, requires_grad=True), torch.zeros(0, 3)):
        torch.save(t, buf_path)
        with open(buf_path, "rb") as f:
            ref = f.read()
        storage_name = {torch.float32: "FloatStorage", torch.int64: "LongStorage"}[t.dtype]
        pkl = tensor_pickle(storage_name, "0", "cpu", t.numel(), 0, tuple(t.shape), t.stride(),
                            requires_grad=t.requires_grad)
        mine = handmade_pt("msdump_gen_selfcheck", pkl, {"0": contiguous_bytes(t)})
        assert mine == ref, "torch-like writer differs from torch.save for %r" % (t.shape,)
    os.remove(buf_path)


def gen_pt():
    torch.manual_seed(1234)
    base = torch.randn(3, 4)
    save_pt("f32.pt", base)
    save_pt("f64.pt", torch.randn(2, 3, dtype=torch.float64))
    save_pt("f16.pt", torch.randn(5, dtype=torch.float16))
    save_pt("bf16.pt", torch.randn(2, 3).to(torch.bfloat16))
    save_pt("i8.pt", torch.tensor([-128, -1, 0, 1, 127], dtype=torch.int8))
    save_pt("i16.pt", torch.tensor([[-32768, 5], [7, 32767]], dtype=torch.int16))
    save_pt("i32.pt", torch.tensor([-(2 ** 31), 0, 2 ** 31 - 1], dtype=torch.int32))
    save_pt("i64.pt", torch.tensor([-(2 ** 62), 3, 2 ** 62 + 1], dtype=torch.int64))
    save_pt("u8.pt", torch.tensor([0, 1, 200, 255], dtype=torch.uint8))
    save_pt("bool.pt", torch.tensor([[True, False, True]]))
    save_pt("c64.pt", torch.randn(3, dtype=torch.complex64))
    save_pt("c128.pt", torch.randn(2, 2, dtype=torch.complex128))
    save_pt("f32_special.pt", torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), -0.0]))
    save_pt("scalar_f32.pt", torch.tensor(3.5))
    save_pt("scalar_i64.pt", torch.tensor(-7))
    save_pt("empty_f32.pt", torch.zeros(0))
    save_pt("empty_2x0_i32.pt", torch.zeros(2, 0, dtype=torch.int32))
    grid = torch.arange(20.0).reshape(4, 5)
    save_pt("view_slice.pt", grid[1:3, ::2])
    save_pt("view_transpose.pt", grid.t())
    save_pt("view_expand_stride0.pt", torch.arange(4.0).expand(3, 4))
    save_pt("view_offset_1d.pt", torch.arange(10, dtype=torch.int16)[3:7])
    save_pt("view_bf16_slice.pt", torch.arange(12.0).reshape(3, 4).to(torch.bfloat16)[:, 1:3])
    save_pt("msprobe_like_sliced.pt", torch.randn(4, 6).clone().contiguous().detach()[1:3, 2:5])
    save_pt("parameter.pt", torch.nn.Parameter(torch.ones(2, 2)))
    save_pt("requires_grad.pt", torch.arange(3.0, requires_grad=True))
    save_pt("pickle_protocol4.pt", torch.arange(5.0), pickle_protocol=4)
    save_pt("pickle_protocol5.pt", torch.arange(4, dtype=torch.int32).reshape(2, 2), pickle_protocol=5)
    save_pt("bf16_300.pt", torch.linspace(-3, 3, 300).to(torch.bfloat16))
    save_pt("long_archive_name_for_padding_check_f32.pt", torch.arange(3.0))
    # legacy (torch < 1.6) format
    save_pt("legacy_f32.pt", torch.arange(6.0), _use_new_zipfile_serialization=False)
    save_pt("legacy_view_bf16.pt", torch.arange(8.0).to(torch.bfloat16)[2:6],
            _use_new_zipfile_serialization=False)

    # location tags of devices this machine lacks: torch writes them, we only patch the tagger
    real_tag = torch.serialization.location_tag
    for name, tag in (("location_npu0.pt", "npu:0"), ("location_cuda1.pt", "cuda:1")):
        torch.serialization.location_tag = lambda storage, tag=tag: tag
        try:
            save_pt(name, torch.arange(4.0).reshape(2, 2))
        finally:
            torch.serialization.location_tag = real_tag
        MANIFEST[name]["location"] = tag

    # byteorder big (torch >= 2.1 on a big-endian host)
    t = torch.tensor([1.5, -2.0, 3.25])
    pkl = tensor_pickle("FloatStorage", "0", "cpu", 3, 0, (3,), (1,))
    data = t.numpy().astype(">f4").tobytes()
    write(GOOD, "byteorder_big_f32.pt", handmade_pt("byteorder_big_f32", pkl, {"0": data},
                                                    [("byteorder", b"big")]))
    add_manifest("byteorder_big_f32.pt", "pt", "float32", (3,), contiguous_bytes(t), float64_values(t), t,
                 strides=(1,), location="cpu", big_endian=True)
    t = torch.tensor([1 + 2j, -3.5 + 0.25j], dtype=torch.complex64)
    pkl = tensor_pickle("ComplexFloatStorage", "0", "cpu", 2, 0, (2,), (1,))
    data = t.numpy().astype(">c8").tobytes()
    write(GOOD, "byteorder_big_c64.pt", handmade_pt("byteorder_big_c64", pkl, {"0": data},
                                                    [("byteorder", b"big")]))
    add_manifest("byteorder_big_c64.pt", "pt", "complex64", (2,), contiguous_bytes(t), float64_values(t), t,
                 strides=(1,), location="cpu", big_endian=True)

    # torch 2.7 record set and order
    t = torch.arange(6.0).reshape(2, 3)
    pkl = tensor_pickle("FloatStorage", "0", "cpu", 6, 0, (2, 3), (3, 1))
    records = [("data.pkl", pkl), (".format_version", b"1"), (".storage_alignment", b"64"),
               ("byteorder", b"little"), ("data/0", contiguous_bytes(t)), ("version", b"3\n"),
               (".data/serialization_id", b"1234567890123456789001234567890123456789")]
    write(GOOD, "torch27_layout_f32.pt", write_torch_like_zip("torch27_layout_f32", records))
    add_manifest("torch27_layout_f32.pt", "pt", "float32", (2, 3), contiguous_bytes(t), float64_values(t), t,
                 strides=(3, 1), location="cpu")

    # ZIP64 extra fields in the central directory (as torch writes for records beyond 4 GiB)
    t = torch.arange(5, dtype=torch.int32)
    pkl = tensor_pickle("IntStorage", "0", "cpu", 5, 0, (5,), (1,))
    write(GOOD, "zip64_central_extra_i32.pt", write_torch_like_zip(
        "zip64_central_extra_i32", [("data.pkl", pkl), ("data/0", contiguous_bytes(t)), ("version", b"3\n")],
        force_zip64=True))
    add_manifest("zip64_central_extra_i32.pt", "pt", "int32", (5,), contiguous_bytes(t), float64_values(t), t,
                 strides=(1,), location="cpu")

    # torch >= 2.1 new dtypes: _rebuild_tensor_v3 + UntypedStorage (numel in bytes)
    def v3(name, dtype_name, np_values, raw, shape, stride, offset, values64, itemsize):
        numel_bytes = len(raw)
        pkl = tensor_pickle("UntypedStorage", "0", "cpu", numel_bytes, offset, shape, stride, v3_dtype=dtype_name)
        write(GOOD, name, handmade_pt(name[:-3], pkl, {"0": raw}))
        add_manifest(name, "pt", dtype_name, shape, np_values, values64, None, strides=stride,
                     storage_offset=offset, location="cpu")

    u16 = np.array([0, 1, 65535, 300, 7, 9], dtype="<u2")
    v3("v3_uint16.pt", "uint16", u16.tobytes(), u16.tobytes(), (2, 3), (3, 1), 0, u16.astype(np.float64), 2)
    view = u16.reshape(2, 3)[:, 1:]
    v3("v3_uint16_view.pt", "uint16", np.ascontiguousarray(view).tobytes(), u16.tobytes(), (2, 2), (3, 1), 1,
       view.astype(np.float64), 2)
    u32 = np.array([0, 4294967295, 12345], dtype="<u4")
    v3("v3_uint32.pt", "uint32", u32.tobytes(), u32.tobytes(), (3,), (1,), 0, u32.astype(np.float64), 4)
    u64 = np.array([2 ** 64 - 1, 0, 2 ** 63], dtype="<u8")
    v3("v3_uint64.pt", "uint64", u64.tobytes(), u64.tobytes(), (3,), (1,), 0, u64.astype(np.float64), 8)
    # float8_e5m2 is the upper byte of float16; float8_e4m3fn decoded by hand
    e5 = np.array([1.0, -2.0, 0.5, 57344.0], dtype=np.float16)
    e5_bytes = (e5.view(np.uint16) >> 8).astype(np.uint8)
    v3("v3_float8_e5m2.pt", "float8_e5m2", e5_bytes.tobytes(), e5_bytes.tobytes(), (4,), (1,), 0,
       e5.astype(np.float64), 1)
    e4_bytes = np.array([0x38, 0xB8, 0x7E, 0x01, 0x40], dtype=np.uint8)

    def e4m3(b):
        s = -1.0 if b & 0x80 else 1.0
        e = (b >> 3) & 0xF
        m = b & 7
        if e == 0:
            return s * m / 8.0 * 2.0 ** -6
        return s * (1 + m / 8.0) * 2.0 ** (e - 7)

    e4_vals = np.array([e4m3(int(b)) for b in e4_bytes])
    v3("v3_float8_e4m3fn.pt", "float8_e4m3fn", e4_bytes.tobytes(), e4_bytes.tobytes(), (5,), (1,), 0, e4_vals, 1)


def gen_npy():
    rng = np.random.default_rng(42)
    save_npy("f32.npy", rng.standard_normal((3, 4)).astype(np.float32))
    save_npy("f64.npy", rng.standard_normal(5))
    save_npy("f16.npy", rng.standard_normal((2, 2)).astype(np.float16))
    for dt in ("i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"):
        info = np.iinfo(dt)
        save_npy(dt + ".npy", np.array([info.min, 0, 1, info.max], dtype=dt))
    save_npy("b1.npy", np.array([True, False, False, True, True]))
    save_npy("c8.npy", (rng.standard_normal(3) + 1j * rng.standard_normal(3)).astype(np.complex64))
    save_npy("c16.npy", rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2)))
    save_npy("be_f4.npy", np.array([1.5, -2.0, 3.0], dtype=">f4"))
    save_npy("be_f2.npy", np.array([0.5, -1.0], dtype=">f2"))
    save_npy("be_i8.npy", np.array([[1, -2], [3, 2 ** 40]], dtype=">i8"))
    save_npy("be_c8.npy", np.array([1 + 2j, -3 - 0.5j], dtype=">c8"))
    save_npy("native_eq_f4.npy", np.array([1.0, 2.0], dtype="<f4"),
             header_patch=(b"'descr': '<f4'", b"'descr': '=f4'"))
    save_npy("fortran_f32.npy", np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))
    save_npy("fortran_transposed_i32.npy", np.arange(12, dtype=np.int32).reshape(3, 4).T)
    save_npy("scalar_f64.npy", np.array(2.25))
    save_npy("empty_2x0_f32.npy", np.zeros((2, 0), dtype=np.float32))
    save_npy("empty_0_i64.npy", np.zeros((0,), dtype=np.int64))

    # hand-made headers: trailing L, unaligned data offset, v2.0 / v3.0, bf16 as <V2
    def handmade(name, header, data):
        h = header.encode("latin1")
        write(GOOD, name, b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + data)

    a = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    handmade("trailing_L.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (3L,), }\n", a.tobytes())
    add_manifest("trailing_L.npy", "npy", "float32", (3,), a.tobytes(), a.astype(np.float64), torch.from_numpy(a),
                 strides=[1])
    b = np.array([7, 8, 9], dtype=np.int16)
    handmade("unaligned.npy", "{'descr':'<i2','fortran_order':False,'shape':(3,)}\n", b.tobytes())
    add_manifest("unaligned.npy", "npy", "int16", (3,), b.tobytes(), b.astype(np.float64), torch.from_numpy(b),
                 strides=[1])
    for version in ((2, 0), (3, 0)):
        c = np.arange(4, dtype=np.float64)
        buf = io.BytesIO()
        np.lib.format.write_array(buf, c, version=version)
        name = "version%d.npy" % version[0]
        write(GOOD, name, buf.getvalue())
        add_manifest(name, "npy", "float64", (4,), c.tobytes(), c, torch.from_numpy(c), strides=[1])
    bf = torch.tensor([1.0, -2.5, 0.15625]).to(torch.bfloat16)
    bf_bytes = bf.view(torch.int16).numpy().tobytes()
    header = "{'descr': '<V2', 'fortran_order': False, 'shape': (3,), }"
    header += " " * (64 - 10 - len(header) - 1) + "\n"
    handmade("ml_dtypes_bf16_as_V2.npy", header, bf_bytes)
    add_manifest("ml_dtypes_bf16_as_V2.npy", "npy", "bfloat16", (3,), bf_bytes, bf.double().numpy(), bf,
                 strides=[1])


def gen_written():
    """Contiguous tensors saved by torch.save / np.save: the writers' byte-exact targets."""
    os.makedirs(WRITTEN, exist_ok=True)
    torch.manual_seed(7)
    pts = {
        "w_f32.pt": torch.randn(3, 4),
        "w_bf16.pt": torch.randn(2, 5).to(torch.bfloat16),
        "w_f16.pt": torch.randn(4).to(torch.float16),
        "w_f64.pt": torch.randn(2, 2, 2, 2, dtype=torch.float64),
        "w_i64_300.pt": torch.arange(300, dtype=torch.int64),
        "w_i8_70000.pt": (torch.arange(70000) % 251).to(torch.int8),
        "w_u8.pt": torch.tensor([1, 2, 3], dtype=torch.uint8),
        "w_bool.pt": torch.tensor([True, False]),
        "w_c64.pt": torch.randn(2, dtype=torch.complex64),
        "w_scalar.pt": torch.tensor(1.25),
        "w_empty.pt": torch.zeros(0, 3),
        "w_requires_grad.pt": torch.ones(2, requires_grad=True),
        "w_a_rather_long_archive_name_x.pt": torch.arange(4, dtype=torch.int32),
    }
    for name, t in pts.items():
        rel = "written/" + name
        torch.save(t, os.path.join(GOOD, rel))
        add_manifest(rel, "pt", TORCH_NAME[t.dtype], tuple(t.shape), contiguous_bytes(t), float64_values(t),
                     t.detach(), requires_grad=t.requires_grad, strides=t.stride(), location="cpu")
        assert torch.equal(torch.load(os.path.join(GOOD, rel)), t)
    npys = {
        "w_f32.npy": np.arange(12, dtype=np.float32).reshape(3, 4),
        "w_f64_1d.npy": np.linspace(0, 1, 7),
        "w_scalar.npy": np.array(3, dtype=np.int64),
        "w_bool.npy": np.array([[True], [False]]),
        "w_c128.npy": np.array([1 + 1j, 2 - 3j]),
        "w_u2.npy": np.array([1, 65535], dtype=np.uint16),
        "w_f16_3d.npy": np.ones((2, 3, 4), dtype=np.float16),
        "w_empty.npy": np.zeros((0,), dtype=np.float32),
        "w_big_dims.npy": np.zeros((0, 12345678901), dtype=np.uint8),
    }
    for name, a in npys.items():
        rel = "written/" + name
        np.save(os.path.join(GOOD, rel), np.ascontiguousarray(a))
        a = np.ascontiguousarray(a)
        tt = torch.from_numpy(a.copy()) if a.dtype != np.uint16 else None
        add_manifest(rel, "npy", NP_NAME[a.dtype.name], a.shape, a.tobytes(),
                     a.astype(np.complex128 if np.iscomplexobj(a) else np.float64), tt,
                     strides=[int(np.prod(a.shape[k + 1:])) for k in range(a.ndim)])
    # the v3 path (uint16/32/64, float8): torch 1.13 cannot write it; the expected bytes follow
    # torch 2.x's pickle with torch 1.13's zip layout.
    u = np.array([[1, 2], [3, 65535]], dtype="<u2")
    pkl = tensor_pickle("UntypedStorage", "0", "cpu", u.nbytes, 0, (2, 2), (2, 1), v3_dtype="uint16")
    write(WRITTEN, "w_v3_uint16.pt", handmade_pt("w_v3_uint16", pkl, {"0": u.tobytes()}))
    add_manifest("written/w_v3_uint16.pt", "pt", "uint16", (2, 2), u.tobytes(), u.astype(np.float64), None,
                 strides=(2, 1), location="cpu")
    f8 = np.array([0x38, 0xB8, 0x00], dtype=np.uint8)
    pkl = tensor_pickle("UntypedStorage", "0", "cpu", 3, 0, (3,), (1,), v3_dtype="float8_e4m3fn")
    write(WRITTEN, "w_v3_float8_e4m3fn.pt", handmade_pt("w_v3_float8_e4m3fn", pkl, {"0": f8.tobytes()}))
    add_manifest("written/w_v3_float8_e4m3fn.pt", "pt", "float8_e4m3fn", (3,), f8.tobytes(),
                 np.array([1.0, -1.0, 0.0]), None, strides=(1,), location="cpu")


def write(d, name, data):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def patch(data, offset, new):
    return data[:offset] + new + data[offset + len(new):]


def gen_bad():
    os.makedirs(BAD, exist_ok=True)
    t = torch.arange(6.0)
    pkl = tensor_pickle("FloatStorage", "0", "cpu", 6, 0, (6,), (1,))
    good = handmade_pt("plain", pkl, {"0": contiguous_bytes(t)})
    # plain: data.pkl@64 (150 bytes), data/0 header@230 data@320, version header@360 data@448,
    # central directory @466, zip64 eocd @643, locator @699, eocd @719, size 741
    assert len(good) == 741
    write(BAD, "truncated_zip.pt", good[:400])
    write(BAD, "eocd_missing.pt", patch(good, 719, b"XX\x05\x06"))
    write(BAD, "broken_central_directory.pt", patch(good, 466 + 60, b"PK\x01\x09"))
    write(BAD, "zip64_offset_beyond_file.pt", patch(good, 643 + 48, struct.pack("<Q", 1 << 40)))
    write(BAD, "zip64_locator_beyond_file.pt", patch(good, 699 + 8, struct.pack("<Q", 5000)))
    write(BAD, "local_header_offset_beyond_file.pt", patch(good, 466 + 42, struct.pack("<I", 100000)))

    def bad_pt(name, pkl, storages, extra=()):
        write(BAD, name, handmade_pt(name[:-3], pkl, storages, extra))

    data6 = contiguous_bytes(t)
    p = Pickle()
    p.glob("os", "system")
    p.string("echo pwned")
    p.raw(b"\x85")
    p.put()
    p.raw(b"R")
    p.put()
    bad_pt("evil_global.pt", p.stop(), {})
    bad_pt("storage_smaller_than_view.pt",
           tensor_pickle("FloatStorage", "0", "cpu", 6, 2, (2, 3), (3, 1)), {"0": data6})
    bad_pt("storage_record_size_mismatch.pt",
           tensor_pickle("FloatStorage", "0", "cpu", 8, 0, (8,), (1,)), {"0": data6})
    bad_pt("storage_record_missing.pt",
           tensor_pickle("FloatStorage", "1", "cpu", 6, 0, (6,), (1,)), {"0": data6})
    bad_pt("shape_product_overflow.pt",
           tensor_pickle("FloatStorage", "0", "cpu", 6, 0, (2 ** 40, 2 ** 40), (0, 0)), {"0": data6})
    bad_pt("unknown_storage_type.pt",
           tensor_pickle("FooStorage", "0", "cpu", 6, 0, (6,), (1,)), {"0": data6})
    bad_pt("negative_stride.pt",
           tensor_pickle("FloatStorage", "0", "cpu", 6, 5, (6,), (-1,)), {"0": data6})
    bad_pt("quantized_storage.pt",
           tensor_pickle("QInt8Storage", "0", "cpu", 6, 0, (6,), (1,)), {"0": data6[:6]})
    bad_pt("byteorder_unknown.pt", pkl, {"0": data6}, [("byteorder", b"middle")])
    # a dict and a list of tensors sharing one storage: valid torch files, but not one tensor
    torch.save({"w": t}, os.path.join(BAD, "dict_of_tensors.pt"))
    torch.save([t, t[2:]], os.path.join(BAD, "shared_storage_list.pt"))
    torch.save(torch.nn.Linear(2, 2).state_dict(), os.path.join(BAD, "state_dict.pt"))
    # re-zipped with deflate (torch.load accepts it; msdump rejects)
    buf = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(good)) as zin, zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(zi, zin.read(info.filename))
    write(BAD, "deflated_record.pt", buf.getvalue())
    # TorchScript archive
    m = torch.jit.script(torch.nn.ReLU())
    torch.jit.save(m, os.path.join(BAD, "torchscript_module.pt"))
    # npy defects
    buf = io.BytesIO()
    np.save(buf, np.arange(6, dtype=np.float32).reshape(2, 3))
    npy = buf.getvalue()
    write(BAD, "npy_truncated_header.npy", npy[:40])
    write(BAD, "npy_data_short.npy", npy[:-4])
    buf = io.BytesIO()
    np.save(buf, np.array([1, "a", None], dtype=object), allow_pickle=True)
    write(BAD, "npy_object.npy", buf.getvalue())
    buf = io.BytesIO()
    np.save(buf, np.array(["abc", "de"]))
    write(BAD, "npy_string.npy", buf.getvalue())
    buf = io.BytesIO()
    np.save(buf, np.zeros(2, dtype=[("a", "<f4"), ("b", "<i2")]))
    write(BAD, "npy_structured.npy", buf.getvalue())
    buf = io.BytesIO()
    np.save(buf, np.array(["2020-01-01"], dtype="datetime64[ns]"))
    write(BAD, "npy_datetime.npy", buf.getvalue())
    buf = io.BytesIO()
    np.save(buf, np.zeros(2, dtype=np.longdouble))
    write(BAD, "npy_longdouble.npy", buf.getvalue())
    write(BAD, "npy_bad_magic.npy", b"\x93NUMPX" + npy[6:])
    h = "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"
    h += " " * (118 - len(h) - 1) + "\n"
    write(BAD, "npy_shape_overflow.npy", b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h.encode())
    write(BAD, "not_a_tensor.bin", b"hello, this is not a tensor file\n")


def main():
    self_check()
    for d in (GOOD, BAD):
        os.makedirs(d, exist_ok=True)
        for root, _, files in os.walk(d):
            for f in files:
                os.remove(os.path.join(root, f))
    gen_pt()
    gen_npy()
    gen_written()
    gen_bad()
    with open(os.path.join(GOOD, "manifest.json"), "w") as f:
        json.dump(dict(sorted(MANIFEST.items())), f, indent=1)
        f.write("\n")
    # every torch-1.13-loadable good file must load and match the manifest checksum
    for rel, e in MANIFEST.items():
        if e["format"] != "pt" or e["big_endian"] or e["dtype"] in ("uint16", "uint32", "uint64", "float8_e5m2", "float8_e4m3fn"):
            continue
        t = torch.load(os.path.join(GOOD, rel), map_location="cpu")
        assert "%08x" % (zlib.crc32(contiguous_bytes(t)) & 0xFFFFFFFF) == e["crc32"], rel
    print("wrote %d good fixtures" % len(MANIFEST))


if __name__ == "__main__":
    sys.exit(main())

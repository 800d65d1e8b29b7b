#!/usr/bin/env python3
"""Writes the hostile tensor files of testdata/hostile/ (tests/hostile/*_test.cpp read them).

Each file is small and names its defect. The torch-like zip writer and pickle emitter come from
testdata/gen/gen_tensor_fixtures.py, loaded with numpy and torch stubbed out: nothing here needs
them, so this script runs on any Python 3.

Inputs found by the fuzzers (scripts/fuzz.sh) are committed next to these files as they were
found, not generated.
"""

import importlib.util
import os
import struct
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "gen", "gen_tensor_fixtures.py")


class _Stub(types.ModuleType):
    """Any attribute, call or hash works: enough for the module-level tables of the generator."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        value = _Stub(self.__name__ + "." + name)
        setattr(self, name, value)
        return value

    def __call__(self, *args, **kwargs):
        return _Stub(self.__name__ + "()")

    def __hash__(self):
        return id(self)


def load_generator():
    for name in ("numpy", "torch", "torch.serialization"):
        sys.modules.setdefault(name, _Stub(name))
    spec = importlib.util.spec_from_file_location("gen_tensor_fixtures", GEN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


g = load_generator()
F32_6 = struct.pack("<6f", 1, 2, 3, 4, 5, 6)


def write(name, data):
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def pt(name, numel, offset, size, stride, data=F32_6, force_zip64=False):
    pkl = g.tensor_pickle("FloatStorage", "0", "cpu", numel, offset, size, stride)
    records = [("data.pkl", pkl), ("data/0", data), ("version", b"3\n")]
    return g.write_torch_like_zip(name, records, force_zip64=force_zip64)


def central_entry_offset(archive, record):
    """Offset of the central directory entry of `record` ("x/data/0")."""
    pos = archive.index(struct.pack("<I", 0x02014B50))
    while True:
        name_len, extra_len, comment_len = struct.unpack_from("<HHH", archive, pos + 28)
        if archive[pos + 46:pos + 46 + name_len] == record.encode():
            return pos
        pos += 46 + name_len + extra_len + comment_len


def patched_zip64_extra(name, field, value):
    """A ZIP64 archive whose data/0 ZIP64 extra field (0 usize, 1 csize, 2 offset) is `value`."""
    archive = bytearray(pt(name, 6, 0, (6,), (1,), force_zip64=True))
    entry = central_entry_offset(archive, name + "/data/0")
    name_len = struct.unpack_from("<H", archive, entry + 28)[0]
    struct.pack_into("<Q", archive, entry + 46 + name_len + 4 + 8 * field, value)
    return bytes(archive)


def patched_eocd64(name, offset_in_record, value):
    archive = bytearray(pt(name, 6, 0, (6,), (1,)))
    eocd64 = archive.rindex(struct.pack("<I", 0x06064B50))
    struct.pack_into("<Q", archive, eocd64 + offset_in_record, value)
    return bytes(archive)


def npy(shape, descr="<f4", data=b""):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    header += " " * ((-(10 + len(header) + 1)) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


def main():
    # ZIP64 sizes and offsets beyond the file (torch.save writes ZIP64 records).
    write("zip64_record_size_beyond_file.pt", patched_zip64_extra("zip64_record_size_beyond_file", 0, 1 << 62))
    write("zip64_compressed_size_beyond_file.pt",
          patched_zip64_extra("zip64_compressed_size_beyond_file", 1, (1 << 64) - 1))
    write("zip64_local_offset_beyond_file.pt", patched_zip64_extra("zip64_local_offset_beyond_file", 2, 1 << 63))
    # ZIP64 end record: 2^60 entries, a central directory of 2^62 bytes, at offset 2^64 - 8.
    write("zip64_entry_count_huge.pt", patched_eocd64("zip64_entry_count_huge", 32, 1 << 60))
    write("zip64_cd_size_beyond_file.pt", patched_eocd64("zip64_cd_size_beyond_file", 40, 1 << 62))
    write("zip64_cd_offset_wraps.pt", patched_eocd64("zip64_cd_offset_wraps", 48, (1 << 64) - 8))
    # Storage offsets pointing outside the storage (6 float32 = 24 bytes).
    write("storage_offset_beyond_storage.pt", pt("storage_offset_beyond_storage", 6, 1 << 40, (2,), (1,)))
    write("storage_offset_int64_max.pt", pt("storage_offset_int64_max", 6, (1 << 63) - 1, (2,), (1,)))
    write("storage_numel_bytes_overflow.pt", pt("storage_numel_bytes_overflow", 1 << 62, 0, (6,), (1,)))
    # Shapes whose element count overflows 64 bits.
    write("shape_numel_overflow.pt",
          pt("shape_numel_overflow", 6, 0, (1 << 32, 1 << 32, 4), (1 << 34, 4, 1)))
    write("shape_numel_overflow.npy", npy("(4294967296, 4294967296, 4)"))
    write("shape_nbytes_overflow.npy", npy("(2305843009213693952,)", "<f8"))
    # A legal view (stride 0, like torch's expand) of 2^40 elements over one float32: reading
    # its header is fine, materializing it would take 4 TiB.
    write("expand_stride0_4tib.pt", pt("expand_stride0_4tib", 6, 0, (1 << 40,), (0,)))
    # The same over one complex128: 2^62 elements of 16 bytes, a byte count that wraps 64 bits.
    c128 = g.tensor_pickle("ComplexDoubleStorage", "0", "cpu", 1, 0, (1 << 62,), (0,))
    write("expand_stride0_nbytes_wrap.pt",
          g.write_torch_like_zip("expand_stride0_nbytes_wrap",
                                 [("data.pkl", c128), ("data/0", bytes(16)), ("version", b"3\n")]))


if __name__ == "__main__":
    main()

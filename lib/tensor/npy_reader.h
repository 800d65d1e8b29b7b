#pragma once
// NumPy .npy files (docs/tensor-formats.md §3): magic "\x93NUMPY", version 1.0/2.0/3.0, a Python
// dict literal header {'descr', 'fortran_order', 'shape'}, then the elements. Only the header
// is parsed; no element is read.

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "core/byte_source.h"
#include "core/dtype.h"
#include "core/result.h"
#include "tensor/tensor.h"

namespace msdump::tensor {

// True when `head` starts with "\x93NUMPY".
bool is_npy(std::span<const std::byte> head);

// The meaning of a numpy `descr` string ("<f4", "|b1", ">c8", "=i2", "<V2").
struct NpyDescr {
  DType dtype = DType::float32;
  bool big_endian = false;  // only for itemsize > 1
};

// Parses a descr. `void_hint` gives the dtype of a void descr ("<V2", "|V2"): numpy has no
// bfloat16, so ml_dtypes' bf16 arrays are saved as V2 and only outside knowledge (dump.json)
// says what they hold; the hint's itemsize must match. Fails (unsupported) with the reason,
// e.g. "unsupported numpy dtype '<U3' (string arrays are not tensors)".
Result<NpyDescr> parse_npy_descr(std::string_view descr, std::optional<DType> void_hint = std::nullopt);

// Reads the header of a .npy file: dtype, shape, strides (Fortran order gives column-major
// strides), where the data starts (unaligned offsets are fine) and byte order. Errors are
// prefixed with "'<source name>': ". Fails (invalid_input) on a bad magic or version, a
// truncated or malformed header, a shape whose product overflows, or data shorter than the
// shape needs; (unsupported) on non-numeric dtypes (see parse_npy_descr).
Result<TensorInfo> read_npy_info(const ByteSource& src, std::optional<DType> void_hint = std::nullopt);

}  // namespace msdump::tensor

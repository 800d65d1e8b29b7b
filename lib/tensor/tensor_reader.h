#pragma once
// The one entry point for reading tensors from bytes: detect the format by magic, parse the
// headers into a TensorInfo (no element read), and load elements as a C-contiguous,
// native-endian Tensor (gathering strided views and byte-swapping big-endian data).
//
// Streaming callers (the stats engine) use read_tensor_info() and, when info.is_contiguous()
// and !info.big_endian, read [info.first_byte(), + info.nbytes()) in windows themselves;
// check_tensor_bounds() has then already been done by the reader.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "core/byte_source.h"
#include "core/dtype.h"
#include "core/result.h"
#include "tensor/tensor.h"

namespace msdump::tensor {

struct ReadOptions {
  // What a .npy void array ("<V2", "|V2") holds: numpy has no bfloat16, so ml_dtypes' bf16
  // arrays are saved as V2. Ignored for every other descr and format.
  std::optional<DType> dtype_hint;
};

// The formats read_tensor_info tries, in order, with their magic test.
struct TensorFormatProbe {
  TensorFormat format;
  std::string_view name;
  bool (*matches)(std::span<const std::byte> head);  // first 16 bytes (or fewer)
};
std::span<const TensorFormatProbe> tensor_format_probes();

// The format of `src` judged by its first bytes. Fails (invalid_input) with
// "'<name>': unknown tensor format (tried: pt, npy)" when no magic matches.
Result<TensorFormat> detect_tensor_format(const ByteSource& src);

// Parses the headers of a .pt (zip or legacy) or .npy source. Errors name the source:
// "'<name>': ...". See read_pt_info / read_npy_info for what each format rejects.
Result<TensorInfo> read_tensor_info(const ByteSource& src, const ReadOptions& options = {});

// Checks that `info` is self-consistent and inside `src`: strides match the shape and are
// non-negative, the shape's product fits in 64 bits, the view stays inside storage_bytes and
// the storage inside the source. Fails (invalid_input) naming the defect.
Result<void> check_tensor_bounds(const ByteSource& src, const TensorInfo& info);

// The most bytes load_tensor materializes for a view that repeats its storage's elements
// (stride 0 as torch's expand() saves it, overlapping strides): such a view of a few bytes may
// claim 2^60 elements. Views that do not repeat elements need at most their storage's bytes.
inline constexpr std::uint64_t k_max_repeating_view_bytes = std::uint64_t{256} << 20;

// Reads the elements `info` describes into a C-contiguous, native-endian Tensor: contiguous
// data in one read (memcpy from ByteSource::memory() when available), strided views (including
// stride 0 and Fortran order) gathered, big-endian data byte-swapped (complex: each half).
// Fails as check_tensor_bounds, (unsupported) for a repeating view beyond
// k_max_repeating_view_bytes, or with the source's read error.
Result<Tensor> load_tensor(const ByteSource& src, const TensorInfo& info);

// read_tensor_info + load_tensor.
Result<Tensor> read_tensor(const ByteSource& src, const ReadOptions& options = {});

// Reverses the bytes of each element of `dtype` in `data` (complex: each real/imag half).
void byte_swap_elements(std::span<std::byte> data, DType dtype);

}  // namespace msdump::tensor

#pragma once
// Raw tensors: bare elements at a known offset, described from outside (dtype, shape).

#include <cstdint>
#include <span>

#include "core/byte_source.h"
#include "core/dtype.h"
#include "core/result.h"
#include "tensor/tensor.h"

namespace msdump::tensor {

struct RawSpec {
  DType dtype = DType::float32;
  Shape shape;                // [] for one element
  std::uint64_t offset = 0;   // byte offset of the first element
  bool big_endian = false;    // elements are stored big-endian
};

// Describes C-contiguous elements at spec.offset. Errors are prefixed with "'<source name>': ".
// Fails (invalid_input) on a negative dimension, a shape whose byte size overflows, or
// elements reaching beyond the end of the source.
Result<TensorInfo> raw_tensor_info(const ByteSource& src, const RawSpec& spec);

// The same description written into `out`, reusing its vectors' capacity (convert describes
// one raw leaf after another: no allocation per leaf). `out` is unspecified on failure.
Result<void> describe_raw(const ByteSource& src, DType dtype, std::span<const std::int64_t> shape, std::uint64_t offset,
                          bool big_endian, TensorInfo& out);

}  // namespace msdump::tensor

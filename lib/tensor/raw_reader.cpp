#include "tensor/raw_reader.h"

#include <fmt/format.h>

#include "tensor/source_error.h"

namespace msdump::tensor {

Result<TensorInfo> raw_tensor_info(const ByteSource& src, const RawSpec& spec) {
  const auto numel = checked_numel(spec.shape);
  std::uint64_t nbytes = 0;
  if (!numel || __builtin_mul_overflow(static_cast<std::uint64_t>(*numel), itemsize(spec.dtype), &nbytes))
    return source_error(src, invalid_input(fmt::format("raw shape {} is negative or has more elements than fit in 64 bits",
                                                       format_shape(spec.shape))));
  if (spec.offset > src.size() || nbytes > src.size() - spec.offset)
    return source_error(src, invalid_input(fmt::format("raw tensor {} {} needs {} bytes at offset {}, the source has {} bytes",
                                                       format_shape(spec.shape), dtype_name(spec.dtype), nbytes,
                                                       spec.offset, src.size())));
  TensorInfo info;
  info.format = TensorFormat::raw;
  info.dtype = spec.dtype;
  info.shape = spec.shape;
  info.strides = contiguous_strides(spec.shape);
  info.data_offset = spec.offset;
  info.storage_bytes = nbytes;
  info.big_endian = spec.big_endian && itemsize(spec.dtype) > 1;
  return info;
}

}  // namespace msdump::tensor

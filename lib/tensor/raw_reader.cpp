#include "tensor/raw_reader.h"

#include <fmt/format.h>

#include "tensor/source_error.h"

namespace msdump::tensor {

Result<void> describe_raw(const ByteSource& src, DType dtype, std::span<const std::int64_t> shape, std::uint64_t offset,
                          bool big_endian, TensorInfo& out) {
  const auto numel = checked_numel(shape);
  std::uint64_t nbytes = 0;
  if (!numel || __builtin_mul_overflow(static_cast<std::uint64_t>(*numel), itemsize(dtype), &nbytes))
    return source_error(src, invalid_input(fmt::format("raw shape {} is negative or has more elements than fit in 64 bits",
                                                       format_shape(shape))));
  if (offset > src.size() || nbytes > src.size() - offset)
    return source_error(src, invalid_input(fmt::format("raw tensor {} {} needs {} bytes at offset {}, the source has {} bytes",
                                                       format_shape(shape), dtype_name(dtype), nbytes, offset, src.size())));
  out.format = TensorFormat::raw;
  out.dtype = dtype;
  out.shape.assign(shape.begin(), shape.end());
  out.strides.resize(shape.size());
  std::int64_t stride = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {  // contiguous_strides, in place
    out.strides[k] = stride;
    const std::int64_t d = shape[k] > 1 ? shape[k] : 1;
    if (__builtin_mul_overflow(stride, d, &stride)) stride = INT64_MAX;
  }
  out.storage_offset = 0;
  out.data_offset = offset;
  out.storage_bytes = nbytes;
  out.big_endian = big_endian && itemsize(dtype) > 1;
  out.requires_grad = false;
  out.location.clear();
  return {};
}

Result<TensorInfo> raw_tensor_info(const ByteSource& src, const RawSpec& spec) {
  TensorInfo info;
  MSDUMP_TRY(describe_raw(src, spec.dtype, spec.shape, spec.offset, spec.big_endian, info));
  return info;
}

}  // namespace msdump::tensor

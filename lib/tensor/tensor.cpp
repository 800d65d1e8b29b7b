#include "tensor/tensor.h"

namespace msdump::tensor {
namespace {
std::int64_t product(std::span<const std::int64_t> shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}
}  // namespace

std::string_view to_string(TensorFormat f) {
  switch (f) {
    case TensorFormat::pt: return "pt";
    case TensorFormat::npy: return "npy";
    case TensorFormat::raw: return "raw";
  }
  return "?";
}

std::int64_t TensorInfo::numel() const { return product(shape); }
std::uint64_t TensorInfo::nbytes() const { return static_cast<std::uint64_t>(numel()) * itemsize(dtype); }

bool TensorInfo::is_contiguous() const {
  std::int64_t expected = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    if (shape[k] == 1) continue;
    if (strides[k] != expected) return false;
    expected *= shape[k];
  }
  return true;
}

std::uint64_t TensorInfo::first_byte() const {
  return data_offset + static_cast<std::uint64_t>(storage_offset) * itemsize(dtype);
}

std::int64_t TensorView::numel() const { return product(shape); }
std::int64_t Tensor::numel() const { return product(shape); }

}  // namespace msdump::tensor

#include "tensor/tensor.h"

#include <cstdint>
#include <string>

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

std::string format_shape(std::span<const std::int64_t> shape) {
  std::string s = "[";
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (k != 0) s += ',';
    s += std::to_string(shape[k]);
  }
  return s + "]";
}

std::optional<std::int64_t> checked_numel(std::span<const std::int64_t> shape) {
  std::int64_t n = 1;
  bool zero = false;
  for (auto d : shape) {
    if (d < 0) return std::nullopt;
    if (d == 0) zero = true;
  }
  // Overflow counts only when no dimension is 0 (numpy and torch accept (0, 2**62, 2**62)).
  for (auto d : shape) {
    if (zero) return 0;
    if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
  }
  return n;
}

std::vector<std::int64_t> contiguous_strides(std::span<const std::int64_t> shape) {
  std::vector<std::int64_t> strides(shape.size());
  std::int64_t s = 1;
  for (std::size_t k = shape.size(); k-- > 0;) {
    strides[k] = s;
    const std::int64_t d = shape[k] > 1 ? shape[k] : 1;
    if (__builtin_mul_overflow(s, d, &s)) s = INT64_MAX;
  }
  return strides;
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

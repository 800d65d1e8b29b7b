#pragma once
// Tensor metadata and tensor data, independent of the file format they came from.
//   TensorInfo  where a tensor's elements are in a ByteSource and how they are laid out
//               (produced by the format readers from headers alone; no element is read);
//   Tensor      owns C-contiguous elements in native byte order;
//   TensorView  borrows C-contiguous elements in native byte order.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace msdump::tensor {

using Shape = std::vector<std::int64_t>;

enum class TensorFormat { pt, npy, raw };
std::string_view to_string(TensorFormat f);  // "pt" | "npy" | "raw"

// "[2,3]" ("[]" for 0-dim): how shapes appear in error messages.
std::string format_shape(std::span<const std::int64_t> shape);

// Product of `shape`, or nullopt when a dimension is negative or the product overflows int64.
std::optional<std::int64_t> checked_numel(std::span<const std::int64_t> shape);

// C-contiguous strides for `shape` in elements (torch's rule: size-0 dims count as 1).
std::vector<std::int64_t> contiguous_strides(std::span<const std::int64_t> shape);

struct TensorInfo {
  DType dtype = DType::float32;
  Shape shape;                        // [] for 0-dim
  std::vector<std::int64_t> strides;  // in elements, one per dim (npy fortran order -> F strides)
  std::int64_t storage_offset = 0;    // in elements, from data_offset
  std::uint64_t data_offset = 0;      // byte offset in the source where the storage starts
  std::uint64_t storage_bytes = 0;    // bytes available for the storage
  bool big_endian = false;            // elements must be byte-swapped to be used on this host
  bool requires_grad = false;         // .pt only
  TensorFormat format = TensorFormat::raw;
  std::string location;               // .pt storage location tag ("cpu", "npu:0"); "" otherwise

  std::int64_t numel() const;         // product of shape (1 for 0-dim)
  std::uint64_t nbytes() const;       // numel * itemsize
  bool is_contiguous() const;         // C-contiguous over the shape (size-1 dims ignored)
  // Byte offset of the first element in the source (data_offset + storage_offset * itemsize).
  std::uint64_t first_byte() const;
};

struct TensorView {
  DType dtype = DType::float32;
  std::span<const std::int64_t> shape;
  std::span<const std::byte> data;  // numel * itemsize bytes, C order, native endian
  std::int64_t numel() const;
};

struct Tensor {
  DType dtype = DType::float32;
  Shape shape;
  std::vector<std::byte> data;  // C order, native endian
  bool requires_grad = false;
  TensorView view() const { return {dtype, shape, data}; }
  std::int64_t numel() const;
};

}  // namespace msdump::tensor

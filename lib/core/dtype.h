#pragma once
// Element types msdump understands, with their names in every framework. One table
// (k_dtypes in dtype.cpp) drives every lookup, so adding a dtype is one row.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace msdump {

enum class DType : std::uint8_t {
  float16,
  bfloat16,
  float32,
  float64,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  boolean,
  complex64,
  complex128,
  float8_e4m3fn,
  float8_e5m2,
};

enum class DTypeKind : std::uint8_t { floating, signed_int, unsigned_int, boolean, complex, float8 };

struct DTypeInfo {
  DType id;
  std::string_view name;            // msdump's canonical name: "float32", "bfloat16", ...
  std::size_t itemsize;             // bytes per element
  DTypeKind kind;
  std::string_view torch_name;      // str(tensor.dtype): "torch.float32"
  std::string_view mindspore_name;  // str(ms_tensor.dtype): "Float32"
  std::string_view npy_descr;       // little-endian numpy descr: "<f4" ("" when numpy has none)
  std::string_view torch_storage;   // legacy typed storage class: "FloatStorage" ("" if none)
};

// The whole table, in enum order.
std::span<const DTypeInfo> all_dtypes();
const DTypeInfo& dtype_info(DType d);
inline std::size_t itemsize(DType d) { return dtype_info(d).itemsize; }
inline std::string_view dtype_name(DType d) { return dtype_info(d).name; }

// Lookups by name; nullopt when unknown.
std::optional<DType> dtype_from_name(std::string_view canonical);       // "float32"
std::optional<DType> dtype_from_torch_name(std::string_view s);          // "torch.float32" or "float32"
std::optional<DType> dtype_from_mindspore_name(std::string_view s);      // "Float32"
std::optional<DType> dtype_from_torch_storage(std::string_view s);       // "FloatStorage"
// Accepts any of the spellings above (canonical, torch, MindSpore).
std::optional<DType> dtype_from_any_name(std::string_view s);

}  // namespace msdump

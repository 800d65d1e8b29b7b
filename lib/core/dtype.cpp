#include "core/dtype.h"

#include <array>

namespace msdump {
namespace {

using K = DTypeKind;
constexpr std::array<DTypeInfo, 17> k_dtypes{{
    {DType::float16, "float16", 2, K::floating, "torch.float16", "Float16", "<f2", "HalfStorage"},
    {DType::bfloat16, "bfloat16", 2, K::floating, "torch.bfloat16", "BFloat16", "", "BFloat16Storage"},
    {DType::float32, "float32", 4, K::floating, "torch.float32", "Float32", "<f4", "FloatStorage"},
    {DType::float64, "float64", 8, K::floating, "torch.float64", "Float64", "<f8", "DoubleStorage"},
    {DType::int8, "int8", 1, K::signed_int, "torch.int8", "Int8", "|i1", "CharStorage"},
    {DType::int16, "int16", 2, K::signed_int, "torch.int16", "Int16", "<i2", "ShortStorage"},
    {DType::int32, "int32", 4, K::signed_int, "torch.int32", "Int32", "<i4", "IntStorage"},
    {DType::int64, "int64", 8, K::signed_int, "torch.int64", "Int64", "<i8", "LongStorage"},
    {DType::uint8, "uint8", 1, K::unsigned_int, "torch.uint8", "UInt8", "|u1", "ByteStorage"},
    {DType::uint16, "uint16", 2, K::unsigned_int, "torch.uint16", "UInt16", "<u2", ""},
    {DType::uint32, "uint32", 4, K::unsigned_int, "torch.uint32", "UInt32", "<u4", ""},
    {DType::uint64, "uint64", 8, K::unsigned_int, "torch.uint64", "UInt64", "<u8", ""},
    {DType::boolean, "bool", 1, K::boolean, "torch.bool", "Bool", "|b1", "BoolStorage"},
    {DType::complex64, "complex64", 8, K::complex, "torch.complex64", "Complex64", "<c8", "ComplexFloatStorage"},
    {DType::complex128, "complex128", 16, K::complex, "torch.complex128", "Complex128", "<c16",
     "ComplexDoubleStorage"},
    {DType::float8_e4m3fn, "float8_e4m3fn", 1, K::float8, "torch.float8_e4m3fn", "Float8E4M3FN", "", ""},
    {DType::float8_e5m2, "float8_e5m2", 1, K::float8, "torch.float8_e5m2", "Float8E5M2", "", ""},
}};

template <typename Field>
std::optional<DType> find_by(std::string_view s, Field field) {
  if (s.empty()) return std::nullopt;
  for (const auto& info : k_dtypes)
    if (info.*field == s) return info.id;
  return std::nullopt;
}

}  // namespace

std::span<const DTypeInfo> all_dtypes() { return k_dtypes; }

const DTypeInfo& dtype_info(DType d) { return k_dtypes[static_cast<std::size_t>(d)]; }

std::optional<DType> dtype_from_name(std::string_view s) { return find_by(s, &DTypeInfo::name); }

std::optional<DType> dtype_from_torch_name(std::string_view s) {
  if (auto d = find_by(s, &DTypeInfo::torch_name)) return d;
  // torch.dtype globals in pickles and aliases used by torch's repr.
  if (s.starts_with("torch.")) s.remove_prefix(6);
  if (s == "half") return DType::float16;
  if (s == "float") return DType::float32;
  if (s == "double") return DType::float64;
  if (s == "long") return DType::int64;
  if (s == "int") return DType::int32;
  if (s == "short") return DType::int16;
  if (s == "cfloat") return DType::complex64;
  if (s == "cdouble") return DType::complex128;
  return find_by(s, &DTypeInfo::name);
}

std::optional<DType> dtype_from_mindspore_name(std::string_view s) {
  return find_by(s, &DTypeInfo::mindspore_name);
}

std::optional<DType> dtype_from_torch_storage(std::string_view s) {
  return find_by(s, &DTypeInfo::torch_storage);
}

std::optional<DType> dtype_from_any_name(std::string_view s) {
  if (auto d = dtype_from_name(s)) return d;
  if (auto d = dtype_from_torch_name(s)) return d;
  return dtype_from_mindspore_name(s);
}

}  // namespace msdump

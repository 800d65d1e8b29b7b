#pragma once
// Internal to lib/stats: how one element of each dtype enters the statistics. Shared by the
// SIMD kernels, their scalar tails and the scalar reference, so all three agree by construction.
//
// Max/min are tracked as int64 "keys" whose integer order is the order msdump reports:
//   - floating formats: the bits with the magnitude flipped for negative values, which orders
//     -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf < +NaN. Max/min are therefore exact,
//     independent of the element order (-0.0 < +0.0 breaks the tie), and a NaN anywhere shows
//     up as a NaN max or min;
//   - integers: the value (uint64 with the top bit flipped so it fits the signed order);
//   - bool: the byte (max != 0 <=> any, min != 0 <=> all);
//   - complex: the key of |z| (float32 for complex64, float64 for complex128).
// Sums use a double "value": the element itself, |z| for complex, float32(x) for msprobe's
// .float() casts of integer/float64 tensors.
//
// Every function here is `static`: the SIMD tiers (cmake/SimdTiers.cmake) compile this header
// with their own instruction sets, and a function the compiler chose not to inline would
// otherwise be one weak symbol that the linker could hand, built with AVX2, to baseline callers
// (the simd_tier_symbols tests check the tiers' objects).

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/dtype.h"
#include "stats/float_convert.h"

namespace msdump::stats::detail {

template <typename T>
static T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Order-preserving keys of sign-magnitude floating bit patterns (an involution: applying it to
// a key gives the bits back).
static inline std::int64_t float_key(std::uint8_t bits) {
  const auto s = static_cast<std::int8_t>(bits);
  return static_cast<std::int8_t>(s ^ ((s >> 7) & 0x7f));
}
static inline std::int64_t float_key(std::uint16_t bits) {
  const auto s = static_cast<std::int16_t>(bits);
  return static_cast<std::int16_t>(s ^ ((s >> 15) & 0x7fff));
}
static inline std::int64_t float_key(std::uint32_t bits) {
  const auto s = static_cast<std::int32_t>(bits);
  return s ^ ((s >> 31) & 0x7fffffff);
}
static inline std::int64_t float_key(std::uint64_t bits) {
  const auto s = static_cast<std::int64_t>(bits);
  return s ^ ((s >> 63) & std::numeric_limits<std::int64_t>::max());
}
static inline std::int64_t uint64_key(std::uint64_t v) {
  return static_cast<std::int64_t>(v ^ (std::uint64_t{1} << 63));
}

// |z| of a complex64 in float32, as numpy's np.abs: inf if either part is infinite, else the
// square root of the exact double sum of squares, rounded to float.
static inline float complex64_abs(float re, float im) {
  if (std::isinf(re) || std::isinf(im)) return std::numeric_limits<float>::infinity();
  const double r = re, i = im;
  return static_cast<float>(std::sqrt(r * r + i * i));
}

struct ElementValue {
  std::int64_t key;
  double value;
};

// Key and value of the element at p (itemsize(dtype) bytes, native endian).
static inline ElementValue element_value(DType dtype, const std::byte* p, bool float32_elements) {
  auto as_value = [float32_elements](auto x) {
    const double d = static_cast<double>(x);
    return float32_elements ? static_cast<double>(static_cast<float>(x)) : d;
  };
  switch (dtype) {
    case DType::float16: {
      const auto b = load<std::uint16_t>(p);
      return {float_key(b), half_to_float(b)};
    }
    case DType::bfloat16: {
      const auto b = load<std::uint16_t>(p);
      return {float_key(b), bfloat16_to_float(b)};
    }
    case DType::float32: {
      const auto b = load<std::uint32_t>(p);
      return {float_key(b), std::bit_cast<float>(b)};
    }
    case DType::float64: {
      const auto b = load<std::uint64_t>(p);
      return {float_key(b), as_value(std::bit_cast<double>(b))};
    }
    case DType::int8: { const auto v = load<std::int8_t>(p); return {v, as_value(v)}; }
    case DType::int16: { const auto v = load<std::int16_t>(p); return {v, as_value(v)}; }
    case DType::int32: { const auto v = load<std::int32_t>(p); return {v, as_value(v)}; }
    case DType::int64: { const auto v = load<std::int64_t>(p); return {v, as_value(v)}; }
    case DType::uint8: { const auto v = load<std::uint8_t>(p); return {v, as_value(v)}; }
    case DType::uint16: { const auto v = load<std::uint16_t>(p); return {v, as_value(v)}; }
    case DType::uint32: { const auto v = load<std::uint32_t>(p); return {v, as_value(v)}; }
    case DType::uint64: { const auto v = load<std::uint64_t>(p); return {uint64_key(v), as_value(v)}; }
    case DType::boolean: {
      const auto v = load<std::uint8_t>(p);
      return {v, v != 0 ? 1.0 : 0.0};
    }
    case DType::complex64: {
      const float a = complex64_abs(load<float>(p), load<float>(p + 4));
      return {float_key(std::bit_cast<std::uint32_t>(a)), a};
    }
    case DType::complex128: {
      const double a = std::hypot(load<double>(p), load<double>(p + 8));
      return {float_key(std::bit_cast<std::uint64_t>(a)), a};
    }
    case DType::float8_e4m3fn: {
      const auto b = load<std::uint8_t>(p);
      return {float_key(b), float8_e4m3fn_to_float(b)};
    }
    case DType::float8_e5m2: {
      const auto b = load<std::uint8_t>(p);
      return {float_key(b), float8_e5m2_to_float(b)};
    }
  }
  return {0, 0.0};
}

// The floating value a float-kind key stands for (floating, float8 and complex dtypes).
static inline double float_from_key(DType dtype, std::int64_t key) {
  switch (dtype) {
    case DType::float16:
      return half_to_float(static_cast<std::uint16_t>(float_key(static_cast<std::uint16_t>(key))));
    case DType::bfloat16:
      return bfloat16_to_float(static_cast<std::uint16_t>(float_key(static_cast<std::uint16_t>(key))));
    case DType::float32:
    case DType::complex64:
      return std::bit_cast<float>(static_cast<std::uint32_t>(float_key(static_cast<std::uint32_t>(key))));
    case DType::float64:
    case DType::complex128:
      return std::bit_cast<double>(static_cast<std::uint64_t>(float_key(static_cast<std::uint64_t>(key))));
    case DType::float8_e4m3fn:
      return float8_e4m3fn_to_float(static_cast<std::uint8_t>(float_key(static_cast<std::uint8_t>(key))));
    case DType::float8_e5m2:
      return float8_e5m2_to_float(static_cast<std::uint8_t>(float_key(static_cast<std::uint8_t>(key))));
    default: return static_cast<double>(key);
  }
}

}  // namespace msdump::stats::detail

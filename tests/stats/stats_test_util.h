#pragma once
// Test data for the statistics tests: element bytes of every dtype, random or special.

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <vector>

#include <doctest/doctest.h>

#include "core/dtype.h"
#include "stats/accumulator.h"
#include "stats/float_convert.h"

namespace msdump::stats::testing {

template <typename T>
void put(std::vector<std::byte>& out, std::size_t index, T v) {
  std::memcpy(out.data() + index * sizeof(T), &v, sizeof(T));
}

// Bits of a finite value with a random sign, a random exponent field in [lo, hi] and a random
// mantissa, for a sign-magnitude format with `mant` mantissa bits and `total` bits.
inline std::uint64_t finite_bits(std::mt19937_64& rng, int total, int mant, std::uint64_t lo, std::uint64_t hi) {
  const std::uint64_t exponent = lo + rng() % (hi - lo + 1);
  const std::uint64_t mantissa = rng() & ((std::uint64_t{1} << mant) - 1);
  const std::uint64_t sign = rng() & 1;
  return (sign << (total - 1)) | (exponent << mant) | mantissa;
}

// n random elements of `dtype`. Floating values are finite, with exponents over a moderate
// range (so sums are meaningful); integers use all bits; bools are 0/1.
inline std::vector<std::byte> random_elements(DType dtype, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<std::byte> out(n * itemsize(dtype));
  for (std::size_t i = 0; i < n; ++i) {
    switch (dtype) {
      case DType::float16: put(out, i, static_cast<std::uint16_t>(finite_bits(rng, 16, 10, 0, 30))); break;
      case DType::bfloat16: put(out, i, static_cast<std::uint16_t>(finite_bits(rng, 16, 7, 100, 150))); break;
      case DType::float32: put(out, i, static_cast<std::uint32_t>(finite_bits(rng, 32, 23, 100, 150))); break;
      case DType::float64: put(out, i, finite_bits(rng, 64, 52, 900, 1100)); break;
      case DType::complex64:
        put(out, 2 * i, static_cast<std::uint32_t>(finite_bits(rng, 32, 23, 110, 140)));
        put(out, 2 * i + 1, static_cast<std::uint32_t>(finite_bits(rng, 32, 23, 110, 140)));
        break;
      case DType::complex128:
        put(out, 2 * i, finite_bits(rng, 64, 52, 1000, 1040));
        put(out, 2 * i + 1, finite_bits(rng, 64, 52, 1000, 1040));
        break;
      case DType::float8_e4m3fn: {
        auto b = static_cast<std::uint8_t>(rng());
        if ((b & 0x7f) == 0x7f) b = static_cast<std::uint8_t>(b - 1);  // not NaN
        put(out, i, b);
        break;
      }
      case DType::float8_e5m2: put(out, i, static_cast<std::uint8_t>(finite_bits(rng, 8, 2, 0, 30))); break;
      case DType::boolean: put(out, i, static_cast<std::uint8_t>(rng() & 1)); break;
      default: {
        const std::uint64_t bits = rng();
        std::memcpy(out.data() + i * itemsize(dtype), &bits, itemsize(dtype));
      }
    }
  }
  return out;
}

// Bit patterns of special values of a floating dtype: NaN, +inf, -inf, +0, -0, the smallest
// subnormal (both signs), the largest finite. Formats without inf repeat the largest finite.
inline std::vector<std::uint64_t> special_bits(DType dtype) {
  switch (dtype) {
    case DType::float16: return {0x7e00, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001, 0x8001, 0x7bff, 0xfe00};
    case DType::bfloat16: return {0x7fc0, 0x7f80, 0xff80, 0x0000, 0x8000, 0x0001, 0x8001, 0x7f7f, 0xffc0};
    case DType::float32:
    case DType::complex64:
      return {0x7fc00000, 0x7f800000, 0xff800000, 0x0, 0x80000000, 0x1, 0x80000001, 0x7f7fffff, 0xffc00000};
    case DType::float64:
    case DType::complex128:
      return {0x7ff8000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x0, 0x8000000000000000, 0x1,
              0x8000000000000001, 0x7fefffffffffffff, 0xfff8000000000000};
    case DType::float8_e4m3fn: return {0x7f, 0x7e, 0xfe, 0x00, 0x80, 0x01, 0x81, 0x7e};
    case DType::float8_e5m2: return {0x7e, 0x7c, 0xfc, 0x00, 0x80, 0x01, 0x81, 0x7b};
    default: return {};
  }
}

// Writes special value `which` (index into special_bits) as element i (for complex: real part).
inline void put_special(std::vector<std::byte>& out, DType dtype, std::size_t i, std::size_t which) {
  const auto bits = special_bits(dtype).at(which);
  const std::size_t width = itemsize(dtype) / (dtype_info(dtype).kind == DTypeKind::complex ? 2 : 1);
  std::memcpy(out.data() + i * itemsize(dtype), &bits, width);
}

inline bool same_double(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b) || (std::isnan(a) && std::isnan(b));
}

// |a - b| within rel * scale (or both equal/NaN).
inline bool close(double a, double b, double scale, double rel = 1e-12) {
  if (same_double(a, b) || a == b) return true;
  if (!std::isfinite(a) || !std::isfinite(b)) return false;
  return std::fabs(a - b) <= rel * scale;
}

// The Moments fields every way of computing them must agree on exactly: counts, extremes,
// flags and the CRC (sums may differ with the summation order; callers check those).
inline void check_exact_fields(const Moments& a, const Moments& b) {
  CHECK(a.count == b.count);
  CHECK(a.has_nan == b.has_nan);
  CHECK(same_double(a.max, b.max));
  CHECK(same_double(a.min, b.min));
  CHECK(a.max_int == b.max_int);
  CHECK(a.min_int == b.min_int);
  CHECK(a.max_uint == b.max_uint);
  CHECK(a.min_uint == b.min_uint);
  CHECK(a.any == b.any);
  CHECK(a.all == b.all);
  CHECK(a.crc32 == b.crc32);
}

}  // namespace msdump::stats::testing

#include "stats/float_convert.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <optional>

namespace msdump::stats {
namespace {

// The binary format of a floating dtype: p significand bits (with the implicit one), the
// smallest normal exponent, the largest finite value, and whether overflow gives inf or NaN.
struct FloatFormat {
  int precision;
  int min_exponent;
  double max_finite;
  bool has_infinity;
};

std::optional<FloatFormat> float_format(DType dtype) {
  switch (dtype) {
    case DType::float16: return FloatFormat{11, -14, 65504.0, true};
    case DType::bfloat16: return FloatFormat{8, -126, 0x1.fep127, true};
    case DType::float32:
    case DType::complex64: return FloatFormat{24, -126, 0x1.fffffep127, true};
    case DType::float64:
    case DType::complex128: return FloatFormat{53, -1022, std::numeric_limits<double>::max(), true};
    case DType::float8_e4m3fn: return FloatFormat{4, -6, 448.0, false};
    case DType::float8_e5m2: return FloatFormat{3, -14, 57344.0, true};
    default: return std::nullopt;
  }
}

}  // namespace

float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu;
  const std::uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0) {
    // zero or subnormal: mantissa * 2^-24, exact in float
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float bfloat16_to_float(std::uint16_t bits) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

float float8_e4m3fn_to_float(std::uint8_t bits) {
  const bool negative = (bits & 0x80u) != 0;
  const int exponent = (bits >> 3) & 0xf;
  const int mantissa = bits & 0x7;
  float magnitude;
  if (exponent == 15 && mantissa == 7) {
    magnitude = std::numeric_limits<float>::quiet_NaN();
  } else if (exponent == 0) {
    magnitude = std::ldexp(static_cast<float>(mantissa), -9);
  } else {
    magnitude = std::ldexp(static_cast<float>(8 + mantissa), exponent - 10);
  }
  return negative ? -magnitude : magnitude;
}

float float8_e5m2_to_float(std::uint8_t bits) {
  // e5m2 is exactly the upper byte of an IEEE binary16
  return half_to_float(static_cast<std::uint16_t>(bits << 8));
}

double round_to_dtype(double v, DType dtype) {
  const auto format = float_format(dtype);
  if (!format || format->precision == 53) return v;
  if (std::isnan(v) || v == 0.0) return v;
  if (std::isinf(v)) return format->has_infinity ? v : std::numeric_limits<double>::quiet_NaN();
  // Scale so the dtype's ULP at v becomes 1, round to an integer (ties to even in the default
  // rounding mode), scale back. Both scalings are by powers of two and therefore exact.
  const int exponent = std::max(std::ilogb(v), format->min_exponent);
  const int ulp_exponent = exponent - (format->precision - 1);
  const double rounded = std::ldexp(std::nearbyint(std::ldexp(v, -ulp_exponent)), ulp_exponent);
  if (std::fabs(rounded) > format->max_finite) {
    if (!format->has_infinity) return std::numeric_limits<double>::quiet_NaN();
    return std::copysign(std::numeric_limits<double>::infinity(), v);
  }
  return rounded;
}

bool representable_in(double v, DType dtype) {
  const auto& info = dtype_info(dtype);
  switch (info.kind) {
    case DTypeKind::boolean: return v == 0.0 || v == 1.0;
    case DTypeKind::signed_int:
    case DTypeKind::unsigned_int: {
      if (!std::isfinite(v) || std::trunc(v) != v) return false;
      const double bits = static_cast<double>(info.itemsize * 8);
      if (info.kind == DTypeKind::unsigned_int) return v >= 0.0 && v < std::exp2(bits);
      return v >= -std::exp2(bits - 1) && v < std::exp2(bits - 1);
    }
    default: break;
  }
  if (std::isnan(v)) return true;
  if (std::isinf(v)) return float_format(dtype)->has_infinity;
  return round_to_dtype(v, dtype) == v;
}

double ulp_of(double v, DType dtype) {
  if (!std::isfinite(v)) return std::numeric_limits<double>::infinity();
  const auto format = float_format(dtype);
  if (!format) return 1.0;  // integer dtypes: spacing 1
  const int exponent = v == 0.0 ? format->min_exponent : std::max(std::ilogb(v), format->min_exponent);
  return std::ldexp(1.0, exponent - (format->precision - 1));
}

}  // namespace msdump::stats

#include "stats/rounding_bounds.h"

#include <cmath>
#include <limits>

namespace msdump::stats {

double unit_roundoff(DType t) {
  switch (t) {
    case DType::float32:
    case DType::complex64: return std::ldexp(1.0, -24);
    case DType::float64:
    case DType::complex128: return std::ldexp(1.0, -53);
    case DType::float16: return std::ldexp(1.0, -11);
    case DType::bfloat16: return std::ldexp(1.0, -8);
    default: return 0.0;
  }
}

double summation_gamma(std::uint64_t n, DType accumulation) {
  if (n <= 1) return 0.0;
  const double nu = static_cast<double>(n - 1) * unit_roundoff(accumulation);
  if (nu >= 1.0) return std::numeric_limits<double>::infinity();
  return nu / (1.0 - nu);
}

DType accumulation_dtype(DType statistic_dtype) {
  return statistic_dtype == DType::float64 || statistic_dtype == DType::complex128 ? DType::float64 : DType::float32;
}

double largest_finite(DType t) {
  switch (t) {
    case DType::float64:
    case DType::complex128: return std::numeric_limits<double>::max();
    case DType::float16: return 65504.0;
    case DType::bfloat16: return std::ldexp(255.0 / 128.0, 127);  // 0x7f7f
    default: return static_cast<double>(std::numeric_limits<float>::max());
  }
}

double smallest_subnormal(DType t) {
  switch (t) {
    case DType::float64:
    case DType::complex128: return std::numeric_limits<double>::denorm_min();
    case DType::float16: return std::ldexp(1.0, -24);
    case DType::bfloat16: return std::ldexp(1.0, -133);
    default: return static_cast<double>(std::numeric_limits<float>::denorm_min());
  }
}

double mean_range_slack(std::uint64_t n, double max_abs, DType statistic_dtype) {
  return mean_range_slack(n, max_abs, statistic_dtype, accumulation_dtype(statistic_dtype));
}

double mean_range_slack(std::uint64_t n, double max_abs, DType statistic_dtype, DType accumulation) {
  const double g = summation_gamma(n, accumulation);
  if (!std::isfinite(g)) return std::numeric_limits<double>::infinity();
  return (g + 3 * unit_roundoff(statistic_dtype)) * max_abs + smallest_subnormal(statistic_dtype);
}

bool is_float16_mean_overflow(double mean, std::uint64_t n, DType statistic_dtype) {
  return statistic_dtype == DType::float16 && n > 65504 && (mean == 0.0 || std::isnan(mean));
}

bool can_overflow(double exact_sum, std::uint64_t n, DType statistic_dtype) {
  if (!std::isfinite(exact_sum)) return true;
  const DType a = accumulation_dtype(statistic_dtype);
  const double limit = std::min(largest_finite(a), largest_finite(statistic_dtype));
  // The largest partial sum is at most (1 + gamma) sum; a 16-bit sum may be rounded to T.
  const double g = summation_gamma(n, a);
  return !std::isfinite(g) || exact_sum * (1 + g) * (1 + unit_roundoff(statistic_dtype)) >= limit;
}

double norm_underflow_slack(std::uint64_t n, DType accumulation) {
  return std::sqrt(static_cast<double>(n) * smallest_subnormal(accumulation) / 2);
}

}  // namespace msdump::stats

#include "stats/rounding_bounds.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace msdump;
using namespace msdump::stats;

namespace {

// The float32 mean of n copies of v, summed left to right in float32 (the worst order).
float sequential_mean(float v, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; ++i) s += v;
  return s / static_cast<float>(n);
}

}  // namespace

TEST_CASE("unit roundoff and summation gamma") {
  CHECK(unit_roundoff(DType::float32) == std::ldexp(1.0, -24));
  CHECK(unit_roundoff(DType::bfloat16) == std::ldexp(1.0, -8));
  CHECK(unit_roundoff(DType::float16) == std::ldexp(1.0, -11));
  CHECK(unit_roundoff(DType::int32) == 0.0);
  CHECK(summation_gamma(1, DType::float32) == 0.0);
  CHECK(summation_gamma(11, DType::float32) == doctest::Approx(10 * std::ldexp(1.0, -24)).epsilon(1e-6));
  CHECK(std::isinf(summation_gamma(std::uint64_t{1} << 24 | 2, DType::float32)));
  CHECK(accumulation_dtype(DType::bfloat16) == DType::float32);
  CHECK(accumulation_dtype(DType::float64) == DType::float64);
}

TEST_CASE("mean range slack covers sequential float32 sums and nothing far beyond") {
  // A real msprobe dump: 12 float32 elements of 1/12, whose dumped Mean is below their Min.
  const double v = 0.0833333358168602, mean = 0.083333320915699;
  CHECK(v - mean <= mean_range_slack(12, v, DType::float32));
  // Worst order on constant data, for several n and values: the slack always covers it.
  for (int n : {2, 3, 7, 12, 100, 1000, 4097, 100000})
    for (float x : {1.0f / 12, 0.1f, 1.0f / 3, 7.1f, 1e-3f}) {
      const double m = sequential_mean(x, n);
      CAPTURE(n);
      CAPTURE(x);
      CHECK(std::fabs(m - x) <= mean_range_slack(n, x, DType::float32));
    }
  // ...while a Mean 1% off is outside it up to about 1.6e5 elements.
  CHECK(mean_range_slack(100000, 1.0, DType::float32) < 0.01);
  CHECK(std::isinf(mean_range_slack(std::uint64_t{1} << 25, 1.0, DType::float32)));
  // 16-bit statistics: three roundings to the dtype on top of the float32 sum.
  CHECK(mean_range_slack(2, 1.0, DType::bfloat16) >= 3 * std::ldexp(1.0, -8));
}

TEST_CASE("float16 mean of more than 65504 elements") {
  CHECK(is_float16_mean_overflow(0.0, 65505, DType::float16));
  CHECK(is_float16_mean_overflow(std::nan(""), 70000, DType::float16));
  CHECK_FALSE(is_float16_mean_overflow(0.0, 65504, DType::float16));
  CHECK_FALSE(is_float16_mean_overflow(0.0, 70000, DType::float32));
  CHECK_FALSE(is_float16_mean_overflow(0.5, 70000, DType::float16));
}

TEST_CASE("overflow of partial sums") {
  const double fmax = std::numeric_limits<float>::max();
  CHECK(can_overflow(fmax, 2, DType::float32));
  CHECK(can_overflow(2.0 * fmax, 2, DType::float32));
  CHECK_FALSE(can_overflow(fmax / 2, 2, DType::float32));
  CHECK(can_overflow(70000.0, 2, DType::float16));  // torch 1.13 rounds the float32 sum to float16
  CHECK_FALSE(can_overflow(60000.0, 2, DType::float16));
  CHECK(can_overflow(std::numeric_limits<double>::infinity(), 2, DType::float32));
}

TEST_CASE("norm underflow slack") {
  // float32 squares of 1e-30 vanish: sqrt(n * 1e-60) must be within the slack.
  const std::uint64_t n = 1000;
  CHECK(std::sqrt(n * 1e-60) <= norm_underflow_slack(n, DType::float32));
  CHECK(norm_underflow_slack(n, DType::float32) < 1e-20);
  CHECK(smallest_subnormal(DType::float16) == std::ldexp(1.0, -24));
  CHECK(largest_finite(DType::bfloat16) == doctest::Approx(3.3895313892515355e38));
}

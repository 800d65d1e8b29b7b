#include "stats/tolerance.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "stats/float_convert.h"

using namespace msdump;
using namespace msdump::stats;

namespace {
Moments moments(std::uint64_t n, double mean_abs) {
  Moments m;
  m.count = n;
  m.sum_abs = mean_abs * static_cast<double>(n);
  return m;
}
double f32(double v) { return static_cast<double>(static_cast<float>(v)); }
double next_f32(double v, int k) {
  float f = static_cast<float>(v);
  for (int i = 0; i < k; ++i) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}
}  // namespace

TEST_SUITE("msdump::stats") {
  TEST_CASE("float32 mean passes within 4 ULP plus 1e-5 of mean|x| and fails beyond") {
    const double r = f32(0.25);
    CHECK(check_statistic(StatKind::mean, next_f32(r, 4), r, DType::float32, moments(100, 0.0)).agreement ==
          Agreement::pass);
    const auto c = check_statistic(StatKind::mean, next_f32(r, 5), r, DType::float32, moments(100, 0.0));
    CHECK(c.agreement == Agreement::fail);
    CHECK(c.reason == "Mean 0.25000014901161194 vs recomputed 0.25: differs by 1.49e-07, allowed 1.19e-07");
    // a cancelling mean: judged against mean|x|
    CHECK(check_statistic(StatKind::mean, f32(1e-6), f32(2e-6), DType::float32, moments(100, 1.0)).agreement ==
          Agreement::pass);
  }

  TEST_CASE("float32 norm passes at 1e-5 relative and warns in the CPU band") {
    const double r = 1000.0;
    CHECK(check_statistic(StatKind::norm, f32(1000.009), r, DType::float32, moments(1000000, 1.0)).agreement ==
          Agreement::pass);
    const auto warn = check_statistic(StatKind::norm, f32(1000.4), r, DType::float32, moments(1000000, 1.0));
    CHECK(warn.agreement == Agreement::warn);
    CHECK(warn.reason == "Norm 1000.4000244140625 vs recomputed 1000: differs by 0.4, beyond 0.01 but within the "
                         "CPU band 31.2");
    CHECK(check_statistic(StatKind::norm, f32(1010.0), r, DType::float32, moments(10000, 1.0)).agreement ==
          Agreement::fail);
    // a float32 sum of squares in any order: sqrt(1 + gamma(1e6)) - 1 = 3.0 % at 1e6 elements
    CHECK(check_statistic(StatKind::norm, f32(1010.0), r, DType::float32, moments(1000000, 1.0)).agreement ==
          Agreement::warn);
    CHECK(check_statistic(StatKind::norm, f32(1050.0), r, DType::float32, moments(1000000, 1.0)).agreement ==
          Agreement::fail);
    // the band grows with n (5e-10 n): 2 % at 1e8 elements is still a CPU result
    CHECK(check_statistic(StatKind::norm, f32(1020.0), r, DType::float32, moments(100000000, 1.0)).agreement ==
          Agreement::warn);
  }

  TEST_CASE("bfloat16 mean passes at 1 ULP, warns at 2, fails at 3") {
    const double r = 1.5;
    const double ulp = ulp_of(r, DType::bfloat16);
    CHECK(check_statistic(StatKind::mean, r + ulp, r, DType::bfloat16, moments(10, 0.0)).agreement == Agreement::pass);
    CHECK(check_statistic(StatKind::mean, r + 2 * ulp, r, DType::bfloat16, moments(10, 0.0)).agreement ==
          Agreement::warn);
    CHECK(check_statistic(StatKind::mean, r + 3 * ulp, r, DType::bfloat16, moments(10, 0.0)).agreement ==
          Agreement::fail);
  }

  TEST_CASE("a recorded value that is not a value of the dtype fails") {
    const auto c = check_statistic(StatKind::norm, 1.5000001, 1.5, DType::bfloat16, moments(10, 1.0));
    CHECK(c.agreement == Agreement::fail);
    CHECK(c.reason == "Norm 1.5000001 vs recomputed 1.5: 1.5000001 is not a bfloat16 value");
  }

  TEST_CASE("NaN and infinities must match exactly") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(check_statistic(StatKind::mean, nan, nan, DType::float32, moments(3, 1.0)).agreement == Agreement::pass);
    CHECK(check_statistic(StatKind::norm, inf, inf, DType::float16, moments(3, 1.0)).agreement == Agreement::pass);
    const auto c = check_statistic(StatKind::mean, 1.0, nan, DType::float32, moments(3, 1.0));
    CHECK(c.agreement == Agreement::fail);
    CHECK(c.reason == "Mean 1 vs recomputed nan: non-finite values differ");
    CHECK(check_statistic(StatKind::norm, 65504.0, inf, DType::float16, moments(3, 1.0)).agreement ==
          Agreement::fail);
  }

  TEST_CASE("torch 1.13 CPU float16 pathologies only warn") {
    CHECK(check_statistic(StatKind::mean, 0.0, 0.5, DType::float16, moments(100000, 0.5)).agreement ==
          Agreement::warn);
    CHECK(check_statistic(StatKind::mean, std::nan(""), 0.5, DType::float16, moments(100000, 0.5)).agreement ==
          Agreement::warn);
    CHECK(check_statistic(StatKind::norm, 45.25, 1000.0, DType::float16, moments(1000000, 1.0)).agreement ==
          Agreement::warn);
    // a float16 sum of squares drifts up by at most 9x: a Norm up to 3x the exact one warns
    CHECK(check_statistic(StatKind::norm, 2000.0, 1000.0, DType::float16, moments(1000000, 1.0)).agreement ==
          Agreement::warn);
    CHECK(check_statistic(StatKind::norm, 3500.0, 1000.0, DType::float16, moments(1000000, 1.0)).agreement ==
          Agreement::fail);
    // ...and never below the largest |x|, which it contains
    Moments m = moments(1000, 1.0);
    m.max = 8.0;
    m.min = -1.0;
    CHECK(check_statistic(StatKind::norm, 8.0, 40.0, DType::float16, m).agreement == Agreement::warn);
    CHECK(check_statistic(StatKind::norm, 7.0, 40.0, DType::float16, m).agreement == Agreement::fail);
    // the same for bfloat16 (non-contiguous tensors on torch 1.13 CPU)
    CHECK(check_statistic(StatKind::norm, 4.0, 13.75, DType::bfloat16, m).agreement == Agreement::fail);
    m.max = 0.203125;
    CHECK(check_statistic(StatKind::norm, 4.0, 13.75, DType::bfloat16, m).agreement == Agreement::warn);
  }

  TEST_CASE("a non-finite statistic of finite data passes only where the partial sums can overflow") {
    const double inf = std::numeric_limits<double>::infinity();
    const double fmax = std::numeric_limits<float>::max();
    Moments m;
    m.count = 10;
    m.sum_abs = 10 * 0.9 * fmax;
    m.sum_sq = inf;
    CHECK(check_statistic(StatKind::mean, inf, 0.9 * fmax, DType::float32, m).agreement == Agreement::pass);
    CHECK(check_statistic(StatKind::mean, std::nan(""), 0.0, DType::float32, m).agreement == Agreement::pass);
    CHECK(check_statistic(StatKind::norm, inf, 3e38, DType::float32, m).agreement == Agreement::pass);
    CHECK(check_statistic(StatKind::norm, -inf, 3e38, DType::float32, m).agreement == Agreement::fail);
    m.sum_abs = 10.0;
    m.sum_sq = 10.0;
    CHECK(check_statistic(StatKind::mean, inf, 1.0, DType::float32, m).agreement == Agreement::fail);
    CHECK(check_statistic(StatKind::norm, inf, 3.16, DType::float32, m).agreement == Agreement::fail);
  }

  TEST_CASE("float32 sums in any order warn within gamma(n), beyond the lanes band") {
    // torch 1.13 CPU, an expanded float32 tensor of 33840 copies of 104.7479248046875
    Moments m;
    m.count = 33840;
    m.sum_abs = 33840 * 104.7479248046875;
    CHECK(check_statistic(StatKind::norm, 19271.830078125, 19269.0625, DType::float32, m).agreement ==
          Agreement::warn);
    CHECK(check_statistic(StatKind::norm, 19269.0625 * 1.01, 19269.0625, DType::float32, m).agreement ==
          Agreement::fail);
    m.count = 1000;
    m.sum_abs = 1000.0;
    CHECK(check_statistic(StatKind::mean, f32(1.0 + 3e-5), 1.0, DType::float32, m).agreement == Agreement::warn);
    CHECK(check_statistic(StatKind::mean, f32(1.001), 1.0, DType::float32, m).agreement == Agreement::fail);
  }

  TEST_CASE("squares that underflow may vanish from a Norm") {
    Moments m;
    m.count = 992;
    m.sum_abs = 992 * 9e-38;
    m.sum_sq = 992 * 8.1e-75;
    const double exact = std::sqrt(m.sum_sq);
    CHECK(check_statistic(StatKind::norm, 0.0, exact, DType::float32, m).agreement == Agreement::pass);
    CHECK(check_statistic(StatKind::norm, 1e-20, exact, DType::float32, m).agreement == Agreement::fail);
  }

  TEST_CASE("tolerance overrides replace the defaults") {
    const double r = 1.5;
    const double ulp = ulp_of(r, DType::bfloat16);
    ToleranceOptions strict;
    strict.ulps = 0;
    CHECK(check_statistic(StatKind::norm, r + ulp, r, DType::bfloat16, moments(10, 1.0), strict).agreement !=
          Agreement::pass);
    ToleranceOptions loose;
    loose.rtol = 0.1;
    CHECK(check_statistic(StatKind::norm, f32(1050.0), 1000.0, DType::float32, moments(10, 1.0), loose).agreement ==
          Agreement::pass);
  }

  TEST_CASE("max and min compare exactly with -0 == +0 and NaN == NaN") {
    CHECK(same_extreme(Scalar::floating(-0.0), Scalar::floating(0.0)));
    CHECK(same_extreme(Scalar::floating(std::nan("")), Scalar::floating(std::nan(""))));
    CHECK_FALSE(same_extreme(Scalar::floating(std::nan("")), Scalar::floating(1.0)));
    CHECK(same_extreme(Scalar::integer(967), Scalar::floating(967.0)));
    CHECK_FALSE(same_extreme(Scalar::floating(1.0), Scalar::floating(std::nextafter(1.0, 2.0))));
    CHECK_FALSE(same_extreme(Scalar::boolean(true), Scalar::boolean(false)));
    CHECK_FALSE(same_extreme(Scalar::boolean(true), Scalar::integer(1)));
    CHECK(same_extreme(Scalar::null(), Scalar::null()));
    CHECK_FALSE(same_extreme(Scalar::null(), Scalar::floating(0.0)));
  }

  TEST_CASE("complex |z| extremes pass within 2 ULP") {
    CHECK(check_complex_extreme(next_f32(5.0, 2), 5.0, DType::float32).agreement == Agreement::pass);
    CHECK(check_complex_extreme(next_f32(5.0, 3), 5.0, DType::float32).agreement == Agreement::fail);
  }
}

#include "stats/tolerance.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "stats/float_convert.h"
#include "stats/rounding_bounds.h"

namespace msdump::stats {
namespace {

struct Bounds {
  double ulps;
  double rtol;
  double atol_mean_abs;
};

Bounds default_bounds(StatKind kind, DType t) {
  const bool mean = kind == StatKind::mean;
  switch (t) {
    case DType::bfloat16:
    case DType::float16: return mean ? Bounds{1, 0, 1e-5} : Bounds{1, 0, 0};
    case DType::float64:
    case DType::complex128: return mean ? Bounds{32, 0, 1e-13} : Bounds{0, 1e-11, 0};
    default: return mean ? Bounds{4, 0, 1e-5} : Bounds{0, 1e-5, 0};
  }
}

std::optional<double> as_double(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::integer: return static_cast<double>(s.i);
    case Scalar::Kind::unsigned_integer: return static_cast<double>(s.u);
    case Scalar::Kind::floating: return s.d;
    default: return std::nullopt;
  }
}

// A non-finite statistic of a tensor of finite values is what the reduction gives when its
// partial results leave the finite range (docs/format.md §6.7): a Mean of +-inf or NaN (the
// partial sums overflowed, possibly both ways), a Norm of +inf.
bool overflowed_in_reduction(StatKind kind, double recorded, double expected, DType t, const Moments& m) {
  if (!std::isfinite(expected) || std::isfinite(recorded)) return false;
  if (kind == StatKind::norm) return recorded > 0 && can_overflow(m.sum_sq, m.count, t);
  return can_overflow(m.sum_abs, m.count, t);
}

// torch 1.13 on CPU accumulates float16 norms, and bfloat16 norms of non-contiguous tensors, in
// the 16-bit dtype itself: the sum of squares stalls (so the Norm can be as low as the largest
// |x|) or drifts up, by gamma(n, T) and at most 9x the exact sum (an addition of a term b >= 0
// that is not absorbed errs by at most 2b; lanes combined the same way), so a Norm of at most
// 3x the exact one (docs/format.md §6.7).
bool within_16bit_norm_band(double recorded, double expected, DType t, const Moments& m) {
  if (t != DType::float16 && t != DType::bfloat16) return false;
  const double u = unit_roundoff(t);
  const double max_abs = std::max(std::fabs(m.max), std::fabs(m.min));
  const double slack = ulp_of(recorded, t) + norm_underflow_slack(m.count, t);
  const double low = max_abs * (1 - 3 * u) - slack;
  const double drift = std::min(std::sqrt(1 + summation_gamma(m.count, t)), 3.0);
  const double high = expected * drift * (1 + 2 * u) + slack;
  return recorded >= low && recorded <= high;
}

std::string describe(StatKind kind, double recorded, double expected) {
  return fmt::format("{} {} vs recomputed {}", kind == StatKind::mean ? "Mean" : "Norm", recorded, expected);
}

// Either value non-finite: the same value passes, as does what an overflowing reduction gives;
// torch 1.13's float16 statistics on CPU warn; anything else fails.
StatCheck check_non_finite(StatKind kind, double recorded, double expected, DType stat_dtype, const Moments& m,
                           const std::string& what) {
  StatCheck c;
  const bool same = (std::isnan(expected) && std::isnan(recorded)) || recorded == expected;
  c.difference = same ? 0.0 : std::numeric_limits<double>::infinity();
  if (same || overflowed_in_reduction(kind, recorded, expected, stat_dtype, m)) return c;
  // torch 1.13 CPU float16: mean NaN once n > 65504 (pytorch#91597), norm overflows to inf
  const bool f16_cpu = stat_dtype == DType::float16 && (std::isnan(recorded) || std::isinf(recorded));
  c.agreement = f16_cpu ? Agreement::warn : Agreement::fail;
  c.reason = what + (f16_cpu ? ": a float16 statistic of torch 1.13 on CPU, which cannot be validated"
                             : ": non-finite values differ");
  return c;
}

// The PASS and WARN bounds of a finite statistic (docs/format.md §6.7), in a StatCheck that
// still passes.
StatCheck bounds_of(StatKind kind, double expected, DType stat_dtype, const Moments& m, const ToleranceOptions& options) {
  StatCheck c;
  const Bounds d = default_bounds(kind, stat_dtype);
  const double ulps = options.ulps.value_or(d.ulps);
  const double rtol = options.rtol.value_or(d.rtol);
  const double atol_mean_abs = options.atol_mean_abs.value_or(d.atol_mean_abs);
  const double n = static_cast<double>(m.count);
  const double mean_abs = m.count > 0 ? m.sum_abs / n : 0.0;
  const double ulp = ulp_of(expected, stat_dtype);
  // Flushed tiny values: a Mean may underflow by a subnormal of T; squares below the
  // accumulation dtype's subnormals vanish from a Norm (docs/format.md §6.7).
  const double abs_term = kind == StatKind::mean ? atol_mean_abs * mean_abs + smallest_subnormal(stat_dtype)
                                                 : norm_underflow_slack(m.count, accumulation_dtype(stat_dtype));
  c.pass_bound = ulps * ulp + rtol * std::fabs(expected) + abs_term;
  // WARN band: what CPU-produced dumps reach (docs/format.md §6.7): torch's sequential 8/16-lane
  // norm, and any-order float32 sums of a non-contiguous tensor (gamma(n) of float32).
  c.warn_bound = c.pass_bound;
  const bool half = stat_dtype == DType::bfloat16 || stat_dtype == DType::float16;
  // (Beyond 2^24 elements the any-order model bounds nothing; only the measured bands remain.)
  const double g32_raw = summation_gamma(m.count, DType::float32);
  const double g32 = std::isfinite(g32_raw) ? g32_raw : 0.0;
  if (kind == StatKind::norm && (stat_dtype == DType::float32 || stat_dtype == DType::bfloat16)) {
    const double lanes = std::max(1e-4, 5e-10 * n);
    const double any_order = std::sqrt(1 + g32) - 1;
    c.warn_bound = std::max(c.pass_bound, std::max(lanes, any_order) * std::fabs(expected) + ulp + abs_term);
  } else if (kind == StatKind::mean && stat_dtype == DType::float32) {
    c.warn_bound = std::max(c.pass_bound, (mean_abs > 0 ? g32 * mean_abs : 0.0) + 2 * ulp + abs_term);
  } else if (kind == StatKind::mean && half) {
    // torch 1.13 CPU: a non-contiguous 16-bit tensor is summed in its own dtype (§6.7)
    const double g16 = summation_gamma(m.count, stat_dtype);
    const double drift = mean_abs > 0 ? g16 * mean_abs : 0.0;
    c.warn_bound = std::max(c.pass_bound, drift + 2 * ulp + abs_term);
  }
  return c;
}

// A difference beyond the PASS bound: within the WARN band, or one of torch 1.13's float16 /
// 16-bit norm artefacts on CPU, warns; anything else fails.
StatCheck beyond_pass(StatCheck c, StatKind kind, double recorded, double expected, DType stat_dtype, const Moments& m,
                      const std::string& what) {
  if (c.difference <= c.warn_bound) {
    c.agreement = Agreement::warn;
    c.reason = fmt::format("{}: differs by {:.3g}, beyond {:.3g} but within the CPU band {:.3g}", what, c.difference,
                           c.pass_bound, c.warn_bound);
    return c;
  }
  if (stat_dtype == DType::float16) {
    // torch 1.13 CPU: a float16 mean of n > 65504 elements is 0, a float16 norm saturates low
    const bool cpu_mean = kind == StatKind::mean && is_float16_mean_overflow(recorded, m.count, stat_dtype);
    if (cpu_mean) {
      c.agreement = Agreement::warn;
      c.reason = what + ": a float16 statistic of torch 1.13 on CPU, which cannot be validated";
      return c;
    }
  }
  if (kind == StatKind::norm && within_16bit_norm_band(recorded, expected, stat_dtype, m)) {
    c.agreement = Agreement::warn;
    c.reason = fmt::format("{}: differs by {:.3g}, within what a {} sum of squares reaches (torch 1.13 CPU)", what,
                           c.difference, dtype_name(stat_dtype));
    return c;
  }
  c.agreement = Agreement::fail;
  c.reason = fmt::format("{}: differs by {:.3g}, allowed {:.3g}", what, c.difference, c.warn_bound);
  return c;
}

}  // namespace

std::string_view to_string(Agreement a) {
  switch (a) {
    case Agreement::pass: return "pass";
    case Agreement::warn: return "warn";
    case Agreement::fail: return "fail";
  }
  return "?";
}

StatCheck check_statistic(StatKind kind, double recorded, double expected, DType stat_dtype, const Moments& m,
                          const ToleranceOptions& options) {
  const std::string what = describe(kind, recorded, expected);
  if (std::isnan(expected) || std::isnan(recorded) || std::isinf(expected) || std::isinf(recorded))
    return check_non_finite(kind, recorded, expected, stat_dtype, m, what);
  if (!representable_in(recorded, stat_dtype)) {
    StatCheck c;
    c.agreement = Agreement::fail;
    c.difference = std::fabs(recorded - expected);
    c.reason = fmt::format("{}: {} is not a {} value", what, recorded, dtype_name(stat_dtype));
    return c;
  }
  StatCheck c = bounds_of(kind, expected, stat_dtype, m, options);
  c.difference = std::fabs(recorded - expected);
  if (c.difference <= c.pass_bound) return c;
  return beyond_pass(std::move(c), kind, recorded, expected, stat_dtype, m, what);
}

StatCheck check_complex_extreme(double recorded, double expected, DType stat_dtype) {
  StatCheck c;
  if ((std::isnan(recorded) && std::isnan(expected)) || recorded == expected) return c;
  c.difference = std::fabs(recorded - expected);
  c.pass_bound = c.warn_bound = 2 * ulp_of(expected, stat_dtype);
  if (c.difference <= c.pass_bound) return c;
  c.agreement = Agreement::fail;
  c.reason = fmt::format("|z| extreme {} vs recomputed {}: differs by {:.3g}, allowed {:.3g}", recorded, expected,
                         c.difference, c.pass_bound);
  return c;
}

bool same_extreme(const Scalar& recorded, const Scalar& expected) {
  if (recorded.is_null() || expected.is_null()) return recorded.is_null() && expected.is_null();
  if (recorded.kind == Scalar::Kind::boolean || expected.kind == Scalar::Kind::boolean)
    return recorded.kind == expected.kind && recorded.b == expected.b;
  if (recorded.kind == Scalar::Kind::string || expected.kind == Scalar::Kind::string)
    return recorded.kind == expected.kind && recorded.s == expected.s;
  if (recorded.kind == Scalar::Kind::integer && expected.kind == Scalar::Kind::integer) return recorded.i == expected.i;
  if (recorded.kind == Scalar::Kind::unsigned_integer && expected.kind == Scalar::Kind::unsigned_integer)
    return recorded.u == expected.u;
  const auto a = as_double(recorded), b = as_double(expected);
  if (std::isnan(*a) || std::isnan(*b)) return std::isnan(*a) && std::isnan(*b);
  return *a == *b;  // -0.0 == +0.0
}

}  // namespace msdump::stats

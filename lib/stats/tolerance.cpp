#include "stats/tolerance.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "stats/float_convert.h"

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

std::string describe(StatKind kind, double recorded, double expected) {
  return fmt::format("{} {} vs recomputed {}", kind == StatKind::mean ? "Mean" : "Norm", recorded, expected);
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
  StatCheck c;
  const std::string what = describe(kind, recorded, expected);
  if (std::isnan(expected) || std::isnan(recorded) || std::isinf(expected) || std::isinf(recorded)) {
    const bool same = (std::isnan(expected) && std::isnan(recorded)) || recorded == expected;
    c.difference = same ? 0.0 : std::numeric_limits<double>::infinity();
    if (same) return c;
    // torch 1.13 CPU float16: mean NaN once n > 65504 (pytorch#91597), norm overflows to inf
    const bool f16_cpu = stat_dtype == DType::float16 && (std::isnan(recorded) || std::isinf(recorded));
    c.agreement = f16_cpu ? Agreement::warn : Agreement::fail;
    c.reason = what + (f16_cpu ? ": a float16 statistic of torch 1.13 on CPU, which cannot be validated"
                               : ": non-finite values differ");
    return c;
  }
  if (!representable_in(recorded, stat_dtype)) {
    c.agreement = Agreement::fail;
    c.difference = std::fabs(recorded - expected);
    c.reason = fmt::format("{}: {} is not a {} value", what, recorded, dtype_name(stat_dtype));
    return c;
  }
  const Bounds d = default_bounds(kind, stat_dtype);
  const double ulps = options.ulps.value_or(d.ulps);
  const double rtol = options.rtol.value_or(d.rtol);
  const double atol_mean_abs = options.atol_mean_abs.value_or(d.atol_mean_abs);
  const double n = static_cast<double>(m.count);
  const double mean_abs = m.count > 0 ? m.sum_abs / n : 0.0;
  const double ulp = ulp_of(expected, stat_dtype);
  const double abs_term = kind == StatKind::mean ? atol_mean_abs * mean_abs : 0.0;
  c.difference = std::fabs(recorded - expected);
  c.pass_bound = ulps * ulp + rtol * std::fabs(expected) + abs_term;
  // WARN band: what CPU-produced dumps reach (docs/tensor-formats.md §4.2, §4.6)
  c.warn_bound = c.pass_bound;
  const bool half = stat_dtype == DType::bfloat16 || stat_dtype == DType::float16;
  if (kind == StatKind::norm && (stat_dtype == DType::float32 || stat_dtype == DType::bfloat16)) {
    c.warn_bound = std::max(c.pass_bound, std::max(1e-4, 5e-10 * n) * std::fabs(expected) + ulp);
  } else if (kind == StatKind::mean && half) {
    c.warn_bound = std::max(c.pass_bound, 2 * ulp + abs_term);
  }
  if (c.difference <= c.pass_bound) return c;
  if (c.difference <= c.warn_bound) {
    c.agreement = Agreement::warn;
    c.reason = fmt::format("{}: differs by {:.3g}, beyond {:.3g} but within the CPU band {:.3g}", what, c.difference,
                           c.pass_bound, c.warn_bound);
    return c;
  }
  if (stat_dtype == DType::float16) {
    // torch 1.13 CPU: a float16 mean of n > 65504 elements is 0, a float16 norm saturates low
    const bool cpu_mean = kind == StatKind::mean && recorded == 0.0 && m.count > 65504;
    const bool cpu_norm = kind == StatKind::norm && recorded < expected;
    if (cpu_mean || cpu_norm) {
      c.agreement = Agreement::warn;
      c.reason = what + ": a float16 statistic of torch 1.13 on CPU, which cannot be validated";
      return c;
    }
  }
  c.agreement = Agreement::fail;
  c.reason = fmt::format("{}: differs by {:.3g}, allowed {:.3g}", what, c.difference, c.warn_bound);
  return c;
}

StatCheck check_complex_extreme(double recorded, double expected, DType stat_dtype) {
  StatCheck c;
  if ((std::isnan(recorded) && std::isnan(expected)) || recorded == expected) return c;
  c.difference = std::fabs(recorded - expected);
  c.pass_bound = c.warn_bound = ulp_of(expected, stat_dtype);
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

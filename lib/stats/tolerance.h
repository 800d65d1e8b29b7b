#pragma once
// Deciding whether statistics recorded in a dump agree with the ones recomputed from the tensor
// file (docs/tensor-formats.md §4.6). Max/Min must be identical (-0 == +0, NaN == NaN); Mean and
// Norm may differ by what different reduction orders produce:
//   PASS  within the device-dump bounds (ULPs of the statistic's dtype plus relative terms);
//   WARN  only within the band a CPU-produced dump reaches (torch's sequential 8/16-lane norm,
//         torch 1.13's double-rounded half-precision mean, float16 saturation);
//   FAIL  otherwise, or when the recorded value is not even a value of the statistic's dtype.

#include <cstdint>
#include <optional>
#include <string>

#include "core/dtype.h"
#include "core/scalar.h"
#include "stats/accumulator.h"

namespace msdump::stats {

enum class Agreement { pass, warn, fail };
std::string_view to_string(Agreement a);  // "pass" | "warn" | "fail"

enum class StatKind { mean, norm };

// Overrides of the PASS bound |recorded - expected| <= ulps * ulp_T(expected)
// + rtol * |expected| + atol_mean_abs * mean(|x|). Unset fields keep the §4.6 defaults:
//   float32  Mean: 4 ulp + 1e-5 mean|x|     Norm: 1e-5 relative
//   bfloat16 Mean: 1 ulp + 1e-5 mean|x|     Norm: 1 ulp
//   float16  Mean: 1 ulp + 1e-5 mean|x|     Norm: 1 ulp
//   float64  Mean: 32 ulp + 1e-13 mean|x|   Norm: 1e-11 relative (msdump's choice; §4.3 data)
struct ToleranceOptions {
  std::optional<double> ulps;
  std::optional<double> rtol;
  std::optional<double> atol_mean_abs;
};

struct StatCheck {
  Agreement agreement = Agreement::pass;
  double difference = 0.0;  // |recorded - expected| (inf when only one is non-finite)
  double pass_bound = 0.0;  // largest difference that passes
  double warn_bound = 0.0;  // largest difference that warns (>= pass_bound)
  std::string reason;       // empty on pass; otherwise why, with the numbers
};

// Checks a recorded Mean or Norm against the recomputed `expected` (already rounded to
// stat_dtype, e.g. LeafStats::mean), using the moments for n and mean(|x|).
// stat_dtype is float32, bfloat16, float16 or float64 (complex: the |z| dtype).
StatCheck check_statistic(StatKind kind, double recorded, double expected, DType stat_dtype, const Moments& moments,
                          const ToleranceOptions& options = {});

// Max/Min of complex tensors (|z|): within 1 ULP of stat_dtype (hypot vs sqrt rounding).
StatCheck check_complex_extreme(double recorded, double expected, DType stat_dtype);

// Max/Min equality: same kind family and value; -0.0 equals +0.0, NaN equals NaN, an integer
// equals a floating value of the same number (legacy dumps print ints as floats), null == null.
bool same_extreme(const Scalar& recorded, const Scalar& expected);

}  // namespace msdump::stats

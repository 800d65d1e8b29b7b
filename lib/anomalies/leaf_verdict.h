#pragma once
// What one leaf of a dump.json entry says about non-finite values, judged from what the entry
// itself records (no tensor file): a tensor leaf's Max/Min/Mean/Norm, a value leaf's "value".
//
//   Max or Min NaN / +-Inf         the tensor holds non-finite values (torch.max of a tensor with
//                                  a NaN is NaN; an infinity is its own max or min)
//   Mean or Norm non-finite while  a statistic overflow: the tensor is finite, the reduction
//   Max and Min are finite         overflowed (typically a float16 Norm), not a non-finite tensor
//   {"type": "float", "value": -Infinity}   a non-finite non-tensor value (e.g. masked_fill's
//                                  fill value); lists of numbers are looked into too

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/dtype.h"
#include "pyjson/json_value.h"

namespace msdump::anomalies {

// Which non-finite values something holds.
struct NonFinite {
  bool nan = false;
  bool pos_inf = false;
  bool neg_inf = false;
  bool any() const { return nan || pos_inf || neg_inf; }
  void merge(const NonFinite& o) {
    nan = nan || o.nan;
    pos_inf = pos_inf || o.pos_inf;
    neg_inf = neg_inf || o.neg_inf;
  }
  bool operator==(const NonFinite&) const = default;
};

// NaN, +inf or -inf as a NonFinite (nothing for a finite value).
NonFinite nonfinite_of(double v);
// "nan", "inf", "-inf", or "mixed" when more than one; "" when none.
std::string_view kind_name(const NonFinite& n);

// A tensor leaf judged from its statistics.
struct StatsVerdict {
  NonFinite values;            // from Max and Min
  bool stat_overflow = false;  // Mean or Norm non-finite, Max and Min finite
  bool has_stats = false;      // Max or Min was a number (else nothing could be judged)
  double max_abs = 0.0;        // max(|Max|, |Min|) when both finite (0 otherwise)
  std::optional<DType> dtype;  // the leaf's "dtype", when known
};

StatsVerdict judge_tensor_stats(const pyjson::Value& leaf);

// A value leaf ({"type": ..., "value": ...}): the non-finite floats in its value.
NonFinite judge_value_leaf(const pyjson::Value& leaf);

// The largest finite magnitude of `dtype` for the overflow-risk check: float16 and bfloat16
// only (nullopt for every other dtype).
std::optional<double> overflow_limit(DType dtype);

}  // namespace msdump::anomalies

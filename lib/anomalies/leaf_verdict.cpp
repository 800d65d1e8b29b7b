#include "anomalies/leaf_verdict.h"

#include <algorithm>
#include <cmath>

namespace msdump::anomalies {
namespace {

using pyjson::Value;

// The number a statistic holds, or nullopt (null, bool, string, absent).
std::optional<double> stat_number(const Value& leaf, const char* key) {
  const Value* v = leaf.find(key);
  if (v == nullptr) return std::nullopt;
  if (const double* d = v->if_float()) return *d;
  if (const std::int64_t* i = v->if_int()) return static_cast<double>(*i);
  return std::nullopt;
}

void collect(const Value& v, NonFinite& out, int depth) {
  if (const double* d = v.if_float()) {
    out.merge(nonfinite_of(*d));
  } else if (v.is_array() && depth < 4) {
    for (const Value& item : v.as_array()) collect(item, out, depth + 1);
  }
}

}  // namespace

NonFinite nonfinite_of(double v) {
  NonFinite n;
  if (std::isnan(v)) n.nan = true;
  else if (std::isinf(v)) (v > 0 ? n.pos_inf : n.neg_inf) = true;
  return n;
}

std::string_view kind_name(const NonFinite& n) {
  const int kinds = int{n.nan} + int{n.pos_inf} + int{n.neg_inf};
  if (kinds == 0) return "";
  if (kinds > 1) return "mixed";
  return n.nan ? "nan" : n.pos_inf ? "inf" : "-inf";
}

StatsVerdict judge_tensor_stats(const Value& leaf) {
  StatsVerdict v;
  if (const Value* dt = leaf.find("dtype"); dt != nullptr && dt->is_string()) v.dtype = dtype_from_any_name(dt->as_string());
  const auto max = stat_number(leaf, "Max");
  const auto min = stat_number(leaf, "Min");
  v.has_stats = max || min;
  if (max) v.values.merge(nonfinite_of(*max));
  if (min) v.values.merge(nonfinite_of(*min));
  if (v.values.any() || !max || !min) return v;
  v.max_abs = std::max(std::fabs(*max), std::fabs(*min));
  for (const char* key : {"Mean", "Norm"})
    if (auto s = stat_number(leaf, key); s && !std::isfinite(*s)) v.stat_overflow = true;
  return v;
}

NonFinite judge_value_leaf(const Value& leaf) {
  NonFinite n;
  if (const Value* value = leaf.find("value")) collect(*value, n, 0);
  return n;
}

std::optional<double> overflow_limit(DType dtype) {
  if (dtype == DType::float16) return 65504.0;
  if (dtype == DType::bfloat16) return 3.3895313892515355e38;
  return std::nullopt;
}

}  // namespace msdump::anomalies

#include "verify/leaf_rules.h"

#include <cmath>
#include <limits>
#include <fmt/format.h>

#include "core/dtype.h"
#include "dump/format_signals.h"
#include "pyjson/json_writer.h"
#include "stats/float_convert.h"
#include "stats/rounding_bounds.h"
#include "tensor/tensor.h"

namespace msdump::verify {
namespace {

using pyjson::Kind;
using pyjson::Value;

constexpr std::string_view k_stats[] = {"Max", "Min", "Mean", "Norm"};

struct Ctx {
  const std::string& entry;
  const std::string& pointer;
  FindingSink& sink;
  void stat(std::string_view key, std::string message, std::string expected, const Value* actual,
            Severity severity = Severity::error) const {
    sink.add(FindingKind::statistic, entry, pointer + "/" + std::string(key), std::move(message), std::move(expected),
             json_text(actual), severity);
  }
};

bool is_null(const Value* v) { return v == nullptr || v->is_null(); }

std::optional<DType> framework_dtype(std::string_view s, Framework fw, bool& foreign) {
  foreign = false;
  if (fw == Framework::pytorch) {
    if (s.starts_with("torch.")) return dtype_from_torch_name(s);
    foreign = dtype_from_mindspore_name(s).has_value();
    return std::nullopt;
  }
  if (auto d = dtype_from_mindspore_name(s)) return d;
  foreign = s.starts_with("torch.");
  return std::nullopt;
}

// All four null (empty tensors, float8 in the current profile, ...).
void expect_all_null(const LeafView& leaf, const Ctx& c, std::string_view why) {
  for (auto k : k_stats) {
    const Value* v = leaf.find(k);
    if (!is_null(v)) c.stat(k, fmt::format("{} must be null for {}", k, why), "null", v);
  }
}

void expect_null(const LeafView& leaf, const Ctx& c, std::initializer_list<std::string_view> keys, std::string_view why) {
  for (auto k : keys) {
    const Value* v = leaf.find(k);
    if (!is_null(v)) c.stat(k, fmt::format("{} must be null for {}", k, why), "null", v);
  }
}

// Mean is a rounded sum: it may leave [Min, Max] by what accumulating n elements in float32
// (float64 for float64 statistics) and rounding to the statistic's dtype can produce
// (stats::mean_range_slack, docs/format.md §6.7). A 16-bit Mean beyond that but within what a
// 16-bit accumulation reaches (torch 1.13 CPU, non-contiguous tensors) is a warning.
void check_mean_range(const LeafView& leaf, const Ctx& c, std::uint64_t n, DType stat_dtype, double mx, double mn,
                      double mean) {
  if (mean >= mn && mean <= mx) return;  // (within [Min, Max]: no slack needed, and slack >= 0)
  if (stats::is_float16_mean_overflow(mean, n, stat_dtype)) return;
  const double max_abs = std::max(std::fabs(mx), std::fabs(mn));
  const DType acc = stats::accumulation_dtype(stat_dtype);
  const double slack = stats::mean_range_slack(n, max_abs, stat_dtype, acc);
  if (mean >= mn - slack && mean <= mx + slack) return;
  const bool half = stat_dtype == DType::float16 || stat_dtype == DType::bfloat16;
  const double wide = half ? stats::mean_range_slack(n, max_abs, stat_dtype, stat_dtype) : slack;
  const bool within_wide = mean >= mn - wide && mean <= mx + wide;
  c.stat("Mean",
         within_wide ? fmt::format("Mean lies outside [Min, Max] by more than a {} sum of {} elements explains ({:.3g}); "
                                   "only a {} sum (torch 1.13 CPU) reaches it",
                                   dtype_name(acc), n, slack, dtype_name(stat_dtype))
                     : fmt::format("Mean lies outside [Min, Max] by more than accumulating {} elements in {} can "
                                   "explain ({:.3g})",
                                   n, dtype_name(half ? stat_dtype : acc), wide),
         fmt::format("in [{}, {}]", json_text(leaf.find("Min")), json_text(leaf.find("Max"))), leaf.find("Mean"),
         within_wide ? Severity::warning : Severity::error);
}

// Max and Min are exact, so Min <= Max holds as it stands; Mean is checked with its rounding.
// n is UINT64_MAX when the shape gives no element count: no bound, no Mean rule.
void check_order(const LeafView& leaf, const Ctx& c, std::uint64_t n, DType stat_dtype) {
  auto mx = number_of(leaf.find("Max")), mn = number_of(leaf.find("Min"));
  auto mean = number_of(leaf.find("Mean")), norm = number_of(leaf.find("Norm"));
  auto finite = [](const std::optional<double>& x) { return x && std::isfinite(*x); };
  if (mx && std::isnan(*mx) && mn && !std::isnan(*mn))
    c.stat("Min", "Max is NaN, so Min must be NaN too (NaN propagates through max and min)", "NaN", leaf.find("Min"));
  if (finite(mx) && finite(mn) && *mn > *mx)
    c.stat("Min", "Min is greater than Max", fmt::format("<= {}", json_text(leaf.find("Max"))), leaf.find("Min"));
  if (finite(mx) && finite(mn) && finite(mean)) check_mean_range(leaf, c, n, stat_dtype, *mx, *mn, *mean);
  if (finite(norm) && *norm < 0) c.stat("Norm", "Norm is negative", ">= 0", leaf.find("Norm"));
}

// Values of a 16/32-bit float statistic must be values of that dtype.
void check_representable(const LeafView& leaf, const Ctx& c, DType t, std::initializer_list<std::string_view> keys) {
  for (auto k : keys) {
    const Value* v = leaf.find(k);
    if (v == nullptr || !v->is_float()) continue;
    const double x = v->as_float();
    // float32 (most tensors): a double is a float32 value iff the round trip keeps it; the
    // same answer as stats::representable_in, without its generic rounding.
    // (Finite doubles beyond the float range are not float32 values: checked before the cast.)
    if (!std::isfinite(x)) continue;
    const bool representable =
        t == DType::float32
            ? std::fabs(x) <= static_cast<double>(std::numeric_limits<float>::max()) &&
                  static_cast<double>(static_cast<float>(x)) == x
            : stats::representable_in(x, t);
    if (!representable)
      c.stat(k, fmt::format("{} is not a {} value: the statistic's dtype does not match the tensor's", k, dtype_name(t)),
             fmt::format("a {} value", dtype_name(t)), v);
  }
}

void expect_kind(const LeafView& leaf, const Ctx& c, std::string_view key, Kind kind, std::string_view what) {
  const Value* v = leaf.find(key);
  if (is_null(v)) return;
  const bool ok = kind == Kind::integer ? v->is_integer() : v->kind() == kind;
  if (!ok) c.stat(key, fmt::format("{} must be {}", key, what), std::string(what), v);
}

void check_zero_dim(const LeafView& leaf, const Ctx& c) {
  const Value* mx = leaf.find("Max");
  for (auto k : {"Min", "Mean", "Norm"}) {
    const Value* v = leaf.find(k);
    if (mx == nullptr || v == nullptr) continue;
    if (!mx->identical(*v) && number_of(mx) != number_of(v))
      c.stat(k, fmt::format("a 0-dim tensor has its value four times, but {} differs from Max", k), json_text(mx), v);
  }
}

// The profile a PyTorch integer, float64 or float8 leaf is held to: the given one, or (auto)
// the one its own form points to (dump::int_stats_signal; float8 with statistics: legacy),
// which is also the leaf's signal.
Profile leaf_profile(const LeafView& leaf, DTypeKind kind, bool int_like, const LeafRules& r, std::uint32_t& signal) {
  if (kind == DTypeKind::float8) signal = is_null(leaf.find("Max")) ? 0u : dump::signal_float8_stats;
  else signal = dump::int_stats_signal(leaf.find("Max"), leaf.find("Mean"), int_like);
  if (r.profile) return *r.profile;
  return signal & dump::k_legacy_signals ? Profile::legacy : Profile::current;
}

void check_statistics(const LeafView& leaf, DType dt, const tensor::Shape& shape, const LeafRules& r, const Ctx& c,
                      std::uint32_t& signal) {
  const auto kind = dtype_info(dt).kind;
  const auto numel = tensor::checked_numel(shape);
  const bool pytorch = r.framework == Framework::pytorch;
  if (numel && *numel == 0) return expect_all_null(leaf, c, "an empty tensor");
  const bool int_like = kind == DTypeKind::signed_int || kind == DTypeKind::unsigned_int;
  // Only these PyTorch leaves differ between the profiles (float32 & co. have the same rules).
  // (0-dim integers are written as their value by both; 0-dim float8 are null only in current.)
  const bool depends = pytorch && (kind == DTypeKind::float8 || (!shape.empty() && (int_like || dt == DType::float64)));
  const Profile profile = depends ? leaf_profile(leaf, kind, int_like, r, signal)
                                  : r.profile.value_or(Profile::current);
  if (kind == DTypeKind::float8 && pytorch && profile == Profile::current)
    return expect_all_null(leaf, c, "float8 tensors (current profile)");
  if (kind == DTypeKind::boolean) {
    expect_kind(leaf, c, "Max", Kind::boolean, "a boolean (any())");
    expect_kind(leaf, c, "Min", Kind::boolean, "a boolean (all())");
    return expect_null(leaf, c, {"Mean", "Norm"}, "bool tensors");
  }
  const bool complex = kind == DTypeKind::complex;
  // PyTorch tests complex before 0-dim (docs/format.md §6.1 rules 6 and 8), MindSpore after.
  if (shape.empty() && !(complex && pytorch)) return check_zero_dim(leaf, c);
  const bool via_float32 = !complex && (int_like || dt == DType::float64 || kind == DTypeKind::float8) &&
                           !(pytorch && profile == Profile::current);
  const DType stat_dtype = complex ? (dt == DType::complex128 ? DType::float64 : DType::float32)
                           : via_float32 ? DType::float32
                                         : dt;
  check_order(leaf, c, numel ? static_cast<std::uint64_t>(*numel) : UINT64_MAX, stat_dtype);
  if (complex) {
    // max, min and mean of |z|; PyTorch leaves Norm null (docs/format.md §6.1 rule 6).
    if (pytorch) expect_null(leaf, c, {"Norm"}, "complex tensors (PyTorch writes no Norm)");
    return;
  }
  if (pytorch && profile == Profile::current) {
    if (int_like || dt == DType::float64) {
      expect_null(leaf, c, {"Mean", "Norm"}, fmt::format("{} tensors (current profile)", dtype_name(dt)));
      const Kind k = int_like ? Kind::integer : Kind::floating;
      expect_kind(leaf, c, "Max", k, int_like ? "an integer (native dtype)" : "a float");
      expect_kind(leaf, c, "Min", k, int_like ? "an integer (native dtype)" : "a float");
      return;
    }
    check_representable(leaf, c, dt, {"Max", "Min", "Mean", "Norm"});
    return;
  }
  // Legacy PyTorch and MindSpore: integers, float64 (and float8) go through float32.
  if (int_like || dt == DType::float64 || kind == DTypeKind::float8) {
    for (auto k : k_stats) expect_kind(leaf, c, k, Kind::floating, "a float (computed in float32)");
    check_representable(leaf, c, DType::float32, {"Mean", "Norm"});
    return;
  }
  check_representable(leaf, c, dt, {"Max", "Min", "Mean", "Norm"});
}

}  // namespace

std::optional<double> number_of(const Value* v) {
  if (v == nullptr) return std::nullopt;
  if (v->kind() == Kind::integer) return static_cast<double>(v->as_int());
  if (v->kind() == Kind::floating) return v->as_float();
  if (v->kind() == Kind::big_integer) return std::strtod(v->as_big_integer().c_str(), nullptr);
  return std::nullopt;
}

std::string json_text(const Value* v) {
  if (v == nullptr) return "(absent)";
  auto t = pyjson::to_python_json(*v);
  return t ? *t : "?";
}

LeafView::LeafView(const Value& leaf) : m_leaf(&leaf) {
  const pyjson::Object* members = leaf.if_object();
  if (members == nullptr) return;
  auto is = [](const std::string& k, std::string_view name) {
    for (std::size_t i = 0; i < name.size(); ++i)
      if (k[i] != name[i]) return false;
    return true;
  };
  for (const pyjson::Member& m : *members) {
    const std::string& k = m.key;
    switch (k.size()) {
      case 3:
        if (is(k, "Max")) m_max = &m.value;
        else if (is(k, "Min")) m_min = &m.value;
        else if (is(k, "md5")) m_md5 = &m.value;
        break;
      case 4:
        if (is(k, "type")) m_type = &m.value;
        else if (is(k, "Mean")) m_mean = &m.value;
        else if (is(k, "Norm")) m_norm = &m.value;
        break;
      case 5:
        if (is(k, "dtype")) m_dtype = &m.value;
        else if (is(k, "shape")) m_shape = &m.value;
        break;
      case 9:
        if (is(k, "data_name")) m_data_name = &m.value;
        break;
      default: break;
    }
  }
  if (m_shape != nullptr && m_shape->is_array()) m_shape_items = std::span<const Value>(m_shape->as_array());
}

LeafView::LeafView(const Value* dtype, std::optional<std::span<const Value>> shape,
                   const std::array<const Value*, 4>& stats)
    : m_shape_items(shape), m_dtype(dtype), m_max(stats[0]), m_min(stats[1]), m_mean(stats[2]), m_norm(stats[3]) {}

const Value* LeafView::find(std::string_view key) const {
  if (m_leaf != nullptr && !m_leaf->is_object()) return nullptr;
  switch (key.size()) {
    case 3:
      if (key == "Max") return m_max;
      if (key == "Min") return m_min;
      if (key == "md5") return m_md5;
      break;
    case 4:
      if (key == "type") return m_type;
      if (key == "Mean") return m_mean;
      if (key == "Norm") return m_norm;
      break;
    case 5:
      if (key == "dtype") return m_dtype;
      if (key == "shape") return m_shape;
      break;
    case 9:
      if (key == "data_name") return m_data_name;
      break;
    default: break;
  }
  // (the members-only view has no other keys; its shape is read through shape_items())
  return m_leaf != nullptr ? m_leaf->find(key) : nullptr;
}

void check_tensor_leaf(const Value& leaf, bool ndarray, const LeafRules& rules, const std::string& entry,
                       const std::string& pointer, FindingSink& sink) {
  check_tensor_leaf(LeafView(leaf), ndarray, rules, entry, pointer, sink);
}

void check_tensor_leaf(const LeafView& leaf, bool ndarray, const LeafRules& rules, const std::string& entry,
                       const std::string& pointer, FindingSink& sink, std::uint32_t* signals) {
  const Ctx c{entry, pointer, sink};
  const Value* dtype_v = leaf.find("dtype");
  const auto shape_items = leaf.shape_items();
  if (dtype_v == nullptr || !dtype_v->is_string() || !shape_items) return;  // schema
  thread_local tensor::Shape shape;  // reused: no allocation per leaf
  shape.clear();
  for (const auto& d : *shape_items) {
    if (d.kind() != Kind::integer || d.as_int() < 0) return;  // schema reports it
    shape.push_back(d.as_int());
  }
  const bool has_stats = leaf.find("Max") != nullptr;
  if (ndarray) {
    if (has_stats && tensor::checked_numel(shape) == 0) expect_all_null(leaf, c, "an empty array");
    else if (has_stats) {
      // numpy reduces float16/float32 arrays in (at least) float32 and everything else in float64
      const auto nd = dtype_from_name(dtype_v->as_string());
      const DType stat = nd && (*nd == DType::float16 || *nd == DType::float32) ? *nd : DType::float64;
      const auto n = tensor::checked_numel(shape);
      check_order(leaf, c, n ? static_cast<std::uint64_t>(*n) : UINT64_MAX, stat);
    }
    return;
  }
  bool foreign = false;
  const auto dt = framework_dtype(dtype_v->as_string(), rules.framework, foreign);
  if (!dt) {
    if (foreign)
      sink.add(FindingKind::dtype, entry, pointer + "/dtype",
               fmt::format("dtype \"{}\" is another framework's spelling", dtype_v->as_string()),
               rules.framework == Framework::pytorch ? "torch.<dtype>" : "a MindSpore dtype (Float32, BFloat16, ...)",
               dtype_v->as_string());
    else
      sink.add(FindingKind::dtype, entry, pointer + "/dtype", fmt::format("unknown dtype \"{}\"", dtype_v->as_string()),
               "", dtype_v->as_string(), Severity::warning);
    return;
  }
  if (!has_stats) return;
  std::uint32_t signal = 0;
  check_statistics(leaf, *dt, shape, rules, c, signal);
  if (signals != nullptr) *signals |= signal;
}

}  // namespace msdump::verify

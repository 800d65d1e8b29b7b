#include "dump/format_signals.h"

#include <bit>
#include <fmt/format.h>

#include "core/dtype.h"

namespace msdump::dump {
namespace {

using pyjson::Value;

bool is_null(const Value* v) { return v == nullptr || v->is_null(); }

constexpr std::array<std::string_view, k_signal_count> k_descriptions{
    "is_recompute in a forward entry",
    "parameters_grad without its counter",
    "integer or float64 statistics computed in float32",
    "float8 statistics",
    "integer or float64 statistics in the native dtype with null Mean/Norm",
    "a forward entry without is_recompute",
    "parameters_grad with its counter",
};

std::size_t index_of(ProfileSignal s) { return static_cast<std::size_t>(std::countr_zero(s)); }

// Whether the shape is a list of positive integers (a tensor with elements; `[]` is a 0-dim one).
bool has_elements(const Value* shape) {
  if (shape == nullptr || !shape->is_array()) return false;
  for (const auto& d : shape->as_array())
    if (d.kind() != pyjson::Kind::integer || d.as_int() <= 0) return false;
  return true;
}

}  // namespace

std::string_view describe(ProfileSignal s) { return k_descriptions[index_of(s)]; }

std::uint32_t entry_signals(const EntryName& name, const Value& entry, Framework framework) {
  if (name.kind == EntryKind::parameters_grad) return name.numbered ? signal_numbered_grad : signal_unnumbered_grad;
  if (framework != Framework::pytorch || !name.is_forward() || !entry.is_object()) return 0;
  return entry.find("is_recompute") != nullptr ? signal_is_recompute : signal_no_is_recompute;
}

std::uint32_t int_stats_signal(const Value* max, const Value* mean, bool integer_dtype) {
  if (integer_dtype && !is_null(max) && max->is_number())
    return max->is_float() ? signal_float_int_stats : signal_native_int_stats;
  if (!is_null(mean)) return signal_float_int_stats;
  return is_null(max) ? 0u : signal_native_int_stats;
}

std::uint32_t leaf_signals(const Value& leaf, Framework framework) {
  if (framework != Framework::pytorch || !leaf.is_object()) return 0;
  const Value* dtype = leaf.find("dtype");
  if (dtype == nullptr || !dtype->is_string() || !has_elements(leaf.find("shape"))) return 0;
  const auto dt = dtype_from_torch_name(dtype->as_string());
  if (!dt || !dtype->as_string().starts_with("torch.")) return 0;
  const auto kind = dtype_info(*dt).kind;
  // Current PyTorch nulls float8 statistics even for 0-dim tensors; 0-dim integers are written
  // as their value by every generation.
  if (kind == DTypeKind::float8) return is_null(leaf.find("Max")) ? 0u : signal_float8_stats;
  if (leaf.find("shape")->as_array().empty()) return 0;
  const bool integer = kind == DTypeKind::signed_int || kind == DTypeKind::unsigned_int;
  if (integer || *dt == DType::float64) return int_stats_signal(leaf.find("Max"), leaf.find("Mean"), integer);
  return 0;
}

std::optional<SummaryMode> summary_mode_of_leaf(const Value& leaf) {
  if (!leaf.is_object()) return std::nullopt;
  const bool md5 = leaf.find("md5") != nullptr, stats = leaf.find("Max") != nullptr;
  if (md5) return stats ? SummaryMode::md5 : SummaryMode::xor_checksum;
  if (stats) return SummaryMode::statistics;
  return std::nullopt;
}

void ProfileEvidence::note(std::uint32_t signals, std::string_view entry, std::uint64_t line) {
  if (signals == 0) return;
  m_all |= signals;
  if (signals & k_legacy_signals) ++m_legacy_entries;
  if (signals & k_current_signals) ++m_current_entries;
  for (std::uint32_t bits = signals; bits != 0; bits &= bits - 1) {
    Seen& s = m_seen[static_cast<std::size_t>(std::countr_zero(bits))];
    if (s.entries++ == 0) {
      s.first = entry;
      s.line = line;
    }
  }
}

const ProfileEvidence::Seen& ProfileEvidence::seen(ProfileSignal s) const { return m_seen[index_of(s)]; }

std::optional<Profile> ProfileEvidence::verdict() const {
  if (m_legacy_entries == 0 && m_current_entries == 0) {
    // No form of one generation only: PyTorch forward entries without is_recompute still say
    // "not the legacy builds that write it"; nothing else says anything.
    if (any(signal_no_is_recompute) && !any(signal_is_recompute)) return Profile::current;
    return std::nullopt;
  }
  return m_current_entries > m_legacy_entries ? Profile::current : Profile::legacy;
}

std::string ProfileEvidence::summary(std::uint32_t mask) const {
  std::string out;
  for (std::size_t i = 0; i < k_signal_count; ++i) {
    const ProfileSignal bit = 1u << i;
    if (!(mask & bit) || m_seen[i].entries == 0) continue;
    if (!out.empty()) out += "; ";
    const Seen& s = m_seen[i];
    out += fmt::format("{} ({} {}, first {}, line {})", k_descriptions[i], s.entries, s.entries == 1 ? "entry" : "entries",
                       s.first, s.line);
  }
  return out;
}

}  // namespace msdump::dump

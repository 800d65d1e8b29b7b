#include "core/profile.h"

#include <array>
#include <utility>

namespace msdump {
namespace {

template <typename E, std::size_t N>
using Names = std::array<std::pair<E, std::string_view>, N>;

constexpr Names<Framework, 3> k_frameworks{{{Framework::pytorch, "pytorch"},
                                            {Framework::mindspore, "mindspore"},
                                            {Framework::mindtorch, "mindtorch"}}};
constexpr Names<Profile, 2> k_profiles{{{Profile::current, "current"}, {Profile::legacy, "legacy"}}};
constexpr Names<SummaryMode, 3> k_summary_modes{{{SummaryMode::statistics, "statistics"},
                                                 {SummaryMode::md5, "md5"},
                                                 {SummaryMode::xor_checksum, "xor"}}};
constexpr Names<Precision, 2> k_precisions{{{Precision::low, "low"}, {Precision::high, "high"}}};
constexpr Names<Level, 3> k_levels{{{Level::L0, "L0"}, {Level::L1, "L1"}, {Level::mix, "mix"}}};
constexpr Names<Task, 3> k_tasks{
    {{Task::statistics, "statistics"}, {Task::tensor, "tensor"}, {Task::structure, "structure"}}};
constexpr Names<RiskLevel, 3> k_risk_levels{
    {{RiskLevel::core, "CORE"}, {RiskLevel::focus, "FOCUS"}, {RiskLevel::all, "ALL"}}};

template <typename E, std::size_t N>
std::string_view name_of(const Names<E, N>& table, E e) {
  for (const auto& [k, v] : table)
    if (k == e) return v;
  return "?";
}
template <typename E, std::size_t N>
std::optional<E> value_of(const Names<E, N>& table, std::string_view s) {
  for (const auto& [k, v] : table)
    if (v == s) return k;
  return std::nullopt;
}

}  // namespace

std::string_view to_string(Framework f) { return name_of(k_frameworks, f); }
std::string_view to_string(Profile p) { return name_of(k_profiles, p); }
std::string_view to_string(SummaryMode m) { return name_of(k_summary_modes, m); }
std::string_view to_string(Precision p) { return name_of(k_precisions, p); }
std::string_view to_string(Level l) { return name_of(k_levels, l); }
std::string_view to_string(Task t) { return name_of(k_tasks, t); }
std::string_view to_string(RiskLevel r) { return name_of(k_risk_levels, r); }
std::optional<Level> level_from_string(std::string_view s) { return value_of(k_levels, s); }
std::optional<Task> task_from_string(std::string_view s) { return value_of(k_tasks, s); }
std::optional<RiskLevel> risk_level_from_string(std::string_view s) { return value_of(k_risk_levels, s); }
std::optional<Framework> framework_from_string(std::string_view s) { return value_of(k_frameworks, s); }
std::optional<Profile> profile_from_string(std::string_view s) { return value_of(k_profiles, s); }
std::optional<SummaryMode> summary_mode_from_string(std::string_view s) { return value_of(k_summary_modes, s); }
std::optional<Precision> precision_from_string(std::string_view s) { return value_of(k_precisions, s); }

}  // namespace msdump

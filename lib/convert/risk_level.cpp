#include "convert/risk_level.h"

#include <algorithm>
#include <array>

namespace msdump::convert {
namespace {

#include "convert/risk_sets.inc"

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& sorted, std::string_view s) {
  return std::binary_search(sorted.begin(), sorted.end(), s);
}

// "Prefix.api.N.forward" -> "api"; empty when the name has no such shape.
std::string_view api_of(std::string_view name) {
  const auto first = name.find('.');
  if (first == std::string_view::npos) return {};
  const auto last = name.rfind('.');
  if (last == first) return {};
  const auto number = name.rfind('.', last - 1);
  if (number == first) return {};
  return name.substr(first + 1, number - first - 1);
}

}  // namespace

ApiRisk api_risk(std::string_view api) {
  if (contains(k_core_apis, api)) return ApiRisk::core;
  if (contains(k_low_apis, api)) return ApiRisk::low;
  return ApiRisk::focus;
}

bool risk_keeps(RiskLevel level, std::string_view name) {
  if (level == RiskLevel::all || name.starts_with("Module.") || name.starts_with("Cell.")) return true;
  const auto api = api_of(name);
  if (api.empty()) return true;
  const auto risk = api_risk(api);
  return level == RiskLevel::core ? risk == ApiRisk::core : risk != ApiRisk::low;
}

}  // namespace msdump::convert

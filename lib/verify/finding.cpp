#include "verify/finding.h"

#include <array>
#include <utility>

namespace msdump::verify {
namespace {

constexpr std::array<std::pair<FindingKind, std::string_view>, 17> k_kinds{{
    {FindingKind::json, "json"},
    {FindingKind::schema, "schema"},
    {FindingKind::duplicate, "duplicate"},
    {FindingKind::name, "name"},
    {FindingKind::data_name, "data_name"},
    {FindingKind::dtype, "dtype"},
    {FindingKind::shape, "shape"},
    {FindingKind::statistic, "statistic"},
    {FindingKind::checksum, "checksum"},
    {FindingKind::missing, "missing"},
    {FindingKind::extra, "extra"},
    {FindingKind::file, "file"},
    {FindingKind::value, "value"},
    {FindingKind::stack, "stack"},
    {FindingKind::construct, "construct"},
    {FindingKind::rank, "rank"},
    {FindingKind::profile, "profile"},
}};

constexpr std::array<FindingKind, 17> k_all = [] {
  std::array<FindingKind, 17> a{};
  for (std::size_t i = 0; i < k_kinds.size(); ++i) a[i] = k_kinds[i].first;
  return a;
}();

}  // namespace

std::string_view to_string(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "info";
  }
  return "error";
}

std::string_view to_string(FindingKind k) {
  for (const auto& [kind, name] : k_kinds)
    if (kind == k) return name;
  return "?";
}

std::optional<FindingKind> finding_kind_from_string(std::string_view s) {
  for (const auto& [kind, name] : k_kinds)
    if (name == s) return kind;
  return std::nullopt;
}

std::span<const FindingKind> all_finding_kinds() { return k_all; }

}  // namespace msdump::verify

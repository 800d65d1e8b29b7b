#include "compare/unmatched_stats.h"

namespace msdump::compare {
namespace {

std::uint8_t kind_of(const Cell& c) {
  if (c.kind() == Cell::Kind::integer) return k_stat_int;
  if (c.kind() == Cell::Kind::floating) return k_stat_float;
  return k_stat_other;
}

}  // namespace

std::uint8_t stat_kinds(const Row& row) {
  std::uint8_t packed = 0;
  for (int i = 0; i < 4; ++i) packed = static_cast<std::uint8_t>(packed | (kind_of(row.stats[i]) << (2 * i)));
  return packed;
}

IntsAsFloats unmatched_int_rule(const std::vector<std::uint8_t>& kinds, const std::vector<bool>& paired) {
  bool any_unpaired = false, any_paired = false;
  IntsAsFloats numeric{true, true, true, true}, has_float{};
  for (std::size_t r = 0; r < kinds.size() && r < paired.size(); ++r) {
    if (paired[r]) {
      any_paired = true;
      continue;
    }
    any_unpaired = true;
    for (int i = 0; i < 4; ++i) {
      const auto k = static_cast<std::uint8_t>((kinds[r] >> (2 * i)) & 3);
      if (k == k_stat_other) numeric[i] = false;
      if (k == k_stat_float) has_float[i] = true;
    }
  }
  IntsAsFloats rule{};
  for (int i = 0; i < 4; ++i) rule[i] = any_unpaired && numeric[i] && (has_float[i] || any_paired);
  return rule;
}

void apply_unmatched_int_rule(Row& row, const IntsAsFloats& rule) {
  for (int i = 0; i < 4; ++i)
    if (rule[i] && row.stats[i].kind() == Cell::Kind::integer) row.stats[i] = Cell::floating_kept(row.stats[i].to_double());
}

}  // namespace msdump::compare

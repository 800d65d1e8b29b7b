#include "anomalies/tree_summary.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace msdump::anomalies {
namespace {

using OrderKey = std::tuple<long, long, std::size_t>;

OrderKey order_key(const DumpResult& d, std::size_t index) { return {d.step.value_or(-1), d.rank.value_or(-1), index}; }

void keep_earliest(std::optional<OriginRef>& best, std::span<const DumpResult> dumps, std::size_t dump,
                   std::optional<std::size_t> anomaly) {
  if (!anomaly) return;
  if (!best || order_key(dumps[dump], dump) < order_key(dumps[best->dump], best->dump)) best = OriginRef{dump, *anomaly};
}

// Per step group: origin entry -> ranks having it; ranks of the group.
void find_divergences(std::span<const DumpResult> dumps, TreeSummary& s) {
  struct Group {
    std::optional<long> step;
    std::set<long> ranks;
    std::map<std::string, std::set<long>> origins;
  };
  std::map<std::string, Group> groups;
  for (const auto& d : dumps) {
    if (!d.rank) continue;
    Group& g = groups[d.group];
    g.step = d.step;
    g.ranks.insert(*d.rank);
    for (const auto& a : d.dump.analysis.anomalies)
      if (a.role == Role::origin) g.origins[a.entry].insert(*d.rank);
  }
  for (const auto& [key, g] : groups) {
    if (g.ranks.size() < 2) continue;
    for (const auto& [entry, with] : g.origins) {
      if (with.size() == g.ranks.size()) continue;
      RankDivergence div{g.step, entry, {with.begin(), with.end()}, {}};
      std::set_difference(g.ranks.begin(), g.ranks.end(), with.begin(), with.end(), std::back_inserter(div.without));
      s.divergences.push_back(std::move(div));
    }
  }
}

}  // namespace

std::optional<long> number_suffix(const std::string& component) {
  std::size_t i = component.size();
  while (i > 0 && component[i - 1] >= '0' && component[i - 1] <= '9') --i;
  if (i == component.size() || component.size() - i > 15) return std::nullopt;
  return std::stol(component.substr(i));
}

TreeSummary summarize(std::span<const DumpResult> dumps) {
  TreeSummary s;
  s.dumps = dumps.size();
  std::set<long> ranks;
  for (std::size_t i = 0; i < dumps.size(); ++i) {
    const DumpAnalysis& a = dumps[i].dump.analysis;
    s.entries += a.entries;
    s.origins += a.origins;
    s.warnings += a.count(Severity::warning);
    s.infos += a.count(Severity::info);
    keep_earliest(s.first_origin, dumps, i, a.first_origin);
    keep_earliest(s.first_backward_origin, dumps, i, a.first_backward_origin);
    if (a.origins == 0) continue;
    if (dumps[i].rank) ranks.insert(*dumps[i].rank);
    if (dumps[i].step && (!s.first_step_with_origin || *dumps[i].step < *s.first_step_with_origin))
      s.first_step_with_origin = dumps[i].step;
  }
  s.ranks_with_origins.assign(ranks.begin(), ranks.end());
  find_divergences(dumps, s);
  return s;
}

}  // namespace msdump::anomalies

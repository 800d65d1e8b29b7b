#include "anomalies/nested_origins.h"

#include <algorithm>

namespace msdump::anomalies {
namespace {

bool inside(const Anomaly& inner, const std::string& module) {
  if (inner.entry == module) return false;
  if (inner.module == module) return true;
  return std::find(inner.module_chain.begin(), inner.module_chain.end(), module) != inner.module_chain.end();
}

// The first origin or argument inside `outer` (in dump order) not folded already, or nullptr.
Anomaly* innermost(std::vector<Anomaly>& all, const std::vector<bool>& folded, const Anomaly& outer) {
  for (std::size_t i = 0; i < all.size(); ++i) {
    Anomaly& a = all[i];
    if (!folded[i] && (a.role == Role::origin || a.role == Role::argument) && a.direction == outer.direction &&
        inside(a, outer.entry))
      return &a;
  }
  return nullptr;
}

void recount_firsts(DumpAnalysis& a) {
  a.first_origin.reset();
  a.first_backward_origin.reset();
  for (std::size_t i = 0; i < a.anomalies.size(); ++i) {
    const Anomaly& x = a.anomalies[i];
    if (x.role != Role::origin) continue;
    const bool backward = x.direction == Direction::backward || x.direction == Direction::parameters_grad;
    auto& first = backward ? a.first_backward_origin : a.first_origin;
    if (!first) first = i;
  }
}

}  // namespace

void fold_enclosing_origins(DumpAnalysis& analysis) {
  auto& all = analysis.anomalies;
  std::vector<bool> folded(all.size(), false);
  // Innermost first: a module folded into an API inside it may itself hold a folded module.
  for (std::size_t i = all.size(); i-- > 0;) {
    if (all[i].role != Role::origin || all[i].module != all[i].entry) continue;
    Anomaly* inner = innermost(all, folded, all[i]);
    if (inner == nullptr) continue;
    inner->downstream += all[i].downstream + 1;
    folded[i] = true;
    --analysis.origins;
  }
  std::size_t k = 0;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (!folded[i] && k++ != i) all[k - 1] = std::move(all[i]);
  all.resize(k);
  recount_firsts(analysis);
}

}  // namespace msdump::anomalies

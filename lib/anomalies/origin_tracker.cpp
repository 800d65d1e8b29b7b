#include "anomalies/origin_tracker.h"

#include <fmt/format.h>

namespace msdump::anomalies {
namespace {

// The length of "/data/<entry>" in a leaf's pointer (the entry's name is escaped: no '/').
std::size_t entry_prefix_size(const std::string& pointer) {
  const auto p = pointer.find('/', 6);
  return p == std::string::npos ? pointer.size() : p;
}

// "/output/0" of "/data/<entry>/output/0".
std::string_view local_pointer(const std::string& pointer, std::size_t prefix_size) {
  return std::string_view(pointer).substr(std::min(prefix_size, pointer.size()));
}

// "NaN", "+Inf and -Inf", ...
std::string readable(const NonFinite& n) {
  std::string s;
  for (auto [on, name] : {std::pair{n.nan, "NaN"}, std::pair{n.pos_inf, "+Inf"}, std::pair{n.neg_inf, "-Inf"}})
    if (on) s += s.empty() ? name : fmt::format(" and {}", name);
  return s;
}

std::string leaf_values(const LeafNote& l) {
  if (l.counts) return describe_counts(*l.counts);
  return fmt::format("{} {}", l.is_tensor ? "Max/Min say" : "value", readable(l.values));
}

std::string outputs_text(const EntryScan& e, std::size_t prefix) {
  const LeafNote& first = e.outputs.front();
  std::string s = fmt::format("{} holds non-finite values ({})", local_pointer(first.pointer, prefix), leaf_values(first));
  if (e.outputs.size() > 1) s += fmt::format(" and {} more output{}", e.outputs.size() - 1, e.outputs.size() == 2 ? "" : "s");
  return s;
}

}  // namespace

std::uint64_t DumpAnalysis::count(Severity s) const {
  std::uint64_t n = 0;
  for (const auto& a : anomalies) n += severity_of(a.role) == s ? 1 : 0;
  return n;
}

namespace {

// The non-finite outputs of an entry as one leaf note: the first leaf's pointer, every
// output's kinds, and the counts summed when every output has them.
LeafNote all_outputs(const EntryScan& e) {
  LeafNote n = e.outputs.front();
  for (std::size_t i = 1; i < e.outputs.size(); ++i) {
    const LeafNote& o = e.outputs[i];
    n.values.merge(o.values);
    if (!n.counts || !o.counts) {
      n.counts.reset();
      continue;
    }
    n.counts->nan += o.counts->nan;
    n.counts->pos_inf += o.counts->pos_inf;
    n.counts->neg_inf += o.counts->neg_inf;
    n.counts->total += o.counts->total;
  }
  return n;
}

}  // namespace

std::size_t OriginTracker::push(const EntryScan& e, Role role, const LeafNote& leaf, std::string message) {
  Anomaly a;
  a.entry = e.name;
  a.role = role;
  a.direction = e.direction;
  a.values = leaf.values;
  a.pointer = leaf.pointer;
  a.counts = leaf.counts;
  a.message = std::move(message);
  a.entry_index = m_result.entries - 1;
  m_result.anomalies.push_back(std::move(a));
  return m_result.anomalies.size() - 1;
}

void OriginTracker::nonfinite_outputs(const EntryScan& e, Chain& chain) {
  ++m_result.carrying;
  const std::size_t prefix = entry_prefix_size(e.outputs.front().pointer);
  const bool backward = e.direction == Direction::backward || e.direction == Direction::parameters_grad;
  const bool from_inputs =
      e.direction == Direction::parameters_grad ? chain.source.has_value() : e.tensor_input.has_value();
  if (!from_inputs && e.argument) {
    chain.source = push(e, Role::argument, *e.argument,
                        fmt::format("{} from the non-finite non-tensor input {} ({}): put there on purpose, not an origin",
                                    outputs_text(e, prefix), local_pointer(e.argument->pointer, prefix),
                                    readable(e.argument->values)));
    return;
  }
  if (!from_inputs) {
    chain.source = push(e, Role::origin, all_outputs(e),
                        fmt::format("{} while every input is finite", outputs_text(e, prefix)));
    ++m_result.origins;
    auto& first = backward ? m_result.first_backward_origin : m_result.first_origin;
    if (!first) first = *chain.source;
    return;
  }
  if (chain.source) {
    ++m_result.anomalies[*chain.source].downstream;
    return;
  }
  const std::string why = e.tensor_input ? fmt::format("the input {} is non-finite ({})",
                                                       local_pointer(e.tensor_input->pointer, prefix),
                                                       leaf_values(*e.tensor_input))
                                         : std::string("an earlier gradient is non-finite");
  chain.source = push(e, Role::propagated, all_outputs(e),
                      fmt::format("{}; {} and no entry before it is an origin", outputs_text(e, prefix), why));
}

void OriginTracker::add(const EntryScan& e) {
  ++m_result.entries;
  const bool backward = e.direction == Direction::backward || e.direction == Direction::parameters_grad;
  Chain& chain = backward ? m_backward : m_forward;
  if (!e.outputs.empty()) nonfinite_outputs(e, chain);
  for (const LeafNote& s : e.stat_overflows)
    push(e, Role::stat_overflow, s,
         fmt::format("{} {} {} while Max and Min are finite: the statistic overflowed, the tensor is finite",
                     s.statistic, s.statistic.find(" and ") == std::string::npos ? "is" : "are", kind_name(s.values)));
  for (const LeafNote& r : e.overflow_risks) {
    const double limit = *overflow_limit(*r.dtype);
    push(e, Role::overflow_risk, r,
         fmt::format("largest magnitude {} is {:.0f}% of {}'s limit {}", r.max_abs, 100.0 * r.max_abs / limit,
                     dtype_name(*r.dtype), limit));
  }
}

}  // namespace msdump::anomalies

#pragma once
// Origins and propagation, from the scanned entries in dump.json order (execution order).
// Forward entries (and entries of no known direction) form one chain, backward and
// parameters_grad entries another; each is followed on its own.
//
// An entry with non-finite outputs is
//   an argument    when a non-tensor input is non-finite and every tensor input is finite
//                  (info: the value was put there on purpose, e.g. masked_fill(mask, -inf));
//   an origin      when every input is finite (a parameters_grad entry, which has no inputs:
//                  when no earlier backward entry carries non-finite values);
//   propagated     otherwise, counted against the chain's latest origin or argument (its
//                  "downstream"): entries are not linked by data flow in a dump, so this is
//                  "entries after it carrying non-finite values until the next origin". With
//                  no origin before it, the first such entry is reported as propagated.
// Stat overflows and overflow risks are reported per output tensor as they come.

#include <cstdint>
#include <optional>
#include <vector>

#include "anomalies/anomaly.h"
#include "anomalies/entry_scan.h"

namespace msdump::anomalies {

struct DumpAnalysis {
  std::vector<Anomaly> anomalies;              // in dump.json order
  std::uint64_t entries = 0;
  std::uint64_t origins = 0;
  std::uint64_t carrying = 0;                  // entries with non-finite outputs (any role)
  std::optional<std::size_t> first_origin;     // index in anomalies: first forward origin
  std::optional<std::size_t> first_backward_origin;
  std::uint64_t count(Severity s) const;
};

class OriginTracker {
 public:
  // The next entry in dump.json order.
  void add(const EntryScan& entry);
  // The next `n` entries, in which scanning found nothing (what add() of each would do).
  void add_clean(std::uint64_t n) { m_result.entries += n; }
  DumpAnalysis finish() { return std::move(m_result); }

 private:
  struct Chain {
    std::optional<std::size_t> source;  // the anomaly propagated entries are counted against
  };
  void nonfinite_outputs(const EntryScan& e, Chain& chain);
  std::size_t push(const EntryScan& e, Role role, const LeafNote& leaf, std::string message);

  DumpAnalysis m_result;
  Chain m_forward, m_backward;
};

}  // namespace msdump::anomalies

#pragma once
// The anomalies of many dumps put together: totals, the first origin across steps and ranks
// (earliest step, then lowest rank, then dump.json order), the first step with an origin, the
// ranks with origins, and origins only some ranks of a step have (a classic symptom of ranks
// diverging).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "anomalies/dump_scan.h"

namespace msdump::anomalies {

// One dump of a run, with where it sits in the tree.
struct DumpResult {
  std::string key;            // the work item's key (its path)
  std::string group;          // the ranks of one step share it (batch/work_list.h)
  std::optional<long> step;   // from "step<N>" in its path (null outside a tree)
  std::optional<long> rank;   // from "rank<R>" / "proc<P>"
  DumpAnomalies dump;
};

// "step12" -> 12, "rank3" -> 3, "proc2016" -> 2016; nullopt for "" or no digits.
std::optional<long> number_suffix(const std::string& component);

struct OriginRef {
  std::size_t dump = 0;     // index into the run's dumps
  std::size_t anomaly = 0;  // index into that dump's anomalies
};

// An origin entry present in some ranks of a step and not in others.
struct RankDivergence {
  std::optional<long> step;
  std::string entry;
  std::vector<long> with;     // ranks where it is an origin
  std::vector<long> without;  // the step's other ranks
};

struct TreeSummary {
  std::size_t dumps = 0;
  std::uint64_t entries = 0, origins = 0, warnings = 0, infos = 0;
  std::optional<OriginRef> first_origin;           // forward (and entries of no direction)
  std::optional<OriginRef> first_backward_origin;  // backward and parameters_grad
  std::optional<long> first_step_with_origin;
  std::vector<long> ranks_with_origins;            // sorted
  std::vector<RankDivergence> divergences;
};

TreeSummary summarize(std::span<const DumpResult> dumps);

}  // namespace msdump::anomalies

#pragma once
// One reported anomaly of a dump and the roles it can have (the report's contract, README
// "msdump anomalies").

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "anomalies/entry_scan.h"

namespace msdump::anomalies {

enum class Role {
  origin,         // non-finite outputs from finite inputs: where the NaN / Inf first appears
  propagated,     // non-finite outputs from non-finite inputs no earlier origin explains
  argument,       // non-finite outputs from a non-finite non-tensor input (masked_fill(-inf))
  stat_overflow,  // a finite tensor whose Mean or Norm overflowed
  overflow_risk,  // a float16 / bfloat16 tensor at (a fraction of) its largest value
};
enum class Severity { error, warning, info };

// "origin" | "propagated" | "argument" | "stat-overflow" | "overflow-risk"
std::string_view to_string(Role r);
// origin: error; propagated, stat-overflow, overflow-risk: warning; argument: info.
Severity severity_of(Role r);
std::string_view to_string(Severity s);  // "error" | "warning" | "info"

struct Anomaly {
  std::string entry;
  Role role = Role::origin;
  Direction direction = Direction::forward;
  NonFinite values;                        // kind: nan, inf, -inf or mixed (none: overflow risk)
  std::string pointer;
  std::optional<std::string> module;       // the module the entry belongs to (module_tree.h)
  std::vector<std::string> module_chain;   // the modules enclosing `module`, innermost first
  std::optional<ValueCounts> counts;       // from the tensor file
  std::string message;
  std::uint64_t downstream = 0;            // origin, argument, propagated: later entries carrying it
  std::uint64_t entry_index = 0;           // position of the entry in dump.json
};

}  // namespace msdump::anomalies

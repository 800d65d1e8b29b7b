#pragma once
// Comparing a dump with a golden dump (--against, or a capture converted with --capture), the
// way msprobe's compare pairs entries (docs/format.md §11): forward entries by name, backward
// entries by op and order of appearance (dump::MatchKeys, shared with compare), so recomputed or
// renumbered backward passes still pair.
// Within a pair, leaves pair by their path: dtype, shape, statistics (Max/Min exact, Mean/Norm
// within rtol/atol), checksums and non-tensor values are compared.

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/result.h"
#include "dump/match_key.h"
#include "pyjson/json_value.h"
#include "verify/finding_sink.h"

namespace msdump::verify {

struct GoldenTolerance {
  double rtol = 1e-4;  // Mean/Norm relative tolerance
  double atol = 0.0;   // Mean/Norm absolute tolerance
};

class Golden {
 public:
  // Reads the whole golden dump.json into memory (entries by match key). Findings name it as
  // `shown_as` when given (a temporary conversion: no path or line of it is shown).
  static Result<Golden> load(const std::string& dump_json, const std::string& shown_as = "");

  // Compares `entry` (named `name`, at `pointer`) with its golden; reports a missing golden as
  // an "extra" finding.
  void compare(const std::string& name, const std::string& key, const pyjson::Value& entry, const std::string& pointer,
               const GoldenTolerance& tol, FindingSink& sink);
  // Reports golden entries that no compared entry matched, in the golden's order.
  void report_unmatched(FindingSink& sink) const;
  const std::string& path() const { return m_path; }

 private:
  struct Item {
    std::string name;
    pyjson::Value entry;
    std::uint64_t line = 0;
    bool matched = false;
  };
  std::string m_path;
  bool m_show_lines = true;
  std::vector<Item> m_items;
  std::unordered_map<std::string, std::size_t> m_by_key;
};

}  // namespace msdump::verify

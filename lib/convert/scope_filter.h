#pragma once
// msprobe's `scope` option (docs/format.md §10; msprobe core/data_dump/scope.py): a range
// [start, end] of full entry names. The range is a state machine driven by the hooks in call
// order, so it is replayed over the capture's data events, one `update_data` call each:
//
//   APIRangeScope (L1, both names APIs):   check(name) opens the range at `start` before
//       deciding and closes it at `end` after deciding. An API's forward is two events (inputs,
//       outputs), so the end API keeps only its inputs, and backward entries of APIs in the
//       range are not dumped when backward runs after the range closed (msprobe's quirk).
//   ModuleRangeScope (L0, both names modules/cells): the module's forward pre-hook opens the
//       range (begin_module) at `start`, its forward hook closes it (end_module) at `end`;
//       check(name) only reads the state.
//   MixRangeScope (mix): both of the above.
//
// The deciding `check` of a module forward's pre-hook event runs after begin_module, of its
// forward-hook event before end_module. A module backward is one event in a capture (its
// backward hook); it opens and closes the range around its own check, so API backwards that
// ran inside the module's backward before its hook (msprobe's backward pre-hook) are not in a
// range that starts there (a documented deviation: captures do not record backward pre-hooks).
//
// The list option is applied separately (kept_by_list in convert.cpp).

#include <string>
#include <vector>

#include "core/profile.h"
#include "core/result.h"
#include "dump/entry_name.h"

namespace msdump::convert {

class ScopeFilter {
 public:
  enum class Kind { none, api_range, module_range, mix_range };

  // Validates `scope` for `level` as msprobe's RangeScope/ScopeFactory do: empty (no range), one
  // name (the range [name, name]) or two; at L1 both must be API names, at L0 module/cell
  // names, at mix either; at L0/L1 one API and one module name are an error.
  static Result<ScopeFilter> create(const std::vector<std::string>& scope, Level level);

  Kind kind() const { return m_kind; }
  bool active() const { return m_kind != Kind::none; }
  const std::string& start() const { return m_start; }
  const std::string& end() const { return m_end; }

  // One data event of entry `name`, in call order (after the level filter). `opens`: the event
  // is a module forward pre-hook (inputs, no output) or a single-event module forward/backward;
  // `closes`: the event is a module forward hook (has output) or a single-event module
  // backward. Returns whether msprobe dumps this event.
  bool event(const std::string& name, bool opens, bool closes);

  // The opens/closes flags of a data event of `name` carrying inputs and/or an output.
  static std::pair<bool, bool> module_edges(const dump::EntryName& name, bool has_input, bool has_output);

 private:
  bool check(const std::string& name);
  void begin_module(const std::string& name);
  void end_module(const std::string& name);

  Kind m_kind = Kind::none;
  std::string m_start;
  std::string m_end;
  bool m_in_scope = false;
};

std::string_view to_string(ScopeFilter::Kind kind);

}  // namespace msdump::convert

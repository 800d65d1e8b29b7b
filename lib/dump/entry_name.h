#pragma once
// The grammar of dump.json entry names (docs/format.md §3):
//   API       <Prefix>.<api>.<N>.forward|backward          (prefix may itself contain dots)
//   module    Module|Cell.[<i>.]<path>.<Class>.forward|backward.<N>
//   grads     Module|Cell.[<i>.]<path>.<Class>.parameters_grad.<k>
//             Module|Cell.[<i>.]<path>.<Class>.parameters_grad   (msprobe up to 8.x: no counter)
//   debug     <name>.<count>.debug

#include <cstdint>
#include <string_view>

#include "core/profile.h"

namespace msdump::dump {

enum class EntryKind { api_forward, api_backward, module_forward, module_backward, parameters_grad, debug, unknown };

struct EntryName {
  EntryKind kind = EntryKind::unknown;
  // The name without its call number and direction, as msprobe's compare splits it:
  // "Functional.relu" for "Functional.relu.0.forward", "Module.conv1.Conv2d" for
  // "Module.conv1.Conv2d.backward.0" and for "Module.conv1.Conv2d.parameters_grad.0".
  std::string_view op;
  std::string_view prefix;  // "Functional", "Module", "Cell", "torch.nn.functional", ...
  std::uint64_t number = 0;  // N (call counter) or k (grad hook count)
  // False for a parameters_grad name without its counter (the older form, docs/format.md §16).
  bool numbered = true;

  bool is_forward() const { return kind == EntryKind::api_forward || kind == EntryKind::module_forward; }
  bool is_backward() const { return kind == EntryKind::api_backward || kind == EntryKind::module_backward; }
  bool is_module() const {
    return kind == EntryKind::module_forward || kind == EntryKind::module_backward ||
           kind == EntryKind::parameters_grad;
  }
  bool is_api() const { return kind == EntryKind::api_forward || kind == EntryKind::api_backward; }
};

// Classifies `name`; views point into `name`. Never fails: unknown shapes give EntryKind::unknown.
EntryName parse_entry_name(std::string_view name);

// Whether hooks of `level` produce entries like `name` (docs/format.md §3.6): L0 keeps module,
// cell and parameters_grad entries, L1 API entries, mix both. Unknown and debug names: none.
bool level_includes(Level level, const EntryName& name);

// "forward" / "backward" / "parameters_grad" / "debug" / "unknown".
std::string_view to_string(EntryKind kind);

}  // namespace msdump::dump

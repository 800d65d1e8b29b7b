#pragma once
// construct.json as compare reads it: the module chains of the first difference and divergence.
// The file is optional: a missing one is no error; an unreadable or malformed one is (naming
// the file).

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"

namespace msdump::compare {

// construct.json: node -> parent module (null at the top; the Megatron form [parent, micro_step]
// counts by its parent).
class ModuleParents {
 public:
  static Result<ModuleParents> parse(std::string_view text, const std::string& shown_as);
  // The modules enclosing `entry`, outermost first (empty when construct.json does not know it).
  std::vector<std::string> chain(const std::string& entry) const;
  bool empty() const { return m_parent.empty(); }

 private:
  std::unordered_map<std::string, std::string> m_parent;  // "" = no parent
};

// Reads `<dir>/construct.json` if present.
Result<ModuleParents> load_module_parents(const std::string& dir);

}  // namespace msdump::compare

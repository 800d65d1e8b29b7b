#pragma once
// Where in the model an entry sits, from construct.json (child entry -> parent module entry,
// or [parent, micro_step] in the Megatron form): a module entry (L0, mix) is its own module;
// an API entry (mix) belongs to its parent. The chain lists the enclosing modules outward.

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/result.h"

namespace msdump::anomalies {

class ModuleTree {
 public:
  // Reads construct.json; fails with the file, line and what was expected when it is not
  // valid JSON or not an object of strings, nulls and [parent, micro_step] pairs.
  static Result<ModuleTree> load(const std::string& path);
  // From (child, parent) pairs (tests).
  static ModuleTree from_pairs(const std::vector<std::pair<std::string, std::string>>& pairs);

  // The module `entry` belongs to (itself for a module entry); nullopt for an API entry with
  // no parent.
  std::optional<std::string> module_of(const std::string& entry) const;
  // The modules enclosing `module`, innermost first (cycles cut).
  std::vector<std::string> enclosing(const std::string& module) const;

 private:
  std::unordered_map<std::string, std::string> m_parent;
};

}  // namespace msdump::anomalies

#pragma once
// What compare reads beside a dump.json: stack.json (the NPU side's NPU_Stack_Info cells) and
// construct.json (module chains of the first difference / divergence). Both are optional:
// a missing file is no error; an unreadable or malformed one is (naming the file).

#include <string>
#include <unordered_map>
#include <vector>

#include "compare/table.h"
#include "core/byte_source.h"
#include "core/result.h"

namespace msdump::compare {

// Reads stack.json text in either layout msprobe writes: {"0": [[entry names], [frames]], ...}
// (current) or {entry name: [frames]} (legacy), and renders the cell of each of `entries`
// (Python list repr of its frames; "" for an entry without a stack).
Result<StackCells> parse_stack_cells(std::string_view text, const std::string& shown_as,
                                     const std::vector<std::string>& entries);

// The stack cells of a whole stack.json by entry name, each distinct stack rendered once (for a
// caller that does not hold the entry list).
struct StackLookup {
  bool present = false;
  // Entry name (as a 64-bit hash; a colliding pair of names would share a cell) -> index into
  // cells: 12 bytes an entry, sorted once read.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> id_of;
  std::vector<std::string> cells;  // each distinct cell once
  // The cell of `entry` ("" when it has no stack).
  const std::string& cell(const std::string& entry) const;
};
Result<StackLookup> parse_stack_lookup(const ByteSource& src, const std::string& shown_as);
Result<StackLookup> load_stack_lookup(const std::string& dir);

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

// Reads `<dir>/stack.json` / `<dir>/construct.json` if present.
Result<StackCells> load_stack_cells(const std::string& dir, const std::vector<std::string>& entries);
Result<ModuleParents> load_module_parents(const std::string& dir);

}  // namespace msdump::compare

#pragma once
// stack.json as compare reads it: the NPU side's NPU_Stack_Info cells, and one entry's frames
// for -da. The file is optional: a missing one is no error; an unreadable or malformed one is
// (naming the file).

#include <optional>
#include <string>
#include <vector>

#include "compare/table.h"
#include "core/byte_source.h"
#include "core/result.h"

namespace msdump::compare {

// stack.json comes in either layout msprobe writes: {"0": [[entry names], [frames]], ...}
// (current) or {entry name: [frames]} (legacy); it is read one top-level member at a time.

// The stack cells (Python list repr of the frames) of a whole stack.json by entry name, each
// distinct stack rendered once.
struct StackLookup {
  bool present = false;
  // Entry name (as a 64-bit hash; a colliding pair of names would share a cell) -> index into
  // cells: 12 bytes an entry, sorted once read.
  std::vector<std::pair<std::uint64_t, std::uint32_t>> id_of;
  std::vector<std::string> cells;  // each distinct cell once
  // The cell of `entry` ("" when it has no stack).
  const std::string& cell(const std::string& entry) const;
};
// Members are read as text: the frames of a stack seen before are only hashed and compared, a
// new stack is parsed (docs/performance.md "Compare: two passes, ..."); a file that fails is
// read again with every member parsed, whose message is the reference. `as_text` false reads
// every member parsed (that reference reading, which tests hold the other to).
Result<StackLookup> parse_stack_lookup(const ByteSource& src, const std::string& shown_as, bool as_text = true);
Result<StackLookup> load_stack_lookup(const std::string& dir);

// The frames of one entry in `dir`/stack.json (nullopt: no stack.json, or no stack for it).
Result<std::optional<std::vector<std::string>>> load_stack_frames(const std::string& dir, const std::string& entry);

}  // namespace msdump::compare

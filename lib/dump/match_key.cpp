#include "dump/match_key.h"

#include <fmt/format.h>

#include "dump/entry_name.h"

namespace msdump::dump {

std::string MatchKeys::key(std::string_view entry_name) {
  const auto parsed = parse_entry_name(entry_name);
  if (!parsed.is_backward()) return std::string(entry_name);
  const std::string op(parsed.op);
  const auto order = m_backward_seen[op]++;
  if (parsed.kind == EntryKind::module_backward) return fmt::format("{}.backward.{}", op, order);
  return fmt::format("{}.{}.backward", op, order);
}

}  // namespace msdump::dump

#pragma once
// FrameLists: the distinct call stacks (lists of frame strings) of a capture, numbered 0, 1, ...
// in first-seen order. A training step calls the same few code paths over and over, so a
// trace with one stack event per entry holds a few hundred distinct stacks for hundreds of
// thousands of events: interning them as they are read keeps one copy of each, and lets
// StackModel group names by number instead of by comparing lists of strings.

#include <cstdint>
#include <string>
#include <vector>

#include "core/name_table.h"

namespace msdump::dump {

class FrameLists {
 public:
  // The number of `frames`; a list not seen before is moved in and gets the next number.
  std::uint32_t intern(std::vector<std::string>&& frames);
  const std::vector<std::string>& at(std::uint32_t id) const { return m_lists[id]; }
  std::size_t size() const { return m_lists.size(); }

 private:
  // A list's key: each frame as its length (4 bytes) and its bytes, so that different lists
  // never share a key.
  static void encode(const std::vector<std::string>& frames, std::string& key);

  std::vector<std::vector<std::string>> m_lists;
  std::vector<std::string> m_keys;  // m_keys[id] is encode(m_lists[id])
  NameTable<std::uint32_t> m_index;
  std::string m_scratch;
};

}  // namespace msdump::dump

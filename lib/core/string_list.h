#pragma once
// StringList: an append-only list of strings whose bytes live in blocks the list owns, for the
// hundreds of thousands of names a pass keeps to its end (verify's entry names, kept for the
// cross-file and cross-rank checks). Against a std::deque<std::string>:
//   - no allocation per string (a name longer than 15 bytes was one malloc, ~48 bytes);
//   - 16 bytes per item besides its bytes, instead of 32 plus the allocation's;
//   - each page is touched once as the list grows: the bytes fill 64 KiB blocks in order, and
//     the views are a deque. Where a page fault is costly this is what counts
//     (docs/performance.md "Page faults").
// Items never move: a view handed out stays valid while the list lives, moves included.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <deque>
#include <memory>
#include <string_view>
#include <vector>

namespace msdump {

class StringList {
 public:
  using const_iterator = std::deque<std::string_view>::const_iterator;

  StringList() = default;
  StringList(StringList&&) noexcept = default;
  StringList& operator=(StringList&&) noexcept = default;
  StringList(const StringList& other) {
    for (std::string_view s : other) push_back(s);
  }
  StringList& operator=(const StringList& other) {
    if (this != &other) *this = StringList(other);
    return *this;
  }

  // Appends a copy of `s`; returns the stored view.
  std::string_view push_back(std::string_view s) {
    if (m_blocks.empty() || s.size() > m_room) new_block(s.size());
    char* at = m_blocks.back().get() + (m_block_size - m_room);
    if (!s.empty()) std::memcpy(at, s.data(), s.size());
    m_room -= s.size();
    return m_items.emplace_back(at, s.size());
  }

  std::size_t size() const { return m_items.size(); }
  bool empty() const { return m_items.empty(); }
  std::string_view operator[](std::size_t i) const { return m_items[i]; }
  std::string_view back() const { return m_items.back(); }
  const_iterator begin() const { return m_items.begin(); }
  const_iterator end() const { return m_items.end(); }

  friend bool operator==(const StringList& a, const StringList& b) { return a.m_items == b.m_items; }
  friend bool operator<(const StringList& a, const StringList& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  static constexpr std::size_t k_block_bytes = 64 << 10;

  void new_block(std::size_t at_least) {
    m_block_size = std::max(k_block_bytes, at_least);  // (a longer string gets a block of its own)
    m_blocks.push_back(std::make_unique_for_overwrite<char[]>(m_block_size));
    m_room = m_block_size;
  }

  std::deque<std::string_view> m_items;
  std::vector<std::unique_ptr<char[]>> m_blocks;
  std::size_t m_block_size = 0;  // of the last block
  std::size_t m_room = 0;        // bytes left in the last block
};

}  // namespace msdump

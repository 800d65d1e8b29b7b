#pragma once
// SizeHints: how many items to reserve for a JSON container that opens at a given nesting
// depth, learnt from the containers closed at that depth so far (the largest, capped). Dumps
// repeat the same shapes at each depth (tensor leaves of 8-10 members, shapes of 1-4 ints), so
// JsonCursor parses members straight into a vector reserved this way: one allocation and no
// moves for most containers, where collecting on a stack and moving out cost a move of every
// member (docs/performance.md "Containers parsed in place").

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>

namespace msdump::pyjson {

class SizeHints {
 public:
  // Guesses never exceed `cap` items (so a reserved block stays small).
  explicit SizeHints(std::size_t cap) : m_cap(std::min<std::size_t>(cap, 255)) {}

  // Items to reserve at `depth` (0 before any container closed there, and beyond k_depths).
  std::size_t guess(std::size_t depth) const { return depth < k_depths ? m_hint[depth] : 0; }

  // A container with `size` items closed at `depth`.
  void note(std::size_t depth, std::size_t size) {
    if (depth < k_depths && size > m_hint[depth]) m_hint[depth] = static_cast<std::uint8_t>(std::min(size, m_cap));
  }

  static constexpr std::size_t k_depths = 32;

 private:
  std::size_t m_cap;
  std::array<std::uint8_t, k_depths> m_hint{};
};

}  // namespace msdump::pyjson

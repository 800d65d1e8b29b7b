#pragma once
// SchemaRegexSet: up to 64 SchemaRegexes run as one automaton (their product DFA), so searching
// a text with all of them costs one table lookup per byte instead of one per byte and pattern.
// A dump's "data" node searches every entry name with its 5 patternProperties and its
// propertyNames pattern: SchemaRegex::search_many ran the 6 automata in lockstep, a visible
// share of a verify's profile; the product of those 6 has a few dozen states
// (docs/performance.md "Schema: compiled once, compiled validator").
//
// search(text) gives exactly SchemaRegex::search_many(res, count, text): bit i set if res[i]
// matches. The product is built only up to k_max_states states; build() returns nullopt
// beyond that (the caller keeps search_many).

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "schema/schema_regex.h"

namespace msdump::schema {

class SchemaRegexSet {
 public:
  static constexpr std::size_t k_max_patterns = 64;
  static constexpr std::size_t k_max_states = 2048;

  // The product automaton of res[0..count) (count <= k_max_patterns), or nullopt if it would
  // need more than k_max_states states.
  static std::optional<SchemaRegexSet> build(const SchemaRegex* const* res, std::size_t count);

  // Bit i set if res[i] (of build()) has a match in `text`.
  std::uint64_t search(std::string_view text) const {
    std::int32_t row = 0;
    const std::int32_t* table = m_table.data();
    for (const char c : text) row = table[static_cast<std::size_t>(row) + m_class[static_cast<unsigned char>(c)]];
    return m_result[static_cast<std::size_t>(row) / m_classes];
  }

  std::size_t states() const { return m_result.size(); }

 private:
  std::array<std::uint8_t, 256> m_class{};
  std::size_t m_classes = 0;
  std::vector<std::int32_t> m_table;     // [state * m_classes + class] = row offset of the next state
  std::vector<std::uint64_t> m_result;   // per state: the answer if the text ends there
};

}  // namespace msdump::schema

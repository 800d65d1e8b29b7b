#include "schema/schema_regex_set.h"

#include <map>
#include <string>
#include <vector>

#include "schema/state_numbers.h"

namespace msdump::schema {

namespace {
// Per pattern in a product state: a row offset of its automaton, or one of these.
constexpr std::int32_t k_dead = -1;     // no match possible any more
constexpr std::int32_t k_matched = -2;  // matched (SchemaRegex: an "accepting" state absorbs)
}  // namespace

std::optional<SchemaRegexSet> SchemaRegexSet::build(const SchemaRegex* const* res, std::size_t count) {
  if (count > k_max_patterns) return std::nullopt;
  SchemaRegexSet set;
  // Byte classes: two bytes share a class when every pattern puts them in the same class.
  std::map<std::string, std::uint8_t> classes;  // key: the patterns' classes of a byte
  std::array<unsigned, 256> representative{};
  for (unsigned b = 0; b < 256; ++b) {
    std::string key(count, '\0');
    for (std::size_t i = 0; i < count; ++i) key[i] = static_cast<char>(res[i]->m_class[b]);
    const auto [it, fresh] = classes.emplace(std::move(key), static_cast<std::uint8_t>(classes.size()));
    if (fresh) representative[it->second] = b;
    set.m_class[b] = it->second;
  }
  set.m_classes = classes.size();

  // A pattern entering a state that accepts whatever follows has matched, as search() decides.
  auto enter = [&](std::size_t i, std::int32_t row) {
    if (row < 0) return k_dead;
    return (res[i]->m_accept[static_cast<std::size_t>(row)] & 1u) != 0 ? k_matched : row;
  };
  StateNumbers<std::vector<std::int32_t>> states;
  auto intern = [&](std::vector<std::int32_t> s) { return states.intern(std::move(s)); };
  std::vector<std::int32_t> start(count);
  for (std::size_t i = 0; i < count; ++i) start[i] = enter(i, 0);
  intern(std::move(start));
  std::vector<std::int32_t> next_state;  // per (state, class), as state ids
  for (std::size_t s = 0; s < states.size(); ++s) {
    if (states.size() > k_max_states) return std::nullopt;
    for (std::size_t c = 0; c < set.m_classes; ++c) {
      const unsigned byte = representative[c];
      std::vector<std::int32_t> to(count);
      for (std::size_t i = 0; i < count; ++i) {
        const std::int32_t row = states[s][i];
        const SchemaRegex& re = *res[i];
        to[i] = row < 0 ? row : enter(i, re.m_table[static_cast<std::size_t>(row) + re.m_class[byte]]);
      }
      next_state.push_back(intern(std::move(to)));
    }
  }
  set.m_table.resize(next_state.size());
  for (std::size_t k = 0; k < next_state.size(); ++k)
    set.m_table[k] = static_cast<std::int32_t>(static_cast<std::size_t>(next_state[k]) * set.m_classes);
  // The answer at the end of a text: patterns that matched, and live ones whose state accepts
  // at the end (SchemaRegex::search's final test).
  set.m_result.resize(states.size());
  for (std::size_t s = 0; s < states.size(); ++s) {
    std::uint64_t bits = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const std::int32_t row = states[s][i];
      if (row == k_matched || (row >= 0 && res[i]->m_accept[static_cast<std::size_t>(row)] != 0))
        bits |= std::uint64_t{1} << i;
    }
    set.m_result[s] = bits;
  }
  return set;
}

}  // namespace msdump::schema

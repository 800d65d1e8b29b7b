#pragma once
// Numbers the states of a subset construction: each distinct state (a sorted set of NFA nodes,
// or a tuple of DFA rows) gets the next number the first time it is seen. Shared by SchemaRegex
// (NFA -> DFA) and SchemaRegexSet (the product of several DFAs).

#include <cstddef>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

namespace msdump::schema {

template <typename State>
class StateNumbers {
 public:
  // The number of `s`, new or known.
  std::int32_t intern(State s) {
    const auto it = m_index.find(s);
    if (it != m_index.end()) return it->second;
    const auto id = static_cast<std::int32_t>(m_states.size());
    m_index.emplace(s, id);
    m_states.push_back(std::move(s));
    return id;
  }
  // State number i; a reference that intern() may invalidate.
  const State& operator[](std::size_t i) const { return m_states[i]; }
  std::size_t size() const { return m_states.size(); }

 private:
  std::map<State, std::int32_t> m_index;
  std::vector<State> m_states;
};

}  // namespace msdump::schema

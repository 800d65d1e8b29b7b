#pragma once
// SchemaRegex: the regular expressions of JSON Schema "pattern" / "patternProperties"
// (ECMA-262 search semantics: a match anywhere unless anchored), compiled once into a DFA so
// a match costs one table lookup per byte. std::regex (what valijson uses) backtracks and
// allocates, and patterns run for every data_name, md5 and entry name of a dump
// (docs/performance.md "Schema: compiled once, compiled validator").
//
// Supported syntax: literals; "." (any byte but \n and \r); classes [a-z0-9_] and [^.] with
// ranges and escapes; \d \w \s \D \W \S and escaped punctuation (\. \\ \/ ...); groups "(...)"
// and "(?:...)" with "|"; quantifiers * + ? {n} {n,} {n,m} (greedy; laziness does not change
// whether a pattern matches); anchors ^ and $ anywhere (start / end of the whole string). No
// backreferences, lookaround or flags. Matching is on bytes: "." or a negated class matches one
// byte of a multi-byte UTF-8 character, which gives ECMA-262's answer when the atom is repeated
// (".+", "[^.]+") as in every msdump schema.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace msdump::schema {

class SchemaRegex {
 public:
  // Compiles `pattern`. Fails (ErrorCode::unsupported) on syntax outside the subset above, and
  // on a pattern whose DFA would exceed 4096 states, e.g.
  //   "pattern 'a(?=b)': lookaround is not supported (offset 2)".
  static Result<SchemaRegex> compile(std::string_view pattern);

  // Whether `text` contains a match (ECMA-262 RegExp.prototype.test).
  bool search(std::string_view text) const;

  const std::string& pattern() const { return m_pattern; }

  // search() of up to 64 patterns on one text, run in lockstep (the automata's steps are
  // independent, so the CPU overlaps them): bit i set if res[i] matches.
  static std::uint64_t search_many(const SchemaRegex* const* res, std::size_t count, std::string_view text);

 private:
  friend class SchemaRegexSet;  // builds the product automaton of several patterns
  struct State {
    std::array<std::int32_t, 256> next;  // -1 = dead
    bool accepting = false;              // a match ends here whatever follows
    bool accepting_at_end = false;       // a match ends here if the text ends here
  };
  std::string m_pattern;
  std::vector<State> m_states;  // state 0 = start
  // The same automaton with bytes grouped into classes (bytes no state tells apart): rows of
  // m_classes entries, small enough to stay in L1 (search() runs on every entry name).
  std::array<std::uint8_t, 256> m_class{};
  std::size_t m_classes = 0;
  std::vector<std::int32_t> m_table;        // m_table[state * m_classes + class]; -1 = dead
  std::vector<std::uint8_t> m_accept;       // at each state's row offset: 1 accepting, 2 at end
};

}  // namespace msdump::schema

#pragma once
// CleanShapes: clean entries (clean_entry.h) recognised by the shape of a clean entry read
// before, with no syntax scan: anomalies' block pass (block_scan.h) and entry workers
// (dump_scan.cpp) ask it first.
//
// Whether an entry is clean depends on its text only through its structure and keys (valid
// plain JSON, no NaN or Infinity literal, which numbers stand under "Max" or "Min") and through
// each number token's magnitude. A clean entry's shape (pyjson/text_shape.h: its bytes between
// the number tokens) and, per token, whether it stands under "Max" or "Min" are kept. Another
// entry whose text has the same runs, each followed by a whole number token, has the same
// structure and keys, so it is valid plain JSON and holds no literal; it is clean exactly when
// each of its tokens passes CleanEntryRule::clean_number with the flag of its place. So a match
// gives clean_value's answer, and anything else (another shape, a NaN, a token out of range)
// falls to clean_value's scan, which decides and teaches a clean entry's shape.
//
// Plans are tried by the entry's name: the last (up to k_recent_plans) that matched names equal
// but for their digits, the last matched first. One CleanShapes per thread; at most max_bytes of
// shapes, then no more are learned. Entries over k_max_entry_bytes are never learned.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "anomalies/clean_entry.h"
#include "core/shape_table.h"
#include "pyjson/text_shape.h"

namespace msdump::anomalies {

class CleanShapes {
 public:
  static constexpr std::size_t k_max_entry_bytes = 256u << 10;
  static constexpr std::size_t k_default_max_bytes = 4u << 20;
  static constexpr std::size_t k_recent_plans = 8;
  static constexpr std::size_t k_max_names = 1u << 16;  // names (digits as '#') with recent plans kept

  explicit CleanShapes(const CleanEntryRule& rule, std::size_t max_bytes = k_default_max_bytes)
      : m_rule(rule), m_plans(max_bytes) {}

  // As rule.clean_value(p, end) for the value of entry `name` at p: past its end when the value
  // is clean, else nullptr.
  const char* clean_value(std::string_view name, const char* p, const char* end);
  // As rule.clean(text) for entry `name` = `text`.
  bool clean(std::string_view name, std::string_view text);

  // How many values were settled by a shape, and how many shapes are held.
  std::size_t matched() const { return m_matched; }
  std::size_t shapes() const { return m_plans.size(); }

 private:
  struct Plan {
    pyjson::TextShape text;
    std::vector<std::uint8_t> stat;  // per token: 1 when it stands under "Max" or "Min"
  };
  using Recent = std::array<const Plan*, k_recent_plans>;  // the last matched first; nullptr: none

  const char* match(Recent& recent, const char* p, const char* end);
  void learn(Recent& recent, std::string_view text);

  const CleanEntryRule& m_rule;
  ShapeTable<Plan> m_plans;  // by their runs
  std::unordered_map<std::string, Recent> m_recent;  // by name, digit runs as '#'
  std::string m_head;
  std::vector<CleanEntryRule::Token> m_tokens;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> m_spans;
  std::size_t m_matched = 0;
};

}  // namespace msdump::anomalies

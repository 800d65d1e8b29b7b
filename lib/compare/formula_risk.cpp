#include "compare/formula_risk.h"

#include <cstddef>

namespace msdump::compare {
namespace {

// Length of the risky character at the start of `s` (1 ASCII, 3 full-width), or 0.
std::size_t risky_prefix(std::string_view s) {
  if (s.empty()) return 0;
  switch (s[0]) {
    case '+': case '-': case '=': case '%': case '@': return 1;
    default: break;
  }
  // U+FF05 % EF BC 85, U+FF0B + EF BC 8B, U+FF0D - EF BC 8D, U+FF1D = EF BC 9D, U+FF20 @ EF BC A0.
  if (s.size() < 3 || s[0] != '\xEF' || s[1] != '\xBC') return 0;
  switch (s[2]) {
    case '\x85': case '\x8B': case '\x8D': case '\x9D': case '\xA0': return 3;
    default: return 0;
  }
}

bool matches_pattern(std::string_view s) {
  if (risky_prefix(s) != 0) return true;
  for (std::size_t i = s.find(';'); i != std::string_view::npos; i = s.find(';', i + 1)) {
    if (risky_prefix(s.substr(i + 1)) != 0) return true;
  }
  return false;
}

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool equals_ignore_case(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i] >= 'A' && s[i] <= 'Z' ? static_cast<char>(s[i] - 'A' + 'a') : s[i];
    if (c != lower[i]) return false;
  }
  return true;
}

// Digits with single underscores between them, from s[i]; returns how many digits were read
// (0 when none, or when an underscore is not followed by a digit: then the text is no number).
std::size_t digit_part(std::string_view s, std::size_t& i, bool& bad) {
  std::size_t n = 0;
  while (i < s.size()) {
    if (is_digit(s[i])) {
      ++n, ++i;
    } else if (s[i] == '_' && n > 0 && i + 1 < s.size() && is_digit(s[i + 1])) {
      ++i;
    } else {
      break;
    }
  }
  if (i < s.size() && s[i] == '_') bad = true;
  return n;
}

bool decimal_literal(std::string_view s) {
  std::size_t i = 0;
  bool bad = false;
  std::size_t digits = digit_part(s, i, bad);
  if (i < s.size() && s[i] == '.') {
    ++i;
    digits += digit_part(s, i, bad);
  }
  if (digits == 0 || bad) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digit_part(s, i, bad) == 0 || bad) return false;
  }
  return i == s.size();
}

}  // namespace

bool parses_as_python_float(std::string_view text) {
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) text.remove_prefix(1);
  if (equals_ignore_case(text, "inf") || equals_ignore_case(text, "infinity") || equals_ignore_case(text, "nan")) {
    return true;
  }
  return decimal_literal(text);
}

bool formula_risk(std::string_view text) {
  if (!matches_pattern(text)) return false;
  for (std::size_t start = 0;;) {
    const std::size_t end = text.find(';', start);
    if (!parses_as_python_float(text.substr(start, end - start))) return true;
    if (end == std::string_view::npos) return false;
    start = end + 1;
  }
}

}  // namespace msdump::compare

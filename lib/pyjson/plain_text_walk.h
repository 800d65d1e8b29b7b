#pragma once
// Walking JSON text that is known to be valid and plain (checked by PlainScanner or by a parse
// before, with strings of printable ASCII and no escapes): a '"' always opens or closes a
// string and every container closes, so a value is passed over by its first byte, its brackets
// and its quotes alone. For readers that take what they need straight from such text
// (dump/section_text.h, compare/entry_text_rows.h). Text that is not valid and plain must not
// be given.

#include <array>
#include <cstddef>
#include <string_view>

#include "pyjson/container_skip.h"
#include "pyjson/plain_ascii.h"
#include "pyjson/plain_scanner.h"

namespace msdump::pyjson::plain_text {

// Past the closing quote of the string whose opening quote is at p.
inline const char* string_end(const char* p, const char* end) {
  p = skip_plain_ascii(p + 1, end);
  return p == end ? end : p + 1;
}

// The bytes that end a number or a literal.
inline constexpr std::array<bool, 256> k_scalar_end = [] {
  std::array<bool, 256> t{};
  for (unsigned char c : {',', '}', ']', ' ', '\n', '\r', '\t'}) t[c] = true;
  return t;
}();

// Past the value at p (no whitespace before it).
inline const char* value_end(const char* p, const char* end) {
  switch (*p) {
    case '{':
    case '[': {
      const char* e = skip_container(p, end);
      return e != nullptr ? e : end;  // (valid text always closes)
    }
    case '"': return string_end(p, end);
    default:
      while (p != end && !k_scalar_end[static_cast<unsigned char>(*p)]) ++p;
      return p;
  }
}

// f(key, value) for each member of the object at p, in order: `value` points at the member's
// value, and f returns past it, or nullptr to stop. Returns past the object, or nullptr when f
// stopped.
template <class F>
const char* each_member(const char* p, const char* end, F&& f) {
  p = skip_plain_ws(p + 1, end);
  if (*p == '}') return p + 1;
  for (;;) {
    const char* q = skip_plain_ascii(p + 1, end);
    const std::string_view key(p + 1, static_cast<std::size_t>(q - p - 1));
    p = skip_plain_ws(skip_plain_ws(q + 1, end) + 1, end);  // past ':'
    p = f(key, p);
    if (p == nullptr) return nullptr;
    p = skip_plain_ws(p, end);
    if (p == end) return end;
    if (*p == '}') return p + 1;
    p = skip_plain_ws(p + 1, end);  // past ','
  }
}

// f(index, item) for each item of the array at p, as each_member.
template <class F>
const char* each_item(const char* p, const char* end, F&& f) {
  p = skip_plain_ws(p + 1, end);
  if (*p == ']') return p + 1;
  for (std::size_t i = 0;; ++i) {
    p = f(i, p);
    if (p == nullptr) return nullptr;
    p = skip_plain_ws(p, end);
    if (p == end) return end;
    if (*p == ']') return p + 1;
    p = skip_plain_ws(p + 1, end);  // past ','
  }
}

}  // namespace msdump::pyjson::plain_text

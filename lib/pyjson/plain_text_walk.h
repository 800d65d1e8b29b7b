#pragma once
// Walking JSON text that is known to be valid and plain (checked by PlainScanner or by a parse
// before, with strings of printable ASCII and no escapes): a '"' always opens or closes a
// string and every container closes, so a value is passed over by its first byte, its brackets
// and its quotes alone. For readers that take what they need straight from such text
// (dump/section_text.h, compare/entry_text_rows.h). Text that is not valid and plain must not
// be given.

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

// Past the number at p: -?digits(.digits)?([eE][-+]?digits)?
inline const char* number_end(const char* p, const char* end) {
  if (*p == '-') ++p;
  p = skip_digits(p, end);
  if (p != end && *p == '.') p = skip_digits(p + 1, end);
  if (p != end && (*p == 'e' || *p == 'E')) {
    ++p;
    if (p != end && (*p == '+' || *p == '-')) ++p;
    p = skip_digits(p, end);
  }
  return p;
}

// Past the value at p (no whitespace before it).
inline const char* value_end(const char* p, const char* end) {
  switch (*p) {
    case '{':
    case '[': {
      const char* e = skip_container(p, end);
      return e != nullptr ? e : end;  // (valid text always closes)
    }
    case '"': return string_end(p, end);
    case 't':
    case 'n': return p + 4;  // true, null
    case 'f': return p + 5;  // false
    case 'N': return p + 3;  // NaN
    case 'I': return p + 8;  // Infinity
    default: return end - p > 1 && p[0] == '-' && p[1] == 'I' ? p + 9 : number_end(p, end);
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
    // past ':' (json.dump's ": " at once; valid text has a value after it, so q[3] is there)
    if (q[1] == ':' && q[2] == ' ' && static_cast<unsigned char>(q[3]) > ' ') p = q + 3;
    else p = skip_plain_ws(skip_plain_ws(q + 1, end) + 1, end);
    p = f(key, p);
    if (p == nullptr) return nullptr;
    if (p != end && *p == ',') {  // (json.dump's separator)
      p = skip_plain_ws(p + 1, end);
      continue;
    }
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
    if (p != end && *p == ',') {
      p = skip_plain_ws(p + 1, end);
      continue;
    }
    p = skip_plain_ws(p, end);
    if (p == end) return end;
    if (*p == ']') return p + 1;
    p = skip_plain_ws(p + 1, end);  // past ','
  }
}

}  // namespace msdump::pyjson::plain_text

#pragma once
// The number tokens of JSON text, found by its bytes 64 at a time without a syntax check
// (verify's checked shapes, verify/checked_shapes.h). Outside strings (each '"' opens or closes
// one: the text must hold no backslash) a digit or a '-' only ever begins a number, or
// "-Infinity". So for text that is valid JSON the tokens given are exactly its number tokens;
// for any other text they are a segmentation that depends on the bytes alone. A caller that finds
// the text between the tokens equal to that of a text known to be valid learns that this text is
// valid too: each token given is one whole number token of the grammar (checked here, with the
// byte after it unable to continue it), and a number is a single token wherever it stands.
//
// Refuses (false) text with a backslash or a byte that is not ASCII, and a run at a token's start
// that is not one number token ("01", "1.", "-", "1e+").

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "pyjson/container_skip.h"
#include "pyjson/plain_scanner.h"

namespace msdump::pyjson {

namespace detail {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool continues_number(char c) {
  return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

// Past the number token at p, whole: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, with no
// byte after it that could continue it; nullptr otherwise (also at `end`). Fills `n`.
inline const char* whole_number_token(const char* p, const char* end, NumberText& n) {
  n.begin = p;
  n.exp_begin = nullptr;
  if (p != end && *p == '-') ++p;
  if (p == end || !is_digit(*p)) return nullptr;
  n.int_begin = p;
  p = *p == '0' ? p + 1 : skip_digits(p, end);
  n.int_end = p;
  if (p != end && *p == '.') {
    if (++p == end || !is_digit(*p)) return nullptr;
    p = skip_digits(p, end);
  }
  if (p != end && (*p == 'e' || *p == 'E')) {
    n.exp_begin = ++p;
    if (p != end && (*p == '+' || *p == '-')) ++p;
    if (p == end || !is_digit(*p)) return nullptr;
    p = skip_digits(p, end);
  }
  if (p != end && continues_number(*p)) return nullptr;
  n.end = p;
  return p;
}

}  // namespace detail

// f(const NumberText&) for each number token in text order; f returns false to stop. Returns
// false when f stopped or the text was refused (above).
template <class F>
bool for_each_number_token(std::string_view text, F&& f) {
  const char* const base = text.data();
  const char* const end = base + text.size();
  std::uint64_t inside_carry = 0;  // all ones when the block before ended inside a string
  std::uint64_t lead_carry = 0;    // 1 when it ended on a digit or '-'
  std::size_t skip_to = 0;         // bytes before it belong to tokens already given
  char tail[64];
  for (std::size_t at = 0; at < text.size(); at += 64) {
    const char* block = base + at;
    if (text.size() - at < 64) {  // the last block, padded with spaces (they begin nothing)
      std::memset(tail, ' ', sizeof tail);
      std::memcpy(tail, block, text.size() - at);
      block = tail;
    }
    const detail::Block b(block);
    if ((b.mask('\\') | b.mask_high()) != 0) return false;
    const std::uint64_t inside = detail::prefix_xor(b.mask('"')) ^ inside_carry;
    inside_carry = static_cast<std::uint64_t>(static_cast<std::int64_t>(inside) >> 63);
    const std::uint64_t lead = b.mask_digits() | b.mask('-');
    // Digits right after a digit or '-' continue a token; those after '.', 'e' or a sign are
    // passed over by skip_to.
    std::uint64_t starts = lead & ~inside & ~((lead << 1) | lead_carry);
    lead_carry = lead >> 63;
    while (starts != 0) {
      const std::size_t i = at + static_cast<std::size_t>(std::countr_zero(starts));
      starts &= starts - 1;
      if (i < skip_to) continue;
      const char* p = base + i;
      if (*p == '-' && p + 1 != end && p[1] == 'I') continue;  // -Infinity (its letters begin nothing)
      NumberText n{};
      const char* e = detail::whole_number_token(p, end, n);
      if (e == nullptr || !f(n)) return false;
      skip_to = static_cast<std::size_t>(e - base);
    }
  }
  return true;
}

}  // namespace msdump::pyjson

#pragma once
// Past a JSON container (object or array) by its brackets alone, 64 bytes at a time: the text
// is taken to be valid JSON whose strings hold no escapes (what trace::scan_data_line accepts),
// so a '"' always opens or closes a string and brackets inside strings are the only ones to
// ignore. Used where such text is walked again after it was validated (convert's entry pass).
// Bounds-safe on any bytes: it never reads outside [p, end) and returns nullptr when the
// container does not close before `end`.

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace msdump::pyjson {

namespace detail {

// The 64 bytes at p, loaded once; mask(c): bit i set when byte i is c.
class Block {
 public:
#if defined(__AVX2__)
  explicit Block(const char* p)
      : m_lo(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))),
        m_hi(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32))) {}
  std::uint64_t mask(char c) const {
    const __m256i x = _mm256_set1_epi8(c);
    const auto lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(m_lo, x)));
    const auto hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(m_hi, x)));
    return lo | (std::uint64_t{hi} << 32);
  }
  // Bit i set when byte i with bit 0x20 set is c.
  std::uint64_t mask_folded(char c) const {
    const __m256i x = _mm256_set1_epi8(c), fold = _mm256_set1_epi8(0x20);
    const auto lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_or_si256(m_lo, fold), x)));
    const auto hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_or_si256(m_hi, fold), x)));
    return lo | (std::uint64_t{hi} << 32);
  }
  // Bit i set when byte i is a decimal digit.
  std::uint64_t mask_digits() const {
    const __m256i zero = _mm256_set1_epi8('0'), nine = _mm256_set1_epi8(9);
    const __m256i dl = _mm256_sub_epi8(m_lo, zero), dh = _mm256_sub_epi8(m_hi, zero);
    const auto lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(dl, nine), dl)));
    const auto hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(dh, nine), dh)));
    return lo | (std::uint64_t{hi} << 32);
  }
  // Bit i set when byte i is not ASCII (>= 0x80).
  std::uint64_t mask_high() const {
    const auto lo = static_cast<std::uint32_t>(_mm256_movemask_epi8(m_lo));
    const auto hi = static_cast<std::uint32_t>(_mm256_movemask_epi8(m_hi));
    return lo | (std::uint64_t{hi} << 32);
  }

 private:
  __m256i m_lo, m_hi;
#elif defined(__SSE2__)
  // the x86-64 baseline: four 16-byte compares
  explicit Block(const char* p)
      : m_v{_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)), _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16)),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 32)),
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 48))} {}
  std::uint64_t mask(char c) const {
    const __m128i x = _mm_set1_epi8(c);
    std::uint64_t m = 0;
    for (int k = 0; k < 4; ++k)
      m |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(m_v[k], x)))} << (16 * k);
    return m;
  }
  // Bit i set when byte i with bit 0x20 set is c.
  std::uint64_t mask_folded(char c) const {
    const __m128i x = _mm_set1_epi8(c), fold = _mm_set1_epi8(0x20);
    std::uint64_t m = 0;
    for (int k = 0; k < 4; ++k)
      m |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_or_si128(m_v[k], fold), x)))}
           << (16 * k);
    return m;
  }
  // Bit i set when byte i is a decimal digit.
  std::uint64_t mask_digits() const {
    const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
    std::uint64_t m = 0;
    for (int k = 0; k < 4; ++k) {
      const __m128i d = _mm_sub_epi8(m_v[k], zero);
      m |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, nine), d)))}
           << (16 * k);
    }
    return m;
  }
  // Bit i set when byte i is not ASCII (>= 0x80).
  std::uint64_t mask_high() const {
    std::uint64_t m = 0;
    for (int k = 0; k < 4; ++k) m |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(m_v[k]))} << (16 * k);
    return m;
  }

 private:
  __m128i m_v[4];
#else
  explicit Block(const char* p) : m_p(p) {}
  std::uint64_t mask(char c) const {
    std::uint64_t m = 0;
    for (int i = 0; i < 64; ++i) m |= std::uint64_t{m_p[i] == c} << i;
    return m;
  }
  // Bit i set when byte i with bit 0x20 set is c.
  std::uint64_t mask_folded(char c) const {
    std::uint64_t m = 0;
    for (int i = 0; i < 64; ++i) m |= std::uint64_t{static_cast<char>(m_p[i] | 0x20) == c} << i;
    return m;
  }
  // Bit i set when byte i is a decimal digit.
  std::uint64_t mask_digits() const {
    std::uint64_t m = 0;
    for (int i = 0; i < 64; ++i) m |= std::uint64_t{m_p[i] >= '0' && m_p[i] <= '9'} << i;
    return m;
  }
  // Bit i set when byte i is not ASCII (>= 0x80).
  std::uint64_t mask_high() const {
    std::uint64_t m = 0;
    for (int i = 0; i < 64; ++i) m |= std::uint64_t{static_cast<unsigned char>(m_p[i]) >= 0x80} << i;
    return m;
  }

 private:
  const char* m_p;
#endif
};

// Bit i of each mask: byte i of the 64 at p is a '"', an opening or a closing bracket.
struct BracketMasks {
  std::uint64_t quote, open, close;
};

inline BracketMasks bracket_masks(const char* p) {
  const Block b(p);
  // '[' and ']' are '{' and '}' without bit 0x20, and no other byte becomes a brace with it
  // set: one compare for each pair.
  return {b.mask('"'), b.mask_folded('{'), b.mask_folded('}')};
}

// Bit i of each mask: byte i of the 64 at p is a backslash, a newline.
struct LineMasks {
  std::uint64_t backslash, newline;
};

inline LineMasks line_masks(const char* p) {
  const Block b(p);
  return {b.mask('\\'), b.mask('\n')};
}

// The bytes a backslash escapes: bit i set when byte i follows an odd run of backslashes.
// `carry` in: the previous block ended in such a run (its byte 0 is escaped); out: this one
// does. Without a loop over the bits (simdjson's find_escaped): a run that starts on an odd bit
// is turned into one that starts on an even bit by an add, so one mask of alternate bits marks
// the escaped byte after every odd run. Blocks without backslashes cost one test (backslashes
// are rare in dumps; stack.json's frames hold one a line).
inline std::uint64_t escaped_bytes(std::uint64_t backslash, bool& carry) {
  if (backslash == 0 && !carry) return 0;
  constexpr std::uint64_t even_bits = 0x5555555555555555u;
  const std::uint64_t carried = carry ? 1 : 0;
  backslash &= ~carried;  // byte 0 escaped: it is no backslash of its own
  const std::uint64_t follows_backslash = (backslash << 1) | carried;
  const std::uint64_t odd_starts = backslash & ~even_bits & ~follows_backslash;
  std::uint64_t even_starts = 0;
  carry = __builtin_add_overflow(odd_starts, backslash, &even_starts);
  return (even_bits ^ (even_starts << 1)) & follows_backslash;
}

// The number of bits set in x, inline (__builtin_popcountll is a library call on the x86-64
// baseline, which has no POPCNT; the bracket walk takes two or three counts per block).
inline std::size_t popcount(std::uint64_t x) {
  x -= (x >> 1) & 0x5555555555555555u;
  x = (x & 0x3333333333333333u) + ((x >> 2) & 0x3333333333333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Fu;
  return static_cast<std::size_t>((x * 0x0101010101010101u) >> 56);
}

// Bit i set when an odd number of bits 0..i of x are set.
inline std::uint64_t prefix_xor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// The 64 bytes to look at from p: p itself, or the last `left` (< 64) bytes copied into `tail`
// and zero-padded (a NUL is nothing structural).
inline const char* block_at(const char* p, std::size_t left, char (&tail)[64]) {
  if (left >= 64) return p;
  std::memset(tail, 0, sizeof tail);
  std::memcpy(tail, p, left);
  return tail;
}

}  // namespace detail

// The '\n' bytes of [p, end): how many, and the last (nullptr: none). 64 bytes at a time.
struct Newlines {
  std::size_t count = 0;
  const char* last = nullptr;
};
inline Newlines newlines_in(const char* p, const char* end) {
  Newlines out;
  for (; end - p >= 64; p += 64) {
    const std::uint64_t m = detail::Block(p).mask('\n');
    if (m == 0) continue;
    out.count += detail::popcount(m);
    out.last = p + (63 - __builtin_clzll(m));
  }
  for (; p != end; ++p)
    if (*p == '\n') ++out.count, out.last = p;
  return out;
}

// What skip_json_container found.
struct SkippedContainer {
  const char* end = nullptr;              // the byte after the closing bracket; nullptr: not closed
  std::size_t newlines = 0;               // '\n' bytes in [p, end)
  const char* last_newline = nullptr;     // the last of them (nullptr: none)
};

namespace detail {

// The bracket walk of both skips. Json: a '"' after an odd run of backslashes stays in its
// string, and newlines are counted; otherwise strings are taken to hold no escapes.
template <bool Json>
SkippedContainer skip(const char* p, const char* end) {
  SkippedContainer out;
  // Newlines of the block at `block` whose bits are set in `newlines`.
  auto count = [&out](const char* block, std::uint64_t newlines) {
    if (!Json || newlines == 0) return;
    out.newlines += popcount(newlines);
    out.last_newline = block + (63 - __builtin_clzll(newlines));
  };
  std::uint64_t in_string = 0;  // all ones while a string is open across a block boundary
  bool escape_carry = false;
  std::size_t depth = 0;
  char tail[64];
  while (p < end) {
    const std::size_t left = static_cast<std::size_t>(end - p);
    const char* block = block_at(p, left, tail);
    const BracketMasks m = bracket_masks(block);
    LineMasks lm{0, 0};
    std::uint64_t escaped = 0;  // (An escaped byte is never structural: in valid JSON only strings hold escapes.)
    if constexpr (Json) {
      lm = line_masks(block);
      escaped = escaped_bytes(lm.backslash, escape_carry);
    }
    const std::uint64_t strings = prefix_xor(m.quote & ~escaped) ^ in_string;  // opening quote .. before closing
    in_string = static_cast<std::uint64_t>(static_cast<std::int64_t>(strings) >> 63);
    const std::uint64_t open = m.open & ~strings & ~escaped, close = m.close & ~strings & ~escaped;
    const auto closes = popcount(close);
    if (depth > closes && left >= 64) {
      // Fewer closing brackets than open containers: the container cannot end in this block,
      // whatever the order (the usual block, inside an entry): counts instead of a walk.
      depth = depth + popcount(open) - closes;
      count(p, lm.newline);
      p += 64;
      continue;
    }
    for (std::uint64_t s = open | close; s != 0; s &= s - 1) {
      const int bit = __builtin_ctzll(s);
      if ((open >> bit) & 1) {
        ++depth;
      } else {
        if (depth == 0) return out;  // p was not at an opening bracket
        if (--depth == 0) {
          const std::uint64_t before = bit == 63 ? ~std::uint64_t{0} : (std::uint64_t{1} << (bit + 1)) - 1;
          count(p, lm.newline & before);
          out.end = p + bit + 1;
          return out;
        }
      }
    }
    count(p, lm.newline);
    if (left < 64) return SkippedContainer{};
    p += 64;
  }
  return SkippedContainer{};
}

}  // namespace detail

// p points at '{' or '['. Returns the byte after its closing bracket, or nullptr.
inline const char* skip_container(const char* p, const char* end) { return detail::skip<false>(p, end).end; }

// Like skip_container, for any valid JSON text: a '"' after an odd run of backslashes belongs
// to the string it is in. Also counts the newlines it passes, so a parser that skips a value
// this way keeps its line numbers. On text that is not valid JSON the answer is some position
// or nullptr (never a read outside [p, end)): a caller that needs the value checks it by
// parsing [p, end). Used by the verifier's raw-entry stream (dump_json_stream.h).
inline SkippedContainer skip_json_container(const char* p, const char* end) { return detail::skip<true>(p, end); }

}  // namespace msdump::pyjson

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
#endif

namespace msdump::pyjson {

namespace detail {

// Bit i of each mask: byte i of the 64 at p is a '"', an opening or a closing bracket.
struct BracketMasks {
  std::uint64_t quote, open, close;
};

inline BracketMasks bracket_masks(const char* p) {
#if defined(__AVX2__)
  auto masks = [](const char* q) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(q));
    const auto m = [&](char c) {
      return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_set1_epi8(c))));
    };
    return BracketMasks{m('"'), m('{') | m('['), m('}') | m(']')};
  };
  const BracketMasks lo = masks(p), hi = masks(p + 32);
  return {lo.quote | (std::uint64_t{hi.quote} << 32), lo.open | (std::uint64_t{hi.open} << 32),
          lo.close | (std::uint64_t{hi.close} << 32)};
#else
  BracketMasks m{0, 0, 0};
  for (int i = 0; i < 64; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    const char c = p[i];
    if (c == '"') m.quote |= bit;
    else if (c == '{' || c == '[') m.open |= bit;
    else if (c == '}' || c == ']') m.close |= bit;
  }
  return m;
#endif
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

}  // namespace detail

// p points at '{' or '['. Returns the byte after its closing bracket, or nullptr.
inline const char* skip_container(const char* p, const char* end) {
  std::uint64_t in_string = 0;  // all ones while a string is open across a block boundary
  std::size_t depth = 0;
  char tail[64];
  while (p < end) {
    const std::size_t left = static_cast<std::size_t>(end - p);
    const char* block = p;
    if (left < 64) {  // the last bytes, zero-padded (a NUL is nothing structural)
      std::memset(tail, 0, sizeof tail);
      std::memcpy(tail, p, left);
      block = tail;
    }
    const detail::BracketMasks m = detail::bracket_masks(block);
    const std::uint64_t strings = detail::prefix_xor(m.quote) ^ in_string;  // opening quote .. before closing
    in_string = static_cast<std::uint64_t>(static_cast<std::int64_t>(strings) >> 63);
    const std::uint64_t open = m.open & ~strings, close = m.close & ~strings;
    for (std::uint64_t s = open | close; s != 0; s &= s - 1) {
      const int bit = __builtin_ctzll(s);
      if ((open >> bit) & 1) {
        ++depth;
      } else {
        if (depth == 0) return nullptr;  // p was not at an opening bracket
        if (--depth == 0) return p + bit + 1;
      }
    }
    if (left < 64) return nullptr;
    p += 64;
  }
  return nullptr;
}

}  // namespace msdump::pyjson

#pragma once
// The run of "plain" bytes at the start of a JSON string body: printable ASCII except '"' and
// '\' (0x20-0x7E), the bytes json.dump(ensure_ascii=True) copies verbatim and the trace scanner
// accepts without a full parse. Shared by the writer (json_writer.cpp) and the index pass's
// light scan (trace/event_scan.cpp).

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace msdump::pyjson {

inline constexpr std::array<bool, 256> k_plain_ascii = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c <= 0x7E; ++c) t[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return t;
}();

// The bytes of a word that stop a plain run ('"', '\\', control, DEL, non-ASCII), as the high
// bit of each (SWAR; the lowest flagged byte is exact, higher ones may be false alarms after
// a real stop). Word: a 4- or 8-byte unsigned integer.
template <typename Word>
inline Word plain_stops(Word w) {
  constexpr Word ones = static_cast<Word>(0x0101010101010101ull), highs = static_cast<Word>(0x8080808080808080ull);
  const Word q = w ^ static_cast<Word>(ones * '"'), b = w ^ static_cast<Word>(ones * '\\'),
             d = w ^ static_cast<Word>(ones * 0x7F);
  return (((q - ones) & ~q) | ((b - ones) & ~b) | ((d - ones) & ~d) | ((w - static_cast<Word>(ones * 0x20)) & ~w) | w) &
         highs;
}

#if defined(__SSE2__)
// The same for 16 bytes: bit i of the result is set when byte i stops a plain run (it is '"',
// '\\', DEL, or, as a signed byte, below 0x20, which takes in the non-ASCII bytes too).
inline unsigned plain_stops(__m128i v) {
  const __m128i stop = _mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F)), _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))));
  return static_cast<unsigned>(_mm_movemask_epi8(stop));
}
#endif

// Past the plain bytes at p (p <= end): the first '"', '\', control byte, DEL or non-ASCII
// byte, or end. 16 bytes at a time with SSE2, then 8 (SWAR).
inline const unsigned char* skip_plain_ascii(const unsigned char* p, const unsigned char* end) {
#if defined(__SSE2__)
  while (end - p >= 16) {
    const unsigned mask = plain_stops(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
    if (mask != 0) return p + std::countr_zero(mask);
    p += 16;
  }
#endif
  while (end - p >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p, 8);
    const std::uint64_t stop = plain_stops(w);
    if (stop != 0) {
      const int bit = std::endian::native == std::endian::little ? std::countr_zero(stop) : std::countl_zero(stop);
      return p + bit / 8;
    }
    p += 8;
  }
  while (p != end && k_plain_ascii[*p]) ++p;
  return p;
}

inline const char* skip_plain_ascii(const char* p, const char* end) {
  return reinterpret_cast<const char*>(
      skip_plain_ascii(reinterpret_cast<const unsigned char*>(p), reinterpret_cast<const unsigned char*>(end)));
}

// Whether every string in the JSON text `s` is plain: no '\\', no control byte but the
// whitespace between tokens (tab, newline, carriage return), no DEL, no non-ASCII byte. Such
// text, once known to be valid JSON, may be read by PlainReader (plain_reader.h).
inline bool plain_json_text(std::string_view s) {
  const char* p = s.data();
  const char* const end = p + s.size();
#if defined(__SSE2__)
  for (; end - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i whitespace = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))),
                                            _mm_cmpeq_epi8(v, _mm_set1_epi8('\t')));
    const __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')), _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7F))),
                                      _mm_andnot_si128(whitespace, _mm_cmplt_epi8(v, _mm_set1_epi8(0x20))));
    if (_mm_movemask_epi8(stop) != 0) return false;
  }
#endif
  for (; p != end; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '\\' || c >= 0x7F || (c < 0x20 && c != '\n' && c != '\r' && c != '\t')) return false;
  }
  return true;
}

}  // namespace msdump::pyjson

#pragma once
// PlainScanner: checks the JSON syntax of a value without building it, for text in the plain,
// common form: strings of printable ASCII without escapes (pyjson/plain_ascii.h), nesting depth
// <= 64. Whatever it accepts, parse_json accepts too (NaN, Infinity and -Infinity included); for
// anything else it fails, and the caller parses the text fully, which gives the exact error or
// the exact semantics.
//
// A watcher sees what the scan passes without slowing the common case: every object key, every
// number's text, every NaN / Infinity / -Infinity. Each hook returns false to stop the scan (the
// scan then fails as if the text were not plain). NoWatch, the default, sees nothing.
//
// Used by the trace index pass's light scan (trace/event_scan.h) and by anomalies' check that an
// entry holds nothing to report (anomalies/clean_entry.h).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "pyjson/plain_ascii.h"

namespace msdump::pyjson {

// A number's text, split where a watcher wants it: -?(int)(\.frac)?([eE][-+]?exp)?
struct NumberText {
  const char* begin;      // the whole token (with its '-')
  const char* end;
  const char* int_begin;  // its integer digits
  const char* int_end;
  const char* exp_begin;  // the exponent's sign or first digit; nullptr without one
};

// Past the JSON whitespace at p. The common cases first: nothing, or the one space after ':' and
// ','; then a newline and its indentation, 16 bytes at a time.
inline const char* skip_plain_ws(const char* p, const char* end) {
  if (p != end && *p == ' ') ++p;
  if (p == end || static_cast<unsigned char>(*p) > ' ') return p;
#if defined(__SSE2__)
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\n'))),
                                    _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\r')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))));
    const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(ws)) & 0xFFFFu;
    if (other != 0) return p + std::countr_zero(other);
    p += 16;
  }
#endif
  while (p != end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) ++p;
  return p;
}

// Past the decimal digits at p: 8 at a time (a float32 statistic's repr has ~17), then one by
// one.
inline const char* skip_digits(const char* p, const char* end) {
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t highs = 0xF0F0F0F0F0F0F0F0ull, threes = 0x3030303030303030ull, sixes = 0x0606060606060606ull;
    while (end - p >= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      // A byte is no digit when its high nibble is not 3, or its low one is above 9 (+6
      // carries it into the high nibble). Carries only go up, past the first such byte.
      const std::uint64_t other = ((w & highs) ^ threes) | (((w + sixes) & highs) ^ threes);
      if (other != 0) return p + std::countr_zero(other) / 8;
      p += 8;
    }
  }
  while (p != end && *p >= '0' && *p <= '9') ++p;
  return p;
}

struct NoWatch {
  bool key(std::string_view) { return true; }
  bool number(const NumberText&) { return true; }
  bool non_finite() { return true; }
};

// The scan passes its position from call to call in a register, not through a member; the
// member-style calls are for callers that walk the top level themselves (trace/event_scan.cpp).
template <class Watch = NoWatch>
class PlainScanner {
 public:
  static constexpr std::size_t k_max_depth = 64;

  PlainScanner(const char* p, const char* end, Watch watch = {}) : m_p(p), m_end(end), m_watch(watch) {}

  const char* pos() const { return m_p; }
  bool done() const { return m_p == m_end; }

  void ws() { m_p = skip_plain_ws(m_p, m_end); }
  bool eat(char c) {
    if (m_p == m_end || *m_p != c) return false;
    ++m_p;
    return true;
  }
  bool at(char c) const { return m_p != m_end && *m_p == c; }
  // A plain string here (which must be '"'); its contents go to `s`.
  bool string(std::string_view& s) { return advance(scan_string(m_p, s)); }
  // A value here, at `depth` containers deep (whitespace before it skipped).
  bool value(std::size_t depth) { return advance(scan_value(m_p, depth)); }
  // The whole text is one value (with whitespace around it).
  bool whole_value() { return value(0) && (ws(), done()); }

 private:
  static bool digit(char c) { return c >= '0' && c <= '9'; }
  const char* digits(const char* p) const { return skip_digits(p, m_end); }
  bool advance(const char* p) {
    if (p == nullptr) return false;
    m_p = p;
    return true;
  }
  const char* literal(const char* p, std::string_view lit) const {
    if (static_cast<std::size_t>(m_end - p) < lit.size() || std::memcmp(p, lit.data(), lit.size()) != 0) return nullptr;
    return p + lit.size();
  }
  const char* non_finite(const char* p, std::string_view lit) {
    p = literal(p, lit);
    return p != nullptr && m_watch.non_finite() ? p : nullptr;
  }

  // Each returns past what it scanned, or nullptr when the text is not plain valid JSON there.
  const char* scan_string(const char* p, std::string_view& s) const {
    if (p == m_end || *p != '"') return nullptr;
    const char* b = ++p;
    p = skip_plain_ascii(p, m_end);
    if (p == m_end || *p != '"') return nullptr;  // escape, control, non-ASCII or the end
    s = std::string_view(b, static_cast<std::size_t>(p - b));
    return p + 1;
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, -Infinity
  const char* scan_number(const char* p) {
    NumberText n{p, nullptr, nullptr, nullptr, nullptr};
    if (*p == '-' && ++p != m_end && *p == 'I') return non_finite(p, "Infinity");
    if (p == m_end || !digit(*p)) return nullptr;
    n.int_begin = p;
    p = *p == '0' ? p + 1 : digits(p);
    n.int_end = p;
    if (p != m_end && *p == '.') {
      if (++p == m_end || !digit(*p)) return nullptr;
      p = digits(p);
    }
    if (p != m_end && (*p == 'e' || *p == 'E')) {
      n.exp_begin = ++p;
      if (p != m_end && (*p == '+' || *p == '-')) ++p;
      if (p == m_end || !digit(*p)) return nullptr;
      p = digits(p);
    }
    n.end = p;
    return m_watch.number(n) ? p : nullptr;
  }

  // The value at p, its containers `depth` deep and more. One loop with the open containers as
  // bits (1: object) rather than a call per value: most values are scalars in small objects.
  const char* scan_value(const char* p, std::size_t depth) {
    const std::size_t room = depth < k_max_depth ? k_max_depth - depth : 0;  // containers that may open
    std::size_t level = 0;                                                    // containers open
    std::uint64_t objects = 0;                                                // bit i: container i+1 is an object
  value:
    p = skip_plain_ws(p, m_end);
    if (p == m_end) return nullptr;
    switch (*p) {
      case '{':
        if (level >= room) return nullptr;
        objects |= std::uint64_t{1} << level++;
        p = skip_plain_ws(p + 1, m_end);
        if (p == m_end || *p != '}') goto key;
        ++p;
        --level;
        goto after;
      case '[':
        if (level >= room) return nullptr;
        objects &= ~(std::uint64_t{1} << level++);
        p = skip_plain_ws(p + 1, m_end);
        if (p == m_end || *p != ']') goto value;
        ++p;
        --level;
        goto after;
      case '"': {
        std::string_view s;
        p = scan_string(p, s);
        break;
      }
      case 't': p = literal(p, "true"); break;
      case 'f': p = literal(p, "false"); break;
      case 'n': p = literal(p, "null"); break;
      case 'N': p = non_finite(p, "NaN"); break;
      case 'I': p = non_finite(p, "Infinity"); break;
      default: p = scan_number(p);
    }
    if (p == nullptr) return nullptr;
  after:  // a value has ended
    if (level == 0) return p;
    p = skip_plain_ws(p, m_end);
    if (p == m_end) return nullptr;
    if ((objects >> (level - 1)) & 1) {
      if (*p == ',') {
        p = skip_plain_ws(p + 1, m_end);
        goto key;
      }
      if (*p != '}') return nullptr;
    } else {
      if (*p == ',') {
        ++p;
        goto value;
      }
      if (*p != ']') return nullptr;
    }
    ++p;
    --level;
    goto after;
  key:  // at an object's key
  {
    std::string_view k;
    p = scan_string(p, k);
    if (p == nullptr || !m_watch.key(k)) return nullptr;
  }
    p = skip_plain_ws(p, m_end);
    if (p == m_end || *p != ':') return nullptr;
    ++p;
    goto value;
  }

  const char* m_p;
  const char* m_end;
  Watch m_watch;
};

}  // namespace msdump::pyjson

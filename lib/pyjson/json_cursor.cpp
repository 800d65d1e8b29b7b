#include "pyjson/json_cursor.h"

#include "pyjson/entry_matcher.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "pyjson/container_skip.h"
#include "pyjson/eight_digits.h"
#include "pyjson/plain_scanner.h"
#include "pyjson/utf8.h"

namespace msdump::pyjson {

namespace {

// Bytes a string copies without a second look: printable ASCII except '"' and '\'.
constexpr std::array<bool, 256> make_plain_table() {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x80; ++c) t[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return t;
}
constexpr std::array<bool, 256> k_plain = make_plain_table();

constexpr char k_hex[] = "0123456789abcdef";

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// SWAR (8 bytes per step, portable: msprobe hosts are often aarch64). Bytes are loaded little-
// or big-endian as the machine does; first_flagged() maps the lowest-addressed flagged byte.
constexpr std::uint64_t k_ones = 0x0101010101010101ull;
constexpr std::uint64_t k_highs = 0x8080808080808080ull;

std::uint64_t load8(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// Index (0-7) of the first byte whose high bit is set in `mask` (mask != 0).
unsigned first_flagged(std::uint64_t mask) {
  if constexpr (std::endian::native == std::endian::little) {
    return static_cast<unsigned>(std::countr_zero(mask)) / 8;
  } else {
    return static_cast<unsigned>(std::countl_zero(mask)) / 8;
  }
}

// The double nearest to m / 10^q (ties to even), for 0 < m < 2^64 and 1 <= q <= 19, computed
// exactly with one 128-by-64-bit division: the quotient of m * 2^s by 10^q is taken with 62 to
// 64 bits, rounded to 53 with the remainder as the sticky bit. Python's repr of a float32-
// derived statistic has 17 significant digits (0.0013313378440216184), which Clinger's fast
// path does not take. False if the result would not be a normal double (from_chars decides).
__extension__ typedef unsigned __int128 uint128;

bool divide_by_power_of_ten(std::uint64_t m, int q, double& out) {
  static constexpr std::uint64_t k_pow10[] = {1ull,
                                              10ull,
                                              100ull,
                                              1000ull,
                                              10000ull,
                                              100000ull,
                                              1000000ull,
                                              10000000ull,
                                              100000000ull,
                                              1000000000ull,
                                              10000000000ull,
                                              100000000000ull,
                                              1000000000000ull,
                                              10000000000000ull,
                                              100000000000000ull,
                                              1000000000000000ull,
                                              10000000000000000ull,
                                              100000000000000000ull,
                                              1000000000000000000ull,
                                              10000000000000000000ull};
  if (m == 0 || q < 1 || q > 19) return false;
  const std::uint64_t d = k_pow10[q];
  const int m_bits = 64 - std::countl_zero(m);
  const int d_bits = 64 - std::countl_zero(d);
  // m * 2^s < 2^(63 + d_bits) <= 2^127, and the quotient lies in (2^62, 2^64).
  const int s = 63 + d_bits - m_bits;
  const uint128 n = static_cast<uint128>(m) << s;
  const auto quotient = static_cast<std::uint64_t>(n / d);
  const bool sticky = n - static_cast<uint128>(quotient) * d != 0;
  int shift = (64 - std::countl_zero(quotient)) - 53;  // 9 to 11 bits below the 53 kept
  std::uint64_t mant = quotient >> shift;
  const std::uint64_t rest = quotient & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half = std::uint64_t{1} << (shift - 1);
  if (rest > half || (rest == half && (sticky || (mant & 1) != 0))) {
    ++mant;
    if (mant == std::uint64_t{1} << 53) {
      mant >>= 1;
      ++shift;
    }
  }
  // value = mant * 2^(shift - s), mant in [2^52, 2^53)
  const int biased = shift - s + 52 + 1023;
  if (biased < 1 || biased > 2046) return false;
  out = std::bit_cast<double>(static_cast<std::uint64_t>(biased) << 52 | (mant & ((std::uint64_t{1} << 52) - 1)));
  return true;
}

// High bit set in each byte of w that is '"', '\', < 0x20 or >= 0x80 (the lowest flagged
// byte is exact; later ones may be false positives from borrows, which is fine).
std::uint64_t string_stop_mask(std::uint64_t w) {
  const std::uint64_t q = w ^ (k_ones * '"');
  const std::uint64_t b = w ^ (k_ones * '\\');
  return ((q - k_ones) & ~q) | ((b - k_ones) & ~b) | ((w - k_ones * 0x20) & ~w) | (w & k_highs);
}

std::string hex_byte(unsigned char c) { return std::string("0x") + k_hex[c >> 4] + k_hex[c & 15]; }

std::string u_escape_text(unsigned cu) {
  return std::string("\\u") + k_hex[(cu >> 12) & 15] + k_hex[(cu >> 8) & 15] + k_hex[(cu >> 4) & 15] + k_hex[cu & 15];
}

// Reads 4 hex digits at p (p + 4 <= end); -1 if one is not hex.
int read_hex4(const char* p) {
  int v = 0;
  for (int i = 0; i < 4; ++i) {
    const int h = hex_value(p[i]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

// True if [p, end) is a proper prefix of some text `pattern` where 'h' in the pattern stands
// for any hex digit. Used to tell an escape cut off by the end of the window from a bad one.
bool is_prefix_of_pattern(const char* p, const char* end, std::string_view pattern) {
  const auto n = static_cast<std::size_t>(end - p);
  if (n >= pattern.size()) return false;
  for (std::size_t i = 0; i < n; ++i) {
    if (pattern[i] == 'h' ? hex_value(p[i]) < 0 : p[i] != pattern[i]) return false;
  }
  return true;
}

}  // namespace

JsonCursor::JsonCursor(ReadOptions options) : m_options(options) {}

void JsonCursor::reset(std::string_view text, std::uint64_t base_offset, TextPosition base) {
  m_begin = text.data();
  m_end = m_begin + text.size();
  m_p = m_begin;
  m_base_offset = base_offset;
  m_line = base.line;
  m_line_start = m_begin;
  m_column_base = base.column - 1;
  m_fail_what.clear();
  m_fail_at_end = false;
}

void JsonCursor::rebase(std::string_view text, std::size_t shift, TextPosition at_shift) {
  const std::size_t p = pos();
  const auto line_start = static_cast<std::size_t>(m_line_start - m_begin);
  m_begin = text.data();
  m_end = m_begin + text.size();
  m_p = m_begin + (p - shift);
  if (line_start < shift) {
    m_line_start = m_begin;  // the current line began before the kept bytes
    m_column_base = at_shift.column - 1;
  } else {
    m_line_start = m_begin + (line_start - shift);
  }
  m_base_offset += shift;
}

JsonCursor::Checkpoint JsonCursor::checkpoint() const {
  return {pos(), m_line, static_cast<std::size_t>(m_line_start - m_begin), m_column_base};
}

void JsonCursor::restore(const Checkpoint& c) {
  m_p = m_begin + c.pos;
  m_line = c.line;
  m_line_start = m_begin + c.line_start;
  m_column_base = c.column_base;
  m_fail_what.clear();
  m_fail_at_end = false;
}

TextPosition JsonCursor::position() {
  const TextPosition here = position_at(m_p);
  m_line_start = m_p;
  m_column_base = here.column - 1;
  return here;
}

TextPosition JsonCursor::position_at(const char* p) const {
  std::uint64_t column = m_column_base + 1;
  for (const char* q = m_line_start; q < p; ++q) column += (static_cast<unsigned char>(*q) & 0xC0) != 0x80;
  return {m_line, column};
}

inline void JsonCursor::skip_ws() {
  // Every token starts with a byte above ' ' and every whitespace byte is at most ' '.
  if (m_p != m_end && static_cast<unsigned char>(*m_p) > ' ') return;
  // The separator ": " and the space after ',' in other writers' output.
  if (m_end - m_p >= 2 && *m_p == ' ' && static_cast<unsigned char>(m_p[1]) > ' ') {
    ++m_p;
    return;
  }
  skip_ws_slow();
}

void JsonCursor::skip_ws_slow() {
  // json.dump(indent=1): a newline, fewer than 8 spaces of indentation and a token.
  if (m_end - m_p >= 9 && *m_p == '\n') {
    const std::uint64_t x = load8(m_p + 1) ^ (k_ones * ' ');
    if (x != 0) {
      constexpr std::uint64_t k_lows7 = 0x7F7F7F7F7F7F7F7Full;
      const char* token = m_p + 1 + first_flagged((((x & k_lows7) + k_lows7) | x) & k_highs);
      if (static_cast<unsigned char>(*token) > ' ') {
        ++m_line;
        m_line_start = m_p + 1;
        m_column_base = 0;
        m_p = token;
        return;
      }
    }
  }
  while (m_p != m_end) {
    const char c = *m_p;
    if (c == ' ' || c == '\t' || c == '\r') {
      ++m_p;
    } else if (c == '\n') {
      ++m_p;
      ++m_line;
      m_line_start = m_p;
      m_column_base = 0;
      // Indentation follows almost every newline in json.dump(indent=1) output.
      while (m_end - m_p >= 8) {
        const std::uint64_t x = load8(m_p) ^ (k_ones * ' ');
        if (x != 0) {
          // Exact per-byte "non-zero" flags (no carries between bytes).
          constexpr std::uint64_t k_lows7 = 0x7F7F7F7F7F7F7F7Full;
          m_p += first_flagged((((x & k_lows7) + k_lows7) | x) & k_highs);
          break;
        }
        m_p += 8;
      }
    } else {
      break;
    }
  }
}

int JsonCursor::peek() {
  skip_ws();
  return m_p == m_end ? -1 : static_cast<unsigned char>(*m_p);
}

bool JsonCursor::fail_at(const char* p, std::string what, bool at_end) {
  m_fail_what = std::move(what);
  m_fail_position = position_at(p);
  m_fail_offset = m_base_offset + static_cast<std::uint64_t>(p - m_begin);
  m_fail_at_end = at_end;
  return false;
}

bool JsonCursor::fail_here(std::string what) { return fail_at(m_p, std::move(what)); }

std::string JsonCursor::describe_found(const char* p) const {
  const auto c = static_cast<unsigned char>(*p);
  if (c < 0x20 || c >= 0x7F) return "byte " + hex_byte(c);
  auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '+' || ch == '.'; };
  if (!word(*p)) return std::string("'") + *p + "'";
  const char* q = p;
  while (q != m_end && q - p < 16 && word(*q)) ++q;
  std::string out = "'";
  out.append(p, q);
  out += q != m_end && word(*q) ? "...'" : "'";
  return out;
}

bool JsonCursor::fail_expected(std::string_view expected) {
  if (m_p == m_end) return fail_at(m_p, "unexpected end of input, expected " + std::string(expected), true);
  return fail_at(m_p, "expected " + std::string(expected) + ", found " + describe_found(m_p));
}

Error JsonCursor::error() const { return invalid_input(to_string(m_fail_position) + ": " + m_fail_what); }

bool JsonCursor::parse_value(Value& out, std::size_t depth) {
  m_duplicate_keys = false;
  m_fail_what.clear();
  m_fail_at_end = false;
  return value(out, depth);
}

bool JsonCursor::parse_number_token(std::string_view token, Value& out) {
  reset(token);
  if (m_p == m_end) return fail_expected("a value");
  if (!parse_number(out)) return false;
  if (m_p != m_end) return fail_at(m_p, "extra data after a number");
  out.set_offset(0);
  return true;
}

bool JsonCursor::value(Value& out, std::size_t depth) {
  skip_ws();
  if (m_p == m_end) return fail_expected("a value");
  const std::uint64_t off = offset();
  switch (*m_p) {
    case '{': return parse_object(out, depth);
    case '[': return parse_array(out, depth);
    case '"':
      if (!parse_string(out.emplace_string())) return false;
      break;
    case 't':
      if (!parse_literal("true")) return false;
      out = Value::boolean(true);
      break;
    case 'f':
      if (!parse_literal("false")) return false;
      out = Value::boolean(false);
      break;
    case 'n':
      if (!parse_literal("null")) return false;
      out = Value::null();
      break;
    case 'N':
      if (!parse_literal("NaN")) return false;
      out = Value::floating(std::numeric_limits<double>::quiet_NaN());
      break;
    case 'I':
      if (!parse_literal("Infinity")) return false;
      out = Value::floating(std::numeric_limits<double>::infinity());
      break;
    case '-':
    case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
      if (!parse_number(out)) return false;
      break;
    default: return fail_expected("a value");
  }
  out.set_offset(off);
  return true;
}

bool JsonCursor::skip_container(std::string_view& text) {
  const SkippedContainer s = skip_json_container(m_p, m_end);
  if (s.end == nullptr) return fail_at(m_end, "unexpected end of input in an array or object", true);
  if (s.newlines != 0) {
    m_line += s.newlines;
    m_line_start = s.last_newline + 1;
    m_column_base = 0;
  }
  text = std::string_view(m_p, static_cast<std::size_t>(s.end - m_p));
  m_p = s.end;
  return true;
}

bool JsonCursor::skip_matched(EntryMatcher& matcher, std::string_view key, std::string_view& text) {
  Newlines newlines;
  const char* const e = matcher.match(key, m_p, m_end, newlines);
  if (e == nullptr) return false;
  if (newlines.count != 0) {
    m_line += newlines.count;
    m_line_start = newlines.last + 1;
    m_column_base = 0;
  }
  text = std::string_view(m_p, static_cast<std::size_t>(e - m_p));
  m_p = e;
  return true;
}

bool JsonCursor::parse_literal(std::string_view literal) {
  const auto avail = static_cast<std::size_t>(m_end - m_p);
  if (avail >= literal.size() && std::memcmp(m_p, literal.data(), literal.size()) == 0) {
    m_p += literal.size();
    return true;
  }
  if (avail < literal.size() && std::memcmp(m_p, literal.data(), avail) == 0) {
    return fail_at(m_end, "unexpected end of input in '" + std::string(literal) + "'", true);
  }
  return fail_expected("a value");
}

bool JsonCursor::parse_object(Value& out, std::size_t depth) {
  if (depth >= m_options.max_depth) {
    return fail_here("nesting deeper than " + std::to_string(m_options.max_depth) + " levels");
  }
  const std::uint64_t off = offset();
  ++m_p;  // '{'
  skip_ws();
  if (m_p != m_end && *m_p == '}') {
    ++m_p;
    out = Value::object();
    out.set_offset(off);
    return true;
  }
  if (m_p == m_end || *m_p != '"') return fail_expected("a string key in double quotes or '}'");
  // Members are parsed in place into a vector sized by the hint for this depth (no other parse
  // touches it, so a member stays put while its value is parsed).
  Object members;
  members.reserve(m_object_hints.guess(depth));
  for (;;) {
    Member& m = members.emplace_back();
    m.key_offset = offset();
    if (!parse_string(m.key)) return false;
    skip_ws();
    if (m_p == m_end || *m_p != ':') return fail_expected("':' after an object key");
    ++m_p;
    if (!value(m.value, depth + 1)) return false;
    skip_ws();
    if (m_p == m_end) return fail_expected("',' or '}' after an object member");
    if (*m_p == ',') {
      ++m_p;
      skip_ws();
      if (m_p == m_end || *m_p != '"') return fail_expected("a string key in double quotes");
      continue;
    }
    if (*m_p == '}') {
      ++m_p;
      break;
    }
    return fail_expected("',' or '}' after an object member");
  }
  if (m_options.note_duplicate_keys && !m_duplicate_keys && members.size() > 1)
    m_duplicate_keys = has_repeated_key(members.data(), members.size());
  m_object_hints.note(depth, members.size());
  if (m_options.exact_capacity && members.capacity() != members.size()) members.shrink_to_fit();
  out = Value::object(std::move(members));
  out.set_offset(off);
  return true;
}

bool JsonCursor::parse_array(Value& out, std::size_t depth) {
  if (depth >= m_options.max_depth) {
    return fail_here("nesting deeper than " + std::to_string(m_options.max_depth) + " levels");
  }
  const std::uint64_t off = offset();
  ++m_p;  // '['
  skip_ws();
  if (m_p != m_end && *m_p == ']') {
    ++m_p;
    out = Value::array();
    out.set_offset(off);
    return true;
  }
  Array items;
  items.reserve(m_array_hints.guess(depth));
  for (;;) {
    if (!value(items.emplace_back(), depth + 1)) return false;
    skip_ws();
    if (m_p == m_end) return fail_expected("',' or ']' after an array item");
    if (*m_p == ',') {
      ++m_p;
      continue;
    }
    if (*m_p == ']') {
      ++m_p;
      break;
    }
    return fail_expected("',' or ']' after an array item");
  }
  m_array_hints.note(depth, items.size());
  if (m_options.exact_capacity && items.capacity() != items.size()) items.shrink_to_fit();
  out = Value::array(std::move(items));
  out.set_offset(off);
  return true;
}

// Scans the digits at p, appending them to `mantissa` (which wraps around past 19 digits:
// callers look at `ndigits` first) and counting them in `ndigits`. Returns the end.
inline const char* JsonCursor::scan_digits(const char* p, std::uint64_t& mantissa, int& ndigits) const {
  while (m_end - p >= 8 && eight_digits(p, mantissa)) {
    p += 8;
    ndigits += 8;
  }
  for (; p != m_end && is_digit(*p); ++p, ++ndigits) mantissa = mantissa * 10 + static_cast<unsigned>(*p - '0');
  return p;
}

namespace {

// A number as scanned: [start, end) its text with the sign, [int_begin, int_end) its integer
// digits. The digits (all of them, up to 19, fit in a uint64) are accumulated in `mantissa`
// while scanning, `ndigits` of them; `exp10` is the decimal exponent that applies to the
// mantissa, `exp_small` false when the written exponent has more than five digits.
struct ScannedNumber {
  const char* start = nullptr;
  const char* int_begin = nullptr;
  const char* int_end = nullptr;
  const char* end = nullptr;
  bool negative = false;
  bool is_float = false;
  std::uint64_t mantissa = 0;
  int ndigits = 0;
  int exp10 = 0;
  bool exp_small = true;
};

// An integer: from the mantissa up to 18 digits, else from the text: an int64 or, beyond it,
// a big integer kept as its text.
Value integer_value(const ScannedNumber& n) {
  if (n.ndigits <= 18) {
    const auto v = static_cast<std::int64_t>(n.mantissa);
    return Value::integer(n.negative ? -v : v);
  }
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(n.start, n.int_end, v);
  if (ec == std::errc{} && ptr == n.int_end) return Value::integer(v);
  return Value::big_integer(std::string(n.start, n.int_end));
}

// Python's float() gives +-inf on overflow and +-0.0 on underflow. Decides which by the decimal
// exponent of the first significant digit.
double out_of_range_float(const ScannedNumber& n) {
  long exp_part = 0;
  const char* q = n.int_begin;
  bool seen_nonzero = false;
  long first_digit_exp = 0;
  long pos_exp = static_cast<long>(n.int_end - n.int_begin) - 1;
  for (; q != n.end && *q != 'e' && *q != 'E'; ++q) {
    if (*q == '.') continue;
    if (*q != '0' && !seen_nonzero) {
      seen_nonzero = true;
      first_digit_exp = pos_exp;
    }
    --pos_exp;
  }
  if (q != n.end) {
    const char* e = q + 1;
    if (*e == '+') ++e;
    long parsed = 0;
    if (std::from_chars(e, n.end, parsed).ec != std::errc{}) parsed = *e == '-' ? -100000 : 100000;
    exp_part = parsed;
  }
  const bool overflow = seen_nonzero && first_digit_exp + exp_part > 0;
  const double d = overflow ? std::numeric_limits<double>::infinity() : 0.0;
  return n.negative ? -d : d;
}

// The double Python's float() gives for a number with a fraction or an exponent; nullopt when
// the text is not one.
std::optional<double> float_value(const ScannedNumber& n) {
  // Clinger's fast path: an integer mantissa below 2^53 and a power of ten below 10^23 are both
  // exact doubles, so one IEEE multiplication or division rounds correctly, exactly as a full
  // decimal conversion would.
  static constexpr double k_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                       1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  if (n.ndigits <= 19 && n.exp_small && n.mantissa <= (std::uint64_t{1} << 53) && n.exp10 >= -22 && n.exp10 <= 22) {
    double d = static_cast<double>(n.mantissa);
    d = n.exp10 < 0 ? d / k_pow10[-n.exp10] : d * k_pow10[n.exp10];
    return n.negative ? -d : d;
  }
  if (n.exp_small && n.exp10 < 0 && n.exp10 >= -19) {
    // Up to 19 significant digits (leading zeros do not count: the mantissa did not wrap).
    int significant = n.ndigits;
    for (const char* z = n.int_begin; z != n.end && (*z == '0' || *z == '.'); ++z) significant -= *z == '0';
    double d = 0;
    if (significant <= 19 && divide_by_power_of_ten(n.mantissa, -n.exp10, d)) return n.negative ? -d : d;
  }
  double d = 0;
  const auto [ptr, ec] = std::from_chars(n.start, n.end, d);
  if (ec == std::errc::result_out_of_range) return out_of_range_float(n);
  if (ec != std::errc{} || ptr != n.end) return std::nullopt;
  return d;
}

}  // namespace

bool JsonCursor::parse_number(Value& out) {
  ScannedNumber n;
  n.start = m_p;
  const char* p = m_p;
  n.negative = *p == '-';
  if (n.negative) {
    ++p;
    if (p != m_end && *p == 'I') {
      m_p = p;
      if (!parse_literal("Infinity")) return false;
      out = Value::floating(-std::numeric_limits<double>::infinity());
      return true;
    }
  }
  if (p == m_end) return fail_at(p, "unexpected end of input in a number", true);
  n.int_begin = p;
  if (*p == '0') {
    ++p;
    n.ndigits = 1;
  } else if (is_digit(*p)) {
    p = scan_digits(p, n.mantissa, n.ndigits);
  } else {
    return fail_at(p, "expected a digit after '-', found " + describe_found(p));
  }
  n.int_end = p;
  if (p != m_end && *p == '.') {
    ++p;
    if (p == m_end) return fail_at(p, "unexpected end of input in a number", true);
    if (!is_digit(*p)) return fail_at(p, "expected a digit after the decimal point, found " + describe_found(p));
    const char* const frac_begin = p;
    p = scan_digits(p, n.mantissa, n.ndigits);
    n.exp10 = -static_cast<int>(std::min<std::ptrdiff_t>(p - frac_begin, 100000));
    n.is_float = true;
  }
  if (p != m_end && (*p == 'e' || *p == 'E')) {
    ++p;
    const bool exp_negative = p != m_end && *p == '-';
    if (p != m_end && (*p == '+' || *p == '-')) ++p;
    if (p == m_end) return fail_at(p, "unexpected end of input in a number", true);
    if (!is_digit(*p)) return fail_at(p, "expected a digit in the exponent, found " + describe_found(p));
    int e = 0;
    for (; p != m_end && is_digit(*p); ++p) {
      if (e < 100000) {
        e = e * 10 + (*p - '0');
      } else {
        n.exp_small = false;
      }
    }
    n.exp10 += exp_negative ? -e : e;
    n.is_float = true;
  }
  m_p = p;
  n.end = p;
  if (!n.is_float) {
    out = integer_value(n);
    return true;
  }
  const std::optional<double> d = float_value(n);
  if (!d) return fail_at(n.start, "invalid number '" + std::string(n.start, n.end) + "'");
  out = Value::floating(*d);
  return true;
}

inline const char* JsonCursor::skip_plain(const char* q) const {
  while (m_end - q >= 8) {
    const std::uint64_t stop = string_stop_mask(load8(q)) & k_highs;
    if (stop != 0) return q + first_flagged(stop);
    q += 8;
  }
  while (q != m_end && k_plain[static_cast<unsigned char>(*q)]) ++q;
  return q;
}

bool JsonCursor::parse_string(std::string& out) {
  const char* q = m_p + 1;  // after '"'
  const char* run = q;
  q = skip_plain(q);
  if (q != m_end && *q == '"') {
    // Into an empty string (a new key or value): append() copies once (constructing a string
    // and moving it in copied a short string twice), where assign() is a call that handles
    // every overlap and capacity case.
    if (out.empty()) {
      out.append(run, static_cast<std::size_t>(q - run));
    } else {
      out.assign(run, q);
    }
    m_p = q + 1;
    return true;
  }
  out.assign(run, q);
  for (;;) {
    if (q == m_end) return fail_at(q, "unexpected end of input in a string", true);
    const auto c = static_cast<unsigned char>(*q);
    if (c == '"') {
      m_p = q + 1;
      return true;
    }
    if (c == '\\') {
      if (!parse_escape(q, out)) return false;
    } else if (c < 0x20) {
      return fail_at(q, "invalid control character " + hex_byte(c) + " in a string");
    } else {
      unsigned cp = 0;
      const auto* u = reinterpret_cast<const unsigned char*>(q);
      const auto* uend = reinterpret_cast<const unsigned char*>(m_end);
      const std::size_t len = utf8::decode(u, uend, cp);
      if (len == 0) {
        if (utf8::is_valid_prefix(u, uend)) return fail_at(m_end, "unexpected end of input in a string", true);
        return fail_at(q, "invalid UTF-8 byte " + hex_byte(c) + " in a string");
      }
      out.append(q, len);
      q += len;
    }
    run = q;
    q = skip_plain(q);
    out.append(run, q);
  }
}

bool JsonCursor::parse_escape(const char*& q, std::string& out) {
  const char* const backslash = q;
  if (q + 1 == m_end) return fail_at(m_end, "unexpected end of input in a string", true);
  const char e = q[1];
  char simple = 0;
  switch (e) {
    case '"': simple = '"'; break;
    case '\\': simple = '\\'; break;
    case '/': simple = '/'; break;
    case 'b': simple = '\b'; break;
    case 'f': simple = '\f'; break;
    case 'n': simple = '\n'; break;
    case 'r': simple = '\r'; break;
    case 't': simple = '\t'; break;
    case 'u': break;
    default: {
      const auto c = static_cast<unsigned char>(e);
      const std::string shown = c >= 0x20 && c < 0x7F ? std::string("'\\") + e + "'" : "\\ followed by byte " + hex_byte(c);
      return fail_at(backslash, "invalid escape " + shown + " in a string");
    }
  }
  if (simple != 0) {
    out.push_back(simple);
    q += 2;
    return true;
  }
  if (m_end - q < 6) {
    if (is_prefix_of_pattern(q, m_end, "\\uhhhh")) return fail_at(m_end, "unexpected end of input in a string", true);
    return fail_at(backslash, "invalid \\u escape in a string (needs 4 hex digits)");
  }
  const int cu = read_hex4(q + 2);
  if (cu < 0) return fail_at(backslash, "invalid \\u escape in a string (needs 4 hex digits)");
  auto cp = static_cast<unsigned>(cu);
  if (cp >= 0xD800 && cp <= 0xDBFF) {
    const char* const low = q + 6;
    if (m_end - low >= 6 && low[0] == '\\' && low[1] == 'u') {
      const int lo = read_hex4(low + 2);
      if (lo >= 0xDC00 && lo <= 0xDFFF) {
        utf8::encode(out, 0x10000 + ((cp - 0xD800) << 10) + (static_cast<unsigned>(lo) - 0xDC00));
        q += 12;
        return true;
      }
    } else if (is_prefix_of_pattern(low, m_end, "\\uhhhh")) {
      return fail_at(m_end, "unexpected end of input in a string", true);
    }
    return fail_at(backslash, "lone surrogate " + u_escape_text(cp) + " in a string (not representable in UTF-8)");
  }
  if (cp >= 0xDC00 && cp <= 0xDFFF) {
    return fail_at(backslash, "lone surrogate " + u_escape_text(cp) + " in a string (not representable in UTF-8)");
  }
  utf8::encode(out, cp);
  q += 6;
  return true;
}

}  // namespace msdump::pyjson

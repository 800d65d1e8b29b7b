#include "pyjson/pyfloat.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

// Shortest digits come from fmt's Dragonbox (exported by libfmt as
// fmt::detail::dragonbox::to_decimal), cheaper than libstdc++'s std::to_chars (Ryu plus its
// layout code; docs/performance.md "JSON value layout and number parsing"). It is fmt's
// detail API: other fmt versions fall back to to_chars.
#if FMT_VERSION >= 90000 && FMT_VERSION < 100000
#define MSDUMP_PYFLOAT_DRAGONBOX 1
#else
#define MSDUMP_PYFLOAT_DRAGONBOX 0
#endif

namespace msdump::pyjson {
namespace {

char* write_nonfinite(char* out, double x) {
  // Python prints every NaN, whatever its sign bit, as NaN.
  const char* text = std::isnan(x) ? "NaN" : (x > 0 ? "Infinity" : "-Infinity");
  const std::size_t n = std::strlen(text);
  std::memcpy(out, text, n);
  return out + n;
}

// Python's layout of the decimal d1.d2...dn x 10^exp10 (`lead` is d1, `frac` the n-1 <= 16
// digits after it, readable for 16 bytes whatever n is). The fractional digits are moved with
// fixed 16-byte copies (one vector move each, no memcpy call); the bytes they write past the
// text are overwritten or left beyond the end, inside the k_max_python_float_chars (32) the
// caller provides.
char* layout(char* o, bool negative, char lead, const char* frac, int nfrac, int exp10) {
  if (negative) *o++ = '-';
  if (exp10 >= -4 && exp10 < 16) {
    if (exp10 < 0) {  // 0.000ddd
      *o++ = '0';
      *o++ = '.';
      for (int i = -1; i > exp10; --i) *o++ = '0';
      *o++ = lead;
      std::memcpy(o, frac, 16);
      return o + nfrac;
    }
    *o++ = lead;
    if (nfrac <= exp10) {  // integral: ddd000.0
      std::memcpy(o, frac, 16);
      o += nfrac;
      for (int i = nfrac; i < exp10; ++i) *o++ = '0';
      *o++ = '.';
      *o++ = '0';
      return o;
    }
    // ddd.ddd: the integer digits, the '.', the rest (a fixed copy while it stays inside the
    // 32 bytes: sign, lead, exp10 digits, '.', 16 bytes)
    std::memcpy(o, frac, 16);
    o += exp10;
    *o++ = '.';
    if (exp10 <= 13) std::memcpy(o, frac + exp10, 16);
    else std::memcpy(o, frac + exp10, static_cast<std::size_t>(nfrac - exp10));
    return o + (nfrac - exp10);
  }
  // Scientific: d[.ddd]e+XX, at least two exponent digits.
  *o++ = lead;
  if (nfrac > 0) {
    *o++ = '.';
    std::memcpy(o, frac, 16);
    o += nfrac;
  }
  *o++ = 'e';
  *o++ = exp10 < 0 ? '-' : '+';
  unsigned e = static_cast<unsigned>(exp10 < 0 ? -exp10 : exp10);
  if (e >= 100) {
    *o++ = static_cast<char>('0' + e / 100);
    e %= 100;
  }
  *o++ = static_cast<char>('0' + e / 10);
  *o++ = static_cast<char>('0' + e % 10);
  return o;
}

constexpr char k_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

// The 8 decimal digits of v < 10^8, zero-padded, at o.
void eight_digits(char* o, std::uint32_t v) {
  const std::uint32_t hi = v / 10000, lo = v % 10000;
  std::memcpy(o, k_pairs + 2 * (hi / 100), 2);
  std::memcpy(o + 2, k_pairs + 2 * (hi % 100), 2);
  std::memcpy(o + 4, k_pairs + 2 * (lo / 100), 2);
  std::memcpy(o + 6, k_pairs + 2 * (lo % 100), 2);
}

// The decimal digits of 0 < s < 10^20, right-aligned to end at `end`; returns their start.
char* digits_before(char* end, std::uint64_t s) {
  char* d = end;
  while (s >= 100000000) {
    const std::uint64_t q = s / 100000000;
    d -= 8;
    eight_digits(d, static_cast<std::uint32_t>(s - q * 100000000));
    s = q;
  }
  auto v = static_cast<std::uint32_t>(s);
  while (v >= 100) {
    d -= 2;
    std::memcpy(d, k_pairs + 2 * (v % 100), 2);
    v /= 100;
  }
  if (v >= 10) {
    d -= 2;
    std::memcpy(d, k_pairs + 2 * v, 2);
  } else {
    *--d = static_cast<char>('0' + v);
  }
  return d;
}

}  // namespace

char* format_python_float_reference(char* out, double x) {
  if (!std::isfinite(x)) return write_nonfinite(out, x);
  // std::to_chars in scientific mode yields the shortest round-trip digits ("-d.ddde+XX"), the
  // same digits Python's repr uses (both are "shortest, nearest"); only the layout differs.
  char sci[32] = {};
  const char* const sci_end = std::to_chars(sci, sci + sizeof sci, x, std::chars_format::scientific).ptr;
  const char* p = sci;
  const bool negative = *p == '-';
  if (negative) ++p;
  // Digits: p[0], then p[2..e) when there is a '.'.
  const char lead = p[0];
  const char* frac = p + 1;
  const char* e = frac;
  if (*frac == '.') {
    ++frac;
    e = static_cast<const char*>(std::memchr(frac, 'e', static_cast<std::size_t>(sci_end - frac)));
  }
  int exp10 = 0;
  for (const char* q = e + 2; q != sci_end; ++q) exp10 = exp10 * 10 + (*q - '0');
  if (e[1] == '-') exp10 = -exp10;
  return layout(out, negative, lead, frac, static_cast<int>(e - frac), exp10);
}

char* format_python_float(char* out, double x) {
#if MSDUMP_PYFLOAT_DRAGONBOX
  if (!std::isfinite(x)) return write_nonfinite(out, x);
  const bool negative = std::signbit(x);
  if (x == 0) return layout(out, negative, '0', "0000000000000000", 0, 0);
  // Shortest nearest decimal: significand (no trailing zeros, <= 17 digits) x 10^exponent.
  const auto dec = fmt::detail::dragonbox::to_decimal(negative ? -x : x);
  char digits[48];  // right-aligned at digits + 24; layout reads 16 bytes past the lead digit
  char* const end = digits + 24;
  std::memset(end, '0', 16);  // what layout's fixed copies read past the last digit
  const char* d = digits_before(end, dec.significand);
  const int n = static_cast<int>(end - d);
  return layout(out, negative, d[0], d + 1, n - 1, dec.exponent + n - 1);
#else
  return format_python_float_reference(out, x);
#endif
}

void append_python_float(std::string& out, double x) {
  char buf[k_max_python_float_chars];
  out.append(buf, static_cast<std::size_t>(format_python_float(buf, x) - buf));
}

}  // namespace msdump::pyjson

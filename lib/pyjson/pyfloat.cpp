#include "pyjson/pyfloat.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

// Shortest digits come from fmt's Dragonbox (exported by libfmt as
// fmt::detail::dragonbox::to_decimal), about 3x faster than libstdc++'s std::to_chars (Ryu
// plus its layout code). It is fmt's detail API: other fmt versions fall back to to_chars.
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

// Python's layout of the decimal -0.d1d2...dn x 10^(exp10+1), where `sign` says whether to
// write '-', `lead` is d1 and `frac` the n-1 digits after it (exp10: the exponent of d1).
char* layout(char* o, bool negative, char lead, const char* frac, int nfrac, int exp10) {
  if (negative) *o++ = '-';
  if (exp10 >= -4 && exp10 < 16) {
    if (exp10 < 0) {  // 0.000ddd
      *o++ = '0';
      *o++ = '.';
      for (int i = -1; i > exp10; --i) *o++ = '0';
      *o++ = lead;
      std::memcpy(o, frac, static_cast<std::size_t>(nfrac));
      return o + nfrac;
    }
    *o++ = lead;
    if (nfrac <= exp10) {  // integral: ddd000.0
      std::memcpy(o, frac, static_cast<std::size_t>(nfrac));
      o += nfrac;
      for (int i = nfrac; i < exp10; ++i) *o++ = '0';
      *o++ = '.';
      *o++ = '0';
      return o;
    }
    std::memcpy(o, frac, static_cast<std::size_t>(exp10));  // ddd.ddd
    o += exp10;
    *o++ = '.';
    std::memcpy(o, frac + exp10, static_cast<std::size_t>(nfrac - exp10));
    return o + (nfrac - exp10);
  }
  // Scientific: d[.ddd]e+XX, at least two exponent digits.
  *o++ = lead;
  if (nfrac > 0) {
    *o++ = '.';
    std::memcpy(o, frac, static_cast<std::size_t>(nfrac));
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

}  // namespace

char* format_python_float_reference(char* out, double x) {
  if (!std::isfinite(x)) return write_nonfinite(out, x);
  // std::to_chars in scientific mode yields the shortest round-trip digits ("-d.ddde+XX"), the
  // same digits Python's repr uses (both are "shortest, nearest"); only the layout differs.
  char sci[32];
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
  if (x == 0) return layout(out, negative, '0', nullptr, 0, 0);
  // Shortest nearest decimal: significand (no trailing zeros) x 10^exponent.
  const auto dec = fmt::detail::dragonbox::to_decimal(negative ? -x : x);
  char digits[24];
  char* const end = digits + sizeof digits;
  char* d = end;
  std::uint64_t s = dec.significand;
  while (s >= 10) {
    *--d = static_cast<char>('0' + s % 10);
    s /= 10;
  }
  *--d = static_cast<char>('0' + s);
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

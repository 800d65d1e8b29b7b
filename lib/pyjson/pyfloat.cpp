#include "pyjson/pyfloat.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace msdump::pyjson {

char* format_python_float(char* out, double x) {
  if (!std::isfinite(x)) {
    // Python prints every NaN, whatever its sign bit, as NaN.
    const char* text = std::isnan(x) ? "NaN" : (x > 0 ? "Infinity" : "-Infinity");
    const std::size_t n = std::strlen(text);
    std::memcpy(out, text, n);
    return out + n;
  }
  // std::to_chars in scientific mode yields the shortest round-trip digits ("-d.ddde+XX"), the
  // same digits Python's repr uses (both are "shortest, nearest"); only the layout differs.
  char sci[32];
  const char* const sci_end = std::to_chars(sci, sci + sizeof sci, x, std::chars_format::scientific).ptr;
  const char* p = sci;
  char* o = out;
  if (*p == '-') *o++ = *p++;
  // Digits: p[0], then p[2..e) when there is a '.'.
  const char lead = p[0];
  const char* frac = p + 1;
  const char* e = frac;
  if (*frac == '.') {
    ++frac;
    e = static_cast<const char*>(std::memchr(frac, 'e', static_cast<std::size_t>(sci_end - frac)));
  }
  const auto nfrac = static_cast<int>(e - frac);  // digits after the first
  const bool exp_negative = e[1] == '-';
  int exp10 = 0;
  for (const char* q = e + 2; q != sci_end; ++q) exp10 = exp10 * 10 + (*q - '0');
  if (exp_negative) exp10 = -exp10;

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
  // Scientific: d[.ddd]e+XX, at least two exponent digits (to_chars already writes them so).
  *o++ = lead;
  if (nfrac > 0) {
    *o++ = '.';
    std::memcpy(o, frac, static_cast<std::size_t>(nfrac));
    o += nfrac;
  }
  const auto exp_len = static_cast<std::size_t>(sci_end - e);
  std::memcpy(o, e, exp_len);
  return o + exp_len;
}

void append_python_float(std::string& out, double x) {
  char buf[k_max_python_float_chars];
  out.append(buf, static_cast<std::size_t>(format_python_float(buf, x) - buf));
}

}  // namespace msdump::pyjson

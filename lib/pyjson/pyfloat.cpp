#include "pyjson/pyfloat.h"

#include <charconv>
#include <cmath>
#include <cstring>

namespace msdump::pyjson {

void append_python_float(std::string& out, double x) {
  if (!std::isfinite(x)) {
    if (std::isnan(x)) {
      out += "NaN";  // Python prints every NaN, whatever its sign bit, as NaN
    } else {
      out += x > 0 ? "Infinity" : "-Infinity";
    }
    return;
  }
  // std::to_chars in scientific mode yields the shortest round-trip digits ("d.ddde+XX"), the
  // same digits Python's repr uses (both are "shortest, nearest"); only the layout differs.
  char sci[32];
  const auto res = std::to_chars(sci, sci + sizeof sci, x, std::chars_format::scientific);
  const char* p = sci;
  const bool negative = *p == '-';
  if (negative) ++p;
  char digits[20];
  int n = 0;
  digits[n++] = *p++;
  if (*p == '.') {
    for (++p; *p != 'e'; ++p) digits[n++] = *p;
  }
  ++p;  // 'e'
  const bool exp_negative = *p == '-';
  ++p;
  int exp10 = 0;
  for (; p != res.ptr; ++p) exp10 = exp10 * 10 + (*p - '0');
  if (exp_negative) exp10 = -exp10;

  char buf[40];
  char* o = buf;
  if (negative) *o++ = '-';
  if (exp10 >= -4 && exp10 < 16) {
    if (exp10 < 0) {
      *o++ = '0';
      *o++ = '.';
      for (int i = -1; i > exp10; --i) *o++ = '0';
      std::memcpy(o, digits, static_cast<std::size_t>(n));
      o += n;
    } else if (n <= exp10 + 1) {
      std::memcpy(o, digits, static_cast<std::size_t>(n));
      o += n;
      for (int i = n; i <= exp10; ++i) *o++ = '0';
      *o++ = '.';
      *o++ = '0';
    } else {
      std::memcpy(o, digits, static_cast<std::size_t>(exp10 + 1));
      o += exp10 + 1;
      *o++ = '.';
      std::memcpy(o, digits + exp10 + 1, static_cast<std::size_t>(n - exp10 - 1));
      o += n - exp10 - 1;
    }
  } else {
    *o++ = digits[0];
    if (n > 1) {
      *o++ = '.';
      std::memcpy(o, digits + 1, static_cast<std::size_t>(n - 1));
      o += n - 1;
    }
    *o++ = 'e';
    *o++ = exp10 < 0 ? '-' : '+';
    int e = exp10 < 0 ? -exp10 : exp10;
    if (e >= 100) {
      *o++ = static_cast<char>('0' + e / 100);
      e %= 100;
    }
    *o++ = static_cast<char>('0' + e / 10);
    *o++ = static_cast<char>('0' + e % 10);
  }
  out.append(buf, static_cast<std::size_t>(o - buf));
}

}  // namespace msdump::pyjson

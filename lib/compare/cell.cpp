#include "compare/cell.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "pyjson/pyfloat.h"

namespace msdump::compare {

double Cell::to_double() const {
  switch (m_kind) {
    case Kind::integer:
      // strtod rounds correctly, as Python's float(int) does; beyond the double range it gives
      // +-HUGE_VAL where Python raises OverflowError.
      return m_big ? std::strtod(std::string(as_text()).c_str(), nullptr) : static_cast<double>(m_int);
    case Kind::floating:
      return m_float;
    case Kind::boolean:
      return m_bool ? 1.0 : 0.0;  // a Python bool is an int
    case Kind::text:
      break;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

char* format_float_str(char* out, double x) {
  // str(float) is repr(float), except for the non-finite values json spells differently.
  const std::string_view special = std::isnan(x) ? "nan" : std::isinf(x) ? (x > 0 ? "inf" : "-inf") : "";
  if (special.empty()) return pyjson::format_python_float(out, x);
  return std::copy(special.begin(), special.end(), out);
}

Cell Cell::short_text(std::string_view s) {
  Cell c;
  c.store_text(s);
  return c;
}

void Cell::store_text(std::string_view s) {
  if (s.size() > sizeof(m_kept)) {
    m_text.assign(s);
  } else {
    std::copy(s.begin(), s.end(), m_kept);
    m_kept_size = static_cast<std::uint8_t>(s.size());
  }
}

Cell Cell::floating_kept(double v) {
  Cell c;
  c.set_floating_kept(v);
  return c;
}

void Cell::clear() {
  m_kind = Kind::text;
  m_big = m_bool = m_borrowed = m_plain = false;
  m_kept_size = 0;
  m_int = 0;
  m_float = 0.0;
  m_text.clear();
  m_view = {};
}

void Cell::set_plain_text(std::string_view s) {
  clear();
  store_text(s);
  m_plain = true;
}

void Cell::set_floating_kept(double v) {
  static_assert(sizeof(m_kept) >= pyjson::k_max_python_float_chars);
  clear();
  m_kind = Kind::floating;
  m_float = v;
  if (std::isfinite(v)) m_kept_size = static_cast<std::uint8_t>(pyjson::format_python_float(m_kept, v) - m_kept);
}

std::string Cell::str() const {
  std::string out;
  append_str(out);
  return out;
}

void Cell::append_str(std::string& out) const {
  switch (m_kind) {
    case Kind::text:
      out += as_text();
      return;
    case Kind::integer: {
      if (m_big) {
        out += as_text();
        return;
      }
      char buf[24];
      const auto r = std::to_chars(buf, buf + sizeof buf, m_int);
      out.append(buf, r.ptr);
      return;
    }
    case Kind::floating: {
      if (!as_text().empty()) {
        out += as_text();
        return;
      }
      char buf[pyjson::k_max_python_float_chars];
      out.append(buf, format_float_str(buf, m_float));
      return;
    }
    case Kind::boolean:
      out += m_bool ? "True" : "False";
      return;
  }
}

bool Cell::operator==(const Cell& o) const {
  if (m_kind != o.m_kind || m_big != o.m_big) return false;
  switch (m_kind) {
    case Kind::text:
      return as_text() == o.as_text();
    case Kind::integer:
      return m_big ? as_text() == o.as_text() : m_int == o.m_int;
    case Kind::floating:
      // The same value as written: NaN equals NaN, 0.0 and -0.0 differ.
      if (std::isnan(m_float) || std::isnan(o.m_float)) return std::isnan(m_float) && std::isnan(o.m_float);
      return m_float == o.m_float && std::signbit(m_float) == std::signbit(o.m_float);
    case Kind::boolean:
      return m_bool == o.m_bool;
  }
  return false;
}

}  // namespace msdump::compare

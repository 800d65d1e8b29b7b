#include "compare/value_text.h"

#include <charconv>
#include <limits>

#include "compare/python_repr.h"
#include "compare/unmatched_stats.h"
#include "pyjson/plain_text_walk.h"

namespace msdump::compare {
namespace {

using pyjson::Kind;
using pyjson::plain_text::each_item;
using pyjson::plain_text::value_end;

// An integer token of up to 18 digits.
bool int_token(ValueText v, std::int64_t& out) {
  const char* p = v.begin;
  const bool negative = *p == '-';
  if (negative) ++p;
  if (v.end - p > 18) return false;
  std::int64_t x = 0;
  for (; p != v.end; ++p) x = x * 10 + (*p - '0');
  out = negative ? -x : x;
  return true;
}

// A float token (NaN and the infinities included) as parse_json reads it: correctly rounded.
bool float_token(ValueText v, double& out) {
  switch (v.first()) {
    case 'N': out = std::numeric_limits<double>::quiet_NaN(); return true;
    case 'I': out = std::numeric_limits<double>::infinity(); return true;
    default: break;
  }
  if (v.end - v.begin > 1 && v.begin[1] == 'I') {
    out = -std::numeric_limits<double>::infinity();
    return true;
  }
  const auto [ptr, ec] = std::from_chars(v.begin, v.end, out);
  return ec == std::errc{} && ptr == v.end;  // (an overflow or underflow: left to the tree)
}

// Python's str() of an array whose items are all integers (a shape: "[2, 3, 8]"), appended to
// `out`; false, `out` as it was, at the first item that is not an integer.
bool append_int_list(const char* p, const char* end, std::string& out) {
  const std::size_t size = out.size();
  out += '[';
  p = pyjson::skip_plain_ws(p + 1, end);
  for (bool first = true; *p != ']'; first = false) {
    if (!first) p = pyjson::skip_plain_ws(p + 1, end);  // past ','
    const char* const token = p;
    const char* const digits = p + (*p == '-' ? 1 : 0);
    p = pyjson::skip_digits(digits, end);
    if (p == digits || p == end || *p == '.' || *p == 'e' || *p == 'E') {
      out.resize(size);
      return false;
    }
    if (!first) out += ", ";
    const std::string_view text(token, static_cast<std::size_t>(p - token));
    out += text == "-0" ? "0" : text;  // (as for a lone integer below)
    p = pyjson::skip_plain_ws(p, end);
  }
  out += ']';
  return true;
}

// Python's str() of the value, appended to `out` (not for dicts).
bool append_python_str(ValueText v, const char* end, std::string& out) {
  switch (v.first()) {
    case 'n': out += "None"; return true;
    case 't': out += "True"; return true;
    case 'f': out += "False"; return true;
    case '"': out += v.string(); return true;
    case '{': return false;
    case '[': {
      if (append_int_list(v.begin, end, out)) return true;
      out += '[';
      bool first = true;
      const char* e = each_item(v.begin, end, [&](std::size_t, const char* p) -> const char* {
        const ValueText item{p, value_end(p, end)};
        if (!first) out += ", ";
        first = false;
        if (item.first() == '"') append_python_str_repr(out, item.string());
        else if (!append_python_str(item, end, out)) return nullptr;
        return item.end;
      });
      out += ']';
      return e != nullptr;
    }
    default: break;
  }
  if (value_kind(v) == Kind::integer) {
    const std::string_view token(v.begin, static_cast<std::size_t>(v.end - v.begin));
    out += token == "-0" ? "0" : token;  // (JSON has no other spelling Python would not print back)
    return true;
  }
  double d = 0;
  if (!float_token(v, d)) return false;
  Cell::floating(d).append_str(out);
  return true;
}

}  // namespace

Kind value_kind(ValueText v) {
  switch (v.first()) {
    case 'n': return Kind::null;
    case 't':
    case 'f': return Kind::boolean;
    case '"': return Kind::string;
    case '[': return Kind::array;
    case '{': return Kind::object;
    case 'N':
    case 'I': return Kind::floating;
    default:
      for (const char* p = v.begin; p != v.end; ++p)
        if (*p == '.' || *p == 'e' || *p == 'E' || *p == 'I') return Kind::floating;
      return Kind::integer;  // (big integers too: their cells are ints)
  }
}

std::uint8_t stat_kind_of(ValueText v) {
  if (!v.present() || v.first() == 'N') return k_stat_other;
  switch (value_kind(v)) {
    case Kind::integer: return k_stat_int;
    case Kind::floating: return k_stat_float;
    default: return k_stat_other;
  }
}

bool python_str_of(ValueText v, const char* end, std::string& out) {
  out.clear();
  return append_python_str(v, end, out);
}

// flatten's stat_cell (floats keep their str()).
bool stat_cell_of(ValueText v, const char* end, Cell& out) {
  if (!v.present() || v.is_null()) {
    out = Cell::text(std::string(k_none));
    return true;
  }
  switch (v.first()) {
    case 'N': out = Cell::text(std::string(k_nan)); return true;
    case 't': out = Cell::text("True"); return true;
    case 'f': out = Cell::text("False"); return true;
    case '"': out = Cell::text(std::string(v.string())); return true;
    case '{': return false;
    case '[': {
      std::string text;
      if (!python_str_of(v, end, text)) return false;
      out = Cell::text(std::move(text));
      return true;
    }
    default: break;
  }
  if (value_kind(v) == Kind::integer) {
    std::int64_t x = 0;
    if (!int_token(v, x)) return false;
    out = Cell::integer(x);
    return true;
  }
  double d = 0;
  if (!float_token(v, d)) return false;
  out.set_floating_kept(d);
  return true;
}

// flatten's value_cell: a bool stays a bool.
bool value_cell_of(ValueText v, const char* end, Cell& out) {
  if (v.present() && (v.first() == 't' || v.first() == 'f')) {
    out = Cell::boolean(v.first() == 't');
    return true;
  }
  return stat_cell_of(v, end, out);
}

std::size_t item_count(ValueText array, const char* end) {
  std::size_t n = 0;
  each_item(array.begin, end, [&](std::size_t, const char* p) {
    ++n;
    return value_end(p, end);
  });
  return n;
}


}  // namespace msdump::compare

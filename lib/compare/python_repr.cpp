#include "compare/python_repr.h"

#include <algorithm>
#include <array>
#include <cstdint>

#include "pyjson/plain_ascii.h"
#include "pyjson/utf8.h"

namespace msdump::compare {
namespace {

constexpr char k_hex[] = "0123456789abcdef";

// The next code point of `s` at `i` (advancing i); an invalid byte b decodes to U+DC00+b, as
// Python's surrogateescape error handler does.
unsigned next_code_point(std::string_view s, std::size_t& i) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
  if (*p < 0x80) {
    ++i;
    return *p;
  }
  unsigned cp = 0;
  const std::size_t len = pyjson::utf8::decode(p, reinterpret_cast<const unsigned char*>(s.data()) + s.size(), cp);
  if (len == 0) {
    ++i;
    return 0xDC00 + *p;
  }
  i += len;
  return cp;
}

struct Range {
  std::uint32_t first, last;
};

// Assigned non-ASCII code points that str.isprintable() rejects (Unicode 14: categories Cc, Cf,
// Zs, Zl, Zp, Cs, Co), as ranges.
constexpr std::array<Range, 27> k_unprintable = {{
    {0x80, 0xA0},       {0xAD, 0xAD},       {0x600, 0x605},     {0x61C, 0x61C},
    {0x6DD, 0x6DD},     {0x70F, 0x70F},     {0x890, 0x891},     {0x8E2, 0x8E2},
    {0x1680, 0x1680},   {0x180E, 0x180E},   {0x2000, 0x200F},   {0x2028, 0x202F},
    {0x205F, 0x2064},   {0x2066, 0x206F},   {0x3000, 0x3000},   {0xD800, 0xF8FF},
    {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
    {0x13430, 0x13438}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
    {0xE0020, 0xE007F}, {0xF0000, 0xFFFFD}, {0x100000, 0x10FFFD},
}};

bool printable_non_ascii(unsigned cp) {
  if ((cp & 0xFFFE) == 0xFFFE || (cp >= 0xFDD0 && cp <= 0xFDEF)) return false;  // noncharacters
  const auto it = std::upper_bound(k_unprintable.begin(), k_unprintable.end(), cp,
                                   [](unsigned v, const Range& r) { return v < r.first; });
  return it == k_unprintable.begin() || cp > std::prev(it)->last;
}

void append_hex(std::string& out, unsigned v, int digits) {
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out.push_back(k_hex[(v >> shift) & 0xF]);
}

void append_repr_escape(std::string& out, unsigned cp) {
  if (cp <= 0xFF) {
    out += "\\x";
    append_hex(out, cp, 2);
  } else if (cp <= 0xFFFF) {
    out += "\\u";
    append_hex(out, cp, 4);
  } else {
    out += "\\U";
    append_hex(out, cp, 8);
  }
}

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (std::size_t i = 0; i < s.size();) {
    // The bytes json.dumps shows as they are (printable ASCII but '"' and '\\': pyjson's plain
    // ASCII), appended at once.
    const auto run = static_cast<std::size_t>(pyjson::skip_plain_ascii(s.data() + i, s.data() + s.size()) - s.data());
    out.append(s.substr(i, run - i));
    if ((i = run) == s.size()) break;
    const unsigned cp = next_code_point(s, i);
    switch (cp) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      default: break;
    }
    if (cp >= 0x20 && cp <= 0x7E) {
      out.push_back(static_cast<char>(cp));
    } else if (cp <= 0xFFFF) {
      out += "\\u";
      append_hex(out, cp, 4);
    } else {
      const unsigned v = cp - 0x10000;
      out += "\\u";
      append_hex(out, 0xD800 + (v >> 10), 4);
      out += "\\u";
      append_hex(out, 0xDC00 + (v & 0x3FF), 4);
    }
  }
  out.push_back('"');
}

}  // namespace

void append_python_str_repr(std::string& out, std::string_view utf8) {
  const bool single = utf8.find('\'') != std::string_view::npos;
  const char quote = single && utf8.find('"') == std::string_view::npos ? '"' : '\'';
  out.push_back(quote);
  for (std::size_t i = 0; i < utf8.size();) {
    const std::size_t start = i;
    const unsigned cp = next_code_point(utf8, i);
    if (cp == static_cast<unsigned>(quote) || cp == '\\') {
      out.push_back('\\');
      out.push_back(static_cast<char>(cp));
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else if (cp < 0x20 || cp == 0x7F) {
      append_repr_escape(out, cp);
    } else if (cp < 0x80 || printable_non_ascii(cp)) {
      out.append(utf8.substr(start, i - start));
    } else {
      append_repr_escape(out, cp);
    }
  }
  out.push_back(quote);
}

std::string python_str_repr(std::string_view utf8) {
  std::string out;
  append_python_str_repr(out, utf8);
  return out;
}

std::string python_list_repr(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    append_python_str_repr(out, items[i]);
  }
  out.push_back(']');
  return out;
}

std::string python_json_str_list(const std::vector<std::string_view>& items) {
  std::string out;
  python_json_str_list(items, out);
  return out;
}

void python_json_str_list(const std::vector<std::string_view>& items, std::string& out) {
  out.assign("[");
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    append_json_string(out, items[i]);
  }
  out.push_back(']');
}

}  // namespace msdump::compare

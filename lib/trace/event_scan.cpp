#include "trace/event_scan.h"

#include <array>
#include <cstdint>
#include <cstring>

#include "pyjson/container_skip.h"
#include "pyjson/plain_ascii.h"

namespace msdump::trace {
namespace {

constexpr std::size_t k_max_depth = 64;

// Past the JSON whitespace at p. The common cases first: nothing, or the one space after ':'
// and ','.
const char* skip_ws(const char* p, const char* end) {
  if (p != end && *p == ' ') ++p;
  if (p == end || static_cast<unsigned char>(*p) > ' ') return p;
  while (p != end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) ++p;
  return p;
}

class Scanner {
 public:
  Scanner(const char* p, const char* end) : m_p(p), m_end(end) {}

  void ws() { m_p = skip_ws(m_p, m_end); }
  bool eat(char c) {
    if (m_p == m_end || *m_p != c) return false;
    ++m_p;
    return true;
  }
  bool at(char c) const { return m_p != m_end && *m_p == c; }
  bool done() const { return m_p == m_end; }

  // A plain string at m_p (which must be '"'); its contents go to `s`.
  bool string(std::string_view& s) {
    if (!eat('"')) return false;
    const char* b = m_p;
    m_p = pyjson::skip_plain_ascii(m_p, m_end);
    if (m_p == m_end || *m_p != '"') return false;  // escape, control, non-ASCII or the end
    s = std::string_view(b, static_cast<std::size_t>(m_p - b));
    ++m_p;
    return true;
  }

  bool literal(std::string_view lit) {
    if (static_cast<std::size_t>(m_end - m_p) < lit.size() || std::memcmp(m_p, lit.data(), lit.size()) != 0)
      return false;
    m_p += lit.size();
    return true;
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, -Infinity
  bool number() {
    if (eat('-') && at('I')) return literal("Infinity");
    if (m_p == m_end || !digit(*m_p)) return false;
    if (*m_p == '0') ++m_p;
    else
      while (m_p != m_end && digit(*m_p)) ++m_p;
    if (eat('.')) {
      if (m_p == m_end || !digit(*m_p)) return false;
      while (m_p != m_end && digit(*m_p)) ++m_p;
    }
    if (m_p != m_end && (*m_p == 'e' || *m_p == 'E')) {
      ++m_p;
      if (m_p != m_end && (*m_p == '+' || *m_p == '-')) ++m_p;
      if (m_p == m_end || !digit(*m_p)) return false;
      while (m_p != m_end && digit(*m_p)) ++m_p;
    }
    return true;
  }

  bool value(std::size_t depth) {
    ws();
    if (m_p == m_end) return false;
    switch (*m_p) {
      case '{': return object(depth + 1);
      case '[': return array(depth + 1);
      case '"': {
        std::string_view s;
        return string(s);
      }
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      case 'N': return literal("NaN");
      case 'I': return literal("Infinity");
      default: return number();
    }
  }

  bool object(std::size_t depth) {
    if (depth > k_max_depth || !eat('{')) return false;
    ws();
    if (eat('}')) return true;
    while (true) {
      ws();
      std::string_view k;
      if (!string(k)) return false;
      ws();
      if (!eat(':')) return false;
      if (!value(depth)) return false;
      ws();
      if (eat(',')) continue;
      return eat('}');
    }
  }

  bool array(std::size_t depth) {
    if (depth > k_max_depth || !eat('[')) return false;
    ws();
    if (eat(']')) return true;
    while (true) {
      if (!value(depth)) return false;
      ws();
      if (eat(',')) continue;
      return eat(']');
    }
  }

  const char* m_p;
  const char* m_end;
};

// The top-level members of an event line: "kind" and "name" (once each, as strings) go to
// `kind` / `name`, every other member to `member(key, value_text)`.
template <typename OnMember>
bool scan_members(std::string_view line, std::string_view& kind, std::string_view& name, OnMember member) {
  Scanner s(line.data(), line.data() + line.size());
  s.ws();
  if (!s.eat('{')) return false;
  bool have_kind = false, have_name = false;
  s.ws();
  if (!s.eat('}')) {
    while (true) {
      s.ws();
      std::string_view k;
      if (!s.string(k)) return false;
      s.ws();
      if (!s.eat(':')) return false;
      if (k == "kind" || k == "name") {
        bool& seen = k == "kind" ? have_kind : have_name;
        if (seen) return false;  // duplicates: the full parse decides (the last one wins)
        seen = true;
        s.ws();
        if (!s.at('"')) return false;  // not a string: the full parse reports it
        if (!s.string(k == "kind" ? kind : name)) return false;
      } else {
        s.ws();
        const char* const begin = s.m_p;
        if (!s.value(1)) return false;
        member(k, std::string_view(begin, static_cast<std::size_t>(s.m_p - begin)));
      }
      s.ws();
      if (s.eat(',')) continue;
      if (!s.eat('}')) return false;
      break;
    }
  }
  s.ws();
  return s.done() && have_kind && have_name;
}

}  // namespace

bool scan_event_line(std::string_view line, ScannedEvent& out) {
  out.keys.clear();
  return scan_members(line, out.kind, out.name, [&](std::string_view k, std::string_view) { out.keys.push_back(k); });
}

namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Past the value at p, by its strings and brackets alone; nullptr when the text ends first or a
// string is not plain.
const char* skip_value_unchecked(const char* p, const char* end) {
  if (p == end) return nullptr;
  if (*p == '"') {
    p = pyjson::skip_plain_ascii(p + 1, end);
    return p != end && *p == '"' ? p + 1 : nullptr;
  }
  if (*p == '{' || *p == '[') return pyjson::skip_container(p, end);
  while (p != end && *p != ',' && *p != '}' && *p != ']' && !is_ws(*p)) ++p;
  return p;
}

}  // namespace

bool split_data_line(std::string_view line, ScannedData& out) {
  out.sections.clear();
  const char* const end = line.data() + line.size();
  const char* p = skip_ws(line.data(), end);
  if (p == end || *p != '{') return false;
  p = skip_ws(p + 1, end);
  bool have_kind = false, have_name = false;
  while (true) {
    if (p == end || *p != '"') return false;
    const char* const k = p + 1;
    p = pyjson::skip_plain_ascii(k, end);
    if (p == end || *p != '"') return false;
    const std::string_view key(k, static_cast<std::size_t>(p - k));
    p = skip_ws(p + 1, end);
    if (p == end || *p != ':') return false;
    p = skip_ws(p + 1, end);
    const char* const v = p;
    p = skip_value_unchecked(p, end);
    if (p == nullptr) return false;
    const std::string_view value(v, static_cast<std::size_t>(p - v));
    if (key == "kind" || key == "name") {
      bool& seen = key == "kind" ? have_kind : have_name;
      if (seen || value.size() < 2 || value.front() != '"') return false;
      seen = true;
      (key == "kind" ? out.kind : out.name) = value.substr(1, value.size() - 2);
    } else {
      out.sections.push_back({key, value});
    }
    p = skip_ws(p, end);
    if (p == end) return false;
    if (*p == '}') break;
    if (*p != ',') return false;
    p = skip_ws(p + 1, end);
  }
  return skip_ws(p + 1, end) == end && have_kind && have_name;
}

bool scan_data_line(std::string_view line, ScannedData& out) {
  out.sections.clear();
  return scan_members(line, out.kind, out.name,
                      [&](std::string_view k, std::string_view v) { out.sections.push_back({k, v}); });
}

}  // namespace msdump::trace

#include "trace/event_scan.h"

#include "pyjson/container_skip.h"
#include "pyjson/plain_ascii.h"
#include "pyjson/plain_scanner.h"

namespace msdump::trace {
namespace {

// The top-level members of an event line: "kind" and "name" (once each, as strings) go to
// `kind` / `name`, every other member to `member(key, value_text)`.
template <typename OnMember>
bool scan_members(std::string_view line, std::string_view& kind, std::string_view& name, OnMember member) {
  pyjson::PlainScanner<> s(line.data(), line.data() + line.size());
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
        const char* const begin = s.pos();
        if (!s.value(1)) return false;
        member(k, std::string_view(begin, static_cast<std::size_t>(s.pos() - begin)));
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
  const char* p = pyjson::skip_plain_ws(line.data(), end);
  if (p == end || *p != '{') return false;
  p = pyjson::skip_plain_ws(p + 1, end);
  bool have_kind = false, have_name = false;
  while (true) {
    if (p == end || *p != '"') return false;
    const char* const k = p + 1;
    p = pyjson::skip_plain_ascii(k, end);
    if (p == end || *p != '"') return false;
    const std::string_view key(k, static_cast<std::size_t>(p - k));
    p = pyjson::skip_plain_ws(p + 1, end);
    if (p == end || *p != ':') return false;
    p = pyjson::skip_plain_ws(p + 1, end);
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
    p = pyjson::skip_plain_ws(p, end);
    if (p == end) return false;
    if (*p == '}') break;
    if (*p != ',') return false;
    p = pyjson::skip_plain_ws(p + 1, end);
  }
  return pyjson::skip_plain_ws(p + 1, end) == end && have_kind && have_name;
}

bool scan_data_line(std::string_view line, ScannedData& out) {
  out.sections.clear();
  return scan_members(line, out.kind, out.name,
                      [&](std::string_view k, std::string_view v) { out.sections.push_back({k, v}); });
}

}  // namespace msdump::trace

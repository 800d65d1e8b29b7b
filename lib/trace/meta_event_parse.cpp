#include "trace/meta_event_parse.h"

#include "pyjson/json_cursor.h"

namespace msdump::trace {
namespace {

// The next token is the string `s` spelled as it stands (no escapes, as trace writers spell
// keys and kinds), compared in place instead of decoded into a string first. Another spelling
// returns false: the caller's full parse decodes it.
bool literal_string(pyjson::JsonCursor& c, std::string_view s) {
  if (c.peek() != '"') return false;
  const std::string_view rest = c.text().substr(c.pos() + 1);
  if (rest.size() <= s.size() || rest[s.size()] != '"' || !rest.starts_with(s)) return false;
  for (std::size_t i = 0; i < s.size() + 2; ++i) c.advance();
  return true;
}

// The next token is the string `key` followed by ':'.
bool key(pyjson::JsonCursor& c, std::string_view key) {
  if (!literal_string(c, key) || c.peek() != ':') return false;
  c.advance();
  return true;
}

bool comma(pyjson::JsonCursor& c) {
  if (c.peek() != ',') return false;
  c.advance();
  return true;
}

}  // namespace

bool parse_meta_event_line(std::string_view line, TraceEvent& out) {
  out.kind = EventKind::unknown;
  out.name.clear();
  out.sections.clear();
  out.frames.clear();
  out.parent.reset();
  out.micro_step.reset();
  out.unknown_kind.clear();

  thread_local pyjson::JsonCursor c;
  c.reset(line);
  if (c.peek() != '{') return false;
  c.advance();
  if (!key(c, "kind")) return false;
  if (literal_string(c, "stack")) out.kind = EventKind::stack;
  else if (literal_string(c, "construct")) out.kind = EventKind::construct;
  else return false;
  if (!comma(c) || !key(c, "name") || c.peek() != '"' || !c.parse_string(out.name) || out.name.empty())
    return false;
  if (!comma(c)) return false;

  if (out.kind == EventKind::stack) {
    if (!key(c, "frames") || c.peek() != '[') return false;
    c.advance();
    if (c.peek() == ']') {
      c.advance();
    } else {
      while (true) {
        if (c.peek() != '"' || !c.parse_string(out.frames.emplace_back())) return false;
        const int next = c.peek();
        c.advance();
        if (next == ']') break;
        if (next != ',') return false;
      }
    }
  } else {
    if (!key(c, "parent")) return false;
    const int p = c.peek();
    if (p == '"') {
      if (!c.parse_string(out.parent.emplace())) return false;
    } else {
      pyjson::Value v;
      if (p != 'n' || !c.parse_value(v) || !v.is_null()) return false;
    }
    if (c.peek() == ',') {
      c.advance();
      pyjson::Value v;
      if (!key(c, "micro_step") || !c.parse_value(v) || v.kind() != pyjson::Kind::integer) return false;
      out.micro_step = v.as_int();
    }
  }
  if (c.peek() != '}') return false;
  c.advance();
  return c.peek() == -1;  // nothing but whitespace after the object
}

}  // namespace msdump::trace

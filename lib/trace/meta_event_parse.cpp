#include "trace/meta_event_parse.h"

#include "pyjson/json_cursor.h"

namespace msdump::trace {
namespace {

// The next token is the string `key` followed by ':'.
bool key(pyjson::JsonCursor& c, std::string_view key, std::string& scratch) {
  if (c.peek() != '"' || !c.parse_string(scratch) || scratch != key) return false;
  if (c.peek() != ':') return false;
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
  thread_local std::string scratch;
  c.reset(line);
  if (c.peek() != '{') return false;
  c.advance();
  if (!key(c, "kind", scratch) || c.peek() != '"' || !c.parse_string(scratch)) return false;
  if (scratch == "stack") out.kind = EventKind::stack;
  else if (scratch == "construct") out.kind = EventKind::construct;
  else return false;
  if (!comma(c) || !key(c, "name", scratch) || c.peek() != '"' || !c.parse_string(out.name) || out.name.empty())
    return false;
  if (!comma(c)) return false;

  if (out.kind == EventKind::stack) {
    if (!key(c, "frames", scratch) || c.peek() != '[') return false;
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
    if (!key(c, "parent", scratch)) return false;
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
      if (!key(c, "micro_step", scratch) || !c.parse_value(v) || v.kind() != pyjson::Kind::integer) return false;
      out.micro_step = v.as_int();
    }
  }
  if (c.peek() != '}') return false;
  c.advance();
  return c.peek() == -1;  // nothing but whitespace after the object
}

}  // namespace msdump::trace

#include "pyjson/json_writer.h"

#include <array>
#include <cassert>
#include <charconv>

#include "pyjson/pyfloat.h"
#include "pyjson/utf8.h"

namespace msdump::pyjson {

namespace {

// "\n" followed by enough spaces for any ordinary depth; deeper levels append the rest.
constexpr std::size_t k_indent_spaces = 256;
const std::string& newline_and_spaces() {
  static const std::string s = "\n" + std::string(k_indent_spaces, ' ');
  return s;
}

// 1 for bytes that json.dump(ensure_ascii=True) copies verbatim: 0x20-0x7E except '"' and '\'.
constexpr std::array<bool, 256> make_plain_table() {
  std::array<bool, 256> t{};
  for (int c = 0x20; c <= 0x7E; ++c) t[static_cast<std::size_t>(c)] = c != '"' && c != '\\';
  return t;
}
constexpr std::array<bool, 256> k_plain = make_plain_table();

constexpr char k_hex[] = "0123456789abcdef";

void append_u_escape(std::string& out, unsigned cu) {
  const char esc[6] = {'\\', 'u', k_hex[(cu >> 12) & 15], k_hex[(cu >> 8) & 15], k_hex[(cu >> 4) & 15], k_hex[cu & 15]};
  out.append(esc, 6);
}

std::string preview(std::string_view s) {
  std::string out;
  for (const char ch : s.substr(0, 40)) {
    const auto c = static_cast<unsigned char>(ch);
    if (k_plain[c]) {
      out += ch;
    } else {
      out += "\\x";
      out += k_hex[c >> 4];
      out += k_hex[c & 15];
    }
  }
  if (s.size() > 40) out += "...";
  return out;
}

}  // namespace

JsonWriter::JsonWriter(std::string& out) : m_out(&out) {}

JsonWriter::JsonWriter(Sink sink, std::size_t chunk_bytes)
    : m_out(&m_own), m_sink(std::move(sink)), m_chunk_bytes(chunk_bytes) {
  m_own.reserve(chunk_bytes + chunk_bytes / 8);
}

void JsonWriter::newline_indent(std::size_t depth) {
  const std::string& nl = newline_and_spaces();
  if (depth <= k_indent_spaces) {
    m_out->append(nl.data(), depth + 1);
  } else {
    m_out->append(nl);
    m_out->append(depth - k_indent_spaces, ' ');
  }
}

void JsonWriter::before_value() {
  if (m_after_key) {
    m_after_key = false;
    return;
  }
  if (m_stack.empty()) {
    assert(!m_done && "JsonWriter: a second top-level value");
    return;
  }
  Level& level = m_stack.back();
  assert(!level.is_object && "JsonWriter: a value inside an object needs a key first");
  if (level.has_items) m_out->push_back(',');
  level.has_items = true;
  newline_indent(m_stack.size());
}

void JsonWriter::after_value() {
  if (m_stack.empty()) {
    m_done = true;
    return;
  }
  if (m_sink && m_out->size() >= m_chunk_bytes) {
    m_sink(*m_out);
    m_out->clear();
  }
}

void JsonWriter::begin_object() {
  before_value();
  m_out->push_back('{');
  m_stack.push_back({true, false});
}

void JsonWriter::begin_array() {
  before_value();
  m_out->push_back('[');
  m_stack.push_back({false, false});
}

void JsonWriter::end_object() {
  assert(!m_stack.empty() && m_stack.back().is_object && !m_after_key && "JsonWriter: unbalanced end_object");
  const bool had_items = m_stack.back().has_items;
  m_stack.pop_back();
  if (had_items) newline_indent(m_stack.size());
  m_out->push_back('}');
  after_value();
}

void JsonWriter::end_array() {
  assert(!m_stack.empty() && !m_stack.back().is_object && "JsonWriter: unbalanced end_array");
  const bool had_items = m_stack.back().has_items;
  m_stack.pop_back();
  if (had_items) newline_indent(m_stack.size());
  m_out->push_back(']');
  after_value();
}

void JsonWriter::key(std::string_view k) {
  assert(!m_stack.empty() && m_stack.back().is_object && !m_after_key && "JsonWriter: key outside an object");
  Level& level = m_stack.back();
  if (level.has_items) m_out->push_back(',');
  level.has_items = true;
  newline_indent(m_stack.size());
  append_string(k);
  m_out->append(": ", 2);
  m_after_key = true;
}

void JsonWriter::null() {
  before_value();
  m_out->append("null", 4);
  after_value();
}

void JsonWriter::value(bool v) {
  before_value();
  if (v) {
    m_out->append("true", 4);
  } else {
    m_out->append("false", 5);
  }
  after_value();
}

void JsonWriter::value(std::int64_t v) {
  before_value();
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  m_out->append(buf, static_cast<std::size_t>(res.ptr - buf));
  after_value();
}

void JsonWriter::value(std::uint64_t v) {
  before_value();
  char buf[24];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);
  m_out->append(buf, static_cast<std::size_t>(res.ptr - buf));
  after_value();
}

void JsonWriter::value(double v) {
  before_value();
  append_python_float(*m_out, v);
  after_value();
}

void JsonWriter::value(std::string_view v) {
  before_value();
  append_string(v);
  after_value();
}

void JsonWriter::raw_integer(std::string_view digits) {
  assert(!digits.empty() && "JsonWriter: empty integer text");
  before_value();
  m_out->append(digits);
  after_value();
}

void JsonWriter::value(const Scalar& v) {
  switch (v.kind) {
    case Scalar::Kind::null: null(); return;
    case Scalar::Kind::boolean: value(v.b); return;
    case Scalar::Kind::integer: value(v.i); return;
    case Scalar::Kind::unsigned_integer: value(v.u); return;
    case Scalar::Kind::floating: value(v.d); return;
    case Scalar::Kind::string: value(std::string_view(v.s)); return;
  }
}

void JsonWriter::write(const Value& v) {
  switch (v.kind()) {
    case Kind::null: null(); return;
    case Kind::boolean: value(v.as_bool()); return;
    case Kind::integer: value(v.as_int()); return;
    case Kind::big_integer: raw_integer(v.as_big_integer()); return;
    case Kind::floating: value(v.as_float()); return;
    case Kind::string: value(std::string_view(v.as_string())); return;
    case Kind::array:
      begin_array();
      for (const Value& item : v.as_array()) write(item);
      end_array();
      return;
    case Kind::object:
      begin_object();
      for (const Member& m : v.as_object()) {
        key(m.key);
        write(m.value);
      }
      end_object();
      return;
  }
}

void JsonWriter::append_string(std::string_view s) {
  std::string& out = *m_out;
  out.push_back('"');
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* const end = p + s.size();
  while (p != end) {
    const unsigned char* run = p;
    while (p != end && k_plain[*p]) ++p;
    out.append(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
    if (p == end) break;
    const unsigned c = *p;
    if (c < 0x80) {
      ++p;
      switch (c) {
        case '"': out.append("\\\"", 2); break;
        case '\\': out.append("\\\\", 2); break;
        case '\n': out.append("\\n", 2); break;
        case '\r': out.append("\\r", 2); break;
        case '\t': out.append("\\t", 2); break;
        case '\b': out.append("\\b", 2); break;
        case '\f': out.append("\\f", 2); break;
        default: append_u_escape(out, c); break;  // other controls and DEL
      }
      continue;
    }
    unsigned cp = 0;
    const std::size_t len = utf8::decode(p, end, cp);
    if (len == 0) {
      if (!m_error) {
        const auto at = static_cast<std::size_t>(p - reinterpret_cast<const unsigned char*>(s.data()));
        m_error = invalid_input("string is not valid UTF-8: byte 0x" + std::string{k_hex[c >> 4], k_hex[c & 15]} +
                                " at offset " + std::to_string(at) + " of \"" + preview(s) + "\"");
      }
      append_u_escape(out, 0xFFFD);
      ++p;
      continue;
    }
    p += len;
    if (cp < 0x10000) {
      append_u_escape(out, cp);
    } else {
      cp -= 0x10000;
      append_u_escape(out, 0xD800 | (cp >> 10));
      append_u_escape(out, 0xDC00 | (cp & 0x3FF));
    }
  }
  out.push_back('"');
}

Result<void> JsonWriter::finish() {
  if (m_sink && !m_out->empty()) {
    m_sink(*m_out);
    m_out->clear();
  }
  if (m_error) return *m_error;
  if (!m_done) {
    if (m_stack.empty()) return invalid_input("JSON document is incomplete: nothing was written");
    return invalid_input("JSON document is incomplete: " + std::to_string(m_stack.size()) +
                         (m_stack.size() == 1 ? " container is" : " containers are") + " still open");
  }
  return {};
}

Result<std::string> to_python_json(const Value& v) {
  std::string out;
  JsonWriter w(out);
  w.write(v);
  MSDUMP_TRY(w.finish());
  return out;
}

}  // namespace msdump::pyjson

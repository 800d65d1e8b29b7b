#include "pyjson/json_writer.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <charconv>
#include <cstring>

#include "pyjson/plain_ascii.h"
#include "pyjson/pyfloat.h"
#include "pyjson/utf8.h"

namespace msdump::pyjson {

namespace {

// "\n" followed by enough spaces for any ordinary depth; deeper levels append the rest.
constexpr std::size_t k_indent_spaces = 256;
constexpr std::array<char, k_indent_spaces + 1> make_newline_and_spaces() {
  std::array<char, k_indent_spaces + 1> a{};
  a[0] = '\n';
  for (std::size_t i = 1; i < a.size(); ++i) a[i] = ' ';
  return a;
}
constexpr std::array<char, k_indent_spaces + 1> k_newline_and_spaces = make_newline_and_spaces();


constexpr char k_hex[] = "0123456789abcdef";

char* put_u_escape(char* o, unsigned cu) {
  o[0] = '\\';
  o[1] = 'u';
  o[2] = k_hex[(cu >> 12) & 15];
  o[3] = k_hex[(cu >> 8) & 15];
  o[4] = k_hex[(cu >> 4) & 15];
  o[5] = k_hex[cu & 15];
  return o + 6;
}

std::string preview(std::string_view s) {
  std::string out;
  for (const char ch : s.substr(0, 40)) {
    const auto c = static_cast<unsigned char>(ch);
    if (k_plain_ascii[c]) {
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

JsonWriter::JsonWriter(std::string& out, std::size_t chunk_bytes)
    : m_out(&out), m_buffer(std::make_unique_for_overwrite<char[]>(std::max<std::size_t>(chunk_bytes, 64))) {
  m_pos = m_buffer.get();
  m_end = m_pos + std::max<std::size_t>(chunk_bytes, 64);
}

JsonWriter::JsonWriter(Sink sink, std::size_t chunk_bytes)
    : m_sink(std::move(sink)), m_buffer(std::make_unique_for_overwrite<char[]>(std::max<std::size_t>(chunk_bytes, 64))) {
  m_pos = m_buffer.get();
  m_end = m_pos + std::max<std::size_t>(chunk_bytes, 64);
}

void JsonWriter::flush() {
  const auto n = static_cast<std::size_t>(m_pos - m_buffer.get());
  if (n == 0) return;
  if (m_sink) {
    m_sink(std::string_view(m_buffer.get(), n));
  } else {
    m_out->append(m_buffer.get(), n);
  }
  m_pos = m_buffer.get();
}

void JsonWriter::spill(std::size_t need) {
  flush();
  const auto capacity = static_cast<std::size_t>(m_end - m_buffer.get());
  if (need > capacity) {  // only for pieces bigger than the whole buffer (deep indentation)
    m_buffer = std::make_unique_for_overwrite<char[]>(need);
    m_pos = m_buffer.get();
    m_end = m_pos + need;
  }
}

void JsonWriter::append_bytes(const char* p, std::size_t n) {
  if (n <= static_cast<std::size_t>(m_end - m_pos)) {
    std::memcpy(m_pos, p, n);
    m_pos += n;
    return;
  }
  flush();
  if (n >= static_cast<std::size_t>(m_end - m_pos)) {  // a huge string: hand it on directly
    if (m_sink) {
      m_sink(std::string_view(p, n));
    } else {
      m_out->append(p, n);
    }
    return;
  }
  std::memcpy(m_pos, p, n);
  m_pos += n;
}

void JsonWriter::newline_indent_deep(std::size_t depth) {
  if (depth < k_indent_spaces) {
    char* o = room(depth + 1);
    std::memcpy(o, k_newline_and_spaces.data(), depth + 1);
    m_pos = o + depth + 1;
    return;
  }
  append_bytes(k_newline_and_spaces.data(), k_newline_and_spaces.size());
  for (std::size_t left = depth - k_indent_spaces; left != 0;) {
    const std::size_t n = std::min(left, k_indent_spaces);
    append_bytes(k_newline_and_spaces.data() + 1, n);
    left -= n;
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
  if (level.has_items) *room(1) = ',', ++m_pos;
  level.has_items = true;
  newline_indent(m_stack.size());
}

void JsonWriter::begin_object() {
  before_value();
  *room(1) = '{';
  ++m_pos;
  m_stack.push_back({true, false});
}

void JsonWriter::begin_array() {
  before_value();
  *room(1) = '[';
  ++m_pos;
  m_stack.push_back({false, false});
}

void JsonWriter::end_object() {
  assert(!m_stack.empty() && m_stack.back().is_object && !m_after_key && "JsonWriter: unbalanced end_object");
  const bool had_items = m_stack.back().has_items;
  m_stack.pop_back();
  if (had_items) newline_indent(m_stack.size());
  *room(1) = '}';
  ++m_pos;
  after_value();
}

void JsonWriter::end_array() {
  assert(!m_stack.empty() && !m_stack.back().is_object && "JsonWriter: unbalanced end_array");
  const bool had_items = m_stack.back().has_items;
  m_stack.pop_back();
  if (had_items) newline_indent(m_stack.size());
  *room(1) = ']';
  ++m_pos;
  after_value();
}

void JsonWriter::key(std::string_view k) {
  assert(!m_stack.empty() && m_stack.back().is_object && !m_after_key && "JsonWriter: key outside an object");
  Level& level = m_stack.back();
  if (level.has_items) *room(1) = ',', ++m_pos;
  level.has_items = true;
  newline_indent(m_stack.size());
  append_string(k);
  char* o = room(2);
  o[0] = ':';
  o[1] = ' ';
  m_pos = o + 2;
  m_after_key = true;
}

void JsonWriter::reset() {
  m_pos = m_buffer.get();
  m_stack.clear();
  m_after_key = false;
  m_done = false;
  m_error.reset();
}

void JsonWriter::raw_items(std::string_view items) {
  assert(!m_stack.empty() && !m_after_key && "JsonWriter: raw_items outside a container");
  if (items.empty()) return;
  Level& level = m_stack.back();
  if (level.has_items) *room(1) = ',', ++m_pos;
  level.has_items = true;
  if (m_sink && items.size() >= k_direct_bytes) {
    flush();
    m_sink(items);
    return;
  }
  append_bytes(items.data(), items.size());
}

void JsonWriter::null() {
  before_value();
  append_bytes("null", 4);
  after_value();
}

void JsonWriter::value(bool v) {
  before_value();
  if (v) {
    append_bytes("true", 4);
  } else {
    append_bytes("false", 5);
  }
  after_value();
}

void JsonWriter::value(std::int64_t v) {
  before_value();
  char* o = room(24);
  m_pos = std::to_chars(o, o + 24, v).ptr;
  after_value();
}

void JsonWriter::value(std::uint64_t v) {
  before_value();
  char* o = room(24);
  m_pos = std::to_chars(o, o + 24, v).ptr;
  after_value();
}

void JsonWriter::value(double v) {
  before_value();
  m_pos = format_python_float(room(k_max_python_float_chars), v);
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
  append_bytes(digits.data(), digits.size());
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

namespace {

template <typename Word>
Word load(const char* p) {
  Word w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

// Whether both words are plain (one SSE2 compare set for the pair).
bool plain_pair(std::uint64_t a, std::uint64_t b) {
#if defined(__SSE2__)
  return plain_stops(_mm_set_epi64x(static_cast<long long>(b), static_cast<long long>(a))) == 0;
#else
  return (plain_stops(a) | plain_stops(b)) == 0;
#endif
}
bool plain_pair(std::uint32_t a, std::uint32_t b) {
#if defined(__SSE2__)
  // (the unused half holds 'a's, which are plain)
  return plain_stops(_mm_set_epi32(0x61616161, 0x61616161, static_cast<int>(b), static_cast<int>(a))) == 0;
#else
  return (plain_stops(a) | plain_stops(b)) == 0;
#endif
}

// The n bytes at p (sizeof(Word) <= n <= 2 * sizeof(Word)) as two overlapping words, copied to
// o when plain.
template <typename Word>
bool copy_word_pair(const char* p, std::size_t n, char* o) {
  const auto a = load<Word>(p), b = load<Word>(p + n - sizeof(Word));
  if (!plain_pair(a, b)) return false;
  std::memcpy(o, &a, sizeof a);
  std::memcpy(o + n - sizeof b, &b, sizeof b);
  return true;
}

// Copies the plain string s (1 to 16 bytes) to o with two overlapping word copies (three bytes
// for 1 to 3) and no read outside s; false (nothing written) when a byte of s is not plain.
bool copy_short_plain(std::string_view s, char* o) {
  const std::size_t n = s.size();
  const char* p = s.data();
  if (n >= 8) return copy_word_pair<std::uint64_t>(p, n, o);
  if (n >= 4) return copy_word_pair<std::uint32_t>(p, n, o);
  // 1 to 3 bytes: the first, the middle and the last (some the same byte).
  const char a = p[0], b = p[n / 2], c = p[n - 1];
  if (!k_plain_ascii[static_cast<unsigned char>(a)] || !k_plain_ascii[static_cast<unsigned char>(b)] ||
      !k_plain_ascii[static_cast<unsigned char>(c)])
    return false;
  o[0] = a;
  o[n / 2] = b;
  o[n - 1] = c;
  return true;
}

}  // namespace

void JsonWriter::append_string(std::string_view s) {
  // Short plain strings (1-16 bytes: keys, dtypes, most values): checked and copied a word or two at a time,
  // without the general path's stack frame.
  if (s.size() - 1 < 16 && s.size() + 2 <= static_cast<std::size_t>(m_end - m_pos) &&
      copy_short_plain(s, m_pos + 1)) {
    m_pos[0] = '"';
    m_pos[s.size() + 1] = '"';
    m_pos += s.size() + 2;
    return;
  }
  append_string_general(s);
}

void JsonWriter::append_string_general(std::string_view s) {
  const auto* const begin = reinterpret_cast<const unsigned char*>(s.data());
  const auto* const end = begin + s.size();
  const unsigned char* p = skip_plain_ascii(begin, end);
  if (p == end && s.size() + 2 <= static_cast<std::size_t>(m_end - m_pos)) {  // the common case
    char* o = m_pos;
    *o++ = '"';
    std::memcpy(o, s.data(), s.size());
    o += s.size();
    *o++ = '"';
    m_pos = o;
    return;
  }
  *room(1) = '"';
  ++m_pos;
  const unsigned char* run = begin;
  for (;;) {
    append_bytes(reinterpret_cast<const char*>(run), static_cast<std::size_t>(p - run));
    if (p == end) break;
    char* o = room(12);
    const unsigned c = *p;
    if (c < 0x80) {
      ++p;
      char short_escape = 0;
      switch (c) {
        case '"': short_escape = '"'; break;
        case '\\': short_escape = '\\'; break;
        case '\n': short_escape = 'n'; break;
        case '\r': short_escape = 'r'; break;
        case '\t': short_escape = 't'; break;
        case '\b': short_escape = 'b'; break;
        case '\f': short_escape = 'f'; break;
        default: break;
      }
      if (short_escape != 0) {
        o[0] = '\\';
        o[1] = short_escape;
        m_pos = o + 2;
      } else {
        m_pos = put_u_escape(o, c);  // other control characters and DEL
      }
    } else {
      unsigned cp = 0;
      const std::size_t len = utf8::decode(p, end, cp);
      if (len == 0) {
        if (!m_error) {
          const auto at = static_cast<std::size_t>(p - begin);
          m_error = invalid_input("string is not valid UTF-8: byte 0x" + std::string{k_hex[c >> 4], k_hex[c & 15]} +
                                  " at offset " + std::to_string(at) + " of \"" + preview(s) + "\"");
        }
        m_pos = put_u_escape(o, 0xFFFD);
        ++p;
      } else if (cp < 0x10000) {
        m_pos = put_u_escape(o, cp);
        p += len;
      } else {
        cp -= 0x10000;
        m_pos = put_u_escape(put_u_escape(o, 0xD800 | (cp >> 10)), 0xDC00 | (cp & 0x3FF));
        p += len;
      }
    }
    run = p;
    p = skip_plain_ascii(p, end);
  }
  *room(1) = '"';
  ++m_pos;
}

Result<void> JsonWriter::finish() {
  flush();
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

#include "dump/section_text.h"

#include <limits>

#include "pyjson/json_writer.h"
#include "pyjson/plain_ascii.h"
#include "pyjson/plain_text_walk.h"

namespace msdump::dump {
namespace {

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

const char* skip_ws(const char* p, const char* end) {
  while (p != end && is_ws(*p)) ++p;
  return p;
}

using pyjson::plain_text::string_end;
using pyjson::plain_text::value_end;

}  // namespace

Result<void> SectionText::write(std::string_view text, pyjson::JsonWriter& w, const TensorLeaf& tensor_leaf) {
  m_w = &w;
  m_tensor_leaf = &tensor_leaf;
  m_end = text.data() + text.size();
  m_path.clear();
  m_error.reset();
  const char* p = skip_ws(text.data(), m_end);
  if (walk(p, 0, true) == nullptr) return *m_error;
  return {};
}

// The value at p (no whitespace before it); returns the end of its text, nullptr after a
// failure of the tensor leaf callback. `leaves`: inside a section's containers, where tensor
// leaves are converted; false inside a value leaf, which is copied.
const char* SectionText::walk(const char* p, std::size_t depth, bool leaves) {
  pyjson::JsonWriter& w = *m_w;
  switch (*p) {
    case '{': return object(p, depth, leaves);
    case '[': return array(p, depth, leaves);
    case '"': {
      const char* e = string_end(p, m_end);
      w.value(std::string_view(p + 1, static_cast<std::size_t>(e - p - 2)));
      return e;
    }
    case 't': w.value(true); return p + 4;
    case 'f': w.value(false); return p + 5;
    case 'n': w.null(); return p + 4;
    case 'N': w.value(std::numeric_limits<double>::quiet_NaN()); return p + 3;
    case 'I': w.value(std::numeric_limits<double>::infinity()); return p + 8;
    default: return number(p);
  }
}

const char* SectionText::number(const char* p) {
  if (p[0] == '-' && p + 1 != m_end && p[1] == 'I') {
    m_w->value(-std::numeric_limits<double>::infinity());
    return p + 9;
  }
  const char* e = value_end(p, m_end);
  const std::string_view token(p, static_cast<std::size_t>(e - p));
  if (token.find_first_of(".eE") == std::string_view::npos) {
    // An integer token has no leading zeros: the parser's int (or big int) prints it back
    // as it stands, but for "-0".
    m_w->raw_integer(token == "-0" ? std::string_view("0") : token);
    return e;
  }
  // A float: written as the parser reads it (the nearest double, in Python's repr).
  m_cursor.reset(token);
  if (!m_cursor.parse_value(m_number)) {
    m_error = m_cursor.error();
    return nullptr;
  }
  m_w->write(m_number);
  return e;
}

const char* SectionText::array(const char* p, std::size_t depth, bool leaves) {
  pyjson::JsonWriter& w = *m_w;
  w.begin_array();
  p = skip_ws(p + 1, m_end);
  if (*p == ']') {
    w.end_array();
    return p + 1;
  }
  for (std::size_t i = 0;; ++i) {
    if (leaves) m_path.push_back(std::to_string(i));
    p = walk(p, depth + 1, leaves);
    if (leaves) m_path.pop_back();
    if (p == nullptr) return nullptr;
    p = skip_ws(p, m_end);
    if (*p == ']') break;
    p = skip_ws(p + 1, m_end);  // past ','
  }
  w.end_array();
  return p + 1;
}

const char* SectionText::object(const char* p, std::size_t depth, bool leaves) {
  const char* const begin = p;
  if (m_members.size() <= depth) m_members.resize(depth + 1);
  // The members first: whether this object is a leaf depends on its (last) "type" member.
  {
    auto& members = m_members[depth];
    members.clear();
    p = skip_ws(p + 1, m_end);
    if (*p != '}') {
      while (true) {
        const char* key_end = string_end(p, m_end);
        const std::string_view key(p + 1, static_cast<std::size_t>(key_end - p - 2));
        p = skip_ws(skip_ws(key_end, m_end) + 1, m_end);  // past ':'
        members.push_back({key, p});
        p = skip_ws(value_end(p, m_end), m_end);
        if (*p == '}') break;
        p = skip_ws(p + 1, m_end);  // past ','
      }
    }
    ++p;
  }
  const char* const end = p;
  bool p2pop = false;
  if (leaves) {
    const Member* type = nullptr;
    for (const auto& m : m_members[depth]) {
      if (m.key == "type") type = &m;
      p2pop = p2pop || m.key == "class_type";
    }
    if (type != nullptr && *type->value == '"') {
      const std::string_view t(type->value + 1, static_cast<std::size_t>(string_end(type->value, m_end) - type->value - 2));
      const bool ndarray = t == "numpy.ndarray";
      if (ndarray || is_tensor_type(t)) {
        auto r = (*m_tensor_leaf)(std::string_view(begin, static_cast<std::size_t>(end - begin)),
                                  ndarray ? LeafKind::ndarray : LeafKind::tensor, m_path);
        if (!r) {
          m_error = r.error();
          return nullptr;
        }
        return end;
      }
      leaves = false;  // a value leaf: copied as it stands
    }
  }
  pyjson::JsonWriter& w = *m_w;
  w.begin_object();
  for (std::size_t i = 0; i < m_members[depth].size(); ++i) {
    const Member m = m_members[depth][i];
    w.key(m.key);
    const bool named = leaves && !(p2pop && m.key == "tensor");
    if (named) m_path.emplace_back(m.key);
    const char* e = walk(m.value, depth + 1, leaves);
    if (named) m_path.pop_back();
    if (e == nullptr) return nullptr;
  }
  w.end_object();
  return end;
}

}  // namespace msdump::dump

#include "pyjson/plain_reader.h"

#include <limits>

#include "pyjson/plain_ascii.h"
#include "pyjson/plain_scanner.h"

namespace msdump::pyjson {
namespace {

// The closing quote of the plain string whose opening quote is at p (its first byte that is not
// plain is that quote).
const char* string_end(const char* p, const char* end) { return skip_plain_ascii(p + 1, end); }

constexpr std::size_t k_new_object_members = 10;  // a tensor descriptor's, md5 and data_name included
constexpr std::size_t k_new_array_items = 4;

}  // namespace

Result<const Value*> PlainReader::read(std::string_view text) {
  m_end = text.data() + text.size();
  m_error.reset();
  if (value(skip_plain_ws(text.data(), m_end), m_value) == nullptr) return *m_error;
  return &m_value;
}

const char* PlainReader::value(const char* p, Value& into) {
  switch (*p) {
    case '{': {
      if (!into.is_object()) {
        // (a slot that held another kind: room for a tensor descriptor's members at once, not
        // grown one reallocation at a time)
        into = Value::object();
        into.as_object().reserve(k_new_object_members);
      }
      auto& members = into.as_object();
      std::size_t n = 0;
      p = skip_plain_ws(p + 1, m_end);
      if (*p != '}') {
        while (true) {
          const char* q = string_end(p, m_end);
          if (n == members.size()) members.emplace_back();
          Member& m = members[n++];
          const std::string_view key(p + 1, static_cast<std::size_t>(q - p - 1));
          if (m.key != key) m.key.assign(key);  // leaves in a row mostly have the same keys
          p = skip_plain_ws(skip_plain_ws(q + 1, m_end) + 1, m_end);  // past ':'
          p = value(p, m.value);
          if (p == nullptr) return nullptr;
          p = skip_plain_ws(p, m_end);
          if (*p == '}') break;
          p = skip_plain_ws(p + 1, m_end);  // past ','
        }
      }
      members.resize(n);
      return p + 1;
    }
    case '[': {
      if (!into.is_array()) {
        into = Value::array();
        into.as_array().reserve(k_new_array_items);
      }
      auto& items = into.as_array();
      std::size_t n = 0;
      p = skip_plain_ws(p + 1, m_end);
      if (*p != ']') {
        while (true) {
          if (n == items.size()) items.emplace_back();
          p = value(p, items[n++]);
          if (p == nullptr) return nullptr;
          p = skip_plain_ws(p, m_end);
          if (*p == ']') break;
          p = skip_plain_ws(p + 1, m_end);  // past ','
        }
      }
      items.resize(n);
      return p + 1;
    }
    case '"': {
      const char* q = string_end(p, m_end);
      const std::string_view s(p + 1, static_cast<std::size_t>(q - p - 1));
      if (!into.is_string()) into.emplace_string().assign(s);
      else if (into.as_string() != s) into.as_string().assign(s);  // often the previous leaf's
      return q + 1;
    }
    case 't': into = Value::boolean(true); return p + 4;
    case 'f': into = Value::boolean(false); return p + 5;
    case 'n': into = Value::null(); return p + 4;
    case 'N': into = Value::floating(std::numeric_limits<double>::quiet_NaN()); return p + 3;
    case 'I': into = Value::floating(std::numeric_limits<double>::infinity()); return p + 8;
    default: return number(p, into);
  }
}

bool read_number_token(std::string_view token, JsonCursor& cursor, Value& into) {
  // Up to 18 digits always fit in int64 (the parser's own fast case); a valid integral token is
  // an optional '-' and digits (a float stops the loop at its '.' or exponent).
  const bool negative = token[0] == '-';
  if (token.size() - (negative ? 1 : 0) <= 18) {
    std::int64_t v = 0;
    std::size_t i = negative ? 1 : 0;
    for (; i < token.size(); ++i) {
      const unsigned d = static_cast<unsigned char>(token[i]) - static_cast<unsigned>('0');
      if (d > 9) break;
      v = v * 10 + static_cast<std::int64_t>(d);
    }
    if (i == token.size()) {
      into = Value::integer(negative ? -v : v);
      return true;
    }
  }
  // Floats and long integers: exactly as the parser reads them.
  return cursor.parse_number_token(token, into);
}

const char* PlainReader::number(const char* p, Value& into) {
  if (p[0] == '-' && p + 1 != m_end && p[1] == 'I') {
    into = Value::floating(-std::numeric_limits<double>::infinity());
    return p + 9;
  }
  const char* e = p;
  while (e != m_end && ((*e >= '0' && *e <= '9') || *e == '.' || *e == 'e' || *e == 'E' || *e == '-' || *e == '+')) ++e;
  if (!read_number_token(std::string_view(p, static_cast<std::size_t>(e - p)), m_cursor, into)) {
    m_error = m_cursor.error();
    return nullptr;
  }
  return e;
}

}  // namespace msdump::pyjson

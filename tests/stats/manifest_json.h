#pragma once
// A minimal JSON reader for test manifests written by Python's json.dump (NaN/Infinity
// allowed, integers kept exact). Test-only: lib/ parses JSON with lib/pyjson.

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace msdump::stats::testing {

struct Json {
  enum class Kind { null, boolean, integer, unsigned_integer, floating, string, array, object };
  Kind kind = Kind::null;
  bool b = false;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  double d = 0.0;
  std::string s;
  std::vector<Json> items;
  std::map<std::string, Json> fields;

  const Json& operator[](const std::string& key) const {
    static const Json null_value;
    auto it = fields.find(key);
    return it == fields.end() ? null_value : it->second;
  }
  bool is_null() const { return kind == Kind::null; }
};

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : m_text(text) {}
  Json parse() {
    Json v = value();
    skip();
    if (m_pos != m_text.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error("manifest JSON at " + std::to_string(m_pos) + ": " + what);
  }
  void skip() {
    while (m_pos < m_text.size() && std::string_view(" \t\r\n").find(m_text[m_pos]) != std::string_view::npos) ++m_pos;
  }
  bool eat(std::string_view word) {
    if (m_text.substr(m_pos, word.size()) != word) return false;
    m_pos += word.size();
    return true;
  }
  std::string string() {
    std::string out;
    ++m_pos;  // opening quote
    while (m_pos < m_text.size() && m_text[m_pos] != '"') {
      if (m_text[m_pos] == '\\') {
        ++m_pos;
        if (m_pos >= m_text.size() || std::string_view("\"\\/").find(m_text[m_pos]) == std::string_view::npos)
          fail("unsupported escape");
      }
      out += m_text[m_pos++];
    }
    if (m_pos >= m_text.size()) fail("unterminated string");
    ++m_pos;
    return out;
  }
  Json number() {
    const std::size_t start = m_pos;
    while (m_pos < m_text.size() && std::string_view("+-0123456789.eE").find(m_text[m_pos]) != std::string_view::npos)
      ++m_pos;
    const std::string_view token = m_text.substr(start, m_pos - start);
    Json v;
    const char* first = token.data();
    const char* last = token.data() + token.size();
    if (token.find_first_of(".eE") == std::string_view::npos) {
      if (std::from_chars(first, last, v.i).ec == std::errc()) {
        v.kind = Json::Kind::integer;
        return v;
      }
      if (std::from_chars(first, last, v.u).ec == std::errc()) {
        v.kind = Json::Kind::unsigned_integer;
        return v;
      }
    }
    if (std::from_chars(first, last, v.d).ec != std::errc()) fail("bad number");
    v.kind = Json::Kind::floating;
    return v;
  }
  Json value() {
    skip();
    if (m_pos >= m_text.size()) fail("unexpected end");
    Json v;
    const char c = m_text[m_pos];
    if (c == '{') {
      v.kind = Json::Kind::object;
      ++m_pos;
      skip();
      if (eat("}")) return v;
      do {
        skip();
        std::string key = string();
        skip();
        if (!eat(":")) fail("expected ':'");
        v.fields[key] = value();
        skip();
      } while (eat(","));
      if (!eat("}")) fail("expected '}'");
    } else if (c == '[') {
      v.kind = Json::Kind::array;
      ++m_pos;
      skip();
      if (eat("]")) return v;
      do v.items.push_back(value());
      while ((skip(), eat(",")));
      if (!eat("]")) fail("expected ']'");
    } else if (c == '"') {
      v.kind = Json::Kind::string;
      v.s = string();
    } else if (eat("true") || eat("false")) {
      v.kind = Json::Kind::boolean;
      v.b = m_text[m_pos - 1] == 'e' && m_text[m_pos - 2] == 'u';
    } else if (eat("null")) {
    } else if (eat("NaN")) {
      v.kind = Json::Kind::floating;
      v.d = std::numeric_limits<double>::quiet_NaN();
    } else if (eat("Infinity")) {
      v.kind = Json::Kind::floating;
      v.d = std::numeric_limits<double>::infinity();
    } else if (eat("-Infinity")) {
      v.kind = Json::Kind::floating;
      v.d = -std::numeric_limits<double>::infinity();
    } else {
      v = number();
    }
    return v;
  }

  std::string_view m_text;
  std::size_t m_pos = 0;
};

}  // namespace msdump::stats::testing

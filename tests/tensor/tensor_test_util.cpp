#include "tensor/tensor_test_util.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "test_util.h"

namespace msdump::testing {
namespace {

// A JSON reader just big enough for manifest.json (objects, arrays, strings without escapes
// other than \", numbers, true/false/null, NaN/Infinity).
struct Json {
  enum class Kind { null, boolean, number, string, array, object } kind = Kind::null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Json> items;
  // Object members as two parallel lists: a pair<string, Json> inside Json's own definition is an
  // incomplete type, which libstdc++ accepts but clang rejects.
  std::vector<std::string> keys;
  std::vector<Json> values;

  const Json& at(const std::string& key) const {
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] == key) return values[i];
    throw std::runtime_error("manifest: missing key " + key);
  }
};

class JsonParser {
 public:
  explicit JsonParser(const std::string& s) : m_s(s) {}
  Json parse() {
    skip();
    Json v;
    const char c = m_s.at(m_pos);
    if (c == '{') {
      v.kind = Json::Kind::object;
      ++m_pos;
      skip();
      if (m_s[m_pos] == '}') return ++m_pos, v;
      while (true) {
        skip();
        std::string key = parse().str;
        skip();
        ++m_pos;  // ':'
        v.keys.push_back(std::move(key));
        v.values.push_back(parse());
        skip();
        if (m_s[m_pos] == '}') return ++m_pos, v;
      }
    }
    if (c == '[') {
      v.kind = Json::Kind::array;
      ++m_pos;
      skip();
      if (m_s[m_pos] == ']') return ++m_pos, v;
      while (true) {
        v.items.push_back(parse());
        skip();
        if (m_s[m_pos] == ']') return ++m_pos, v;
      }
    }
    if (c == '"') {
      v.kind = Json::Kind::string;
      ++m_pos;
      while (m_s[m_pos] != '"') {
        if (m_s[m_pos] == '\\') ++m_pos;
        v.str += m_s[m_pos++];
      }
      ++m_pos;
      return v;
    }
    for (const char* word : {"true", "false", "null"}) {
      if (m_s.compare(m_pos, std::strlen(word), word) == 0) {
        m_pos += std::strlen(word);
        v.kind = word[0] == 'n' ? Json::Kind::null : Json::Kind::boolean;
        v.b = word[0] == 't';
        return v;
      }
    }
    v.kind = Json::Kind::number;
    const std::size_t start = m_pos;
    while (m_pos < m_s.size() && std::string_view(",]} \n").find(m_s[m_pos]) == std::string_view::npos) ++m_pos;
    const std::string text = m_s.substr(start, m_pos - start);
    v.num = text == "NaN" ? 0.0 : text == "Infinity" ? 1e308 : text == "-Infinity" ? -1e308 : std::stod(text);
    return v;
  }

 private:
  void skip() {
    while (m_pos < m_s.size() && (m_s[m_pos] == ' ' || m_s[m_pos] == '\n' || m_s[m_pos] == ',')) ++m_pos;
  }
  const std::string& m_s;
  std::size_t m_pos = 0;
};

std::vector<std::int64_t> ints(const Json& v) {
  std::vector<std::int64_t> out;
  for (const auto& item : v.items) out.push_back(static_cast<std::int64_t>(item.num));
  return out;
}

std::map<std::string, ManifestEntry> load_manifest() {
  const std::string text = slurp(testdata("good/tensors/manifest.json"));
  const Json root = JsonParser(text).parse();
  std::map<std::string, ManifestEntry> out;
  for (std::size_t i = 0; i < root.keys.size(); ++i) {
    const std::string& name = root.keys[i];
    const Json& v = root.values[i];
    ManifestEntry e;
    e.format = v.at("format").str;
    e.dtype = v.at("dtype").str;
    e.shape = ints(v.at("shape"));
    e.strides = ints(v.at("strides"));
    e.storage_offset = static_cast<std::int64_t>(v.at("storage_offset").num);
    e.requires_grad = v.at("requires_grad").b;
    e.location = v.at("location").str;
    e.big_endian = v.at("big_endian").b;
    e.numel = static_cast<std::int64_t>(v.at("numel").num);
    e.crc32 = v.at("crc32").str;
    out.emplace(name, std::move(e));
  }
  return out;
}

}  // namespace

std::string crc32_hex(std::span<const std::byte> bytes) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  std::uint32_t crc = 0xFFFFFFFFu;
  for (auto b : bytes) crc = table[(crc ^ std::to_integer<std::uint32_t>(b)) & 0xFF] ^ (crc >> 8);
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", crc ^ 0xFFFFFFFFu);
  return buf;
}

const std::map<std::string, ManifestEntry>& tensor_manifest() {
  static const auto manifest = load_manifest();
  return manifest;
}

FixtureBytes fixture(const std::string& rel) {
  FixtureBytes f;
  f.bytes = std::make_shared<std::string>(slurp(testdata(rel)));
  f.source = std::make_unique<MemorySource>(as_bytes(*f.bytes), std::filesystem::path(rel).filename().string());
  return f;
}

}  // namespace msdump::testing

// for_each_number_token against PlainScanner, which checks the syntax: on every dump.json,
// stack.json and construct.json in testdata (and random JSON texts, fixed seed) the tokens are
// the same, in the same order; what it refuses; -Infinity and digits in strings.

#include "pyjson/number_tokens.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "pyjson/plain_scanner.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::pyjson;

namespace {

using Tokens = std::vector<std::string>;

std::optional<Tokens> tokens(std::string_view text) {
  Tokens out;
  if (!for_each_number_token(text, [&](const NumberText& n) {
        out.emplace_back(n.begin, n.end);
        return true;
      }))
    return std::nullopt;
  return out;
}

// The number tokens PlainScanner sees (nullopt when it does not accept the text).
std::optional<Tokens> scanned(std::string_view text) {
  struct Watch {
    Tokens* out;
    bool key(std::string_view) { return true; }
    bool number(const NumberText& n) {
      out->emplace_back(n.begin, n.end);
      return true;
    }
    bool non_finite() { return true; }
  };
  Tokens out;
  PlainScanner<Watch> scan(text.data(), text.data() + text.size(), Watch{&out});
  if (!scan.whole_value()) return std::nullopt;
  return out;
}

std::string random_json(std::mt19937_64& rng, int depth) {
  switch (rng() % (depth > 3 ? 4 : 7)) {
    case 0: return std::to_string(static_cast<std::int64_t>(rng() % 2000) - 1000);
    case 1: {
      static const char* k[] = {"0.5", "-0.0", "1e-05", "3.4028234663852886e+38", "-1.5E7", "0", "NaN", "-Infinity",
                                "Infinity", "true", "false", "null", "123456789012345678901234"};
      return k[rng() % std::size(k)];
    }
    case 2: return "\"s-1 2.5e3 [x]\"";
    case 3: return "\"torch.float32\"";
    case 4: {
      std::string s = "[";
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i) s += (i ? ", " : "") + random_json(rng, depth + 1);
      return s + "]";
    }
    default: {
      std::string s = "{";
      for (int i = 0, n = static_cast<int>(rng() % 4); i < n; ++i)
        s += (i ? ",\n  " : "") + std::string("\"k") + std::to_string(i) + "9\": " + random_json(rng, depth + 1);
      return s + "}";
    }
  }
}

}  // namespace

TEST_CASE("number tokens: those PlainScanner sees, on every JSON file in testdata") {
  std::size_t files = 0;
  for (const auto& f : std::filesystem::recursive_directory_iterator(testing::testdata(""))) {
    if (f.path().extension() != ".json") continue;
    const std::string text = testing::slurp(f.path());
    const auto want = scanned(text);
    if (!want) continue;  // (escapes, non-ASCII, broken files)
    CAPTURE(f.path().string());
    CHECK(tokens(text) == want);
    ++files;
  }
  CHECK(files > 50);
}

TEST_CASE("number tokens: random JSON texts") {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 5000; ++i) {
    const std::string text = random_json(rng, 0);
    CAPTURE(text);
    const auto want = scanned(text);
    REQUIRE(want);
    CHECK(tokens(text) == want);
  }
}

TEST_CASE("number tokens: edge cases and refusals") {
  CHECK(tokens(R"([1, -2, 3.5e-7, 0, -Infinity, NaN, "a1-2", 4])") == Tokens{"1", "-2", "3.5e-7", "0", "4"});
  CHECK(tokens(R"({"layer1": {"0": 12}})") == Tokens{"12"});
  // a token across the 64-byte blocks
  const std::string pad(60, ' ');
  CHECK(tokens(pad + "[123456.789e+12]") == Tokens{"123456.789e+12"});
  CHECK(tokens(std::string(63, ' ') + "-5") == Tokens{"-5"});
  CHECK(!tokens(R"(["a\"b", 1])"));   // a backslash
  CHECK(!tokens("[\"\xC3\xA9\", 1]"));  // not ASCII
  for (const char* bad : {"[01]", "[1.]", "[-]", "[1e+]", "[1.2.3]", "[--1]", "[1-2]"}) {
    CAPTURE(bad);
    CHECK(!tokens(bad));
  }
}

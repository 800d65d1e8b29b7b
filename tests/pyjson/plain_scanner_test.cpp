// PlainScanner: plain JSON accepted with the watcher seeing keys, numbers and non-finite tokens;
// and whatever it accepts, parse_json accepts too (random mutations of valid texts, fixed seed).

#include "pyjson/plain_scanner.h"

#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"

using namespace msdump::pyjson;

namespace {

struct Recorder {
  std::vector<std::string>* seen;
  bool key(std::string_view k) {
    seen->push_back("k:" + std::string(k));
    return true;
  }
  bool number(const NumberText& n) {
    std::string s = "n:" + std::string(n.begin, n.end) + "|" + std::string(n.int_begin, n.int_end);
    if (n.exp_begin != nullptr) s += "|e" + std::string(n.exp_begin, n.end);
    seen->push_back(s);
    return true;
  }
  bool non_finite() {
    seen->push_back("nf");
    return true;
  }
};

bool scans(std::string_view text) { return PlainScanner<>(text.data(), text.data() + text.size()).whole_value(); }

}  // namespace

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("plain scanner: what the watcher sees") {
    std::vector<std::string> seen;
    const std::string text = R"({"Max": -12345678901234567890.5e-3, "a": [NaN, -Infinity, Infinity, 0, 0.25E+7]})";
    PlainScanner<Recorder> s(text.data(), text.data() + text.size(), Recorder{&seen});
    REQUIRE(s.whole_value());
    CHECK(seen == std::vector<std::string>{"k:Max", "n:-12345678901234567890.5e-3|12345678901234567890|e-3", "k:a", "nf",
                                           "nf", "nf", "n:0|0", "n:0.25E+7|0|e+7"});
  }

  TEST_CASE("plain scanner: digit runs end at the first non-digit, whitespace runs at the first other byte") {
    // ':' and '/' sit just above and below the digits; 8-byte runs cross them.
    for (const char* text : {"[12345678901234567:1]", "[1234567890123456/]", "[123456789012345678]",
                             "[1.2345678901234567891234]", "[\n                                 1]"}) {
      CAPTURE(text);
      CHECK(scans(text) == static_cast<bool>(parse_json(text)));
    }
    CHECK(scans("[1234567890123456789012345,\n\t\r          2]"));
    CHECK_FALSE(scans("[1234567890123456789012345\x01]"));
    CHECK_FALSE(scans(std::string("[\n                   \x0b  1]")));
  }

  TEST_CASE("plain scanner: what it accepts parses (mutations of valid texts, fixed seed)") {
    const std::vector<std::string> seeds = {
        R"({"type": "torch.Tensor", "dtype": "torch.float32", "shape": [2, 3], "Max": 3.029174327850342, "Min": -2.7e-3, "Mean": NaN, "Norm": Infinity, "requires_grad": false})",
        "{\n \"a\": [\n  1,\n  -Infinity,\n  {\"b\": null, \"c\": true, \"d\": false}\n ],\n \"e\": \"x\"\n}",
        "[0, -0.0, 1E5, 12345678901234567890123, \"\", [], {}]"};
    const std::string alphabet = "{}[]\":, \n\t-+.eE0123456789NaIfinty\\\x01";
    std::mt19937 rng(5);
    int accepted = 0;
    for (int i = 0; i < 20000; ++i) {
      std::string t = seeds[rng() % seeds.size()];
      for (int m = 1 + static_cast<int>(rng() % 3); m > 0; --m) {
        const std::size_t at = rng() % (t.size() + 1);
        switch (rng() % 3) {
          case 0: t.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
          case 1: if (at < t.size()) t.erase(at, 1); break;
          default: if (at < t.size()) t[at] = alphabet[rng() % alphabet.size()];
        }
      }
      if (!scans(t)) continue;
      ++accepted;
      CAPTURE(t);
      CHECK(static_cast<bool>(parse_json(t)));
    }
    CHECK(accepted > 1000);
    for (const auto& s : seeds) CHECK(scans(s));
  }
}

// TextShape: a text's shape made from its number tokens, matched by another text run by run and
// token by token; whole_number_token at the end of the text.

#include "pyjson/text_shape.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace msdump::pyjson;

namespace {

// The shape of `text`, its tokens found by for_each_number_token.
TextShape shape_of(const std::string& text) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tokens;
  for_each_number_token(text, [&](const NumberText& n) {
    tokens.emplace_back(static_cast<std::uint32_t>(n.begin - text.data()), static_cast<std::uint32_t>(n.end - text.data()));
    return true;
  });
  return TextShape::of(text, tokens);
}

const char* match(const TextShape& s, const std::string& text, Newlines& nl, std::vector<std::string>* seen = nullptr) {
  return s.match(text.data(), text.data() + text.size(), nl, [&](std::size_t i, const NumberText& n) {
    if (seen != nullptr) {
      CHECK(i == seen->size());
      seen->emplace_back(n.begin, n.end);
    }
    return true;
  });
}

}  // namespace

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("text shape: runs between the tokens, newlines, matched by texts of other numbers") {
    const std::string text = "{\n \"a\": [1, -2.5e3],\n \"b\": \"x9\",\n \"c\": 0\n}";
    const TextShape s = shape_of(text);
    CHECK(s.run_ends.size() == 3);
    CHECK(s.runs == "{\n \"a\": [, ],\n \"b\": \"x9\",\n \"c\": \n}");
    CHECK(s.newlines == 4);
    CHECK(s.runs[s.last_newline] == '\n');
    CHECK(s.last_newline == s.runs.size() - 2);

    const std::string other = "{\n \"a\": [123, 4],\n \"b\": \"x9\",\n \"c\": -0.0\n}, more";
    Newlines nl;
    std::vector<std::string> seen;
    const char* e = match(s, other, nl, &seen);
    REQUIRE(e != nullptr);
    CHECK(e - other.data() == static_cast<std::ptrdiff_t>(other.find(", more")));
    CHECK(seen == std::vector<std::string>{"123", "4", "-0.0"});
    CHECK(nl.count == 4);
    CHECK(nl.last == other.data() + other.find("\n}"));

    // Refused: another run, a token that is not whole or runs on, a token the check refuses, the
    // text cut anywhere before its end.
    for (const std::string bad : {"{\n \"a\": [1, 2],\n \"b\": \"x8\",\n \"c\": 0\n}", "{\n \"a\": [01, 2],\n \"b\": \"x9\",\n \"c\": 0\n}",
                                  "{\n \"a\": [1., 2],\n \"b\": \"x9\",\n \"c\": 0\n}", "{\n \"a\": [1, 2e],\n \"b\": \"x9\",\n \"c\": 0\n}",
                                  "{\n \"a\": [NaN, 2],\n \"b\": \"x9\",\n \"c\": 0\n}", "{\n \"a\": [1, 2],\n \"b\": \"x9\",\n \"c\": -\n}"}) {
      CAPTURE(bad);
      CHECK(match(s, bad, nl) == nullptr);
    }
    for (std::size_t cut = 0; cut < text.size(); ++cut) {
      const std::string part = text.substr(0, cut);
      CAPTURE(cut);
      CHECK(match(s, part, nl) == nullptr);
    }
    CHECK(s.match(other.data(), other.data() + other.size(), nl, [](std::size_t i, const NumberText&) { return i != 2; }) == nullptr);

    // tokens_of: the tokens of a text of the shape, by the runs' lengths.
    seen.clear();
    CHECK(s.tokens_of(other, [&](std::size_t, const NumberText& n) { seen.emplace_back(n.begin, n.end); }));
    CHECK(seen == std::vector<std::string>{"123", "4", "-0.0"});
    CHECK_FALSE(s.tokens_of(other.substr(0, other.find("4")), [](std::size_t, const NumberText&) {}));
  }

  TEST_CASE("text shape: a text with no numbers, and whole_number_token at the text's end") {
    const TextShape s = shape_of("[true, \"1\"]");
    CHECK(s.run_ends.empty());
    Newlines nl;
    const std::string same = "[true, \"1\"]";
    CHECK(match(s, same, nl) == same.data() + same.size());
    CHECK(nl.count == 0);
    CHECK(nl.last == nullptr);
    const std::string x = "-";
    NumberText n;
    CHECK(detail::whole_number_token(x.data(), x.data(), n) == nullptr);
    CHECK(detail::whole_number_token(x.data(), x.data() + 1, n) == nullptr);
    const std::string y = "12";
    CHECK(detail::whole_number_token(y.data(), y.data() + 2, n) == y.data() + 2);
  }

  TEST_CASE("digit runs as '#': names equal but for their counters share one") {
    std::string a, b;
    digit_runs_as_hash("Module.layer1.0.Conv2d.forward.12", a);
    digit_runs_as_hash("Module.layer3.1.Conv2d.forward.0", b);
    CHECK(a == "Module.layer#.#.Conv#d.forward.#");
    CHECK(a == b);
    digit_runs_as_hash("7", a);
    CHECK(a == "#");
  }
}

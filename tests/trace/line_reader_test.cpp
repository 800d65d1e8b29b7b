#include "trace/line_reader.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/byte_source.h"

using namespace msdump;

namespace {
std::vector<trace::Line> lines_of(const std::string& text, std::vector<std::string>& texts) {
  MemorySource src(as_bytes(text));
  std::vector<trace::Line> out;
  auto r = trace::for_each_line(src, [&](const trace::Line& l) -> Result<void> {
    out.push_back(l);
    texts.emplace_back(l.text);
    return {};
  });
  REQUIRE(r);
  return out;
}
}  // namespace

TEST_SUITE("msdump::trace") {
  TEST_CASE("lines carry numbers, offsets and whether they were terminated") {
    std::vector<std::string> texts;
    auto lines = lines_of("a\nbb\n\nccc", texts);
    REQUIRE(lines.size() == 4);
    CHECK(texts == std::vector<std::string>{"a", "bb", "", "ccc"});
    CHECK(lines[1].number == 2);
    CHECK(lines[1].offset == 2);
    CHECK(lines[3].offset == 6);
    CHECK(lines[2].terminated);
    CHECK_FALSE(lines[3].terminated);
  }
  TEST_CASE("a final newline gives no extra line") {
    std::vector<std::string> texts;
    auto lines = lines_of("x\ny\n", texts);
    CHECK(lines.size() == 2);
    CHECK(lines[1].terminated);
  }
  TEST_CASE("lines longer than the read window are reassembled") {
    std::string big(9 << 20, 'z');
    std::string text = "head\n" + big + "\ntail";
    std::vector<std::string> texts;
    auto lines = lines_of(text, texts);
    REQUIRE(lines.size() == 3);
    CHECK(texts[1].size() == big.size());
    CHECK(lines[2].offset == 5 + big.size() + 1);
    std::string back;
    MemorySource src(as_bytes(text));
    REQUIRE(trace::read_line_at(src, lines[2].offset, 4, back));
    CHECK(back == "tail");
  }
  TEST_CASE("a line above the limit is an error naming it") {
    std::string text = "ok\n" + std::string(5 << 20, 'x') + "\n";
    MemorySource src(as_bytes(text));
    auto r = trace::for_each_line(src, [](const trace::Line&) -> Result<void> { return {}; }, 1 << 20);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "line 2: longer than 1048576 bytes");
  }
  TEST_CASE("the visitor's error stops the walk") {
    const std::string text = "a\nb\nc\n";
    MemorySource src(as_bytes(text));
    int seen = 0;
    auto r = trace::for_each_line(src, [&](const trace::Line& l) -> Result<void> {
      ++seen;
      if (l.number == 2) return invalid_input("stop");
      return {};
    });
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "stop");
    CHECK(seen == 2);
  }

  TEST_CASE("lines of every length across many read windows come back whole, with their offsets") {
    std::string text;
    std::vector<std::pair<std::uint64_t, std::string>> want;  // offset, text
    for (std::size_t i = 0; text.size() < (std::size_t{11} << 20); ++i) {
      std::string line(1 + (i * 7919) % 3000, static_cast<char>('a' + i % 26));
      want.emplace_back(text.size(), line);
      text += line;
      text += '\n';
    }
    MemorySource src(as_bytes(text));
    std::size_t k = 0, bad = 0;
    auto r = trace::for_each_line(src, [&](const trace::Line& line) -> Result<void> {
      if (k >= want.size() || line.offset != want[k].first || line.text != want[k].second || line.number != k + 1 ||
          !line.terminated)
        ++bad;
      ++k;
      return {};
    });
    REQUIRE(r);
    CHECK(k == want.size());
    CHECK(bad == 0);
  }
}


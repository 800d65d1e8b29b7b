// Hostile JSON: nesting 100000 deep, 100 MB strings and invalid UTF-8, through every JSON entry
// point convert and verify use (parse_json, DumpJsonStream, trace::for_each_line).

#include <doctest/doctest.h>

#include <cstdio>
#include <string>
#include <string_view>

#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/json_reader.h"
#include "test_util.h"
#include "trace/line_reader.h"

using namespace msdump;

namespace {

constexpr std::size_t k_deep = 100000;
constexpr std::size_t k_huge_string = std::size_t{100} << 20;

std::string nested_arrays(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

std::string nested_objects(std::size_t depth) {
  std::string s;
  for (std::size_t i = 0; i < depth; ++i) s += "{\"a\":";
  s += "0";
  s += std::string(depth, '}');
  return s;
}

std::string parse_error(std::string_view text) {
  auto v = pyjson::parse_json(text);
  return v ? "ok" : v.error().message;
}

// The first error of streaming `text` as a dump.json, or "ok".
std::string stream_error(std::string_view text) {
  const MemorySource src(as_bytes(text));
  pyjson::DumpJsonStream stream(src);
  pyjson::DumpEvent event;
  for (;;) {
    auto more = stream.next(event);
    if (!more) return more.error().message;
    if (!*more) return "ok";
  }
}

// The trace path convert takes: lines from trace::for_each_line, each parsed by parse_json.
std::string jsonl_error(std::string_view text) {
  const MemorySource src(as_bytes(text));
  auto r = trace::for_each_line(src, [](const trace::Line& line) -> Result<void> {
    auto v = pyjson::parse_json(line.text);
    if (!v) return v.error().with_context("line " + std::to_string(line.number));
    return {};
  });
  return r ? "ok" : r.error().message;
}

void write_file(const std::filesystem::path& path, std::string_view bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  REQUIRE(f != nullptr);
  REQUIRE(std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size());
  REQUIRE(std::fclose(f) == 0);
}

}  // namespace

TEST_SUITE("msdump::hostile") {
  TEST_CASE("JSON nested 100000 deep is an error, not a stack overflow") {
    CHECK(parse_error(nested_arrays(k_deep)) == "line 1, column 513: nesting deeper than 512 levels");
    CHECK(parse_error(nested_objects(k_deep)) == "line 1, column 2561: nesting deeper than 512 levels");
    CHECK(stream_error("{\"task\": \"tensor\", \"data\": {\"e\": " + nested_arrays(k_deep) + "}}") ==
          "line 1, column 544: nesting deeper than 512 levels");
    CHECK(stream_error(nested_arrays(k_deep)) ==
          "line 1, column 1: expected '{' (a dump.json document is an object), found '['");
    CHECK(jsonl_error("{\"format\": \"msdump-trace\"}\n" + nested_objects(k_deep) + "\n") ==
          "line 2: line 1, column 2561: nesting deeper than 512 levels");
  }

  TEST_CASE("a 100 MB string in a dump.json entry streams in memory bounded by the entry") {
    testing::TempDir dir;
    const std::string big(k_huge_string, 'x');
    write_file(dir / "dump.json", "{\"task\": \"statistics\", \"data\": {\"a\": {\"s\": \"" + big + "\"}, \"b\": {}}}\n");
    auto src = FileSource::open((dir / "dump.json").string());
    REQUIRE(src);
    pyjson::DumpJsonStream stream(**src);
    pyjson::DumpEvent event;
    std::vector<std::string> keys;
    for (;;) {
      auto more = stream.next(event);
      REQUIRE_MESSAGE(more, (more ? "" : more.error().message));
      if (!*more) break;
      if (event.type != pyjson::DumpEvent::Type::entry) continue;
      keys.push_back(event.key);
      if (event.key == "a") CHECK(event.value.find("s")->as_string().size() == k_huge_string);
      // The window grows to hold one entry, not the file: at most twice the entry's size.
      CHECK(stream.buffer_bytes() <= 2 * k_huge_string + (std::size_t{8} << 20));
    }
    CHECK(keys == std::vector<std::string>{"a", "b"});
  }

  TEST_CASE("a 100 MB string in a trace line is read as one line") {
    testing::TempDir dir;
    const std::string big(k_huge_string, 'y');
    write_file(dir / "trace.jsonl", "{\"format\": \"msdump-trace\"}\n{\"kind\": \"data\", \"name\": \"" + big + "\"}\n");
    auto src = FileSource::open((dir / "trace.jsonl").string());
    REQUIRE(src);
    std::vector<std::size_t> name_sizes;
    auto r = trace::for_each_line(**src, [&](const trace::Line& line) -> Result<void> {
      auto v = pyjson::parse_json(line.text);
      if (!v) return v.error();
      if (const auto* name = v->find("name")) name_sizes.push_back(name->as_string().size());
      return {};
    });
    REQUIRE_MESSAGE(r, (r ? "" : r.error().message));
    CHECK(name_sizes == std::vector<std::size_t>{k_huge_string});
    // A line longer than the reader's limit is an error naming the line, before it is buffered whole.
    auto limited = trace::for_each_line(**src, [](const trace::Line&) -> Result<void> { return {}; }, std::size_t{1} << 20);
    REQUIRE_FALSE(limited);
    CHECK(limited.error().message == "line 2: longer than 1048576 bytes");
  }

  TEST_CASE("invalid UTF-8 in strings and keys is an error with its position") {
    CHECK(parse_error("\"\xff\"") == "line 1, column 2: invalid UTF-8 byte 0xff in a string");
    CHECK(parse_error("{\"k\xc3\": 1}") == "line 1, column 4: invalid UTF-8 byte 0xc3 in a string");
    CHECK(parse_error("[\"\xc0\xaf\"]") == "line 1, column 3: invalid UTF-8 byte 0xc0 in a string");  // overlong '/'
    CHECK(parse_error("[\"\xed\xa0\x80\"]") == "line 1, column 3: invalid UTF-8 byte 0xed in a string");  // surrogate
    CHECK(parse_error("[\"\xf4\x90\x80\x80\"]") == "line 1, column 3: invalid UTF-8 byte 0xf4 in a string");  // > U+10FFFF
    CHECK(parse_error("[\"ab\xe2\x82\"]") == "line 1, column 5: invalid UTF-8 byte 0xe2 in a string");  // truncated
    CHECK(parse_error("[\"\\ud800\"]") == "line 1, column 3: lone surrogate \\ud800 in a string (not representable in UTF-8)");
    CHECK(stream_error("{\"data\": {\"e\xfe\": {}}}") == "line 1, column 13: invalid UTF-8 byte 0xfe in a string");
    CHECK(jsonl_error("{\"format\": \"msdump-trace\"}\n{\"name\": \"\x80\"}\n") ==
          "line 2: line 1, column 11: invalid UTF-8 byte 0x80 in a string");
  }
}

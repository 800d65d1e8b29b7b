#include "pyjson/jsonl_reader.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "test_util.h"

using namespace msdump;
using namespace msdump::pyjson;

namespace {

struct Lines {
  std::vector<std::uint64_t> lines;
  std::string error;
  std::string incomplete;
};

Lines read_all(const ByteSource& source, std::size_t buffer_bytes = 1 << 20) {
  JsonlReader reader(source, JsonlOptions{buffer_bytes, {}});
  Lines out;
  JsonlRecord rec;
  for (;;) {
    auto more = reader.next(rec);
    if (!more) {
      out.error = more.error().message;
      return out;
    }
    if (!*more) break;
    out.lines.push_back(rec.line);
  }
  if (reader.incomplete_last_line()) out.incomplete = reader.incomplete_last_line()->message;
  return out;
}

Lines read_all(std::string_view text, std::size_t buffer_bytes = 1 << 20) {
  MemorySource source(as_bytes(text));
  return read_all(source, buffer_bytes);
}

}  // namespace

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("jsonl reader numbers lines and skips blank ones") {
    const Lines r = read_all("{\"a\": 1}\n\n[2]\r\n  \n3");
    CHECK(r.lines == std::vector<std::uint64_t>{1, 3, 5});
    CHECK(r.error.empty());
    CHECK(r.incomplete.empty());
    MemorySource src(as_bytes(std::string_view("{\"a\": 1}\n  [2, NaN]\n")));
    JsonlReader reader(src);
    JsonlRecord rec;
    REQUIRE(*reader.next(rec));
    REQUIRE(*reader.next(rec));
    CHECK(rec.line == 2);
    CHECK(rec.offset == 9);
    CHECK(rec.value.offset() == 11);
    CHECK(std::isnan(rec.value.as_array()[1].as_float()));
    CHECK_FALSE(*reader.next(rec));
    CHECK_FALSE(*reader.next(rec));
  }

  TEST_CASE("jsonl reader reports an unterminated unparsable last line apart from errors") {
    const Lines cut = read_all("{\"a\": 1}\n{\"b\": \"xy");
    CHECK(cut.lines == std::vector<std::uint64_t>{1});
    CHECK(cut.error.empty());
    CHECK(cut.incomplete == "line 2, column 10: unexpected end of input in a string");

    const Lines bad = read_all("1\n{x}\n3\n");
    CHECK(bad.error == "line 2, column 2: expected a string key in double quotes or '}', found 'x'");
    const Lines bad_terminated = read_all("1\n{\"b\": \n");
    CHECK(bad_terminated.error == "line 2, column 7: unexpected end of input, expected a value");
    const Lines extra = read_all("1 2\n");
    CHECK(extra.error == "line 1, column 3: unexpected data after the JSON value");
  }

  TEST_CASE("jsonl reader handles lines longer than its buffer") {
    std::string text;
    for (int i = 0; i < 50; ++i) text += "[\"" + std::string(static_cast<std::size_t>(i * 97), 'x') + "\"]\n";
    text += "[\"cut";
    testing::TempDir dir;
    const std::string path = (dir / "t.jsonl").string();
    FILE* f = std::fopen(path.c_str(), "wb");
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    auto file = FileSource::open(path);
    REQUIRE(file);
    const Lines r = read_all(**file, 64);
    CHECK(r.lines.size() == 50);
    CHECK(r.lines.back() == 50);
    CHECK(r.error.empty());
    CHECK(r.incomplete == "line 51, column 6: unexpected end of input in a string");
  }

  TEST_CASE("jsonl reader: CRLF lines, a clean last line without newline, an empty input") {
    const Lines crlf = read_all("{\"a\": 1}\r\n{\"b\": 2}\r\n");
    CHECK(crlf.lines == std::vector<std::uint64_t>{1, 2});
    const Lines last = read_all("1\n2");
    CHECK(last.lines == std::vector<std::uint64_t>{1, 2});
    CHECK(last.incomplete.empty());
    const Lines empty = read_all("");
    CHECK(empty.lines.empty());
    CHECK(empty.error.empty());
    CHECK(empty.incomplete.empty());
  }
}

// The strongest check of reader + writer: every JSON file msprobe wrote under testdata/msprobe
// (legacy and current profiles; dump.json, stack.json, construct.json) is parsed and written
// back, and the bytes must be identical: once through the whole-document reader and once
// through the streaming reader (from memory, and from the file with a small buffer so that
// entries straddle refills). The msprobe inputs (config.json, indent=4) must parse.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "pyjson/dump_json_stream.h"
#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::pyjson;

namespace {

std::vector<std::filesystem::path> sample_json_files() {
  std::vector<std::filesystem::path> files;
  const auto root = testing::samples_dir();
  REQUIRE_MESSAGE(std::filesystem::is_directory(root), root.string() << " is missing");
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".json") {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Streams `source` through DumpJsonStream into a JsonWriter and returns the written bytes.
std::string stream_rewrite(const ByteSource& source, std::size_t buffer_bytes) {
  DumpJsonStream stream(source, DumpStreamOptions{buffer_bytes, {}});
  std::string out;
  JsonWriter w(out);
  w.begin_object();
  DumpEvent ev;
  for (;;) {
    auto more = stream.next(ev);
    REQUIRE_MESSAGE(more, (more ? "" : more.error().message));
    if (!*more) break;
    write_event(w, ev);
  }
  w.end_object();
  REQUIRE(w.finish());
  return out;
}

}  // namespace

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("every sample JSON file parses and writes back byte-identically") {
    const auto files = sample_json_files();
    int dumps = 0;
    for (const auto& path : files) {
      CAPTURE(path);
      const std::string text = testing::slurp(path);
      auto v = parse_json(text);
      REQUIRE_MESSAGE(v, (v ? "" : v.error().message));
      if (path.filename() == "config.json") continue;  // written by hand with indent=4
      auto back = to_python_json(*v);
      REQUIRE(back);
      CHECK(*back == text);
      MemorySource memory(as_bytes(text));
      CHECK(stream_rewrite(memory, 1 << 20) == text);
      auto file = FileSource::open(path.string());
      REQUIRE(file);
      CHECK(stream_rewrite(**file, 4096) == text);
      dumps += path.filename() == "dump.json";
    }
    CHECK(dumps >= 28);
  }
}

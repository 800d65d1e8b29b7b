// The strongest check of reader + writer: every JSON file msprobe wrote under the samples
// directory (legacy and current profiles; dump.json, stack.json, construct.json) is parsed and
// written back, and the bytes must be identical.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::pyjson;

namespace {

std::vector<std::filesystem::path> sample_json_files() {
  std::vector<std::filesystem::path> files;
  const auto root = testing::samples_dir();
  if (!std::filesystem::is_directory(root)) return files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".json" && e.path().filename() != "config.json") {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("every sample JSON file parses and writes back byte-identically") {
    const auto files = sample_json_files();
    if (files.empty()) {
      MESSAGE("samples not found under " << testing::samples_dir() << ": skipped");
      return;
    }
    int dumps = 0;
    for (const auto& path : files) {
      CAPTURE(path);
      const std::string text = testing::slurp(path);
      auto v = parse_json(text);
      REQUIRE_MESSAGE(v, (v ? "" : v.error().message));
      auto back = to_python_json(*v);
      REQUIRE(back);
      CHECK(*back == text);
      dumps += path.filename() == "dump.json";
    }
    CHECK(dumps >= 28);
  }
}

#pragma once
// Helpers of the schema tests: the real msprobe files (testdata/msprobe) with the schema each
// must validate against, and parsing.

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "pyjson/json_reader.h"
#include "test_util.h"

namespace msdump::schema::testing {

struct SampleFile {
  std::filesystem::path path;
  std::string schema;  // "dump-pytorch-current", "stack", ...
};

// Every dump.json / stack.json / construct.json under testdata/msprobe (sorted), with its
// schema: legacy/ is the PyTorch legacy profile, current/ the current one. Fails the test when
// the directory is missing.
inline std::vector<SampleFile> sample_files() {
  std::vector<SampleFile> out;
  const auto root = msdump::testing::samples_dir();
  REQUIRE_MESSAGE(std::filesystem::is_directory(root), root.string() << " is missing");
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    const bool legacy = *e.path().lexically_relative(root).begin() == "legacy";
    std::string schema;
    if (name == "dump.json") {
      schema = legacy ? "dump-pytorch-legacy" : "dump-pytorch-current";
    } else if (name == "stack.json") {
      schema = "stack";
    } else if (name == "construct.json") {
      schema = "construct";
    } else {
      continue;
    }
    out.push_back(SampleFile{e.path(), schema});
  }
  std::sort(out.begin(), out.end(), [](const SampleFile& a, const SampleFile& b) { return a.path < b.path; });
  return out;
}

// Parses `text`; fails the test on a syntax error.
inline pyjson::Value parse(std::string_view text) {
  auto v = pyjson::parse_json(text);
  REQUIRE_MESSAGE(v, (v ? std::string() : v.error().message));
  return std::move(*v);
}

inline pyjson::Value parse_file(const std::filesystem::path& p) { return parse(msdump::testing::slurp(p)); }

}  // namespace msdump::schema::testing

#include "verify/capture_golden.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>

#include "test_util.h"

using namespace msdump;
using namespace msdump::verify;
namespace fs = std::filesystem;

namespace {

DumpSettings settings_of(const std::string& json) {
  MemorySource src(as_bytes(json));
  return read_dump_settings(src, Profile::legacy, SummaryMode::md5);
}

// Points $TMPDIR at a fresh directory for the scope of one test.
struct ScopedTmpdir {
  testing::TempDir dir;
  std::optional<std::string> saved;
  ScopedTmpdir() {
    if (const char* old = ::getenv("TMPDIR")) saved = old;
    ::setenv("TMPDIR", dir.path().c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (saved) ::setenv("TMPDIR", saved->c_str(), 1);
    else ::unsetenv("TMPDIR");
  }
};

// The golden's entries that nothing matched: all of them, as "missing" findings.
std::vector<std::string> entries_of(const Golden& g) {
  FindingSink sink({}, 0);
  g.report_unmatched(sink);
  std::vector<std::string> out;
  for (const auto& f : sink.findings()) out.push_back(f.entry);
  return out;
}

}  // namespace

TEST_SUITE("msdump::verify") {
  TEST_CASE("read_dump_settings: level and task from the header, profile and mode as given") {
    const auto s = settings_of(R"({"task": "tensor", "level": "L1", "framework": "pytorch", "dump_data_dir": "x", "data": {}})");
    CHECK(s.level == Level::L1);
    CHECK(s.task == Task::tensor);
    CHECK(s.profile == Profile::legacy);
    CHECK(s.summary_mode == SummaryMode::md5);
    // Values convert cannot take are left to the capture's own.
    const auto odd = settings_of(R"({"task": "structure", "level": "L9", "data": {}})");
    CHECK_FALSE(odd.level);
    CHECK_FALSE(odd.task);
    CHECK_FALSE(settings_of("{").level);
  }

  TEST_CASE("golden_from_capture: converted at the dump's level, nothing left in TMPDIR") {
    ScopedTmpdir tmp;
    const std::string capture = testing::testdata("captures/tiny_mix").string();
    DumpSettings l1;
    l1.level = Level::L1;
    auto g = golden_from_capture(capture, l1);
    REQUIRE_MESSAGE(g, g.error().message);
    const auto names = entries_of(*g);
    CHECK(names.size() == 6);
    for (const auto& n : names) CHECK_FALSE(n.starts_with("Module."));
    CHECK(g->path() == "capture '" + capture + "' as converted");
    CHECK(fs::is_empty(tmp.dir.path()));

    auto bad = golden_from_capture(testing::testdata("bad/captures/path_escape").string(), l1);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("must be a relative path inside the capture") != std::string::npos);
    CHECK(fs::is_empty(tmp.dir.path()));
  }
}

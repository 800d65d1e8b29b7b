#include "core/temp_dir.h"

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "test_util.h"

using namespace msdump;
namespace fs = std::filesystem;

TEST_SUITE("msdump::core") {
  TEST_CASE("TempDir: created under $TMPDIR, removed with its contents on scope exit, moved once") {
    testing::TempDir tmp;
    const char* old = ::getenv("TMPDIR");
    const std::optional<std::string> saved = old ? std::optional<std::string>(old) : std::nullopt;
    ::setenv("TMPDIR", tmp.path().c_str(), 1);
    fs::path made;
    {
      auto t = TempDir::create("msdump-x");
      REQUIRE(t);
      made = t->path();
      CHECK(made.parent_path() == tmp.path());
      CHECK(made.filename().string().starts_with("msdump-x-"));
      CHECK(fs::is_directory(made));
      fs::create_directories(made / "sub");
      std::ofstream(made / "sub" / "f") << "x";
      TempDir moved(std::move(*t));
      CHECK(moved.path() == made);
    }  // `t` (moved from) and `moved` go out of scope: removed once
    CHECK_FALSE(fs::exists(made));
    CHECK(fs::is_empty(tmp.path()));
    if (saved) ::setenv("TMPDIR", saved->c_str(), 1);
    else ::unsetenv("TMPDIR");
  }
}

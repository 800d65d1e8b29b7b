// What msdump convert writes, msdump verify accepts: every expected output under
// testdata/golden/convert (each checked byte for byte against convert by the convert_goldens
// test) verifies without errors, with its tensor files where it has them.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "test_util.h"
#include "verify/verify.h"

using namespace msdump;
using namespace msdump::verify;

TEST_SUITE("msdump::verify") {
  TEST_CASE("every convert golden output verifies without errors") {
    std::size_t files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(testing::source_dir() / "testdata/golden/convert")) {
      if (!e.is_regular_file() || e.path().filename() != "dump.json") continue;
      CAPTURE(e.path().string());
      ++files;
      VerifyOptions o;
      o.path = e.path().string();
      auto r = verify_dump(o);
      REQUIRE(r);
      std::string findings;
      for (const Finding& f : r->findings) findings += f.pointer + ": " + f.message + "\n";
      CAPTURE(findings);
      CHECK(r->summary.errors == 0);
    }
    CHECK(files >= 30);
  }
}

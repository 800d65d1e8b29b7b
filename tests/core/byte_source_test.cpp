#include "core/byte_source.h"

#include <doctest/doctest.h>

#include "test_util.h"

using namespace msdump;

TEST_SUITE("msdump::core") {
  TEST_CASE("memory source reads inside and refuses reads past the end") {
    const std::string data = "abcdef";
    MemorySource src(as_bytes(data));
    auto v = src.read_vector(2, 3);
    REQUIRE(v);
    CHECK(std::string(reinterpret_cast<const char*>(v->data()), 3) == "cde");
    auto bad = src.read_vector(4, 3);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "read of 3 bytes at offset 4 is beyond the end (6 bytes)");
    CHECK_FALSE(src.read_vector(7, 0));
    CHECK(src.read_vector(6, 0));
  }
  TEST_CASE("file source reads with pread and names the file in errors") {
    testing::TempDir dir;
    const auto p = (dir / "f.bin").string();
    {
      FILE* f = std::fopen(p.c_str(), "wb");
      std::fputs("hello", f);
      std::fclose(f);
    }
    auto src = FileSource::open(p);
    REQUIRE(src);
    CHECK((*src)->size() == 5);
    auto bad = (*src)->read_vector(3, 5);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "'" + p + "': read of 5 bytes at offset 3 is beyond the end (5 bytes)");
    auto missing = FileSource::open((dir / "nope").string());
    REQUIRE_FALSE(missing);
    CHECK(missing.error().code == ErrorCode::io);
    CHECK(missing.error().message == "cannot open '" + (dir / "nope").string() + "': No such file or directory");
  }
}

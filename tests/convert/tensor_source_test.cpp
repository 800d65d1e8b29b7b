#include "convert/tensor_source.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "core/byte_source.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::convert;
namespace fs = std::filesystem;

namespace {
void write_file(const fs::path& p, const char* text) { std::ofstream(p, std::ios::binary) << text; }
}  // namespace

TEST_SUITE("msdump::convert") {
  TEST_CASE("a file is judged inside or outside by the descriptor that was opened") {
    testing::TempDir tmp;
    const fs::path inside_dir = tmp.path() / "capture";
    fs::create_directories(inside_dir);
    write_file(inside_dir / "a.bin", "abcd");
    write_file(tmp.path() / "outside.bin", "efgh");
    // "b.bin" is a link that was swapped to point outside after a check by name
    fs::create_symlink(tmp.path() / "outside.bin", inside_dir / "b.bin");

    auto a = FileSource::open((inside_dir / "a.bin").string());
    REQUIRE(a);
    CHECK(check_opened_inside((*a)->fd(), (inside_dir / "a.bin").string(), inside_dir.string()));

    auto b = FileSource::open((inside_dir / "b.bin").string());
    REQUIRE(b);
    const auto r = check_opened_inside((*b)->fd(), (inside_dir / "b.bin").string(), inside_dir.string());
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::invalid_input);
    CHECK(r.error().message == "'" + (inside_dir / "b.bin").string() + "' resolves to '" +
                                   fs::canonical(tmp.path() / "outside.bin").string() + "', outside '" +
                                   inside_dir.string() + "'");
  }
}

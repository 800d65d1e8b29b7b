#include "dump/dump_paths.h"

#include <doctest/doctest.h>

#include <fstream>

#include "test_util.h"

using namespace msdump;
using namespace msdump::dump;

TEST_SUITE("msdump::dump") {
  TEST_CASE("resolve_dump: dump.json itself, or the directory holding it") {
    testing::TempDir dir;
    const std::string file = (dir / "dump.json").string();
    std::ofstream(file) << "{}";
    CHECK(*resolve_dump(file) == file);
    CHECK(*resolve_dump(dir.path().string()) == file);
    // Any file the user names is taken as the dump (its content is checked later).
    const std::string other = (dir / "other.json").string();
    std::ofstream(other) << "{}";
    CHECK(*resolve_dump(other) == other);
  }

  TEST_CASE("resolve_dump: a missing path or a directory without dump.json is an io error naming it") {
    testing::TempDir dir;
    auto none = resolve_dump((dir / "nope").string());
    REQUIRE(!none);
    CHECK(none.error().code == ErrorCode::io);
    CHECK(none.error().message == "'" + (dir / "nope").string() + "': no such file or directory");
    auto empty = resolve_dump(dir.path().string());
    REQUIRE(!empty);
    CHECK(empty.error().code == ErrorCode::io);
    CHECK(empty.error().message == "'" + dir.path().string() + "': no dump.json in this directory");
  }

  TEST_CASE("tensor_dir: the user's directory, else dump_tensor_data/ beside dump.json") {
    CHECK(tensor_dir("/runs/step0/rank0", std::nullopt) == std::filesystem::path("/runs/step0/rank0/dump_tensor_data"));
    CHECK(tensor_dir("", std::nullopt) == std::filesystem::path("dump_tensor_data"));
    CHECK(tensor_dir("/runs/step0/rank0", std::string("/elsewhere/t")) == std::filesystem::path("/elsewhere/t"));
    CHECK(k_dump_json == "dump.json");
    CHECK(k_stack_json == "stack.json");
    CHECK(k_construct_json == "construct.json");
    CHECK(k_tensor_dir == "dump_tensor_data");
  }
}

#include "core/contained_file.h"

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

using namespace msdump;
namespace fs = std::filesystem;

namespace {

void write_file(const fs::path& p, const char* text) { std::ofstream(p, std::ios::binary) << text; }

// A directory "in" with a file, next to an "outside" file it must never reach.
struct Dirs {
  testing::TempDir tmp;
  fs::path in = tmp / "in";
  fs::path outside = tmp / "outside.bin";
  Dirs() {
    fs::create_directories(in);
    write_file(in / "a.bin", "abcd");
    write_file(outside, "efgh");
  }
  std::string p(const char* name) const { return (in / name).string(); }
  std::string error_of(const char* name) const {
    auto r = open_file_inside(p(name), in.string());
    return r ? "ok" : r.error().message;
  }
};

}  // namespace

TEST_SUITE("msdump::core") {
  TEST_CASE("a file is judged inside or outside by the descriptor that was opened") {
    Dirs d;
    // "b.bin" is a link that was swapped to point outside after a check by name
    fs::create_symlink(d.outside, d.in / "b.bin");

    auto a = FileSource::open(d.p("a.bin"));
    REQUIRE(a);
    CHECK(check_opened_inside((*a)->fd(), d.p("a.bin"), d.in.string()));

    auto b = FileSource::open(d.p("b.bin"));
    REQUIRE(b);
    const auto r = check_opened_inside((*b)->fd(), d.p("b.bin"), d.in.string());
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::invalid_input);
    CHECK(r.error().message == "'" + d.p("b.bin") + "' resolves to '" + fs::canonical(d.outside).string() +
                                   "', outside '" + d.in.string() + "'");
  }

  TEST_CASE("open_file_inside: links inside are followed, links outside refused, special files refused") {
    Dirs d;
    SUBCASE("a regular file") {
      auto r = open_file_inside(d.p("a.bin"), d.in.string());
      REQUIRE(r);
      CHECK((*r)->size() == 4);
    }
    SUBCASE("a link to a file inside") {
      fs::create_symlink("a.bin", d.in / "link.bin");
      auto r = open_file_inside(d.p("link.bin"), d.in.string());
      REQUIRE(r);
      CHECK((*r)->size() == 4);
    }
    SUBCASE("a name starting with two dots is inside") {
      write_file(d.in / "..a.bin", "xy");
      CHECK(d.error_of("..a.bin") == "ok");
    }
    SUBCASE("a link to a file outside") {
      fs::create_symlink(d.outside, d.in / "out.bin");
      auto r = open_file_inside(d.p("out.bin"), d.in.string());
      REQUIRE_FALSE(r);
      CHECK(r.error().code == ErrorCode::invalid_input);
      CHECK(r.error().message == "'" + d.p("out.bin") + "' resolves to '" + fs::canonical(d.outside).string() +
                                     "', outside '" + d.in.string() + "'");
    }
    SUBCASE("a dangling link") {
      fs::create_symlink("nowhere.bin", d.in / "dangling.bin");
      auto r = open_file_inside(d.p("dangling.bin"), d.in.string());
      REQUIRE_FALSE(r);
      CHECK(r.error().code == ErrorCode::io);
      CHECK(r.error().message.starts_with("cannot open '" + d.p("dangling.bin") + "': "));
    }
    SUBCASE("a FIFO is refused at once (no writer: a blocking open would wait forever)") {
      REQUIRE(::mkfifo(d.p("fifo.bin").c_str(), 0600) == 0);
      CHECK(d.error_of("fifo.bin") == "'" + d.p("fifo.bin") + "' is not a regular file");
    }
    SUBCASE("a directory") {
      fs::create_directory(d.in / "dir.bin");
      CHECK(d.error_of("dir.bin") == "'" + d.p("dir.bin") + "' is not a regular file");
    }
  }
}

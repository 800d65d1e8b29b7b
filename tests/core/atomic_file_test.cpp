#include "core/atomic_file.h"

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <thread>

#include "test_util.h"

using namespace msdump;
namespace fs = std::filesystem;

TEST_SUITE("msdump::core") {
  TEST_CASE("atomic file appears only on commit") {
    testing::TempDir dir;
    const auto p = (dir / "out.json").string();
    {
      auto f = AtomicFile::create(p, Overwrite::no);
      REQUIRE(f);
      (*f)->write(std::string_view("partial"));
      CHECK_FALSE(fs::exists(p));
      // destroyed without commit: nothing is left behind
    }
    CHECK_FALSE(fs::exists(p));
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator{}) == 0);
    auto f = AtomicFile::create(p, Overwrite::no);
    REQUIRE(f);
    (*f)->write(std::string(3 << 20, 'x'));  // larger than the internal buffer
    REQUIRE((*f)->commit());
    CHECK(fs::file_size(p) == (3u << 20));
  }
  TEST_CASE("a device or FIFO target is written to, never replaced") {
    testing::TempDir dir;
    const auto fifo = (dir / "pipe").string();
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string got;
    std::thread reader([&] { got = testing::slurp(fifo); });
    REQUIRE(write_file_atomic(fifo, "through the pipe", Overwrite::yes));
    reader.join();
    CHECK(got == "through the pipe");
    CHECK(fs::is_fifo(fifo));
    REQUIRE(write_file_atomic("/dev/null", "discarded", Overwrite::yes));
    CHECK(fs::is_character_file("/dev/null"));
    auto d = write_file_atomic(dir.path().string(), "x", Overwrite::yes);
    REQUIRE_FALSE(d);
    CHECK(d.error().message == "'" + dir.path().string() + "' is a directory");
  }
  TEST_CASE("an output file's missing directories are created before the work; a bad place fails early") {
    testing::TempDir dir;
    const auto nested = (dir / "reports" / "run42" / "shard-0.json").string();
    REQUIRE(prepare_output_file(nested));
    CHECK(fs::is_directory(dir / "reports" / "run42"));
    CHECK_FALSE(fs::exists(nested));
    REQUIRE(prepare_output_file(nested));  // already there: fine (shards race to create it)
    REQUIRE(write_file_atomic(nested, "{}", Overwrite::yes));
    auto under_file = prepare_output_file(nested + "/x.json");
    REQUIRE_FALSE(under_file);
    CHECK(under_file.error().message.starts_with("cannot create directory '" + nested + "' for '" + nested + "/x.json': "));
    auto is_dir = prepare_output_file((dir / "reports").string());
    REQUIRE_FALSE(is_dir);
    CHECK(is_dir.error().message == "'" + (dir / "reports").string() + "' is a directory");
    CHECK(prepare_output_file("plain-name-in-cwd.json"));
  }
  TEST_CASE("existing outputs are kept unless overwrite is asked for") {
    testing::TempDir dir;
    const auto p = (dir / "out.json").string();
    REQUIRE(write_file_atomic(p, "one", Overwrite::no));
    auto again = write_file_atomic(p, "two", Overwrite::no);
    REQUIRE_FALSE(again);
    CHECK(again.error().code == ErrorCode::exists);
    CHECK(again.error().message == "'" + p + "' exists (use --force to replace it)");
    CHECK(testing::slurp(p) == "one");
    REQUIRE(write_file_atomic(p, "two", Overwrite::yes));
    CHECK(testing::slurp(p) == "two");
  }
  TEST_CASE("small and large pieces land in order, past the writeback steps") {
    testing::TempDir dir;
    const auto p = (dir / "big.json").string();
    auto f = AtomicFile::create(p, Overwrite::no);
    REQUIRE(f);
    std::string expected;
    std::uint32_t x = 12345;
    for (int i = 0; i < 400; ++i) {
      // 1 byte to ~300 KiB: buffered pieces, pieces that flush the buffer, direct writes.
      const std::size_t n = i % 3 == 0 ? 1 + i : (i % 3 == 1 ? 70000 + 97 * i : 300000 + i);
      std::string piece(n, '\0');
      for (auto& c : piece) c = static_cast<char>('a' + (x = x * 1103515245u + 12345u) % 26);
      (*f)->write(std::string_view(piece));
      expected += piece;
    }
    CHECK((*f)->bytes_written() == expected.size());
    REQUIRE(expected.size() > (std::size_t{32} << 20));  // several writeback steps of 16 MiB
    REQUIRE((*f)->commit());
    CHECK(testing::slurp(p) == expected);
  }
}

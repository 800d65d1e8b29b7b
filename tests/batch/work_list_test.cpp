#include "batch/work_list.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_util.h"

using namespace msdump;
using namespace msdump::batch;
namespace fs = std::filesystem;

namespace {
void touch(const fs::path& p) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << "{}";
}
}  // namespace

TEST_SUITE("msdump::batch") {
  TEST_CASE("discovery finds every input directory below the roots, sorted, with step and rank") {
    testing::TempDir t;
    touch(t / "run/step1/rank0/dump.json");
    touch(t / "run/step0/rank1/dump.json");
    touch(t / "run/step0/rank0/dump.json");
    touch(t / "run/step0/proc42/trace.jsonl");
    touch(t / "run/notes/readme.txt");
    auto items = discover({(t / "run").string()});
    REQUIRE(items);
    REQUIRE(items->size() == 4);
    CHECK((*items)[0].relative == "step0/proc42");
    CHECK((*items)[0].rank == "proc42");
    CHECK((*items)[1].relative == "step0/rank0");
    CHECK((*items)[1].step == "step0");
    CHECK((*items)[3].relative == "step1/rank0");
  }
  TEST_CASE("a root that is an input is one item; missing and empty roots are errors") {
    testing::TempDir t;
    touch(t / "one/dump.json");
    auto items = discover({(t / "one").string()});
    REQUIRE(items);
    CHECK(items->size() == 1);
    CHECK(items->front().relative.empty());
    auto missing = discover({(t / "nope").string()});
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message == "'" + (t / "nope").string() + "': no such file or directory");
    fs::create_directories(t / "empty");
    auto empty = discover({(t / "empty").string()});
    REQUIRE_FALSE(empty);
    CHECK(empty.error().message == "'" + (t / "empty").string() + "': no dump.json or trace.jsonl found below it");
  }
  TEST_CASE("shards partition the list: balanced, disjoint, complete") {
    std::vector<WorkItem> items(7);
    for (std::size_t i = 0; i < items.size(); ++i) items[i].key = items[i].group = std::to_string(i);
    std::vector<std::string> all;
    for (std::size_t k = 0; k < 3; ++k) {
      auto part = select_shard(items, Shard{k, 3});
      CHECK(part.size() >= 2);
      CHECK(part.size() <= 3);
      for (const auto& it : part) all.push_back(it.key);
    }
    std::sort(all.begin(), all.end());
    CHECK(all == std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6"});
  }
  TEST_CASE("the ranks of one step stay in one shard") {
    testing::TempDir t;
    for (auto p : {"s/step0/rank0", "s/step0/rank1", "s/step1/rank0", "s/step1/rank1", "s/step2/rank0"})
      touch(t / p / "dump.json");
    auto items = discover({(t / "s").string()});
    REQUIRE(items);
    auto a = select_shard(*items, Shard{0, 2}), b = select_shard(*items, Shard{1, 2});
    REQUIRE(a.size() == 3);
    REQUIRE(b.size() == 2);
    CHECK(a[0].step == "step0");
    CHECK(a[1].step == "step0");
    CHECK(a[2].step == "step2");
    CHECK(b[0].step == "step1");
    CHECK(b[1].step == "step1");
  }
  TEST_CASE("shard syntax") {
    auto s = parse_shard("2/5");
    REQUIRE(s);
    CHECK(s->index == 2);
    CHECK(s->count == 5);
    for (auto bad : {"5/5", "1", "a/2", "1/0", "-1/3", "1/2/3"}) {
      auto r = parse_shard(bad);
      REQUIRE_FALSE(r);
      CHECK(r.error().message == std::string("--shard: expected K/N with 0 <= K < N, got \"") + bad + "\"");
    }
  }
  TEST_CASE("path lists skip blanks and comments") {
    std::istringstream in("# runs\n/a/b\n\n  /c \r\n");
    auto paths = read_path_list(in, "list.txt");
    REQUIRE(paths);
    CHECK(*paths == std::vector<std::string>{"/a/b", "/c"});
    std::istringstream none("# nothing\n");
    auto r = read_path_list(none, "list.txt");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "'list.txt': no paths listed");
  }
}

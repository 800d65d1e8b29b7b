#include "dump/dump_writer.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pyjson/json_value.h"
#include "pyjson/json_writer.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::dump;

namespace {

std::string read_all(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

pyjson::Value entry(std::size_t i, std::size_t pad) {
  pyjson::Value e = pyjson::Value::object();
  e.add("input_args", pyjson::Value::array());
  e.add("note", pyjson::Value::string(std::string(pad, static_cast<char>('a' + i % 26))));
  e.add("i", pyjson::Value::integer(static_cast<std::int64_t>(i)));
  return e;
}

}  // namespace

TEST_SUITE("msdump::dump") {
  TEST_CASE("dump writer: batches formatted apart (in the buffer, spilled past it, empty) give the same file") {
    testing::TempDir tmp;
    const DumpHeader header{"statistics", "L1", "pytorch", std::nullopt};
    // Batch sizes: a few small entries, one batch of ~3 MiB (the formatter spills), none, one.
    const std::vector<std::pair<std::size_t, std::size_t>> batches = {{3, 10}, {30, 100000}, {0, 0}, {1, 70000}, {5, 1}};
    std::vector<std::pair<std::string, pyjson::Value>> all;
    std::size_t n = 0;
    for (const auto& [count, pad] : batches)
      for (std::size_t k = 0; k < count; ++k, ++n) all.emplace_back("Functional.f." + std::to_string(n) + ".forward", entry(n, pad));

    auto direct = DumpWriter::create((tmp.path() / "direct.json").string(), header, Overwrite::no);
    REQUIRE(direct);
    for (const auto& [name, v] : all) (*direct)->write_entry(name, v);
    REQUIRE((*direct)->finish());

    auto raw = DumpWriter::create((tmp.path() / "raw.json").string(), header, Overwrite::no);
    REQUIRE(raw);
    EntryFormatter fmt;  // one formatter for every batch, as convert's workers reuse theirs
    std::size_t at = 0;
    for (const auto& [count, pad] : batches) {
      fmt.reset();
      for (std::size_t k = 0; k < count; ++k, ++at) fmt.write_entry(all[at].first, all[at].second);
      auto items = fmt.finish();
      REQUIRE(items);
      CHECK(items->empty() == (count == 0));
      (*raw)->write_raw_entries(*items, count);
    }
    CHECK((*raw)->entry_count() == all.size());
    REQUIRE((*raw)->finish());
    const std::string a = read_all(tmp.path() / "direct.json"), b = read_all(tmp.path() / "raw.json");
    CHECK(a.size() > (std::size_t{2} << 20));  // the big batch is past the formatter's 1 MiB buffer
    CHECK(a == b);
  }

  TEST_CASE("entry formatter: invalid UTF-8 in a batch is its error") {
    EntryFormatter fmt;
    fmt.write_entry("Functional.f.0.forward", pyjson::Value::string("ok"));
    fmt.write_entry("Functional.f.1.forward", pyjson::Value::string("bad \xff"));
    auto items = fmt.finish();
    REQUIRE_FALSE(items);
    CHECK(items.error().message.find("not valid UTF-8") != std::string::npos);
    fmt.reset();  // the next batch starts clean
    fmt.write_entry("Functional.f.2.forward", pyjson::Value::string("ok"));
    auto next = fmt.finish();
    REQUIRE(next);
    CHECK(*next == "\n  \"Functional.f.2.forward\": \"ok\"");
  }
}

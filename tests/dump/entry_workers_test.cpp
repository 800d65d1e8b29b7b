// EntryWorkers with a visitor of its own: every entry visited once, on the threads' own
// visitors, handed out in file order; files it cannot vouch for end the pass with an error; and
// parallel_else_one_by_one, the fallback its users share.

#include "dump/entry_workers.h"

#include <doctest/doctest.h>
#include <fmt/format.h>

#include <atomic>
#include <span>
#include <string>

using namespace msdump;
using namespace msdump::dump;

namespace {

struct Seen {
  std::string name;
  std::uint64_t line = 0;
  std::int64_t value = -1;
  bool duplicate_keys = false;
};

class ValueReader final : public EntryVisitorOf<Seen> {
 public:
  void visit(Seen& out, EntryKey&& key, pyjson::Value& entry) override {
    out.name = std::move(key.name);
    out.line = key.line;
    out.duplicate_keys = key.duplicate_keys;
    const pyjson::Value* output = entry.find("output");
    if (output == nullptr || !output->is_array() || output->as_array().empty()) return;
    const pyjson::Value* value = output->as_array()[0].find("value");
    if (const std::int64_t* i = value ? value->if_int() : nullptr) out.value = *i;
  }
};

// Settles the entries whose text says "value": <even> from the text alone (value -2), parses the others.
class EvenFromText final : public EntryVisitorOf<Seen> {
 public:
  bool visit_text(Seen& out, EntryKey& key, std::string_view text) override {
    const auto at = text.find("\"value\": ");
    if (at == std::string_view::npos || (text[text.find_first_of("}", at) - 1] - '0') % 2 != 0) return false;
    out.name = std::move(key.name);
    out.line = key.line;
    out.value = -2;
    return true;
  }
  void visit(Seen& out, EntryKey&& key, pyjson::Value& entry) override { m_parsed.visit(out, std::move(key), entry); }

 private:
  ValueReader m_parsed;
};

// A dump of `n` entries, one per line after the header's.
std::string dump_text(int n, const std::string& extra_entry = "") {
  std::string text = "{\"task\": \"statistics\", \"level\": \"L1\", \"framework\": \"pytorch\", \"dump_data_dir\": null, \"data\": {";
  for (int i = 0; i < n; ++i)
    text += fmt::format("{}\n\"Torch.add.{}.forward\": {{\"input_args\": [], \"output\": [{{\"type\": \"int\", \"value\": {}}}]}}",
                        i ? "," : "", i, i);
  text += extra_entry + "}}";
  return text;
}

// Runs the workers over `text`: the entries seen, in order, or the error next() gave.
Result<std::vector<Seen>> run(const std::string& text, int threads, std::atomic<int>& visitors) {
  const MemorySource src(std::as_bytes(std::span(text.data(), text.size())), "mem.json");
  EntryWorkers workers(src, threads);
  WorkerItem item;
  std::vector<Seen> seen;
  for (;;) {
    auto more = workers.next(item);
    if (!more) return more.error();
    if (!*more) return seen;
    if (!item.is_entry) {
      if (item.event.type == pyjson::DumpEvent::Type::data_begin)
        workers.start_visiting([&visitors] {
          ++visitors;
          return std::make_unique<ValueReader>();
        });
      continue;
    }
    if (const Seen* later = workers.ahead<Seen>(1)) CHECK(later->value == static_cast<std::int64_t>(seen.size()) + 1);
    seen.push_back(std::move(workers.entry<Seen>()));
  }
}

}  // namespace

TEST_SUITE("msdump::dump") {
  TEST_CASE("entry workers: every entry visited once, handed out in file order, one visitor per thread") {
    const std::string text = dump_text(3000);
    REQUIRE(text.size() > 2 * EntryWorkers::k_chunk_bytes);
    for (const int threads : {2, 4}) {
      CAPTURE(threads);
      std::atomic<int> visitors{0};
      auto seen = run(text, threads, visitors);
      REQUIRE(seen);
      REQUIRE(seen->size() == 3000);
      for (std::size_t i = 0; i < seen->size(); ++i) {
        const Seen& s = (*seen)[i];
        CHECK(s.name == fmt::format("Torch.add.{}.forward", i));
        CHECK(s.line == i + 2);
        CHECK(s.value == static_cast<std::int64_t>(i));
        CHECK(!s.duplicate_keys);
      }
      CHECK(visitors >= 1);
      CHECK(visitors <= threads);
    }
  }

  TEST_CASE("entry workers: entries a visitor settles from their text are not parsed, and keep their place") {
    const std::string text = dump_text(1000);
    for (const std::size_t chunk_bytes : {std::size_t{1024}, EntryWorkers::k_chunk_bytes}) {
      CAPTURE(chunk_bytes);
      const MemorySource src(std::as_bytes(std::span(text.data(), text.size())), "mem.json");
      EntryWorkers workers(src, 3, chunk_bytes);
      WorkerItem item;
      std::size_t i = 0;
      Result<bool> more = true;
      while ((more = workers.next(item)) && *more) {
        if (!item.is_entry) {
          if (item.event.type == pyjson::DumpEvent::Type::data_begin)
            workers.start_visiting([] { return std::make_unique<EvenFromText>(); });
          continue;
        }
        const Seen& s = workers.entry<Seen>();
        CHECK(s.name == fmt::format("Torch.add.{}.forward", i));
        CHECK(s.line == i + 2);
        CHECK(s.value == (i % 2 == 0 ? -2 : static_cast<std::int64_t>(i)));
        ++i;
      }
      REQUIRE(more);
      CHECK(i == 1000);
    }
  }

  TEST_CASE("entry workers: a repeated key is noted; what the raw pass cannot vouch for ends it with an error") {
    std::atomic<int> visitors{0};
    auto dup = run(dump_text(3, ",\n\"Torch.mul.0.forward\": {\"output\": [{\"type\": \"int\", \"value\": 3, \"value\": 3}]}"),
                   2, visitors);
    REQUIRE(dup);
    REQUIRE(dup->size() == 4);
    CHECK((*dup)[3].duplicate_keys);
    CHECK((*dup)[3].value == 3);
    CHECK(!(*dup)[2].duplicate_keys);

    auto broken = run(dump_text(3, ",\n\"Torch.mul.0.forward\": {\"output\" [1]}"), 2, visitors);
    REQUIRE(!broken);
    CHECK(broken.error().message == "an entry is not valid JSON: read one entry at a time");

    std::string two_data = dump_text(2);
    two_data.insert(two_data.size() - 1, ", \"data\": {}");
    auto second = run(two_data, 2, visitors);
    REQUIRE(!second);
    CHECK(second.error().message == "a second \"data\" object: read one entry at a time");
  }

  TEST_CASE("entry workers: a visitor factory that gives up ends the pass") {
    const std::string text = dump_text(10);
    const MemorySource src(std::as_bytes(std::span(text.data(), text.size())), "mem.json");
    EntryWorkers workers(src, 2);
    WorkerItem item;
    Result<bool> more = true;
    while ((more = workers.next(item)) && *more)
      if (!item.is_entry && item.event.type == pyjson::DumpEvent::Type::data_begin)
        workers.start_visiting([]() -> std::unique_ptr<EntryVisitor> { return nullptr; });
    REQUIRE(!more);
    CHECK(more.error().message == "an entry is not valid JSON: read one entry at a time");
  }

  TEST_CASE("parallel_else_one_by_one: the parallel result, else the one-by-one pass's") {
    int parallel_runs = 0, one_by_one_runs = 0;
    auto one_by_one = [&]() -> Result<int> {
      ++one_by_one_runs;
      return 2;
    };
    auto r = parallel_else_one_by_one<int>(true, [&]() -> std::optional<int> { ++parallel_runs; return 1; }, one_by_one);
    CHECK(*r == 1);
    CHECK(one_by_one_runs == 0);
    r = parallel_else_one_by_one<int>(true, [&]() -> std::optional<int> { ++parallel_runs; return std::nullopt; }, one_by_one);
    CHECK(*r == 2);
    CHECK(parallel_runs == 2);
    r = parallel_else_one_by_one<int>(false, [&]() -> std::optional<int> { ++parallel_runs; return 1; }, one_by_one);
    CHECK(*r == 2);
    CHECK(parallel_runs == 2);
    CHECK(one_by_one_runs == 2);
    auto failed = parallel_else_one_by_one<int>(false, [] { return std::optional<int>(); },
                                                []() -> Result<int> { return invalid_input("bad"); });
    REQUIRE(!failed);
    CHECK(failed.error().message == "bad");
  }
}

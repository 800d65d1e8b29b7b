#include "batch/batch_report.h"

#include <doctest/doctest.h>

#include <sstream>

using namespace msdump;
using namespace msdump::batch;

namespace {
BatchReport::Item item(const std::string& key, ItemStatus status, std::uint64_t entries) {
  BatchReport::Item it;
  it.item.key = key;
  it.item.input = key;
  it.item.step = "step0";
  it.item.rank = key.substr(key.rfind('/') + 1);
  it.outcome.status = status;
  it.outcome.entries = entries;
  it.outcome.seconds = 1.5;  // never written to JSON
  if (status == ItemStatus::findings) {
    it.outcome.errors = 1;
    it.outcome.details = {"error [statistic] x: Max differs"};
  }
  return it;
}
}  // namespace

TEST_SUITE("msdump::batch") {
  TEST_CASE("the JSON report round-trips with its run and shard") {
    BatchReport r{"verify", {3, "fnv1a64:00000000000000ab", "--no-tensors"}, {2, 4},
                  {item("r/step0/rank0", ItemStatus::ok, 3), item("r/step0/rank1", ItemStatus::findings, 3)}};
    auto j = to_json(r);
    REQUIRE(j);
    CHECK(j->find("\"run\": {\n  \"items\": 3,\n  \"inputs\": \"fnv1a64:00000000000000ab\",\n  \"options\": "
                  "\"--no-tensors\"\n },\n \"shard\": \"2/4\",") != std::string::npos);
    auto back = report_from_json(*j, "r.json");
    REQUIRE(back);
    CHECK(back->run == r.run);
    CHECK(back->shard.index == 2);
    CHECK(back->shard.count == 4);
    REQUIRE(back->items.size() == 2);
    CHECK(back->items[1].outcome.details == r.items[1].outcome.details);
    auto again = to_json(*back);
    REQUIRE(again);
    CHECK(*again == *j);
  }
  TEST_CASE("the verdict: failed before findings before clean") {
    BatchReport r{"convert", {}, {}, {item("a", ItemStatus::ok, 1), item("b", ItemStatus::skipped, 0)}};
    CHECK(verdict(r) == Verdict::clean);
    r.items.push_back(item("c", ItemStatus::findings, 1));
    CHECK(verdict(r) == Verdict::findings);
    r.items.push_back(item("d", ItemStatus::failed, 0));
    CHECK(verdict(r) == Verdict::failed);
  }
  TEST_CASE("a report without its shard and run (version 1) is refused with the reason") {
    auto r = report_from_json("{\"msdump_batch_report\": 1, \"command\": \"verify\", \"items\": []}", "old.json");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "old.json: /msdump_batch_report: expected version 2 (a report without its shard and run, "
                               "from an older msdump, cannot be merged: run the shards again)");
  }
  TEST_CASE("a bad shard or run names the JSON path") {
    const std::string head = "{\"msdump_batch_report\": 2, \"command\": \"verify\", ";
    auto bad_shard = report_from_json(head + "\"run\": {\"items\": 0, \"inputs\": \"\", \"options\": \"\"}, "
                                             "\"shard\": \"4/4\", \"items\": []}", "s.json");
    REQUIRE_FALSE(bad_shard);
    CHECK(bad_shard.error().message == "s.json: /shard: expected \"K/N\" with 0 <= K < N, got \"4/4\"");
    auto bad_run = report_from_json(head + "\"run\": {\"items\": -1}, \"shard\": \"0/1\", \"items\": []}", "s.json");
    REQUIRE_FALSE(bad_run);
    CHECK(bad_run.error().message == "s.json: /run/items: expected a non-negative integer");
  }
  TEST_CASE("a file that is not a batch report is named") {
    auto r = report_from_json("{\"findings\": []}", "x.json");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "x.json: not an msdump batch report (written by --batch-report)");
  }
  TEST_CASE("the summary table has one row per item and a total") {
    BatchReport r{"convert", {}, {}, {item("r/step0/rank0", ItemStatus::ok, 3), item("r/step0/rank1", ItemStatus::failed, 0)}};
    r.items[1].outcome.message = "cannot open";
    std::ostringstream out;
    print_summary_table(r, out);
    const auto text = out.str();
    CHECK(text.find("rank0        ok") != std::string::npos);
    CHECK(text.find("    cannot open\n") != std::string::npos);
    CHECK(text.find("2 items, 1 with problems") != std::string::npos);
  }
}

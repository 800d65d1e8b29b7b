#include "batch/report_merge.h"

#include <doctest/doctest.h>

using namespace msdump;
using namespace msdump::batch;

namespace {

// A run over steps 0..4 with two ranks each; rank1 of step 3 has findings.
std::vector<WorkItem> whole_list() {
  std::vector<WorkItem> items;
  for (int step = 0; step < 5; ++step)
    for (int rank = 0; rank < 2; ++rank) {
      WorkItem w;
      w.root = "r";
      w.step = "step" + std::to_string(step);
      w.rank = "rank" + std::to_string(rank);
      w.relative = w.step + "/" + w.rank;
      w.key = w.input = "r/" + w.relative;
      w.group = "r/" + w.step;
      items.push_back(w);
    }
  return items;
}

BatchReport report_of(const std::vector<WorkItem>& items, const RunIdentity& run, Shard shard) {
  BatchReport r{"verify", run, shard, {}};
  for (const auto& w : items) {
    BatchReport::Item it{w, {}};
    it.outcome.entries = 7;
    if (w.key == "r/step3/rank1") {
      it.outcome.status = ItemStatus::findings;
      it.outcome.errors = 1;
      it.outcome.details = {"error [rank] x: diverges"};
    }
    r.items.push_back(it);
  }
  return r;
}

// The shard reports of `n` shards, as read back from their JSON files shard-K.json.
std::vector<NamedReport> shards_of(std::size_t n, const std::string& options = "") {
  const auto whole = whole_list();
  const auto run = identify_run(whole, options);
  std::vector<NamedReport> out;
  for (std::size_t k = 0; k < n; ++k) {
    const std::string name = "shard-" + std::to_string(k) + ".json";
    auto json = to_json(report_of(select_shard(whole, {k, n}), run, {k, n}));
    REQUIRE(json);
    auto back = report_from_json(*json, name);
    REQUIRE(back);
    out.push_back({name, std::move(*back)});
  }
  return out;
}

std::string merge_error(std::vector<NamedReport> shards) {
  auto m = merge_reports(std::move(shards));
  REQUIRE_FALSE(m);
  return m.error().message;
}

}  // namespace

TEST_SUITE("msdump::batch") {
  TEST_CASE("merging all shards in any order equals the unsharded run's report, byte for byte") {
    const auto whole = whole_list();
    auto unsharded = to_json(report_of(whole, identify_run(whole, ""), {0, 1}));
    REQUIRE(unsharded);
    for (std::size_t n : {1u, 3u, 4u, 8u}) {
      auto shards = shards_of(n);
      std::reverse(shards.begin(), shards.end());
      auto merged = merge_reports(std::move(shards));
      REQUIRE(merged);
      CHECK(merged->shard.index == 0);
      CHECK(merged->shard.count == 1);
      CHECK(verdict(*merged) == Verdict::findings);
      auto json = to_json(*merged);
      REQUIRE(json);
      CHECK(*json == *unsharded);
    }
  }
  TEST_CASE("merge refuses a missing shard") {
    auto shards = shards_of(4);
    shards.erase(shards.begin() + 2);
    CHECK(merge_error(shards) == "shard 2/4 of the run is missing (3 of 4 shard reports given); a shard without a "
                                 "report did not finish: run it again, then merge");
    shards.erase(shards.begin());
    CHECK(merge_error(shards) == "shards 0/4, 2/4 of the run are missing (2 of 4 shard reports given); a shard "
                                 "without a report did not finish: run it again, then merge");
  }
  TEST_CASE("merge refuses a shard given twice") {
    auto shards = shards_of(4);
    shards.push_back(shards[1]);
    shards.back().name = "copy-of-shard-1.json";
    CHECK(merge_error(shards) == "shard 1/4 given twice: 'shard-1.json' and 'copy-of-shard-1.json'");
  }
  TEST_CASE("merge refuses shards of a different N") {
    auto shards = shards_of(4);
    shards[3] = shards_of(3)[2];
    CHECK(merge_error(shards) == "'shard-0.json' is shard 0/4 but 'shard-2.json' is shard 2/3: the shards of one run share N");
  }
  TEST_CASE("merge refuses a shard of another run: other options") {
    auto shards = shards_of(4);
    shards[1] = shards_of(4, "--no-tensors")[1];
    CHECK(merge_error(shards) == "'shard-0.json' and 'shard-1.json' are shards of different runs: their options "
                                 "differ (\"\" vs \"--no-tensors\")");
  }
  TEST_CASE("merge refuses a shard of another run: another work list") {
    auto shards = shards_of(2);
    auto other = whole_list();
    other.pop_back();  // a tree that lacked one dump when this shard listed it
    shards[1].report.run = identify_run(other, "");
    const auto msg = merge_error(shards);
    CHECK(msg.starts_with("'shard-0.json' and 'shard-1.json' are shards of different runs: their work lists differ "
                          "(10 items, fnv1a64:"));
    CHECK(msg.find(" vs 9 items, fnv1a64:") != std::string::npos);
  }
  TEST_CASE("merge refuses mixed commands, no reports, and shards that lost items") {
    auto shards = shards_of(2);
    shards[1].report.command = "convert";
    CHECK(merge_error(shards) == "cannot merge 'shard-0.json' (verify report) with 'shard-1.json' (convert report)");
    CHECK(merge_error({}) == "no batch reports to merge");
    shards = shards_of(2);
    shards[0].report.items.pop_back();  // edited by hand
    CHECK(merge_error(shards) == "the shard reports hold 9 items but their run's work list has 10");
    shards = shards_of(2);
    shards[0].report.items.push_back(shards[1].report.items[0]);
    CHECK(merge_error(shards) == "'r/step1/rank0' appears in more than one shard report");
  }
}

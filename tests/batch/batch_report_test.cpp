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
  TEST_CASE("the JSON report round-trips and merging shards equals the whole run") {
    BatchReport whole{"verify", {item("r/step0/rank0", ItemStatus::ok, 3), item("r/step0/rank1", ItemStatus::findings, 3),
                                 item("r/step0/rank2", ItemStatus::ok, 3)}};
    BatchReport a{"verify", {whole.items[0], whole.items[2]}};
    BatchReport b{"verify", {whole.items[1]}};
    auto ja = to_json(a), jb = to_json(b), jw = to_json(whole);
    REQUIRE(ja);
    REQUIRE(jb);
    REQUIRE(jw);
    auto ra = report_from_json(*ja, "a.json"), rb = report_from_json(*jb, "b.json");
    REQUIRE(ra);
    REQUIRE(rb);
    auto merged = merge_reports({*rb, *ra});
    REQUIRE(merged);
    auto jm = to_json(*merged);
    REQUIRE(jm);
    CHECK(*jm == *jw);
    CHECK_FALSE(merged->clean());
  }
  TEST_CASE("merging refuses overlapping shards and mixed commands") {
    BatchReport a{"convert", {item("x", ItemStatus::ok, 1)}};
    auto dup = merge_reports({a, a});
    REQUIRE_FALSE(dup);
    CHECK(dup.error().message == "'x' appears in more than one report (overlapping shards?)");
    BatchReport v{"verify", {}};
    auto mixed = merge_reports({a, v});
    REQUIRE_FALSE(mixed);
    CHECK(mixed.error().message == "cannot merge a convert report with a verify report");
  }
  TEST_CASE("a file that is not a batch report is named") {
    auto r = report_from_json("{\"findings\": []}", "x.json");
    REQUIRE_FALSE(r);
    CHECK(r.error().message == "x.json: not an msdump batch report (written by --batch-report)");
  }
  TEST_CASE("the summary table has one row per item and a total") {
    BatchReport r{"convert", {item("r/step0/rank0", ItemStatus::ok, 3), item("r/step0/rank1", ItemStatus::failed, 0)}};
    r.items[1].outcome.message = "cannot open";
    std::ostringstream out;
    print_summary_table(r, out);
    const auto text = out.str();
    CHECK(text.find("rank0        ok") != std::string::npos);
    CHECK(text.find("    cannot open\n") != std::string::npos);
    CHECK(text.find("2 items, 1 with problems") != std::string::npos);
  }
}

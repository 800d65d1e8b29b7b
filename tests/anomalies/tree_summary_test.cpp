#include "anomalies/tree_summary.h"

#include <doctest/doctest.h>

using namespace msdump;
using namespace msdump::anomalies;

namespace {

DumpResult dump(long step, long rank, std::vector<std::string> origins) {
  DumpResult d;
  d.key = "step" + std::to_string(step) + "/rank" + std::to_string(rank);
  d.group = "step" + std::to_string(step);
  d.step = step;
  d.rank = rank;
  d.dump.analysis.entries = 10;
  for (auto& o : origins) {
    Anomaly a;
    a.entry = o;
    a.role = Role::origin;
    d.dump.analysis.anomalies.push_back(a);
    ++d.dump.analysis.origins;
  }
  if (!origins.empty()) d.dump.analysis.first_origin = 0;
  return d;
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("step and rank numbers from path components") {
    CHECK(number_suffix("step12") == 12);
    CHECK(number_suffix("rank3") == 3);
    CHECK(number_suffix("proc2016") == 2016);
    CHECK_FALSE(number_suffix(""));
    CHECK_FALSE(number_suffix("rank"));
  }

  TEST_CASE("first origin by step then rank; ranks with origins; origins some ranks lack") {
    std::vector<DumpResult> d{dump(0, 0, {}), dump(0, 1, {}), dump(1, 0, {}), dump(1, 1, {"Torch.log.0.forward"}),
                              dump(2, 0, {"Torch.log.0.forward"}), dump(2, 1, {"Torch.log.0.forward"})};
    auto s = summarize(d);
    CHECK(s.dumps == 6);
    CHECK(s.entries == 60);
    CHECK(s.origins == 3);
    REQUIRE(s.first_origin);
    CHECK(s.first_origin->dump == 3);
    CHECK(s.first_step_with_origin == 1);
    CHECK(s.ranks_with_origins == std::vector<long>{0, 1});
    REQUIRE(s.divergences.size() == 1);
    CHECK(s.divergences[0].step == 1);
    CHECK(s.divergences[0].entry == "Torch.log.0.forward");
    CHECK(s.divergences[0].with == std::vector<long>{1});
    CHECK(s.divergences[0].without == std::vector<long>{0});
  }

  TEST_CASE("no origins: nothing first") {
    std::vector<DumpResult> d{dump(0, 0, {})};
    auto s = summarize(d);
    CHECK_FALSE(s.first_origin);
    CHECK_FALSE(s.first_step_with_origin);
    CHECK(s.ranks_with_origins.empty());
    CHECK(s.divergences.empty());
  }
}

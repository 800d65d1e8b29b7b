#include "anomalies/nested_origins.h"

#include <doctest/doctest.h>

using namespace msdump;
using namespace msdump::anomalies;

namespace {

Anomaly origin(const std::string& entry, std::optional<std::string> module, std::vector<std::string> chain,
               std::uint64_t downstream = 0) {
  Anomaly a;
  a.entry = entry;
  a.role = Role::origin;
  a.direction = direction_of(entry);
  a.module = std::move(module);
  a.module_chain = std::move(chain);
  a.downstream = downstream;
  return a;
}

}  // namespace

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("a module origin holding an origin inside it is folded into the inner one") {
    DumpAnalysis a;
    const std::string outer = "Module.net.Net.forward.0", block = "Module.net.block.Block.forward.0";
    a.anomalies = {origin(outer, outer, {}), origin(block, block, {outer}),
                   origin("Torch.log.0.forward", block, {outer}, 2), origin("Torch.div.0.forward", std::nullopt, {})};
    a.origins = 4;
    fold_enclosing_origins(a);
    REQUIRE(a.anomalies.size() == 2);
    CHECK(a.origins == 2);
    CHECK(a.anomalies[0].entry == "Torch.log.0.forward");
    CHECK(a.anomalies[0].downstream == 4);  // its own 2, plus the two modules
    CHECK(a.first_origin == 0u);
  }

  TEST_CASE("an L0 module origin with nothing inside it stays; other directions do not fold") {
    DumpAnalysis a;
    const std::string m = "Module.fc.Linear.forward.0";
    a.anomalies = {origin(m, m, {}), origin("Torch.sqrt.0.backward", "Module.fc.Linear.backward.0", {})};
    a.origins = 2;
    fold_enclosing_origins(a);
    CHECK(a.anomalies.size() == 2);
    CHECK(a.first_origin == 0u);
    CHECK(a.first_backward_origin == 1u);
  }
}

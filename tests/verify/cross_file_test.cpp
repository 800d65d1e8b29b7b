#include "verify/cross_file.h"

#include <doctest/doctest.h>

#include <string>

using namespace msdump;
using namespace msdump::verify;

TEST_SUITE("msdump::verify") {
  TEST_CASE("dump names: each name is added once, in order, also past the table's growth") {
    DumpNames names;
    CHECK_FALSE(names.contains("x"));
    names.prefetch(DumpNames::hash_of("x"));  // (an empty table: nothing to load)
    for (int i = 0; i < 5000; ++i) CHECK(names.add("Functional.relu." + std::to_string(i) + ".forward"));
    CHECK_FALSE(names.add("Functional.relu.17.forward"));
    std::string moved = "Functional.relu.4999.forward";
    CHECK_FALSE(names.add(std::move(moved), DumpNames::hash_of("Functional.relu.4999.forward")));
    CHECK(moved == "Functional.relu.4999.forward");  // not added: not moved from
    std::string fresh = "Module.fc.Linear.forward.0";
    const auto hash = DumpNames::hash_of(fresh);
    names.prefetch(hash);
    CHECK(names.add(std::move(fresh), hash));
    CHECK(names.contains("Module.fc.Linear.forward.0"));
    CHECK(names.contains("Functional.relu.0.forward"));
    CHECK_FALSE(names.contains("Functional.relu.5000.forward"));
    REQUIRE(names.in_order.size() == 5001);
    CHECK(names.in_order[1234] == "Functional.relu.1234.forward");
    CHECK(names.in_order.back() == "Module.fc.Linear.forward.0");
  }
}

#include "schema/state_numbers.h"

#include <doctest/doctest.h>

#include <vector>

using namespace msdump::schema;

TEST_SUITE("msdump::schema") {
  TEST_CASE("state numbers: a new state gets the next number, a known one its own") {
    StateNumbers<std::vector<int>> states;
    CHECK(states.intern({1, 2}) == 0);
    CHECK(states.intern({3}) == 1);
    CHECK(states.intern({1, 2}) == 0);
    CHECK(states.intern({}) == 2);
    CHECK(states.intern({3}) == 1);
    REQUIRE(states.size() == 3);
    CHECK(states[0] == std::vector<int>{1, 2});
    CHECK(states[2].empty());
  }
}

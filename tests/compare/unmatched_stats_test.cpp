#include "compare/unmatched_stats.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace msdump::compare;

namespace {

Row row(Cell max, Cell min = Cell::integer(0), Cell mean = Cell::integer(0), Cell norm = Cell::integer(0)) {
  Row r;
  r.stats = {std::move(max), std::move(min), std::move(mean), std::move(norm)};
  return r;
}

// The rule for Max over rows (each with its partner or not).
bool max_rule(const std::vector<Row>& rows, const std::vector<bool>& paired) {
  std::vector<std::uint8_t> kinds;
  for (const auto& r : rows) kinds.push_back(stat_kinds(r));
  return unmatched_int_rule(kinds, paired)[0];
}

}  // namespace

TEST_SUITE("msdump::compare") {
  TEST_CASE("unmatched stats: the packed cell types of a row") {
    const Row r = row(Cell::integer(3), Cell::floating(0.5), Cell::text("None"), Cell::boolean(true));
    CHECK(stat_kinds(r) == (1 | 2 << 2 | 0 << 4 | 0 << 6));
  }

  // The cases below are the ones msprobe's compare was run on (docs/compare.md "Statistics of
  // rows without a partner"): a table with one paired row and an entry of unpaired rows.
  TEST_CASE("unmatched stats: ints become floats when every unpaired cell of the column is a number") {
    const std::vector<bool> one_paired{true, false, false};
    const Row paired = row(Cell::floating(1.0));
    CHECK(max_rule({paired, row(Cell::integer(3)), row(Cell::floating(1.5))}, one_paired));   // 3 -> 3.0
    CHECK(max_rule({paired, row(Cell::integer(3)), row(Cell::integer(7))}, one_paired));      // ints only, a paired row
    CHECK(max_rule({paired, row(Cell::integer(3)), row(Cell::floating(1e300 * 1e10))}, one_paired));  // inf is a float
    CHECK_FALSE(max_rule({paired, row(Cell::integer(3)), row(Cell::text("None"))}, one_paired));  // null statistic
    CHECK_FALSE(max_rule({paired, row(Cell::integer(3)), row(Cell::text("Nan"))}, one_paired));
    CHECK_FALSE(max_rule({paired, row(Cell::integer(3)), row(Cell::text("True"))}, one_paired));  // bool tensor
    CHECK_FALSE(max_rule({paired, row(Cell::integer(3)), row(Cell::boolean(true))}, one_paired));  // bool scalar
    CHECK_FALSE(max_rule({paired, row(Cell::integer(3)), row(Cell::text("mean"))}, one_paired));  // str scalar
  }

  TEST_CASE("unmatched stats: with no paired row, ints stay ints unless a float is among them") {
    CHECK_FALSE(max_rule({row(Cell::integer(3)), row(Cell::integer(7))}, {false, false}));
    CHECK(max_rule({row(Cell::integer(3)), row(Cell::floating(0.5))}, {false, false}));
  }

  TEST_CASE("unmatched stats: no unpaired row, nothing to do; the columns are independent") {
    CHECK_FALSE(max_rule({row(Cell::integer(3))}, {true}));
    std::vector<std::uint8_t> kinds{stat_kinds(row(Cell::floating(1.0))),
                                    stat_kinds(row(Cell::integer(3), Cell::text("Nan"), Cell::integer(2), Cell::floating(4.0)))};
    const auto rule = unmatched_int_rule(kinds, {true, false});
    CHECK(rule == IntsAsFloats{true, false, true, true});
  }

  TEST_CASE("unmatched stats: applying the rule turns ints (also big ones) into floats, nothing else") {
    Row r = row(Cell::integer(3), Cell::integer(1), Cell::text("None"), Cell::big_integer("1152921504606846977"));
    apply_unmatched_int_rule(r, {true, false, true, true});
    CHECK(r.stats[0].kind() == Cell::Kind::floating);
    CHECK(r.stats[0].str() == "3.0");
    CHECK(r.stats[1].kind() == Cell::Kind::integer);
    CHECK(r.stats[2].as_text() == "None");
    CHECK(r.stats[3].str() == "1.152921504606847e+18");
  }
}

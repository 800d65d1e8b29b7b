#pragma once
// Two compare Rows checked equal member by member (with each statistic's kept str()), for the
// tests of the row readers and of Row::reset.

#include <doctest/doctest.h>

#include <cstddef>

#include "compare/dump_rows.h"

namespace msdump::compare::testing {

inline void check_same_row(const Row& a, const Row& b) {
  CHECK(a.name == b.name);
  CHECK(a.entry == b.entry);
  CHECK(a.state == b.state);
  CHECK(a.dtype == b.dtype);
  CHECK(a.shape == b.shape);
  CHECK(a.requires_grad == b.requires_grad);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(a.stats[i] == b.stats[i]);
    CHECK(a.stats[i].kept_str() == b.stats[i].kept_str());
  }
  CHECK(a.md5 == b.md5);
  CHECK(a.data_name == b.data_name);
  CHECK(a.tensor == b.tensor);
}

}  // namespace msdump::compare::testing

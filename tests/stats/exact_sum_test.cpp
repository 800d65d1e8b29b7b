#include "stats/exact_sum.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace msdump::stats;

TEST_SUITE("msdump::stats") {
  TEST_CASE("exact sum does not lose small terms next to large ones") {
    ExactSum s;
    s.add(1e100);
    s.add(1.0);
    s.add(-1e100);
    CHECK(s.value() == 1.0);
    ExactSum t;
    for (int k = 0; k < 10; ++k) t.add(0.1);
    CHECK(t.value() == 1.0);  // the exact sum of ten 0.1 doubles rounds to 1.0
    ExactSum tiny;
    tiny.add(std::numeric_limits<double>::denorm_min());
    tiny.add(std::numeric_limits<double>::denorm_min());
    CHECK(tiny.value() == 2 * std::numeric_limits<double>::denorm_min());
    ExactSum neg;
    neg.add(-2.5);
    neg.add(1.0);
    CHECK(neg.value() == -1.5);
  }

  TEST_CASE("exact sum rounds the exact total to nearest even once") {
    ExactSum s;  // 1 + 2^-53 is a tie -> 1; adding 2^-80 breaks the tie upwards
    s.add(1.0);
    s.add(std::ldexp(1.0, -53));
    CHECK(s.value() == 1.0);
    s.add(std::ldexp(1.0, -80));
    CHECK(s.value() == 1.0 + std::ldexp(1.0, -52));
  }

  TEST_CASE("exact sum merges to the same bits in any order") {
    std::mt19937_64 rng(11);
    std::normal_distribution<double> normal;
    std::vector<double> v(10000);
    for (auto& x : v) x = normal(rng) * std::exp2(static_cast<int>(rng() % 80) - 40);
    ExactSum forward, a, b;
    for (double x : v) forward.add(x);
    for (std::size_t k = v.size(); k-- > 0;) (k % 2 == 0 ? a : b).add(v[k]);
    b.merge(a);
    CHECK(b.value() == forward.value());
  }

  TEST_CASE("exact sum follows IEEE rules for non-finite values and overflow") {
    ExactSum s;
    s.add(std::numeric_limits<double>::infinity());
    s.add(1.0);
    CHECK(s.value() == std::numeric_limits<double>::infinity());
    s.add(-std::numeric_limits<double>::infinity());
    CHECK(std::isnan(s.value()));
    ExactSum big;
    big.add(std::numeric_limits<double>::max());
    big.add(std::numeric_limits<double>::max());
    CHECK(std::isinf(big.value()));
    big.add(-std::numeric_limits<double>::max());
    CHECK(big.value() == std::numeric_limits<double>::max());
  }
}

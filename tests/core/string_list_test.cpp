#include "core/string_list.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

using namespace msdump;

TEST_SUITE("msdump::core") {
  TEST_CASE("string list: items in order, each view kept valid as the list grows and moves") {
    StringList list;
    std::vector<std::string> want;
    std::vector<std::string_view> views;
    for (int i = 0; i < 20000; ++i) {
      // short and long names, an empty one, and one longer than a block
      std::string s = i == 7 ? std::string() : i == 9000 ? std::string(100'000, 'x') : "Functional.relu." + std::to_string(i) + ".forward";
      if (i % 3 == 0) s += std::string(40, 'p');
      views.push_back(list.push_back(s));
      want.push_back(std::move(s));
    }
    REQUIRE(list.size() == want.size());
    StringList moved = std::move(list);
    for (std::size_t i = 0; i < want.size(); ++i) {
      CHECK(moved[i] == want[i]);
      CHECK(views[i] == want[i]);  // (the bytes did not move)
      CHECK(views[i].data() == moved[i].data());
    }
    CHECK(moved.back() == want.back());
    std::size_t k = 0;
    for (std::string_view s : moved) CHECK(s == want[k++]);
    CHECK(k == want.size());
  }

  TEST_CASE("string list: copies own their bytes; equality and order are the items'") {
    StringList a;
    a.push_back("x.0.forward");
    a.push_back("y.0.forward");
    StringList b = a;
    CHECK(b == a);
    CHECK(b[0].data() != a[0].data());
    b.push_back("z");
    CHECK_FALSE(b == a);
    CHECK(a < b);  // (a prefix first)
    StringList c;
    c.push_back("x.0.forward");
    c.push_back("a");
    CHECK(c < a);
    CHECK_FALSE(a < c);
    CHECK_FALSE(a < a);
    StringList d;
    d = c;
    CHECK(d == c);
  }
}

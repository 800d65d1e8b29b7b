#include "core/name_table.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace msdump;

TEST_SUITE("msdump::core") {
  TEST_CASE("name table: insert, find, grow") {
    std::vector<std::string> names;  // the caller's storage: value i names names[i]
    NameTable<std::uint32_t> table;
    auto name_of = [&](std::uint32_t i) { return std::string_view(names[i]); };
    for (std::uint32_t i = 0; i < 5000; ++i) {
      names.push_back("Functional.conv2d." + std::to_string(i) + ".forward");
      const auto h = NameTable<std::uint32_t>::hash(names.back());
      table.prefetch(h);
      auto [slot, inserted] = table.insert(names.back(), h, i, name_of);
      REQUIRE(inserted);
      CHECK(*slot == i);
    }
    CHECK(table.size() == 5000);
    for (std::uint32_t i = 0; i < 5000; ++i) {
      const auto* v = table.find(names[i], NameTable<std::uint32_t>::hash(names[i]), name_of);
      REQUIRE(v != nullptr);
      CHECK(*v == i);
      auto [slot, inserted] = table.insert(names[i], NameTable<std::uint32_t>::hash(names[i]), 99999, name_of);
      CHECK_FALSE(inserted);
      CHECK(*slot == i);  // an existing name keeps its value
    }
    CHECK(table.size() == 5000);
    CHECK(table.find("Functional.conv2d.5000.forward", NameTable<std::uint32_t>::hash("Functional.conv2d.5000.forward"),
                     name_of) == nullptr);
  }

  TEST_CASE("name table: equal hashes are told apart by the name") {
    std::vector<std::string> names = {"a", "b", "c"};
    auto name_of = [&](std::uint32_t i) { return std::string_view(names[i]); };
    NameTable<std::uint32_t> table;
    table.reserve(2);
    for (std::uint32_t i = 0; i < 3; ++i) CHECK(table.insert(names[i], 42, i, name_of).second);
    for (std::uint32_t i = 0; i < 3; ++i) {
      const auto* v = table.find(names[i], 42, name_of);
      REQUIRE(v != nullptr);
      CHECK(*v == i);
    }
    CHECK(table.find("d", 42, name_of) == nullptr);
    CHECK(NameTable<int>::hash("") != 0);  // 0 marks an empty slot
  }

  TEST_CASE("name table: an empty table finds nothing") {
    const NameTable<int> table;
    table.prefetch(7);
    CHECK(table.find("x", 7, [](int) { return std::string_view("x"); }) == nullptr);
  }
}

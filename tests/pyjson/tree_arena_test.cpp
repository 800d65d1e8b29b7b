#include "pyjson/tree_arena.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>

#include "pyjson/json_reader.h"
#include "pyjson/json_value.h"

using namespace msdump;
using namespace msdump::pyjson;

namespace {
const char* const k_doc = R"({"a": [1, 2.5, "a string longer than fifteen bytes", null], "b": {"c": [[], {}], "d": true}})";

// Every array and object of `v` (so the test can look at where their storage lives).
void containers(const Value& v, std::vector<const void*>& out) {
  if (v.is_array()) {
    if (!v.as_array().empty()) out.push_back(v.as_array().data());
    for (const auto& x : v.as_array()) containers(x, out);
  } else if (v.is_object()) {
    if (!v.as_object().empty()) out.push_back(v.as_object().data());
    for (const auto& m : v.as_object()) containers(m.value, out);
  }
}
}  // namespace

TEST_SUITE("msdump::pyjson") {
  TEST_CASE("tree arena: without a scope trees use the heap and the arena stays empty") {
    TreeArena arena;
    auto v = parse_json(k_doc);
    REQUIRE(v);
    CHECK(arena.blocks() == 0);
  }

  TEST_CASE("tree arena: a tree parsed under a scope lives in the arena, equals the heap one, and reset reuses it") {
    auto heap = parse_json(k_doc);
    REQUIRE(heap);
    TreeArena arena;
    std::vector<const void*> first;
    {
      const TreeArenaScope scope(&arena);
      auto v = parse_json(k_doc);
      REQUIRE(v);
      CHECK(v->identical(*heap));
      CHECK(arena.blocks() == 1);
      containers(*v, first);
      REQUIRE(first.size() == 4);  // "a", the root, "b", and b's "c"
      // All four sit within the arena's one block.
      const auto [lo, hi] = std::minmax_element(first.begin(), first.end(), [](const void* x, const void* y) {
        return std::less<const void*>{}(x, y);
      });
      CHECK(static_cast<const std::byte*>(*hi) - static_cast<const std::byte*>(*lo) <
            static_cast<std::ptrdiff_t>(TreeArena::k_block_bytes));
    }  // v destroyed here, after its scope: freeing arena memory is a no-op on any thread
    arena.reset();
    {
      const TreeArenaScope scope(&arena);
      auto v = parse_json(k_doc);
      REQUIRE(v);
      std::vector<const void*> second;
      containers(*v, second);
      CHECK(second == first);  // the same memory again, no new block
      CHECK(arena.blocks() == 1);
    }
    arena.reset();
  }

  TEST_CASE("tree arena: heap trees are freed under a scope, and a nullptr scope means the heap") {
    TreeArena arena;
    auto outside = parse_json(k_doc);
    REQUIRE(outside);
    Value kept;
    {
      const TreeArenaScope scope(&arena);
      *outside = Value();  // heap memory freed while an arena is active (its tag says heap)
      {
        const TreeArenaScope heap(nullptr);
        auto v = parse_json(k_doc);
        REQUIRE(v);
        kept = std::move(*v);
      }
      CHECK(arena.blocks() == 0);
    }
    arena.reset();
    REQUIRE(kept.find("b") != nullptr);  // still valid after the reset: it never was in the arena
    CHECK(kept.find("b")->find("d")->as_bool());
  }

  TEST_CASE("tree arena: allocations bigger than a quarter block go to the heap; blocks are added as needed") {
    TreeArena arena;
    const TreeArenaScope scope(&arena);
    Array big;
    big.reserve(TreeArena::k_block_bytes / sizeof(Value));  // > k_block_bytes / 4: heap
    CHECK(arena.blocks() == 0);
    big.emplace_back(Value::integer(1));
    std::vector<Array> many(64);
    for (auto& a : many) a.reserve(TreeArena::k_block_bytes / 8 / sizeof(Value));  // 8 per block
    CHECK(arena.blocks() == 8);
    many.clear();
    big.clear();
    arena.reset();
    CHECK(arena.blocks() == 8);  // kept for reuse
  }
}

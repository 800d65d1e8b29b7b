#include "compare/stack_lookup.h"

#include <doctest/doctest.h>

#include <fstream>
#include <random>

#include "core/byte_source.h"
#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;

TEST_SUITE("msdump::compare") {
  TEST_CASE("stack.json: both layouts, each distinct stack kept once, a name listed twice keeps its last stack") {
    const std::string current = R"J({"0": [["A.0.forward", "B.0.forward"], ["File a, line 1, in f, \n x()"]],
                                    "1": [["C.0.forward", "A.0.forward"], ["File c"]], "2": "skipped", "3": [["D.0.forward"], null]})J";
    MemorySource cur(as_bytes(current), "stack.json");
    auto lookup = parse_stack_lookup(cur, "stack.json");
    REQUIRE(lookup);
    CHECK(lookup->present);
    CHECK(lookup->cells.size() == 2);
    CHECK(lookup->cell("B.0.forward") == "['File a, line 1, in f, \\n x()']");
    CHECK(lookup->cell("A.0.forward") == "['File c']");
    CHECK(lookup->cell("D.0.forward").empty());
    CHECK(lookup->cell("E.0.forward").empty());
    const std::string legacy = R"({"A.0.forward": ["File a"], "B.0.forward": ["File a"], "C.0.forward": null})";
    MemorySource leg(as_bytes(legacy), "stack.json");
    auto old = parse_stack_lookup(leg, "stack.json");
    REQUIRE(old);
    CHECK(old->cells.size() == 1);
    CHECK(old->cell("B.0.forward") == "['File a']");
    CHECK(old->cell("C.0.forward").empty());
    // Read as text, stacks are told apart by their text: the same frames spaced otherwise are
    // kept twice (same cell), where parsing every member keeps them once.
    const std::string spaced = R"({"0": [["A.0.forward"], ["File a"]], "1": [["B.0.forward"], [ "File a" ]]})";
    MemorySource sp(as_bytes(spaced), "stack.json"), sp2(as_bytes(spaced), "stack.json");
    auto as_text = parse_stack_lookup(sp, "stack.json"), parsed = parse_stack_lookup(sp2, "stack.json", false);
    REQUIRE(as_text);
    REQUIRE(parsed);
    CHECK(as_text->cells.size() == 2);
    CHECK(parsed->cells.size() == 1);
    CHECK(as_text->cell("B.0.forward") == parsed->cell("B.0.forward"));
  }

  TEST_CASE("stack.json read as text gives the cells and the errors of every member parsed") {
    // Random documents in both layouts (fixed seed): frames repeated under other names, the same
    // frames written differently (escapes, spacing), members of other shapes; then each cut
    // short and with one byte changed. Reading members as text must agree with parsing each.
    const std::vector<std::string> frames = {
        R"J(["File a, line 1, in f, \n x()"])J", R"J(["File a, line 1, in f, \u000a x()"])J", R"J([ "File a, line 1, in f, \n x()" ])J",
        R"J(["File b", "File c"])J", R"J([])J", R"J(["\u00e9\ud83d\ude00", "\"q\""])J", R"J({"k": ["v"]})J", R"J([1, 2.5, null])J",
        R"J("a string")J", "null", R"J(["File d\\"])J"};
    std::mt19937 rng(20261204);
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    for (int doc = 0; doc < 2000; ++doc) {
      const bool current = doc % 3 != 0;
      std::string text = "{";
      std::vector<std::string> names;
      for (int m = 0, members = 1 + static_cast<int>(pick(12)); m < members; ++m) {
        if (m) text += pick(2) ? ",\n " : ", ";
        const std::string name = "E" + std::to_string(pick(20)) + ".0.forward";
        names.push_back(name);
        const std::string& f = frames[pick(frames.size())];
        if (!current) {
          text += "\"" + name + "\": " + f;
          continue;
        }
        text += "\"" + std::to_string(m) + "\": ";
        switch (pick(8)) {
          case 0: text += "[[\"" + name + "\"]]"; break;                     // not [names, frames]
          case 1: text += "[\"" + name + "\", " + f + "]"; break;            // names not a list
          case 2: text += f; break;
          default: text += "[[\"" + name + "\", 7], " + f + "]"; break;
        }
      }
      text += "}";
      auto check = [&](const std::string& t) {
        MemorySource a(as_bytes(t), "stack.json"), b(as_bytes(t), "stack.json");
        auto fast = parse_stack_lookup(a, "stack.json");
        auto exact = parse_stack_lookup(b, "stack.json", false);
        INFO("read: " << t << (exact ? "" : "\nexact: " + exact.error().message));
        REQUIRE(static_cast<bool>(fast) == static_cast<bool>(exact));
        if (!exact) {
          CHECK(fast.error().message == exact.error().message);
          return;
        }
        for (const auto& name : names) CHECK(fast->cell(name) == exact->cell(name));
      };
      INFO(text);
      check(text);
      check(text.substr(0, pick(text.size())));
      for (int k = 0; k < 4; ++k) {
        std::string changed = text;
        changed[pick(changed.size())] = "[]{},:\"\\ x0"[pick(12)];
        check(changed);
      }
    }
  }

  TEST_CASE("stack.json: one entry's frames, none without the file, and a broken file named") {
    msdump::testing::TempDir dir;
    CHECK_FALSE(load_stack_frames(dir.path().string(), "A.0.forward").value().has_value());
    std::ofstream(dir.path() / "stack.json") << R"({"0": [["A.0.forward"], ["f1", "f2"]]})";
    auto frames = load_stack_frames(dir.path().string(), "A.0.forward");
    REQUIRE(frames);
    CHECK(**frames == std::vector<std::string>{"f1", "f2"});
    std::ofstream(dir.path() / "stack.json") << R"({"0": [)";
    auto broken = load_stack_lookup(dir.path().string());
    REQUIRE_FALSE(broken);
    CHECK(broken.error().message.starts_with("reading '" + (dir.path() / "stack.json").string() + "': line 1"));
  }
}

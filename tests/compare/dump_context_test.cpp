#include "compare/dump_context.h"

#include <doctest/doctest.h>

#include <fstream>

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

#include "dump/stack_model.h"

#include <doctest/doctest.h>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"

using namespace msdump;
using namespace msdump::dump;

namespace {
std::string render(const StackModel& m) {
  std::string out;
  pyjson::JsonWriter w(out);
  m.write(w);
  REQUIRE(w.finish());
  return out;
}
}  // namespace

TEST_SUITE("msdump::dump") {
  TEST_CASE("names with identical stacks share a group in first-occurrence order") {
    StackModel m;
    m.add("Functional.linear.0.forward", {"File a.py, line 1, in f, \n x()"});
    m.add("Tensor.__gt__.0.forward", {"File b.py, line 2, in g, \n y()"});
    m.add("Torch.where.0.forward", {"File b.py, line 2, in g, \n y()"});
    m.add("Functional.linear.0.forward", {"ignored: a name is recorded once"});
    CHECK(m.group_count() == 2);
    CHECK(render(m) ==
          "{\n \"0\": [\n  [\n   \"Functional.linear.0.forward\"\n  ],\n  [\n   \"File a.py, line 1, in f, \\n x()\"\n  ]\n ],\n"
          " \"1\": [\n  [\n   \"Tensor.__gt__.0.forward\",\n   \"Torch.where.0.forward\"\n  ],\n  [\n   \"File b.py, line 2, in g, \\n y()\"\n  ]\n ]\n}");
  }
  TEST_CASE("frame lists: one number per distinct list, in first-seen order") {
    FrameLists lists;
    CHECK(lists.intern({"a", "b"}) == 0);
    CHECK(lists.intern({"ab"}) == 1);        // not the same list as {"a", "b"}
    CHECK(lists.intern({"a", "b"}) == 0);
    CHECK(lists.intern({}) == 2);
    CHECK(lists.intern({"", "ab"}) == 3);
    CHECK(lists.intern({"ab", ""}) == 4);
    CHECK(lists.intern({std::string("a\0b", 3)}) == 5);
    CHECK(lists.intern({"ab"}) == 1);
    CHECK(lists.size() == 6);
    CHECK(lists.at(0) == std::vector<std::string>{"a", "b"});
    CHECK(lists.at(4) == std::vector<std::string>{"ab", ""});
  }

  TEST_CASE("stacks added by number group like stacks added as lists") {
    FrameLists lists;
    const auto fa = lists.intern({"File a.py, line 1, in f, \n x()"});
    const auto fb = lists.intern({"File b.py, line 2, in g, \n y()"});
    StackModel by_number, by_list;
    // Group numbers follow the names added, not the frame list numbers.
    by_number.add("Tensor.__gt__.0.forward", fb, lists);
    by_number.add("Functional.linear.0.forward", fa, lists);
    by_number.add("Torch.where.0.forward", fb, lists);
    by_number.add("Functional.linear.0.forward", fb, lists);  // a name is recorded once
    by_list.add("Tensor.__gt__.0.forward", {"File b.py, line 2, in g, \n y()"});
    by_list.add("Functional.linear.0.forward", {"File a.py, line 1, in f, \n x()"});
    by_list.add("Torch.where.0.forward", {"File b.py, line 2, in g, \n y()"});
    by_list.add("Functional.linear.0.forward", {"File b.py, line 2, in g, \n y()"});
    CHECK(by_number.group_count() == 2);
    CHECK(by_number.name_count() == 3);
    CHECK(by_number.contains("Torch.where.0.forward"));
    CHECK_FALSE(by_number.contains("Torch.where.1.forward"));
    CHECK(render(by_number) == render(by_list));
    CHECK(render(by_number).find("\"0\": [\n  [\n   \"Tensor.__gt__.0.forward\",\n   \"Torch.where.0.forward\"") !=
          std::string::npos);
    const StackModel moved = std::move(by_list);  // a moved model still finds its own lists
    CHECK(render(moved) == render(by_number));
  }

  TEST_CASE("an empty stack model is {}") { CHECK(render(StackModel{}) == "{}"); }
  TEST_CASE("replaying stack.json keeps groups and drops filtered names and empty groups") {
    auto doc = pyjson::parse_json(R"({"0": [["A.x.0.forward", "Module.m.M.forward.0"], ["f1"]], "1": [["B.y.0.forward"], ["f2"]]})");
    REQUIRE(doc);
    auto m = StackModel::from_json(*doc, [](const std::string& n) { return n.starts_with("Module."); });
    REQUIRE(m);
    CHECK(m->group_count() == 1);
    CHECK(m->contains("Module.m.M.forward.0"));
    CHECK_FALSE(m->contains("A.x.0.forward"));
  }
  TEST_CASE("legacy {name: frames} stack files replay too") {
    auto doc = pyjson::parse_json(R"({"A.x.0.forward": ["f1"], "B.y.0.forward": ["f1"]})");
    REQUIRE(doc);
    auto m = StackModel::from_json(*doc, [](const std::string&) { return true; });
    REQUIRE(m);
    CHECK(m->group_count() == 1);
    CHECK(m->name_count() == 2);
  }
  TEST_CASE("malformed stack.json is reported with its JSON pointer") {
    auto doc = pyjson::parse_json(R"({"0": [["A.x.0.forward"], [3]]})");
    REQUIRE(doc);
    auto m = StackModel::from_json(*doc, [](const std::string&) { return true; });
    REQUIRE_FALSE(m);
    CHECK(m.error().message == "/0/1/0: expected a string, got integer");
  }
}

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

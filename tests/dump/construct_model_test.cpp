#include "dump/construct_model.h"

#include <doctest/doctest.h>

#include "pyjson/json_writer.h"

using namespace msdump;
using namespace msdump::dump;

namespace {
std::string render(const ConstructModel& m) {
  std::string out;
  pyjson::JsonWriter w(out);
  m.write(w);
  REQUIRE(w.finish());
  return out;
}
}  // namespace

TEST_SUITE("msdump::dump") {
  TEST_CASE("construct edges keep insertion order with dict-assignment semantics") {
    ConstructModel m;
    m.set("Functional.linear.0.forward", std::string("Module.fc.Linear.forward.0"), std::nullopt);
    m.set("Module.fc.Linear.forward.0", std::nullopt, std::nullopt);
    m.set("Functional.linear.0.forward", std::string("Module.other.X.forward.0"), std::nullopt);  // in place
    CHECK(render(m) ==
          "{\n \"Functional.linear.0.forward\": \"Module.other.X.forward.0\",\n \"Module.fc.Linear.forward.0\": null\n}");
    CHECK(m.parent_of("Functional.linear.0.forward") == "Module.other.X.forward.0");
    CHECK_FALSE(m.parent_of("Module.fc.Linear.forward.0").has_value());
  }
  TEST_CASE("the Megatron variant stores [parent, micro_step] and the largest micro step") {
    ConstructModel m;
    m.set("Module.a.A.forward.0", std::nullopt, 0);
    m.set("Functional.relu.0.forward", std::string("Module.a.A.forward.0"), 2);
    m.set("Functional.relu.1.forward", std::string("Module.a.A.forward.0"), 1);
    CHECK(render(m) ==
          "{\n \"Module.a.A.forward.0\": [\n  null,\n  0\n ],\n \"megatron_micro_step_number\": 2,\n"
          " \"Functional.relu.0.forward\": [\n  \"Module.a.A.forward.0\",\n  2\n ],\n"
          " \"Functional.relu.1.forward\": [\n  \"Module.a.A.forward.0\",\n  1\n ]\n}");
    CHECK(m.parent_of("Functional.relu.1.forward") == "Module.a.A.forward.0");
    CHECK(m.is_within("Functional.relu.0.forward", "Module.a.A.forward.0"));
  }
  TEST_CASE("ancestry walks stop on cycles") {
    ConstructModel m;
    m.set("A.a.0.forward", std::string("B.b.0.forward"), std::nullopt);
    m.set("B.b.0.forward", std::string("A.a.0.forward"), std::nullopt);
    CHECK_FALSE(m.is_within("A.a.0.forward", "C.c.0.forward"));
  }
}

#include "compare/module_parents.h"

#include <doctest/doctest.h>

#include <fstream>

#include "test_util.h"

using namespace msdump;
using namespace msdump::compare;

TEST_SUITE("msdump::compare") {
  TEST_CASE("construct.json: module chains outermost first, the Megatron [parent, micro_step] form by its parent") {
    auto p = ModuleParents::parse(R"({"Module.net.Net.forward.0": null,
      "Module.net.fc.Linear.forward.0": "Module.net.Net.forward.0",
      "Functional.linear.0.forward": ["Module.net.fc.Linear.forward.0", 1],
      "Tensor.add.0.forward": 5})", "construct.json");
    REQUIRE(p);
    CHECK_FALSE(p->empty());
    CHECK(p->chain("Functional.linear.0.forward") ==
          std::vector<std::string>{"Module.net.Net.forward.0", "Module.net.fc.Linear.forward.0"});
    CHECK(p->chain("Module.net.Net.forward.0").empty());
    CHECK(p->chain("Tensor.add.0.forward").empty());  // a parent that is not a name: none
    CHECK(p->chain("Unknown.0.forward").empty());
  }

  TEST_CASE("construct.json: a cycle ends the chain; a document that is not an object is an error naming the file") {
    auto cyclic = ModuleParents::parse(R"({"A": "B", "B": "C", "C": "B"})", "construct.json");
    REQUIRE(cyclic);
    CHECK(cyclic->chain("A") == std::vector<std::string>{"C", "B"});
    auto list = ModuleParents::parse("[1]", "x/construct.json");
    REQUIRE_FALSE(list);
    CHECK(list.error().message == "'x/construct.json': expected an object at the top level, got array");
    auto broken = ModuleParents::parse("{\"A\": ", "x/construct.json");
    REQUIRE_FALSE(broken);
    CHECK(broken.error().message.starts_with("reading 'x/construct.json': line 1"));
  }

  TEST_CASE("construct.json: none beside a dump is no error and no chains") {
    msdump::testing::TempDir dir;
    auto none = load_module_parents(dir.path().string());
    REQUIRE(none);
    CHECK(none->empty());
    std::ofstream(dir.path() / "construct.json") << R"({"B.0.forward": "Module.a.A.forward.0"})";
    auto some = load_module_parents(dir.path().string());
    REQUIRE(some);
    CHECK(some->chain("B.0.forward") == std::vector<std::string>{"Module.a.A.forward.0"});
  }
}

#include "anomalies/module_tree.h"

#include <doctest/doctest.h>

#include <fstream>

#include "test_util.h"

using namespace msdump;
using namespace msdump::anomalies;

TEST_SUITE("msdump::anomalies") {
  TEST_CASE("module of an entry and the modules enclosing it") {
    auto t = ModuleTree::from_pairs({{"Torch.log.0.forward", "Module.head.Head.forward.0"},
                                     {"Module.head.Head.forward.0", "Module.Net.forward.0"}});
    CHECK(t.module_of("Torch.log.0.forward") == "Module.head.Head.forward.0");
    CHECK(t.module_of("Module.head.Head.forward.0") == "Module.head.Head.forward.0");  // L0: itself
    CHECK_FALSE(t.module_of("Torch.exp.0.forward"));
    CHECK(t.enclosing("Module.head.Head.forward.0") == std::vector<std::string>{"Module.Net.forward.0"});
    auto cyc = ModuleTree::from_pairs({{"Module.a.A.forward.0", "Module.b.B.forward.0"}, {"Module.b.B.forward.0", "Module.a.A.forward.0"}});
    CHECK(cyc.enclosing("Module.a.A.forward.0").size() == 1);
  }

  TEST_CASE("construct.json: plain and Megatron forms; bad files name the file") {
    testing::TempDir dir;
    const auto p = (dir.path() / "construct.json").string();
    std::ofstream(p) << R"({"Torch.log.0.forward": ["Module.head.Head.forward.0", 1], "Module.head.Head.forward.0": null,
                          "megatron_micro_step_number": 1})";
    auto t = ModuleTree::load(p);
    REQUIRE(t);
    CHECK(t->module_of("Torch.log.0.forward") == "Module.head.Head.forward.0");
    std::ofstream(p) << R"({"Torch.log.0.forward": 3})";
    auto bad = ModuleTree::load(p);
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message.find("construct.json") != std::string::npos);
    CHECK(bad.error().message.find("Torch.log.0.forward") != std::string::npos);
    std::ofstream(p) << R"({"a": )";
    REQUIRE_FALSE(ModuleTree::load(p));
  }
}

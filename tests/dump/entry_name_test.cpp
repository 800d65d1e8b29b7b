#include "dump/entry_name.h"

#include <doctest/doctest.h>

#include <string>

using namespace msdump;
using namespace msdump::dump;

TEST_SUITE("msdump::dump") {
  TEST_CASE("API names split into op, number and direction") {
    auto n = parse_entry_name("Functional.relu.0.forward");
    CHECK(n.kind == EntryKind::api_forward);
    CHECK(n.op == "Functional.relu");
    CHECK(n.prefix == "Functional");
    CHECK(n.number == 0);
    n = parse_entry_name("Tensor.__add__.12.backward");
    CHECK(n.kind == EntryKind::api_backward);
    CHECK(n.op == "Tensor.__add__");
    CHECK(n.number == 12);
  }
  TEST_CASE("dotted custom prefixes and MindSpore primitives are API names") {
    auto n = parse_entry_name("torch.nn.functional.relu.0.forward");
    CHECK(n.kind == EntryKind::api_forward);
    CHECK(n.prefix == "torch.nn.functional");
    n = parse_entry_name("Primitive.conv2d.Conv2D.3.backward");
    CHECK(n.kind == EntryKind::api_backward);
    CHECK(n.op == "Primitive.conv2d.Conv2D");
  }
  TEST_CASE("module, cell and parameters_grad names") {
    auto n = parse_entry_name("Module.layer1.0.conv1.Conv2d.forward.0");
    CHECK(n.kind == EntryKind::module_forward);
    CHECK(n.op == "Module.layer1.0.conv1.Conv2d");
    CHECK(n.prefix == "Module");
    n = parse_entry_name("Cell.conv2.Conv2d.backward.7");
    CHECK(n.kind == EntryKind::module_backward);
    CHECK(n.number == 7);
    n = parse_entry_name("Module.conv2.Conv2d.parameters_grad.1");
    CHECK(n.kind == EntryKind::parameters_grad);
    CHECK(n.op == "Module.conv2.Conv2d");
    CHECK(n.numbered);
    CHECK(n.number == 1);
  }
  TEST_CASE("parameters_grad without a counter (msprobe up to 8.x)") {
    for (auto s : {"Module.conv2.Conv2d.parameters_grad", "Cell.conv2.Conv2d.parameters_grad",
                   "Module.0.layer1.0.conv1.Conv2d.parameters_grad"}) {
      const auto n = parse_entry_name(s);
      CHECK_MESSAGE(n.kind == EntryKind::parameters_grad, s);
      CHECK_FALSE(n.numbered);
      CHECK(n.is_module());
      CHECK(std::string_view(s).starts_with(n.op));
      CHECK(std::string(n.op) + ".parameters_grad" == s);
    }
    CHECK(parse_entry_name("Cell.conv2.Conv2d.parameters_grad").prefix == "Cell");
    // Still malformed: no class segment, no module prefix, a counter that is not a number.
    for (auto s : {"Module.parameters_grad", "Module.Conv2d.parameters_grad", "Functional.conv2.parameters_grad",
                   "Module.conv2.Conv2d.parameters_grad.x", "parameters_grad"})
      CHECK_MESSAGE(parse_entry_name(s).kind == EntryKind::unknown, s);
  }
  TEST_CASE("malformed names are unknown") {
    for (auto s : {"", "relu", "Functional.relu.x.forward", "Module.forward.0", "Module.Conv2d.forward.0",
                   "Module.conv1.Conv2d.sideways.0", "relu.0.forward"})
      CHECK_MESSAGE(parse_entry_name(s).kind == EntryKind::unknown, s);
  }
  TEST_CASE("debug names") {
    auto n = parse_entry_name("y_grad.3.debug");
    CHECK(n.kind == EntryKind::debug);
    CHECK(n.op == "y_grad");
  }
  TEST_CASE("levels select module or API entries") {
    const auto api = parse_entry_name("Functional.relu.0.forward");
    const auto mod = parse_entry_name("Module.fc.Linear.backward.0");
    const auto grad = parse_entry_name("Module.fc.Linear.parameters_grad.0");
    CHECK(level_includes(Level::L1, api));
    CHECK_FALSE(level_includes(Level::L0, api));
    CHECK(level_includes(Level::L0, mod));
    CHECK(level_includes(Level::L0, grad));
    CHECK_FALSE(level_includes(Level::L1, grad));
    CHECK(level_includes(Level::mix, api));
    CHECK(level_includes(Level::mix, grad));
  }
}

#include "compare/name_mapping.h"

#include <doctest/doctest.h>

#include <string>

using namespace msdump;
using namespace msdump::compare;

TEST_SUITE("msdump::compare") {
  TEST_CASE("data mapping: NPU row names to bench row names") {
    auto m = parse_data_mapping(
        "Tensor.__mul__.1.forward.input.0: Tensor.__mul__.0.forward.input.0\n"
        "'Functional.linear.4.backward.input.0': \"Functional.linear.3.backward.input.0\"\n",
        "dm.yaml");
    REQUIRE(m);
    CHECK(m->bench_of.size() == 2);
    CHECK(m->bench_of.at("Tensor.__mul__.1.forward.input.0") == "Tensor.__mul__.0.forward.input.0");
    CHECK(m->bench_of.at("Functional.linear.4.backward.input.0") == "Functional.linear.3.backward.input.0");
  }
  TEST_CASE("data mapping: hostile files") {
    auto check = [](const std::string& yaml, const std::string& message) {
      auto m = parse_data_mapping(yaml, "dm.yaml");
      REQUIRE_FALSE(m);
      CHECK(m.error().message == message);
    };
    check("- a\n- b\n", "dm.yaml:1:1: expected a mapping of NPU row names to bench row names, found a list");
    check("", "dm.yaml:1:1: expected a mapping of NPU row names to bench row names, found null");
    check("just text\n", "dm.yaml:1:1: expected a mapping of NPU row names to bench row names, found a string");
    check("a: b\nc: [x]\n", "dm.yaml:2:4: expected a name as the value of 'c', found a list");
    check("a: b\nc:\n", "dm.yaml:2:1: expected a name as the value of 'c', found null");
    check("a: ''\n", "dm.yaml:1:4: expected a name as the value of 'a', found an empty string");
    check("[x]: b\n", "dm.yaml:1:1: expected a name as key, found a list");
    check("? {k: v}\n: b\n", "dm.yaml:1:3: expected a name as key, found a mapping");
    check("a: b\nc: d\na: e\n", "dm.yaml:3:1: duplicate key 'a' (first at line 1)");
    check("a: &x b\nc: *x\n", "dm.yaml:2:4: aliases (*name) are not accepted in a mapping file");
    check("a: {b: {c: 1\n", "dm.yaml:2:1: not valid YAML: end of map flow not found");
  }
  TEST_CASE("cell mapping: file order kept, hostile files named") {
    auto m = parse_cell_mapping("Cell.net.Dense: Module.net.Linear\nfc: linear\n", "cm.yaml");
    REQUIRE(m);
    REQUIRE(m->pairs.size() == 2);
    CHECK(m->pairs[1].first == "fc");
    CHECK(m->golden_of.at("Cell.net.Dense") == "Module.net.Linear");
    auto bad = parse_cell_mapping("a: 1\na: 2\n", "cm.yaml");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "cm.yaml:2:1: duplicate key 'a' (first at line 1)");
    bad = parse_cell_mapping("[1, 2]", "cm.yaml");
    REQUIRE_FALSE(bad);
    CHECK(bad.error().message == "cm.yaml:1:1: expected a mapping of NPU cell names to bench module names, found a list");
  }
  TEST_CASE("cell mapping: names") {
    CellMapping none;
    CHECK(cell_mapped_name("Cell.net.fc.Dense.forward.0.input.0", none) == "Module.net.fc.Dense.forward.0.input.0");
    CHECK(cell_mapped_name("Module.net.fc.Linear.backward.1.output.0", none) == "Module.net.fc.Linear.backward.1.output.0");
    CHECK(cell_mapped_name("Cell.fc.Dense.parameters_grad.0.weight", none) == "Module.fc.Dense.parameters_grad.0.weight");
    CHECK(cell_mapped_name("Functional.relu.0.forward.input.0", none) == "Functional.relu.0.forward.input.0");
    CHECK(cell_mapped_name("Cell.fc.Dense.forward", none).empty());  // no direction followed by a row path
    CHECK(cell_mapped_name("Functional.relu.0", none).empty());
    auto m = parse_cell_mapping("net.fc.Dense: net.fc.Linear\nDense: Linear\nconv: conv2d\n", "cm.yaml");
    REQUIRE(m);
    // exact lookup of the cell part
    CHECK(cell_mapped_name("Cell.net.fc.Dense.forward.0.input.0", *m) == "Module.net.fc.Linear.forward.0.input.0");
    // else every key replaced in the cell part, in file order
    CHECK(cell_mapped_name("Cell.convs.conv.Dense.forward.0.output.0", *m) ==
          "Module.conv2ds.conv2d.Linear.forward.0.output.0");
    CHECK(cell_mapped_name("Cell.block.Dense.parameters_grad.0.weight", *m) ==
          "Module.block.Linear.parameters_grad.0.weight");
  }
  TEST_CASE("cell mapping: repeated expansion is bounded") {
    std::string yaml = "a: " + std::string(100, 'a') + "\n";
    auto m = parse_cell_mapping(yaml + "aa: " + std::string(100, 'a') + "\n", "cm.yaml");
    REQUIRE(m);
    CHECK(cell_mapped_name("Cell." + std::string(1000, 'a') + ".X.forward.0.input.0", *m).empty());
  }
}

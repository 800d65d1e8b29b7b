#include "compare/api_mapping.h"

#include <doctest/doctest.h>

#include <string>

using namespace msdump;
using namespace msdump::compare;

TEST_SUITE("msdump::compare") {
  TEST_CASE("api mapping: built-in table and prefix rules") {
    CHECK(builtin_pt_op("Mint.add") == "Torch.add");
    CHECK(builtin_pt_op("MintFunctional.relu") == "Functional.relu");
    CHECK(builtin_pt_op("Mint.concat") == "Torch.cat");
    CHECK(builtin_pt_op("Functional.concat") == "Torch.cat");
    CHECK(builtin_pt_op("Functional.expand_dims") == "Torch.unsqueeze");
    CHECK(builtin_pt_op("Functional.relu") == "Functional.relu");
    CHECK(builtin_pt_op("Tensor.expand_dims") == "Tensor.unsqueeze");
    CHECK(builtin_pt_op("Tensor.add") == "Tensor.add");
  }
  TEST_CASE("api mapping: row names under the built-in table") {
    ApiMapping none;
    CHECK(api_mapped_name("Mint.add.3.forward.input.0", "Mint.add.3.forward", none) == "Torch.add.3.forward.input.0");
    CHECK(api_mapped_name("Functional.concat.0.backward.output.0", "Functional.concat.0.backward", none) ==
          "Torch.cat.0.backward.output.0");
    CHECK(api_mapped_name("Cell.fc.Dense.forward.0.input.0", "Cell.fc.Dense.forward.0", none) ==
          "Cell.fc.Dense.forward.0.input.0");
    CHECK(api_mapped_name("Mint.addx.0.forward.input.0", "Mint.add.0.forward", none) == "Mint.addx.0.forward.input.0");
  }
  TEST_CASE("api mapping: a user rule remaps op and positions; unlisted positions cannot pair") {
    auto m = parse_api_mapping(
        "- ms_api: Mint.where\n"
        "  pt_api: Torch.where\n"
        "  ms_args: [0, 1, 2]\n"
        "  pt_args: [1, 0, 2]\n"
        "  ms_outputs: [0]\n"
        "  pt_outputs: [0]\n"
        "- ms_api: Cell.fc.Dense\n"
        "  pt_api: Module.fc.Linear\n"
        "  ms_parameters: [weight]\n"
        "  pt_parameters: [weight]\n"
        "  ms_parameters_grad: [weight, bias]\n"
        "  pt_parameters_grad: [weight, bias]\n",
        "am.yaml");
    REQUIRE(m);
    CHECK(m->rules.size() == 2);
    CHECK(api_mapped_name("Mint.where.2.forward.input.0", "Mint.where.2.forward", *m) == "Torch.where.2.forward.input.1");
    CHECK(api_mapped_name("Mint.where.2.forward.input.1.3", "Mint.where.2.forward", *m) ==
          "Torch.where.2.forward.input.0.3");
    CHECK(api_mapped_name("Mint.where.2.forward.output.0", "Mint.where.2.forward", *m) ==
          "Torch.where.2.forward.output.0");
    CHECK(api_mapped_name("Mint.where.2.forward.input.3", "Mint.where.2.forward", *m).empty());
    CHECK(api_mapped_name("Mint.where.2.forward.output.1", "Mint.where.2.forward", *m).empty());
    CHECK(api_mapped_name("Mint.where.2.forward.input.out", "Mint.where.2.forward", *m).empty());
    CHECK(api_mapped_name("Cell.fc.Dense.forward.0.parameters.weight", "Cell.fc.Dense.forward.0", *m) ==
          "Module.fc.Linear.forward.0.parameters.weight");
    CHECK(api_mapped_name("Cell.fc.Dense.forward.0.parameters.bias", "Cell.fc.Dense.forward.0", *m).empty());
    // a section without lists keeps its positions
    CHECK(api_mapped_name("Cell.fc.Dense.forward.0.input.0", "Cell.fc.Dense.forward.0", *m) ==
          "Module.fc.Linear.forward.0.input.0");
    CHECK(api_mapped_name("Cell.fc.Dense.parameters_grad.1.bias", "Cell.fc.Dense.parameters_grad.1", *m) ==
          "Module.fc.Linear.parameters_grad.1.bias");
    CHECK(api_mapped_name("Cell.fc.Dense.parameters_grad.1.gamma", "Cell.fc.Dense.parameters_grad.1", *m).empty());
  }
  TEST_CASE("api mapping: hostile files") {
    auto check = [](const std::string& yaml, const std::string& message) {
      auto m = parse_api_mapping(yaml, "am.yaml");
      REQUIRE_FALSE(m);
      CHECK(m.error().message == message);
    };
    check("ms_api: a\n", "am.yaml:1:1: expected a list of API rules, found a mapping");
    check("- x\n", "am.yaml:1:3: expected a rule (a mapping with ms_api and pt_api), found a string");
    check("- pt_api: b\n", "am.yaml:1:3: the rule has no ms_api");
    check("- ms_api: [a]\n  pt_api: b\n", "am.yaml:1:11: expected an API name for ms_api, found a list");
    check("- ms_api: a\n  pt_api: b\n  ms_arg: [0]\n",
          "am.yaml:3:3: expected one of ms_api, pt_api, ms_args, pt_args, ms_outputs, pt_outputs, ms_parameters, "
          "pt_parameters, ms_parameters_grad, pt_parameters_grad, found 'ms_arg'");
    check("- ms_api: a\n  pt_api: b\n  ms_api: c\n", "am.yaml:3:3: duplicate key 'ms_api'");
    check("- ms_api: a\n  pt_api: b\n  ms_args: [0]\n", "am.yaml:1:3: ms_args and pt_args must be given together");
    check("- ms_api: a\n  pt_api: b\n  ms_args: [0, 1]\n  pt_args: [0]\n",
          "am.yaml:4:12: ms_args has 2 positions, pt_args has 1; expected the same number");
    check("- ms_api: a\n  pt_api: b\n  ms_args: 0\n  pt_args: [0]\n",
          "am.yaml:3:12: expected a list of positions for ms_args, found a string");
    check("- ms_api: a\n  pt_api: b\n  ms_args: [[0]]\n  pt_args: [0]\n",
          "am.yaml:3:13: expected a position (an integer or a name) in ms_args, found a list");
    check("- ms_api: a\n  pt_api: b\n- ms_api: a\n  pt_api: c\n", "am.yaml:3:3: a second rule for ms_api 'a'");
    check("- &r {ms_api: a, pt_api: b}\n- *r\n", "am.yaml:2:3: aliases (*name) are not accepted in a mapping file");
  }
}

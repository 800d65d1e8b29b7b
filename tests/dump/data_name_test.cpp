#include "dump/data_name.h"

#include <doctest/doctest.h>

using namespace msdump;
using namespace msdump::dump;

TEST_SUITE("msdump::dump") {
  TEST_CASE("data_name follows msprobe's categories and nested paths") {
    CHECK(make_data_name("Torch.cat.0.forward", "input_args", {"0", "1"}, false, Framework::pytorch) ==
          "Torch.cat.0.forward.input.0.1.pt");
    CHECK(make_data_name("Functional.linear.0.forward", "input_kwargs", {"weight"}, false, Framework::pytorch) ==
          "Functional.linear.0.forward.kwargs.weight.pt");
    CHECK(make_data_name("Module.fc1.Linear.forward.0", "parameters", {"bias"}, false, Framework::pytorch) ==
          "Module.fc1.Linear.forward.0.parameters.bias.pt");
    CHECK(make_data_name("Functional.relu.0.backward", "input", {"0"}, false, Framework::mindspore) ==
          "Functional.relu.0.backward.input.0.npy");
    CHECK(make_data_name("Cell.fc.Dense.forward.0", "output", {"0"}, false, Framework::mindtorch) ==
          "Cell.fc.Dense.forward.0.output.0.npy");
  }
  TEST_CASE("parameters_grad files are named entry.param") {
    CHECK(make_data_name("Module.conv2.Conv2d.parameters_grad.0", "weight", {"0"}, true, Framework::pytorch) ==
          "Module.conv2.Conv2d.parameters_grad.0.weight.pt");
  }
  TEST_CASE("un-numbered parameters_grad files keep the entry name as it is (msprobe up to 8.x)") {
    CHECK(make_data_name("Module.conv2.Conv2d.parameters_grad", "weight", {"0"}, true, Framework::pytorch) ==
          "Module.conv2.Conv2d.parameters_grad.weight.pt");
    CHECK(make_data_name("Cell.conv2.Conv2d.parameters_grad", "bias", {"0"}, true, Framework::mindspore) ==
          "Cell.conv2.Conv2d.parameters_grad.bias.npy");
    CHECK(make_data_name("Module.conv2.Conv2d.parameters_grad", "weight", {"0"}, true, Framework::mindtorch) ==
          "Module.conv2.Conv2d.parameters_grad.weight.npy");
  }
}

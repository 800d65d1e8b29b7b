#include "convert/risk_level.h"

#include <doctest/doctest.h>

using namespace msdump;
using namespace msdump::convert;

TEST_SUITE("msdump::convert") {
  TEST_CASE("risk classes follow msprobe's sets, including the chain_matmul/linear concatenation") {
    CHECK(api_risk("conv2d") == ApiRisk::core);
    CHECK(api_risk("flatten") == ApiRisk::low);
    CHECK(api_risk("reshape") == ApiRisk::low);
    CHECK(api_risk("linear") == ApiRisk::focus);
    CHECK(api_risk("chain_matmul") == ApiRisk::focus);
    CHECK(api_risk("chain_matmullinear") == ApiRisk::core);
    CHECK(api_risk("no_such_api") == ApiRisk::focus);
  }
  TEST_CASE("FOCUS drops low-risk APIs in both directions, CORE keeps only core APIs") {
    CHECK_FALSE(risk_keeps(RiskLevel::focus, "Torch.flatten.0.forward"));
    CHECK_FALSE(risk_keeps(RiskLevel::focus, "Torch.flatten.0.backward"));
    CHECK(risk_keeps(RiskLevel::focus, "Functional.linear.0.forward"));
    CHECK_FALSE(risk_keeps(RiskLevel::core, "Functional.linear.0.forward"));
    CHECK(risk_keeps(RiskLevel::core, "Functional.conv2d.3.backward"));
    CHECK(risk_keeps(RiskLevel::all, "Torch.flatten.0.forward"));
  }
  TEST_CASE("module, cell, parameters_grad and odd names always pass") {
    CHECK(risk_keeps(RiskLevel::core, "Module.flatten.Flatten.forward.0"));
    CHECK(risk_keeps(RiskLevel::core, "Module.fc.Linear.parameters_grad.0"));
    CHECK(risk_keeps(RiskLevel::core, "Cell.flatten.Flatten.forward.0"));
    CHECK(risk_keeps(RiskLevel::core, "flatten"));
    CHECK(risk_keeps(RiskLevel::core, "Torch.flatten"));
  }
  TEST_CASE("a capture narrows only towards fewer APIs") {
    CHECK(risk_narrows(RiskLevel::all, RiskLevel::focus));
    CHECK(risk_narrows(RiskLevel::focus, RiskLevel::core));
    CHECK(risk_narrows(RiskLevel::focus, RiskLevel::focus));
    CHECK_FALSE(risk_narrows(RiskLevel::focus, RiskLevel::all));
    CHECK_FALSE(risk_narrows(RiskLevel::core, RiskLevel::focus));
  }
}

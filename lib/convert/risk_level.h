#pragma once
// msprobe's PyTorch risk filter (api_risk_level.py, DataCollector._should_collect_by_risk_level)
// applied to entry names: which API entries a run at a given risk_level writes.
//
// The tested name is the entry's API name: "Functional.linear.0.forward" -> "linear". CORE is
// msprobe's CORE_API_SET as Python builds it (a missing comma makes "chain_matmullinear" one
// element, so linear and chain_matmul are FOCUS) plus the distributed/NPU categories; LOW is
// LOW_RISK_API_SET; everything else is FOCUS. Module, Cell and parameters_grad entries always
// pass. Filtered calls keep their construct.json edges; only data and stack events go.

#include <string_view>

#include "core/profile.h"

namespace msdump::convert {

enum class ApiRisk { core, focus, low };

// The risk class of an API name (the entry name's segment after its prefix).
ApiRisk api_risk(std::string_view api);

// Whether msprobe at `level` collects the entry `name`.
bool risk_keeps(RiskLevel level, std::string_view name);

// Whether a capture recorded at `recorded` holds everything a `wanted` run would write.
inline bool risk_narrows(RiskLevel recorded, RiskLevel wanted) { return wanted <= recorded; }

}  // namespace msdump::convert

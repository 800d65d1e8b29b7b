#pragma once
// Cross-framework API mapping (docs/compare.md "Matching rows"): when the NPU dump comes from
// MindSpore or mindtorch and the bench dump from PyTorch, NPU API names are translated to their
// PyTorch counterparts before pairing.
//   built-in table (api_mapping_table.inc): `Mint.` -> `Torch.`, `MintFunctional.` ->
//     `Functional.`, plus per-API entries where the names differ (`Functional.concat` ->
//     `Torch.cat`, ...); other names are kept.
//   a user file (--api-mapping FILE): a YAML list of rules
//     {ms_api, pt_api, ms_args, pt_args, ms_outputs, pt_outputs, ms_parameters, pt_parameters,
//      ms_parameters_grad, pt_parameters_grad}; ms_api/pt_api are ops (entry names without call
//     counter and direction, e.g. `Mint.add`, `Torch.add`); each ms_X list names positions (or
//     names) of that section and pt_X at the same place the PyTorch one it pairs with. A section
//     whose lists are given pairs only the listed positions (a row at any other is unmatchable);
//     a section without lists keeps its positions. A rule's op wins over the built-in table.

#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.h"

namespace msdump::compare {

struct ApiRule {
  std::string ms_api, pt_api;
  // Per section (args = inputs, outputs, parameters, parameters_grad): given, and the pairs.
  struct Section {
    bool given = false;
    std::vector<std::string> ms, pt;  // same length
  };
  Section args, outputs, parameters, parameters_grad;
};

struct ApiMapping {
  std::vector<ApiRule> rules;
  std::unordered_map<std::string, std::size_t> by_ms_api;  // index into rules
};

// The user file; errors name `shown_as`, line and column and what was expected.
Result<ApiMapping> parse_api_mapping(std::string_view yaml, const std::string& shown_as);

// The PyTorch op of a MindSpore/mindtorch op by the built-in table ("Mint.add" -> "Torch.add").
std::string builtin_pt_op(std::string_view ms_op);

// The name NPU row `row_name` of entry `entry_name` pairs by: its op translated (a rule of
// `mapping`, else the built-in table) and, under a rule, its section position remapped.
// Empty: the row cannot be paired (a position the rule does not list). Rows of entries that are
// not API, module or parameters_grad entries, or whose name does not start with the entry's,
// are kept.
std::string api_mapped_name(std::string_view row_name, std::string_view entry_name, const ApiMapping& mapping);

}  // namespace msdump::compare

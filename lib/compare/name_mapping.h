#pragma once
// The YAML mapping files of compare that rename rows before pairing (docs/compare.md "Matching rows"):
//   -dm FILE      {NPU row name: bench row name}
//   -cm [FILE]    {NPU cell name: bench module name}  (MindSpore `Cell.*` names against PyTorch)
// Parsers take the file's bytes; errors name `shown_as`, the line and column, and what was
// expected. Keys must be unique non-empty strings, values non-empty strings.

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/result.h"

namespace msdump::compare {

struct DataMapping {
  std::unordered_map<std::string, std::string> bench_of;  // NPU row name -> bench row name
};

struct CellMapping {
  std::vector<std::pair<std::string, std::string>> pairs;  // in file order
  std::unordered_map<std::string, std::string> golden_of;  // the same pairs, by target name
};

Result<DataMapping> parse_data_mapping(std::string_view yaml, const std::string& shown_as);
Result<CellMapping> parse_cell_mapping(std::string_view yaml, const std::string& shown_as);

// The name an NPU row is paired by under a cell mapping: the first `Cell` becomes `Module`,
// then the cell part (after the first dot, up to `.forward.`, `.backward.` or
// `.parameters_grad`) is replaced by its exact entry in `mapping`, or else every mapping key
// found in it is replaced by its value, in file order. Empty: the row cannot be paired (no
// direction and not a parameters_grad row, or replacements grew it past k_max_mapped_name).
inline constexpr std::size_t k_max_mapped_name = 64 * 1024;
std::string cell_mapped_name(std::string_view row_name, const CellMapping& mapping);

}  // namespace msdump::compare

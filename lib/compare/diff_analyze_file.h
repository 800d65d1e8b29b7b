#pragma once
// msprobe's `-da` result file, for the pairs whose diff_analyze (divergence.h) names an API:
// OUT[/step<N>]/diff_analyze_<nanoseconds since the epoch>.json, one per step, holding
// {"rank_<r>": [{"op_name", "data_info": {"input": {row: {"NPU max", "NPU min", "NPU mean",
// "NPU l2norm", "NPU P2POp peer"}}, "output": {...}}, "stack_info": [frames] | null}]}
// (JSON with an indent of 2, as msprobe writes it). Input rows are the API's input and kwarg
// rows (not its parameters), NPU values only.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "compare/cell.h"
#include "core/result.h"

namespace msdump::compare {

struct Table;
struct TreeResult;

struct DaRecord {
  std::string op_name;
  std::vector<std::pair<std::string, std::array<Cell, 4>>> inputs, outputs;
  std::optional<std::vector<std::string>> stack;
};

// The record of API `api` in a finished table, with its frames from the NPU side's stack.json
// in `npu_dir` (null when it has none or there is no stack.json).
DaRecord make_da_record(const Table& table, const std::string& api, const std::string& npu_dir);

// The JSON text of one step's file: pairs of (rank, record).
std::string da_file_text(const std::vector<std::pair<std::int64_t, const DaRecord*>>& records);

// Writes one file per step of `result` that has a record; returns the files written.
Result<std::vector<std::string>> write_diff_analyze(const TreeResult& result, const std::string& output_dir);

}  // namespace msdump::compare

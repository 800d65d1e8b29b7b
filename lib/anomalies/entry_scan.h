#pragma once
// One dump.json entry scanned for non-finite values: which of its inputs and outputs hold
// NaN / +-Inf, and which of its output tensors carry a statistic overflow or sit at their
// float16 / bfloat16 limit. Pure function of the entry (and its tensor files): runs on the
// worker threads of the parallel pass, one entry at a time.
//
// Inputs and outputs by section:
//   forward          input_args, input_kwargs, parameters -> output
//   backward         input (grads w.r.t. the forward outputs) -> output
//   parameters_grad  every section is an output (its values are the gradients)
// Other sections (is_recompute, is_nan) are neither. Tensor leaves are judged from their file
// when a tensor directory is given (exact counts), else from Max/Min/Mean/Norm; value leaves
// (int, float, list, ...) from their "value".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "anomalies/leaf_verdict.h"
#include "anomalies/value_counts.h"
#include "core/error.h"
#include "pyjson/json_value.h"

namespace msdump::anomalies {

enum class Direction { forward, backward, parameters_grad, other };
// "forward" | "backward" | "parameters_grad" | "other"
std::string_view to_string(Direction d);
// The direction of an entry, from its name (dump/entry_name.h).
Direction direction_of(std::string_view entry_name);

// One leaf worth reporting.
struct LeafNote {
  std::string pointer;                 // "/data/<entry>/output/0"
  NonFinite values;                    // the non-finite values (stat overflow: of the statistic)
  std::optional<ValueCounts> counts;   // from the tensor file
  bool is_tensor = true;               // false: a value leaf (int, float, list, ...)
  std::optional<DType> dtype;
  double max_abs = 0.0;                // overflow risk: the largest magnitude
  std::string statistic;               // stat overflow: "Mean", "Norm" or "Mean and Norm"
};

struct EntryScan {
  std::string name;
  std::uint64_t line = 0;
  Direction direction = Direction::other;
  std::optional<LeafNote> tensor_input;      // the first non-finite tensor input
  std::optional<LeafNote> argument;          // the first non-finite non-tensor input
  std::vector<LeafNote> outputs;             // every non-finite output leaf
  std::vector<LeafNote> stat_overflows;      // output tensors whose Mean or Norm overflowed
  std::vector<LeafNote> overflow_risks;      // float16 / bfloat16 outputs at the limit
  std::optional<Error> error;                // a tensor file could not be read
};

struct ScanOptions {
  std::optional<std::string> tensor_dir;  // judge tensor leaves from their files
  OpenBeneath tensor_dir_beneath = OpenBeneath::dump_dir;  // what tensor files are opened beneath
  double overflow_fraction = 1.0;         // of the dtype's limit, for overflow risks
};

EntryScan scan_entry(const std::string& name, const pyjson::Value& entry, const ScanOptions& options);

// What scan_entry returns for an entry in which it finds nothing (clean_entry.h).
EntryScan empty_scan(std::string name);

}  // namespace msdump::anomalies

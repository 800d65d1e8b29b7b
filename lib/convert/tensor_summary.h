#pragma once
// The tensor leaf msprobe would write for one tensor file: what `msdump stats` prints.

#include <string>

#include "core/profile.h"
#include "core/result.h"
#include "pyjson/json_value.h"

namespace msdump::convert {

struct TensorSummaryOptions {
  Framework framework = Framework::pytorch;
  Profile profile = Profile::current;
  SummaryMode summary_mode = SummaryMode::statistics;
  Precision precision = Precision::low;
  int threads = 1;
};

// {"file", "type", "dtype", "shape", "Max", "Min", "Mean", "Norm"[, "md5"]} for the tensor in
// `path` (.pt or .npy): type and dtype spelled as the framework spells them, statistics by
// msprobe's rules for the framework and profile (xor mode: "md5" instead of the four values).
// Fails with an error naming the file when it cannot be read.
Result<pyjson::Value> summarize_tensor_file(const std::string& path, const TensorSummaryOptions& options);

}  // namespace msdump::convert

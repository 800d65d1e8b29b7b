#pragma once
// Exact counts of the non-finite values of a tensor, from its elements (a dump's tensor file),
// for "3 of 12 values -Inf, 1 NaN" instead of what the statistics can only hint at.

#include <cstdint>
#include <optional>
#include <string>

#include "anomalies/leaf_verdict.h"
#include "core/result.h"
#include "pyjson/json_value.h"
#include "tensor/tensor.h"

namespace msdump::anomalies {

struct ValueCounts {
  std::uint64_t nan = 0;
  std::uint64_t pos_inf = 0;
  std::uint64_t neg_inf = 0;
  std::uint64_t total = 0;   // elements
  double max_abs = 0.0;      // largest finite magnitude (complex: of either part)
  NonFinite flags() const { return {nan > 0, pos_inf > 0, neg_inf > 0}; }
  bool operator==(const ValueCounts&) const = default;
};

// Counts over the elements (any dtype; integers and booleans are all finite; a complex element
// counts as NaN when either part is, else as +-Inf by the sign of its infinite part).
ValueCounts count_values(const tensor::TensorView& view);

// "3 of 12 values -Inf, 1 NaN": the most frequent kind first, then the others; "" when finite.
std::string describe_counts(const ValueCounts& c);

// Which directory a tensor file is opened beneath (no link followed below it), as verify does:
// the dump's own directory for its dump_tensor_data/, the directory itself for one the user named.
enum class OpenBeneath { dump_dir, tensor_dir };

// The counts of a tensor leaf's file: `leaf`'s data_name inside `tensor_dir`. nullopt when the
// leaf names no file; an error naming the file when it is missing, unreadable, reached through a
// link or disagrees with the leaf.
Result<std::optional<ValueCounts>> count_leaf_file(const pyjson::Value& leaf, const std::string& tensor_dir,
                                                   OpenBeneath beneath = OpenBeneath::dump_dir);

}  // namespace msdump::anomalies

#pragma once
// What a leaf of a dump.json section is (docs/format.md §5, compare's rule in §11): an object
// with a string "type" is a leaf; tensor types get statistics; everything else is a value leaf
// that passes through unchanged. Objects without a string "type" (and lists) are containers.

#include <string_view>

namespace msdump::pyjson { class Value; }

namespace msdump::dump {

enum class LeafKind {
  container,  // list, or object without a string "type": recurse into it
  tensor,     // torch.Tensor and friends, mindspore.Tensor
  ndarray,    // numpy.ndarray: statistics by numpy's rules, no requires_grad
  value,      // {"type": "int", "value": 3}, torch.Size, slice, ...; also null
};

LeafKind classify_leaf(const pyjson::Value& v);

// Tensor "type" strings msprobe writes (docs/format.md §5.1, §5.2).
bool is_tensor_type(std::string_view type);

// The four statistics keys, in the order msprobe writes them.
inline constexpr std::string_view k_stat_keys[] = {"Max", "Min", "Mean", "Norm"};

}  // namespace msdump::dump

#include "dump/tensor_leaf.h"

#include <array>

#include "pyjson/json_value.h"

namespace msdump::dump {

bool is_tensor_type(std::string_view type) {
  static constexpr std::array<std::string_view, 9> k_types = {
      "torch.Tensor",
      "torch.distributed.tensor.DTensor",
      "torch._subclasses.fake_tensor.FakeTensor",
      "torch.distributed._functional_collectives.AsyncCollectiveTensor",
      "torch.nested._internal.nested_tensor.NestedTensor",
      "BatchedTensor",
      "GradTrackingTensor",
      "mindspore.Tensor",
      "torch.nn.parameter.Parameter",
  };
  for (auto t : k_types)
    if (t == type) return true;
  return false;
}

LeafKind classify_leaf(const pyjson::Value& v) {
  if (v.is_array()) return LeafKind::container;
  if (!v.is_object()) return LeafKind::value;
  const auto* type = v.find("type");
  if (type == nullptr || !type->is_string()) return LeafKind::container;
  if (type->as_string() == "numpy.ndarray") return LeafKind::ndarray;
  return is_tensor_type(type->as_string()) ? LeafKind::tensor : LeafKind::value;
}

}  // namespace msdump::dump


#pragma once
// Walks the leaves of one section of a dump.json entry, giving each leaf the path components
// msprobe's data_name uses (list indices and object keys below the section). A P2POp object
// ({"class_type": ..., "tensor": ...}) is one value to msprobe: its tensor keeps the P2POp's
// own path, without a "tensor" component. Works on const and mutable Values.

#include <string>
#include <type_traits>
#include <vector>

#include "dump/tensor_leaf.h"
#include "pyjson/json_value.h"

namespace msdump::dump {

// visit(Value& leaf, LeafKind kind, const std::vector<std::string>& path) -> Result-like or
// void. For Result-returning visitors the walk stops at the first failure and returns it.
template <typename V, typename Visit>
auto walk_leaves(V& value, std::vector<std::string>& path, Visit&& visit)
    -> decltype(visit(value, LeafKind::value, path)) {
  using Ret = decltype(visit(value, LeafKind::value, path));
  const LeafKind kind = classify_leaf(value);
  if (kind != LeafKind::container) return visit(value, kind, path);
  if (value.is_array()) {
    auto& items = value.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      path.push_back(std::to_string(i));
      if constexpr (std::is_void_v<Ret>) {
        walk_leaves(items[i], path, visit);
        path.pop_back();
      } else {
        auto r = walk_leaves(items[i], path, visit);
        path.pop_back();
        if (!r) return r;
      }
    }
  } else if (value.is_object()) {
    const bool p2pop = value.find("class_type") != nullptr;
    for (auto& m : value.as_object()) {
      const bool named = !(p2pop && m.key == "tensor");
      if (named) path.push_back(m.key);
      if constexpr (std::is_void_v<Ret>) {
        walk_leaves(m.value, path, visit);
        if (named) path.pop_back();
      } else {
        auto r = walk_leaves(m.value, path, visit);
        if (named) path.pop_back();
        if (!r) return r;
      }
    }
  }
  if constexpr (!std::is_void_v<Ret>) return Ret{};
}

// "/<section>/<component>/..." with JSON Pointer escaping (~0, ~1).
std::string leaf_pointer(const std::string& prefix, const std::string& section, const std::vector<std::string>& path);
// Appends one escaped JSON Pointer token ("/a~1b").
void append_pointer_token(std::string& pointer, std::string_view token);

}  // namespace msdump::dump

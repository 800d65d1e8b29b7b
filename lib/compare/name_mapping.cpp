#include "compare/name_mapping.h"

#include <fmt/format.h>

#include "compare/yaml_tree.h"

namespace msdump::compare {
namespace {

// The pairs of a top-level {string: string} mapping, checked; `what` names the keys' meaning.
Result<std::vector<std::pair<std::string, std::string>>> string_pairs(std::string_view yaml,
                                                                    const std::string& shown_as,
                                                                    std::string_view what) {
  auto root = read_yaml(yaml, shown_as);
  if (!root) return root.error();
  if (root->kind != YamlNode::Kind::map)
    return yaml_error(shown_as, *root,
                      fmt::format("expected a mapping of {}, found {}", what, describe(root->kind)));
  std::vector<std::pair<std::string, std::string>> out;
  std::unordered_map<std::string, int> line_of;
  const auto& items = root->items;
  for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
    const YamlNode& key = items[i];
    const YamlNode& value = items[i + 1];
    if (key.kind != YamlNode::Kind::scalar || key.text.empty())
      return yaml_error(shown_as, key, fmt::format("expected a name as key, found {}",
                                                   key.kind == YamlNode::Kind::scalar ? "an empty string"
                                                                                       : describe(key.kind)));
    if (value.kind != YamlNode::Kind::scalar || value.text.empty())
      return yaml_error(shown_as, value.kind == YamlNode::Kind::null ? key : value,  // a null has no place of its own
                        fmt::format("expected a name as the value of '{}', found {}", key.text,
                                    value.kind == YamlNode::Kind::scalar ? "an empty string" : describe(value.kind)));
    auto [seen, fresh] = line_of.emplace(key.text, key.line);
    if (!fresh)
      return yaml_error(shown_as, key, fmt::format("duplicate key '{}' (first at line {})", key.text, seen->second));
    out.emplace_back(key.text, value.text);
  }
  return out;
}

// The end of the cell part of `name` (which starts after the first dot): the first of
// `.forward.`, `.backward.`, `.parameters_grad`; npos when there is none.
std::size_t cell_part_end(std::string_view name) {
  std::size_t end = std::string_view::npos;
  for (std::string_view marker : {".forward.", ".backward.", ".parameters_grad"}) {
    const auto at = name.find(marker);
    if (at < end) end = at;
  }
  return end;
}

// False when the result would grow past k_max_mapped_name (repeated expansion).
bool replace_all(std::string& s, std::string_view from, std::string_view to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    if (s.size() - from.size() + to.size() > k_max_mapped_name) return false;
    s.replace(at, from.size(), to);
  }
  return true;
}

}  // namespace

Result<DataMapping> parse_data_mapping(std::string_view yaml, const std::string& shown_as) {
  auto pairs = string_pairs(yaml, shown_as, "NPU row names to bench row names");
  if (!pairs) return pairs.error();
  DataMapping out;
  for (auto& [npu, bench] : *pairs) out.bench_of.emplace(std::move(npu), std::move(bench));
  return out;
}

Result<CellMapping> parse_cell_mapping(std::string_view yaml, const std::string& shown_as) {
  auto pairs = string_pairs(yaml, shown_as, "NPU cell names to bench module names");
  if (!pairs) return pairs.error();
  CellMapping out;
  for (const auto& [target, golden] : *pairs) out.golden_of.emplace(target, golden);
  out.pairs = std::move(*pairs);
  return out;
}

std::string cell_mapped_name(std::string_view row_name, const CellMapping& mapping) {
  std::string name(row_name);
  if (const auto cell = name.find("Cell"); cell != std::string::npos) name.replace(cell, 4, "Module");
  const auto end = cell_part_end(name);
  const bool directed = name.find(".forward.") != std::string::npos || name.find(".backward.") != std::string::npos;
  if (!directed && name.find("parameters_grad") == std::string::npos) return {};
  const auto dot = name.find('.');
  if (end == std::string::npos || dot == std::string::npos || dot >= end) return name;
  const std::string part = name.substr(dot + 1, end - dot - 1);
  std::string mapped;
  if (auto it = mapping.golden_of.find(part); it != mapping.golden_of.end()) {
    mapped = it->second;
  } else {
    mapped = part;
    for (const auto& [from, to] : mapping.pairs)
      if (!replace_all(mapped, from, to)) return {};
  }
  return name.substr(0, dot + 1) + mapped + name.substr(end);
}

}  // namespace msdump::compare

#include "anomalies/module_tree.h"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "dump/entry_name.h"
#include "pyjson/json_reader.h"

namespace msdump::anomalies {
namespace {

constexpr std::size_t k_max_depth = 256;

// A parent as construct.json writes it: a string, null, or [parent, micro_step].
Result<std::optional<std::string>> parent_value(const pyjson::Value& v, const std::string& key) {
  if (v.is_null()) return std::optional<std::string>{};
  if (v.is_string()) return std::optional<std::string>{v.as_string()};
  if (v.is_array() && !v.as_array().empty()) {
    const auto& first = v.as_array().front();
    if (first.is_null()) return std::optional<std::string>{};
    if (first.is_string()) return std::optional<std::string>{first.as_string()};
  }
  return invalid_input(fmt::format("\"{}\": expected a parent entry name, null or [parent, micro_step]", key));
}

}  // namespace

Result<ModuleTree> ModuleTree::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return io_error(fmt::format("'{}': cannot open", path));
  std::stringstream buf;
  buf << in.rdbuf();
  auto doc = pyjson::parse_json(buf.str());
  if (!doc) return doc.error().with_context(fmt::format("'{}'", path));
  if (!doc->is_object()) return invalid_input(fmt::format("'{}': expected an object (child -> parent)", path));
  ModuleTree tree;
  for (const auto& m : doc->as_object()) {
    if (m.key == "megatron_micro_step_number") continue;
    auto parent = parent_value(m.value, m.key);
    if (!parent) return parent.error().with_context(fmt::format("'{}'", path));
    if (*parent) tree.m_parent[m.key] = std::move(**parent);
  }
  return tree;
}

ModuleTree ModuleTree::from_pairs(const std::vector<std::pair<std::string, std::string>>& pairs) {
  ModuleTree tree;
  for (const auto& [child, parent] : pairs) tree.m_parent[child] = parent;
  return tree;
}

std::optional<std::string> ModuleTree::module_of(const std::string& entry) const {
  if (dump::parse_entry_name(entry).is_module()) return entry;
  const auto it = m_parent.find(entry);
  if (it == m_parent.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> ModuleTree::enclosing(const std::string& module) const {
  std::vector<std::string> chain;
  auto it = m_parent.find(module);
  while (it != m_parent.end() && chain.size() < k_max_depth) {
    if (it->second == module || std::find(chain.begin(), chain.end(), it->second) != chain.end()) break;
    chain.push_back(it->second);
    it = m_parent.find(it->second);
  }
  return chain;
}

}  // namespace msdump::anomalies

#include "compare/module_parents.h"

#include <filesystem>
#include <unordered_set>

#include <fmt/format.h>

#include "core/byte_source.h"
#include "dump/dump_paths.h"
#include "pyjson/json_reader.h"

namespace msdump::compare {

namespace fs = std::filesystem;
using pyjson::Value;

Result<ModuleParents> ModuleParents::parse(std::string_view text, const std::string& shown_as) {
  auto doc = pyjson::parse_json(text);
  if (!doc) return doc.error().with_context("reading '" + shown_as + "'");
  if (!doc->is_object()) return invalid_input(fmt::format("'{}': expected an object at the top level, got {}", shown_as, pyjson::kind_name(doc->kind())));
  ModuleParents p;
  for (const auto& m : doc->as_object()) {
    const Value* parent = &m.value;
    if (parent->is_array() && parent->size() >= 1) parent = &parent->as_array()[0];
    p.m_parent[m.key] = parent->is_string() ? parent->as_string() : std::string();
  }
  return p;
}

std::vector<std::string> ModuleParents::chain(const std::string& entry) const {
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;  // a cyclic file ends the walk
  auto it = m_parent.find(entry);
  while (it != m_parent.end() && !it->second.empty() && seen.insert(it->second).second) {
    out.push_back(it->second);
    it = m_parent.find(it->second);
  }
  return {out.rbegin(), out.rend()};
}

Result<ModuleParents> load_module_parents(const std::string& dir) {
  const auto path = (fs::path(dir) / dump::k_construct_json).string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return ModuleParents{};
  auto text = read_file(path);
  if (!text) return text.error();
  return ModuleParents::parse(*text, path);
}

}  // namespace msdump::compare

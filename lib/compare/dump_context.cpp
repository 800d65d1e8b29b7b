#include "compare/dump_context.h"

#include <algorithm>
#include <filesystem>
#include <unordered_set>

#include <fmt/format.h>

#include "compare/dump_rows.h"
#include "compare/python_repr.h"
#include "compare/row_match.h"
#include "core/byte_source.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/json_reader.h"

namespace msdump::compare {
namespace {

using pyjson::Value;

// The cell msprobe shows for one entry's stack value: the repr of a list of strings, or str()
// of anything else.
std::string stack_cell(const Value& frames) {
  if (frames.is_array()) {
    std::vector<std::string> items;
    bool all_strings = true;
    for (const auto& f : frames.as_array()) {
      if (!f.is_string()) all_strings = false;
      else items.push_back(f.as_string());
    }
    if (all_strings) return python_list_repr(items);
  }
  return python_str(frames);
}

Result<std::string> read_optional(const std::string& path, bool& found) {
  std::error_code ec;
  found = std::filesystem::is_regular_file(path, ec);
  if (!found) return std::string();
  return read_file(path);
}

}  // namespace

Result<StackCells> parse_stack_cells(std::string_view text, const std::string& shown_as,
                                     const std::vector<std::string>& entries) {
  auto doc = pyjson::parse_json(text);
  if (!doc) return doc.error().with_context("reading '" + shown_as + "'");
  if (!doc->is_object()) return invalid_input(fmt::format("'{}': expected an object at the top level, got {}", shown_as, pyjson::kind_name(doc->kind())));
  std::unordered_map<std::string, const Value*> by_entry;
  const Value* first = doc->find("0");
  const bool current = first != nullptr && !(first->is_null() || (first->is_array() && first->size() == 0));
  for (const auto& m : doc->as_object()) {
    if (!current) {
      by_entry[m.key] = &m.value;
      continue;
    }
    // {"<n>": [[names], frames]}: anything else is skipped, as msprobe does.
    if (!m.value.is_array() || m.value.size() != 2 || !m.value.as_array()[0].is_array()) continue;
    for (const auto& name : m.value.as_array()[0].as_array())
      if (name.is_string()) by_entry[name.as_string()] = &m.value.as_array()[1];
  }
  StackCells cells;
  cells.present = true;
  cells.per_entry.reserve(entries.size());
  std::unordered_map<const Value*, std::string> rendered;
  for (const auto& e : entries) {
    auto it = by_entry.find(e);
    if (it == by_entry.end() || it->second->is_null()) {
      cells.per_entry.emplace_back();
      continue;
    }
    auto [r, fresh] = rendered.try_emplace(it->second);
    if (fresh) r->second = stack_cell(*it->second);
    cells.per_entry.push_back(r->second);
  }
  return cells;
}

const std::string& StackLookup::cell(const std::string& entry) const {
  static const std::string no_stack;
  const auto h = hash_key(entry).hi;
  auto it = std::lower_bound(id_of.begin(), id_of.end(), std::pair<std::uint64_t, std::uint32_t>{h, 0});
  return it == id_of.end() || it->first != h ? no_stack : cells[it->second];
}

Result<StackLookup> parse_stack_lookup(const ByteSource& src, const std::string& shown_as) {
  // One top-level member at a time (pyjson::DumpJsonStream): a stack.json of any size is never
  // held whole, and each distinct stack is rendered and kept once.
  pyjson::DumpJsonStream stream(src);
  pyjson::DumpEvent ev;
  StackLookup out;
  out.present = true;
  std::unordered_map<std::string, std::uint32_t> id_of_cell;
  const auto cell_id = [&](const Value& frames) {
    auto [it, fresh] = id_of_cell.try_emplace(stack_cell(frames), static_cast<std::uint32_t>(out.cells.size()));
    if (fresh) out.cells.push_back(it->first);
    return it->second;
  };
  std::optional<bool> current;  // the layout, from the first member (its key is "0")
  for (;;) {
    auto more = stream.next(ev);
    if (!more) return more.error().with_context("reading '" + shown_as + "'");
    if (!*more) break;
    if (ev.type != pyjson::DumpEvent::Type::member && ev.type != pyjson::DumpEvent::Type::entry) continue;
    const Value& v = ev.value;
    if (!current) current = ev.key == "0" && !(v.is_null() || (v.is_array() && v.size() == 0));
    if (!*current) {
      if (!v.is_null()) out.id_of.emplace_back(hash_key(ev.key).hi, cell_id(v));
      continue;
    }
    if (!v.is_array() || v.size() != 2 || !v.as_array()[0].is_array() || v.as_array()[1].is_null()) continue;
    const auto id = cell_id(v.as_array()[1]);
    for (const auto& name : v.as_array()[0].as_array())
      if (name.is_string()) out.id_of.emplace_back(hash_key(name.as_string()).hi, id);
  }
  // A name listed twice keeps its last stack, as msprobe's dict does: stable sort, last wins.
  std::stable_sort(out.id_of.begin(), out.id_of.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<std::uint64_t, std::uint32_t>> unique;
  for (const auto& e : out.id_of) {
    if (!unique.empty() && unique.back().first == e.first) unique.back() = e;
    else unique.push_back(e);
  }
  out.id_of = std::move(unique);
  return out;
}

Result<StackLookup> load_stack_lookup(const std::string& dir) {
  const auto path = (std::filesystem::path(dir) / "stack.json").string();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return StackLookup{};
  auto src = FileSource::open(path);
  if (!src) return src.error();
  return parse_stack_lookup(**src, path);
}

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

Result<StackCells> load_stack_cells(const std::string& dir, const std::vector<std::string>& entries) {
  const auto path = (std::filesystem::path(dir) / "stack.json").string();
  bool found = false;
  auto text = read_optional(path, found);
  if (!text) return text.error();
  if (!found) return StackCells{};
  return parse_stack_cells(*text, path, entries);
}

Result<ModuleParents> load_module_parents(const std::string& dir) {
  const auto path = (std::filesystem::path(dir) / "construct.json").string();
  bool found = false;
  auto text = read_optional(path, found);
  if (!text) return text.error();
  if (!found) return ModuleParents{};
  return ModuleParents::parse(*text, path);
}

}  // namespace msdump::compare

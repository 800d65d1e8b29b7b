#include "compare/dump_context.h"

#include <algorithm>
#include <filesystem>
#include <unordered_set>

#include <fmt/format.h>

#include "compare/dump_rows.h"
#include "compare/python_repr.h"
#include "compare/row_match.h"
#include "core/byte_source.h"
#include "dump/dump_paths.h"
#include "pyjson/dump_json_stream.h"
#include "pyjson/json_reader.h"

namespace msdump::compare {
namespace {

namespace fs = std::filesystem;
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

// A key that is equal for two frames values exactly when their cells are: the frames' texts,
// each after its length (cheaper to make than the cell, which escapes every character).
std::string stack_key(const Value& frames) {
  std::string key;
  if (frames.is_array()) {
    bool all_strings = true;
    for (const auto& f : frames.as_array()) all_strings = all_strings && f.is_string();
    if (all_strings) {
      for (const auto& f : frames.as_array()) {
        const std::uint64_t size = f.as_string().size();  // (length-prefixed: no two lists join alike)
        key.append(reinterpret_cast<const char*>(&size), sizeof size).append(f.as_string());
      }
      return key;
    }
  }
  return "\1" + python_str(frames);
}

// Calls visit(names, frames) for each stack of a stack.json, in file order, in either layout
// msprobe writes: {"0": [[entry names], frames], ...} (current; other members skipped, as msprobe
// skips them) or {entry name: frames} (legacy). Null frames are no stack. One top-level member
// at a time (pyjson::DumpJsonStream): the file is never held whole.
template <typename Visit>
Result<void> visit_stacks(const ByteSource& src, const std::string& shown_as, Visit visit) {
  pyjson::DumpJsonStream stream(src);
  pyjson::DumpEvent ev;
  std::optional<bool> current;  // the layout, from the first member (its key is "0")
  std::vector<std::string_view> names;
  for (;;) {
    auto more = stream.next(ev);
    if (!more) return more.error().with_context("reading '" + shown_as + "'");
    if (!*more) return {};
    if (ev.type != pyjson::DumpEvent::Type::member && ev.type != pyjson::DumpEvent::Type::entry) continue;
    const Value& v = ev.value;
    if (!current) current = ev.key == "0" && !(v.is_null() || (v.is_array() && v.size() == 0));
    names.clear();
    if (!*current) {
      if (v.is_null()) continue;
      names.push_back(ev.key);
      visit(names, v);
      continue;
    }
    if (!v.is_array() || v.size() != 2 || !v.as_array()[0].is_array() || v.as_array()[1].is_null()) continue;
    for (const auto& name : v.as_array()[0].as_array())
      if (name.is_string()) names.push_back(name.as_string());
    visit(names, v.as_array()[1]);
  }
}

// `dir`/`name` opened when it is a file; nullptr when there is none.
Result<std::unique_ptr<FileSource>> open_optional(const std::string& dir, std::string_view name, std::string& path) {
  path = (fs::path(dir) / name).string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return std::unique_ptr<FileSource>();
  return FileSource::open(path);
}

}  // namespace

const std::string& StackLookup::cell(const std::string& entry) const {
  static const std::string no_stack;
  const auto h = hash_key(entry).hi;
  auto it = std::lower_bound(id_of.begin(), id_of.end(), std::pair<std::uint64_t, std::uint32_t>{h, 0});
  return it == id_of.end() || it->first != h ? no_stack : cells[it->second];
}

Result<StackLookup> parse_stack_lookup(const ByteSource& src, const std::string& shown_as) {
  StackLookup out;
  out.present = true;
  std::unordered_map<std::string, std::uint32_t> id_of_cell;  // each distinct stack rendered and kept once
  auto ok = visit_stacks(src, shown_as, [&](const std::vector<std::string_view>& names, const Value& frames) {
    auto [it, fresh] = id_of_cell.try_emplace(stack_key(frames), static_cast<std::uint32_t>(out.cells.size()));
    if (fresh) out.cells.push_back(stack_cell(frames));
    for (auto name : names) out.id_of.emplace_back(hash_key(name).hi, it->second);
  });
  if (!ok) return ok.error();
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
  std::string path;
  auto src = open_optional(dir, dump::k_stack_json, path);
  if (!src) return src.error();
  if (!*src) return StackLookup{};
  return parse_stack_lookup(**src, path);
}

Result<std::optional<std::vector<std::string>>> load_stack_frames(const std::string& dir, const std::string& entry) {
  std::string path;
  auto src = open_optional(dir, dump::k_stack_json, path);
  if (!src) return src.error();
  std::optional<std::vector<std::string>> frames;
  if (!*src) return frames;
  auto ok = visit_stacks(**src, path, [&](const std::vector<std::string_view>& names, const Value& v) {
    if (std::find(names.begin(), names.end(), entry) == names.end()) return;
    frames.emplace();  // the last listing wins
    if (v.is_array())
      for (const auto& f : v.as_array())
        if (f.is_string()) frames->push_back(f.as_string());
  });
  if (!ok) return ok.error();
  return frames;
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

Result<ModuleParents> load_module_parents(const std::string& dir) {
  const auto path = (fs::path(dir) / dump::k_construct_json).string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return ModuleParents{};
  auto text = read_file(path);
  if (!text) return text.error();
  return ModuleParents::parse(*text, path);
}

}  // namespace msdump::compare

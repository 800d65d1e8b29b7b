#include "verify/cross_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <unordered_set>

#include "core/byte_source.h"
#include "dump/construct_model.h"
#include "dump/entry_name.h"
#include "dump/leaf_walk.h"
#include "dump/stack_model.h"
#include "pyjson/json_reader.h"
#include "verify/entry_checks.h"

namespace msdump::verify {

std::uint32_t DumpNames::hash_of(std::string_view name) {
  const std::uint64_t h = std::hash<std::string_view>{}(name);
  return static_cast<std::uint32_t>(h ^ (h >> 32));
}

std::size_t DumpNames::find_slot(std::string_view name, std::uint32_t hash) const {
  const std::size_t mask = m_slots.size() - 1;
  for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
    const Slot& s = m_slots[i];
    if (s.index == 0 || (s.hash == hash && in_order[s.index - 1] == name)) return i;
  }
}

bool DumpNames::contains(std::string_view name) const {
  if (m_slots.empty()) return false;
  return m_slots[find_slot(name, hash_of(name))].index != 0;
}

void DumpNames::grow_if_needed() {
  if ((in_order.size() + 1) * 2 > m_slots.size()) {  // keep the load at most 1/2
    std::vector<Slot> old(std::max<std::size_t>(m_slots.size() * 2, 1024));
    old.swap(m_slots);
    const std::size_t mask = m_slots.size() - 1;
    for (const Slot& s : old) {
      if (s.index == 0) continue;
      std::size_t i = s.hash & mask;
      while (m_slots[i].index != 0) i = (i + 1) & mask;
      m_slots[i] = s;
    }
  }
}

bool DumpNames::add(std::string_view name) { return add(std::string(name), hash_of(name)); }

bool DumpNames::add(std::string&& name, std::uint32_t hash) {
  grow_if_needed();
  Slot& slot = m_slots[find_slot(name, hash)];
  if (slot.index != 0) return false;
  in_order.push_back(std::move(name));
  slot = Slot{hash, static_cast<std::uint32_t>(in_order.size())};
  return true;
}
namespace {

using pyjson::Value;

// Reads a small JSON file; a parse error becomes a finding and nullopt.
std::optional<Value> load(const std::string& path, FindingSink& sink) {
  auto text = read_file(path);
  if (!text) {
    sink.add(FindingKind::file, "", "", text.error().message);
    return std::nullopt;
  }
  auto v = pyjson::parse_json(*text);
  if (!v) {
    sink.add(FindingKind::json, "", "", v.error().message);
    return std::nullopt;
  }
  check_duplicate_keys(*v, "", "", sink);
  return std::move(*v);
}

}  // namespace

void check_stack_json(const std::string& path, const DumpNames& names, FindingSink& sink) {
  sink.set_location(path, 0);
  auto doc = load(path, sink);
  if (!doc) return;
  auto r = dump::replay_stack_json(*doc, [&](const std::string& name, std::vector<std::string>) {
    const auto parsed = dump::parse_entry_name(name);
    if (parsed.kind == dump::EntryKind::unknown)
      sink.add(FindingKind::stack, name, "", "stack.json names an entry that does not follow msprobe's grammar", "", name);
    else if (!parsed.is_forward())
      sink.add(FindingKind::stack, name, "", "stack.json has a stack for a non-forward entry (msprobe records stacks "
               "only at forward input collection)", "forward entries only", name);
    else if (names.level_known && !dump::level_includes(names.level, parsed))
      sink.add(FindingKind::stack, name, "", fmt::format("stack.json names an entry outside level {}", to_string(names.level)),
               "", name);
    else if (names.forward_inputs && !names.contains(name))
      sink.add(FindingKind::stack, name, "", "stack.json names a forward entry that dump.json does not have", name, "");
  });
  if (!r) sink.add(FindingKind::schema, "", "", fmt::format("stack.json: {}", r.error().message));
}

void check_construct_json(const std::string& path, const DumpNames& names, FindingSink& sink) {
  sink.set_location(path, 0);
  auto doc = load(path, sink);
  if (!doc) return;
  if (!doc->is_object()) {
    sink.add(FindingKind::schema, "", "", "construct.json: expected an object");
    return;
  }
  const auto& members = doc->as_object();
  if (names.level_known && names.level == Level::L1 && !members.empty())
    sink.add(FindingKind::construct, "", "", "construct.json of a level L1 dump must be {}", "{}",
             fmt::format("{} keys", members.size()));
  std::unordered_set<std::string> keys;
  for (const auto& m : members) keys.insert(m.key);
  for (const auto& m : members) {
    if (m.key == dump::k_megatron_key) continue;
    std::string p;
    dump::append_pointer_token(p, m.key);
    const Value* parent = &m.value;
    if (parent->is_array() && parent->size() == 2 && parent->as_array()[1].is_integer()) parent = &parent->as_array()[0];
    if (parent->is_null() || (parent->is_string() && parent->as_string().empty())) continue;
    if (!parent->is_string()) {
      sink.add(FindingKind::construct, m.key, p, "a parent must be an entry name, null or [parent, micro_step]");
      continue;
    }
    const std::string& pn = parent->as_string();
    // Module backward nodes are absent when msprobe ran with torch < 2 (testdata/msprobe/README.md),
    // so a backward module parent without a node of its own is expected.
    if (keys.count(pn) == 0 && pn != "optimizer" && pn != "clip_grad" &&
        dump::parse_entry_name(pn).kind != dump::EntryKind::module_backward)
      sink.add(FindingKind::construct, m.key, p, fmt::format("parent \"{}\" is not a node of construct.json", pn), "", pn,
               Severity::warning);
  }
  if (!names.level_known || names.level == Level::L1) return;
  for (const auto& name : names.in_order) {
    const auto parsed = dump::parse_entry_name(name);
    const bool needed = parsed.kind == dump::EntryKind::module_forward || (names.level == Level::mix && parsed.is_api());
    if (needed && keys.count(name) == 0)
      sink.add(FindingKind::construct, name, "", "dump.json entry has no construct.json node", name, "");
  }
}

}  // namespace msdump::verify

#include "verify/cross_file.h"

#include <fmt/format.h>

#include "core/byte_source.h"
#include "dump/construct_model.h"
#include "dump/entry_name.h"
#include "dump/leaf_walk.h"
#include "dump/stack_model.h"
#include "pyjson/json_reader.h"
#include "verify/entry_checks.h"

namespace msdump::verify {
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
    else if (names.forward_inputs && names.all.count(name) == 0)
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
    // Module backward nodes are absent when msprobe ran with torch < 2 (samples/README.md), so a
    // backward module parent without a node of its own is expected.
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

#include "verify/entry_checks.h"

#include <fmt/format.h>

#include <map>
#include <unordered_set>

#include "dump/data_name.h"
#include "dump/entry_name.h"
#include "dump/leaf_walk.h"

namespace msdump::verify {
namespace {

using pyjson::Value;

void check_name(const std::string& name, const EntryContext& ctx, const std::string& pointer, FindingSink& sink) {
  const auto parsed = dump::parse_entry_name(name);
  if (parsed.kind == dump::EntryKind::unknown) {
    sink.add(FindingKind::name, name, pointer, "entry name does not follow msprobe's grammar",
             "<Prefix>.<api>.<N>.forward|backward, Module|Cell.<path>.<Class>.forward|backward.<N> or "
             "...parameters_grad.<k>",
             name);
    return;
  }
  if (parsed.kind == dump::EntryKind::debug) {
    sink.add(FindingKind::name, name, pointer, "debug entries belong in debug.json, not dump.json", "", name);
    return;
  }
  if (ctx.level_known && !dump::level_includes(ctx.level, parsed))
    sink.add(FindingKind::name, name, pointer,
             fmt::format("{} entry in a level {} dump", parsed.is_module() ? "module" : "API", to_string(ctx.level)),
             ctx.level == Level::L0 ? "Module/Cell entries only" : "API entries only", name);
  if (parsed.is_module()) {
    const bool ms = ctx.rules.framework == Framework::mindspore;
    if (ms != (parsed.prefix == "Cell"))
      sink.add(FindingKind::name, name, pointer,
               fmt::format("{} modules are named {}.*", to_string(ctx.rules.framework), ms ? "Cell" : "Module"),
               ms ? "Cell." : "Module.", std::string(parsed.prefix) + ".");
  }
}

void check_data_name(const Value& leaf, const std::string& name, const std::string& section,
                     const std::vector<std::string>& path, bool pg, Framework fw, const std::string& pointer,
                     FindingSink& sink) {
  const Value* dn = leaf.find("data_name");
  if (dn == nullptr || !dn->is_string()) return;
  const std::string expected = dump::make_data_name(name, section, path, pg, fw);
  if (dn->as_string() != expected)
    sink.add(FindingKind::data_name, name, pointer + "/data_name",
             "data_name does not match the entry name and the leaf's position", expected, dn->as_string());
}

// Statistics of a leaf as one comparable string ("" when it has none).
std::string stats_signature(const Value& leaf) {
  std::string s;
  for (auto k : {"Max", "Min", "Mean", "Norm"})
    if (const Value* v = leaf.find(k)) s += json_text(v) + "|";
  return s;
}

}  // namespace

void check_duplicate_keys(const Value& v, const std::string& entry, const std::string& pointer, FindingSink& sink) {
  if (v.is_array()) {
    for (std::size_t i = 0; i < v.as_array().size(); ++i)
      check_duplicate_keys(v.as_array()[i], entry, pointer + "/" + std::to_string(i), sink);
    return;
  }
  if (!v.is_object()) return;
  const auto& members = v.as_object();
  if (members.size() > 1) {
    std::unordered_set<std::string_view> seen;
    for (const auto& m : members)
      if (!seen.insert(m.key).second) {
        std::string p = pointer;
        dump::append_pointer_token(p, m.key);
        sink.add(FindingKind::duplicate, entry, p, fmt::format("key \"{}\" appears more than once", m.key),
                 "unique keys", m.key);
      }
  }
  for (const auto& m : members) {
    std::string p = pointer;
    dump::append_pointer_token(p, m.key);
    check_duplicate_keys(m.value, entry, p, sink);
  }
}

void check_entry(const std::string& name, const Value& entry, const EntryContext& ctx, const std::string& pointer,
                 FindingSink& sink) {
  check_name(name, ctx, pointer, sink);
  check_duplicate_keys(entry, name, pointer, sink);
  if (!entry.is_object()) return;  // the schema reports it
  const bool pg = dump::parse_entry_name(name).kind == dump::EntryKind::parameters_grad;
  // md5 -> (statistics signature, pointer) of the first leaf of this entry with that md5.
  std::map<std::string, std::pair<std::string, std::string>> by_md5;
  for (const auto& section : entry.as_object()) {
    std::vector<std::string> path;
    dump::walk_leaves(section.value, path, [&](const Value& leaf, dump::LeafKind kind, const std::vector<std::string>& p) {
      if (kind != dump::LeafKind::tensor && kind != dump::LeafKind::ndarray) return;
      const std::string lp = dump::leaf_pointer(pointer, section.key, p);
      check_tensor_leaf(leaf, kind == dump::LeafKind::ndarray, ctx.rules, name, lp, sink);
      check_data_name(leaf, name, section.key, p, pg, ctx.rules.framework, lp, sink);
      const Value* md5 = leaf.find("md5");
      const std::string sig = stats_signature(leaf);
      if (md5 == nullptr || !md5->is_string() || sig.empty()) return;
      const std::string key = md5->as_string() + "|" + json_text(leaf.find("dtype")) + json_text(leaf.find("shape"));
      auto [it, fresh] = by_md5.emplace(key, std::make_pair(sig, lp));
      // The earlier leaf (an in-place op's input) is the stale one: its checksum was computed
      // after the op had already modified the tensor.
      if (!fresh && it->second.first != sig)
        sink.add(FindingKind::checksum, name, it->second.second + "/md5",
                 fmt::format("md5 {} equals that of {} but the statistics differ: the checksum was taken after "
                             "the tensor changed (in-place op hashed on a background thread)",
                             md5->as_string(), lp),
                 "a checksum of this tensor's own bytes", md5->as_string());
    });
  }
}

}  // namespace msdump::verify

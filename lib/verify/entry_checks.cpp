#include "verify/entry_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_set>

#include "dump/data_name.h"
#include "dump/entry_name.h"
#include "dump/format_signals.h"
#include "dump/leaf_walk.h"

namespace msdump::verify {
namespace {

using pyjson::Value;

}  // namespace

void check_entry_name(const std::string& name, const dump::EntryName& parsed, const EntryContext& ctx,
                      const std::string& pointer, FindingSink& sink) {
  if (parsed.kind == dump::EntryKind::unknown) {
    sink.add(FindingKind::name, name, pointer, "entry name does not follow msprobe's grammar",
             "<Prefix>.<api>.<N>.forward|backward, Module|Cell.<path>.<Class>.forward|backward.<N> or "
             "...parameters_grad[.<k>]",
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

namespace {

void check_data_name(const LeafView& leaf, const std::string& name, const std::string& section,
                     const std::vector<std::string>& path, bool pg, Framework fw, const std::string& pointer,
                     FindingSink& sink) {
  const Value* dn = leaf.find("data_name");
  if (dn == nullptr || !dn->is_string()) return;
  const std::string expected = dump::make_data_name(name, section, path, pg, fw);
  if (dn->as_string() != expected)
    sink.add(FindingKind::data_name, name, pointer + "/data_name",
             "data_name does not match the entry name and the leaf's position", expected, dn->as_string());
}

// Section order of docs/format.md §4.2: forward input_args, input_kwargs, [is_recompute: API],
// output, parameters, [is_recompute: module], is_nan; backward input, output, is_nan.
int section_rank(std::string_view key, const dump::EntryName& n) {
  if (n.is_backward()) return key == "input" ? 0 : key == "output" ? 1 : key == "is_nan" ? 2 : -1;
  if (!n.is_forward()) return -1;
  if (key == "input_args") return 0;
  if (key == "input_kwargs") return 1;
  if (key == "is_recompute") return n.kind == dump::EntryKind::module_forward ? 5 : 2;
  if (key == "output") return 3;
  if (key == "parameters") return 4;
  if (key == "is_nan") return 6;
  return -1;
}

void check_section_order(const Value& entry, const std::string& name, const dump::EntryName& parsed,
                         const std::string& pointer, FindingSink& sink) {
  int last = -1;
  std::string last_key;
  for (const auto& m : entry.as_object()) {
    const int r = section_rank(m.key, parsed);
    if (r < 0) continue;  // unknown sections are the schema's business
    if (r < last) {
      std::string p = pointer;
      dump::append_pointer_token(p, m.key);
      sink.add(FindingKind::schema, name, p, fmt::format("section \"{}\" comes after \"{}\"", m.key, last_key),
               "input_args, input_kwargs, output, parameters (forward) or input, output (backward)", m.key);
    }
    last = std::max(last, r);
    if (r == last) last_key = m.key;
  }
}

// Key order of a tensor leaf (docs/format.md §5.1, §5.2): type, dtype, shape, Max, Min, Mean, Norm,
// requires_grad / layout, hsdp_shard_size, device_mesh, placements, data_name, md5; in xor mode
// md5 right after shape. md5 may also precede data_name (diff-check dumps).
int leaf_key_rank(std::string_view key, bool xor_mode) {
  static constexpr std::pair<std::string_view, int> k_ranks[] = {
      {"type", 0}, {"dtype", 1}, {"shape", 2}, {"Max", 4}, {"Min", 5}, {"Mean", 6}, {"Norm", 7},
      {"hsdp_shard_size", 8}, {"requires_grad", 9}, {"device_mesh", 10}, {"placements", 11}, {"data_name", 12}};
  if (key == "md5") return xor_mode ? 3 : 12;
  for (const auto& [k, r] : k_ranks)
    if (k == key) return r;
  return -1;  // layout (position depends on its truthiness) and unknown keys
}

void check_leaf_key_order(const LeafView& view, const std::string& name, const std::string& pointer, FindingSink& sink) {
  const bool xor_mode = view.find("Max") == nullptr;
  const Value& leaf = view.value();
  int last = -1;
  std::string_view last_key;
  for (const auto& m : leaf.as_object()) {
    const int r = leaf_key_rank(m.key, xor_mode);
    if (r < 0) continue;
    if (r < last) {
      sink.add(FindingKind::schema, name, pointer + "/" + m.key,
               fmt::format("leaf key \"{}\" comes after \"{}\"", m.key, last_key),
               "type, dtype, shape, Max, Min, Mean, Norm, requires_grad, data_name, md5", m.key);
    }
    if (r >= last) {
      last = r;
      last_key = m.key;
    }
  }
}

// Whether two leaves carry the same statistics (all four keys, value for value).
bool same_statistics(const Value& a, const Value& b) {
  for (auto k : {"Max", "Min", "Mean", "Norm"}) {
    const Value *x = a.find(k), *y = b.find(k);
    if ((x == nullptr) != (y == nullptr) || (x != nullptr && !x->identical(*y))) return false;
  }
  return true;
}

// data_name appears exactly where msprobe saves tensor files: only with a dump_data_dir, and in
// task tensor for every tensor that has data (not empty in PyTorch, not meta/fake).
void check_data_name_presence(const LeafView& leaf, dump::LeafKind kind, const EntryContext& ctx, const std::string& name,
                              const std::string& pointer, FindingSink& sink) {
  const bool has = leaf.find("data_name") != nullptr;
  if (has && !ctx.has_dump_data_dir) {
    sink.add(FindingKind::data_name, name, pointer + "/data_name",
             "data_name in a dump whose dump_data_dir is null (no tensor files were saved)", "no data_name",
             json_text(leaf.find("data_name")));
    return;
  }
  if (has || ctx.task != "tensor" || kind != dump::LeafKind::tensor) return;
  const Value* type = leaf.find("type");
  if (type == nullptr || !type->is_string() ||
      (type->as_string() != "torch.Tensor" && type->as_string() != "mindspore.Tensor"))
    return;  // fake, meta, batched... tensors are never saved
  const Value* max = leaf.find("Max");
  const Value* shape = leaf.find("shape");
  bool empty = false;
  if (shape != nullptr && shape->is_array())
    for (const auto& d : shape->as_array()) empty = empty || (d.is_integer() && d.kind() == pyjson::Kind::integer && d.as_int() == 0);
  if (max == nullptr || max->is_null() || (empty && ctx.rules.framework == Framework::pytorch)) return;
  sink.add(FindingKind::data_name, name, pointer, "a tensor of a task tensor dump has no data_name", "a data_name", "");
}

}  // namespace

namespace {

bool has_duplicate_keys(const pyjson::Object& members) {
  return pyjson::has_repeated_key(members.data(), members.size());
}

// `pointer` is extended and restored in place, so the walk allocates nothing per value.
void duplicate_walk(const Value& v, const std::string& entry, std::string& pointer, FindingSink& sink) {
  const std::size_t mark = pointer.size();
  if (v.is_array()) {
    const auto& items = v.as_array();
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (!items[i].is_array() && !items[i].is_object()) continue;
      pointer += '/';
      pointer += std::to_string(i);
      duplicate_walk(items[i], entry, pointer, sink);
      pointer.resize(mark);
    }
    return;
  }
  if (!v.is_object()) return;
  const auto& members = v.as_object();
  if (members.size() > 1 && has_duplicate_keys(members)) {
    std::unordered_set<std::string_view> seen;
    for (const auto& m : members)
      if (!seen.insert(m.key).second) {
        dump::append_pointer_token(pointer, m.key);
        sink.add(FindingKind::duplicate, entry, pointer, fmt::format("key \"{}\" appears more than once", m.key),
                 "unique keys", m.key);
        pointer.resize(mark);
      }
  }
  for (const auto& m : members) {
    if (!m.value.is_array() && !m.value.is_object()) continue;
    dump::append_pointer_token(pointer, m.key);
    duplicate_walk(m.value, entry, pointer, sink);
    pointer.resize(mark);
  }
}

}  // namespace

void check_duplicate_keys(const Value& v, const std::string& entry, const std::string& pointer, FindingSink& sink) {
  std::string p = pointer;
  duplicate_walk(v, entry, p, sink);
}

void check_entry(const std::string& name, const Value& entry, const EntryContext& ctx, const std::string& pointer,
                 FindingSink& sink) {
  check_entry(name, entry, ctx, pointer, sink, nullptr);
}

void check_entry(const std::string& name, const Value& entry, const EntryContext& ctx, const std::string& pointer,
                 FindingSink& sink, EntryTally* tally, bool no_duplicate_keys) {
  const auto parsed = dump::parse_entry_name(name);
  check_entry_name(name, parsed, ctx, pointer, sink);
  if (!no_duplicate_keys) check_duplicate_keys(entry, name, pointer, sink);
  if (!entry.is_object()) return;  // the schema reports it
  std::uint32_t signals = dump::entry_signals(parsed, entry, ctx.rules.framework);
  check_section_order(entry, name, parsed, pointer, sink);
  const bool pg = parsed.kind == dump::EntryKind::parameters_grad;
  // md5|dtype|shape -> (the first leaf of this entry with that checksum, its pointer)
  std::map<std::string, std::pair<const Value*, std::string>> by_md5;
  // Reused for every leaf of every entry (this thread's): no allocation per leaf.
  thread_local std::vector<std::string> path;
  thread_local std::string lp;
  for (const auto& section : entry.as_object()) {
    path.clear();
    dump::walk_leaves(section.value, path, [&](const Value& leaf, dump::LeafKind kind, const std::vector<std::string>& p) {
      if (kind != dump::LeafKind::tensor && kind != dump::LeafKind::ndarray) return;
      if (tally != nullptr) ++tally->leaves;
      lp = pointer;
      dump::append_pointer_token(lp, section.key);
      for (const auto& c : p) dump::append_pointer_token(lp, c);
      const LeafView view(leaf);
      check_tensor_leaf(view, kind == dump::LeafKind::ndarray, ctx.rules, name, lp, sink, &signals);
      check_data_name(view, name, section.key, p, pg, ctx.rules.framework, lp, sink);
      if (kind == dump::LeafKind::tensor) check_leaf_key_order(view, name, lp, sink);
      check_data_name_presence(view, kind, ctx, name, lp, sink);
      const Value* md5 = view.find("md5");
      if (md5 == nullptr || !md5->is_string() || view.find("Max") == nullptr) return;
      const std::string key = md5->as_string() + "|" + json_text(view.find("dtype")) + json_text(view.find("shape"));
      auto [it, fresh] = by_md5.emplace(key, std::make_pair(&leaf, lp));
      // The earlier leaf (an in-place op's input) is the stale one: its checksum was computed
      // after the op had already modified the tensor. msprobe itself writes this (its race), so
      // it is a warning: the dump is valid msprobe output, only that checksum is unreliable.
      if (!fresh && !same_statistics(*it->second.first, leaf))
        sink.add(FindingKind::checksum, name, it->second.second + "/md5",
                 fmt::format("md5 {} equals that of {} but the statistics differ: the checksum was taken after "
                             "the tensor changed (in-place op hashed on a background thread)",
                             md5->as_string(), lp),
                 "a checksum of this tensor's own bytes", md5->as_string(), Severity::warning);
    });
  }
  if (tally != nullptr) tally->signals |= signals;
}

}  // namespace msdump::verify

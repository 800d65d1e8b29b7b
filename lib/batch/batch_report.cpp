#include "batch/batch_report.h"

#include <algorithm>
#include <fmt/format.h>

#include "pyjson/json_reader.h"
#include "pyjson/json_writer.h"

namespace msdump::batch {
namespace {

using pyjson::Value;

// 2: with "run" and "shard". Version 1 reports (no shard information) cannot be merged safely.
constexpr int k_report_version = 2;

const std::array<ItemStatus, 4> k_statuses{ItemStatus::ok, ItemStatus::findings, ItemStatus::failed, ItemStatus::skipped};

Result<std::string> string_at(const Value& obj, std::string_view key, const std::string& where) {
  const Value* v = obj.find(key);
  if (v == nullptr || !v->is_string()) return invalid_input(fmt::format("{}/{}: expected a string", where, key));
  return v->as_string();
}

Result<std::uint64_t> count_at(const Value& obj, std::string_view key, const std::string& where) {
  const Value* v = obj.find(key);
  if (v == nullptr || v->kind() != pyjson::Kind::integer || v->as_int() < 0)
    return invalid_input(fmt::format("{}/{}: expected a non-negative integer", where, key));
  return static_cast<std::uint64_t>(v->as_int());
}

void write_item(pyjson::JsonWriter& w, const WorkItem& item, const ItemOutcome& o) {
  w.begin_object();
  w.key("key"); w.value(item.key);
  w.key("input"); w.value(item.input);
  w.key("step"); w.value(item.step);
  w.key("rank"); w.value(item.rank);
  w.key("status"); w.value(to_string(o.status));
  w.key("message"); w.value(o.message);
  w.key("output"); w.value(o.output);
  w.key("entries"); w.value(o.entries);
  w.key("tensors"); w.value(o.tensors);
  w.key("errors"); w.value(o.errors);
  w.key("warnings"); w.value(o.warnings);
  w.key("details");
  w.begin_array();
  for (const auto& d : o.details) w.value(d);
  w.end_array();
  w.end_object();
}

// "summary": items per status and the totals.
void write_summary(pyjson::JsonWriter& w, const BatchReport& r) {
  std::uint64_t counts[4] = {0, 0, 0, 0};
  std::uint64_t entries = 0, tensors = 0, errors = 0, warnings = 0;
  for (const auto& [item, o] : r.items) {
    ++counts[static_cast<int>(o.status)];
    entries += o.entries;
    tensors += o.tensors;
    errors += o.errors;
    warnings += o.warnings;
  }
  w.key("summary");
  w.begin_object();
  w.key("items"); w.value(static_cast<std::uint64_t>(r.items.size()));
  for (auto s : k_statuses) {
    w.key(to_string(s));
    w.value(counts[static_cast<int>(s)]);
  }
  w.key("entries"); w.value(entries);
  w.key("tensors"); w.value(tensors);
  w.key("errors"); w.value(errors);
  w.key("warnings"); w.value(warnings);
  w.key("clean"); w.value(r.clean());
  w.end_object();
}

Result<BatchReport::Item> item_from_json(const Value& v, const std::string& where) {
  if (!v.is_object()) return invalid_input(where + ": expected an object");
  BatchReport::Item it;
  for (auto [key, field] : {std::pair{"key", &it.item.key}, std::pair{"input", &it.item.input},
                            std::pair{"step", &it.item.step}, std::pair{"rank", &it.item.rank},
                            std::pair{"message", &it.outcome.message}, std::pair{"output", &it.outcome.output}}) {
    auto s = string_at(v, key, where);
    if (!s) return s.error();
    *field = *s;
  }
  auto status = string_at(v, "status", where);
  if (!status) return status.error();
  auto found = std::find_if(k_statuses.begin(), k_statuses.end(), [&](ItemStatus s) { return to_string(s) == *status; });
  if (found == k_statuses.end()) return invalid_input(fmt::format("{}/status: unknown status \"{}\"", where, *status));
  it.outcome.status = *found;
  for (auto [key, field] : {std::pair{"entries", &it.outcome.entries}, std::pair{"tensors", &it.outcome.tensors},
                            std::pair{"errors", &it.outcome.errors}, std::pair{"warnings", &it.outcome.warnings}}) {
    auto n = count_at(v, key, where);
    if (!n) return n.error();
    *field = *n;
  }
  if (const Value* d = v.find("details"); d != nullptr && d->is_array())
    for (const auto& line : d->as_array())
      if (line.is_string()) it.outcome.details.push_back(line.as_string());
  return it;
}

Result<RunIdentity> run_from_json(const Value& doc, const std::string& name) {
  const Value* run = doc.find("run");
  const std::string where = name + ": /run";
  if (run == nullptr || !run->is_object()) return invalid_input(where + ": expected an object");
  RunIdentity id;
  auto items = count_at(*run, "items", where);
  if (!items) return items.error();
  id.items = *items;
  for (auto [key, field] : {std::pair{"inputs", &id.inputs}, std::pair{"options", &id.options}}) {
    auto s = string_at(*run, key, where);
    if (!s) return s.error();
    *field = *s;
  }
  return id;
}

}  // namespace

bool BatchReport::clean() const {
  return std::all_of(items.begin(), items.end(), [](const Item& i) {
    return i.outcome.status == ItemStatus::ok || i.outcome.status == ItemStatus::skipped;
  });
}

Verdict verdict(const BatchReport& r) {
  Verdict v = Verdict::clean;
  for (const auto& it : r.items) {
    if (it.outcome.status == ItemStatus::failed) return Verdict::failed;
    if (it.outcome.status == ItemStatus::findings) v = Verdict::findings;
  }
  return v;
}

Result<std::string> to_json(const BatchReport& r) {
  std::string out;
  pyjson::JsonWriter w(out);
  w.begin_object();
  w.key("msdump_batch_report"); w.value(k_report_version);
  w.key("command"); w.value(r.command);
  w.key("run");
  w.begin_object();
  w.key("items"); w.value(r.run.items);
  w.key("inputs"); w.value(r.run.inputs);
  w.key("options"); w.value(r.run.options);
  w.end_object();
  w.key("shard"); w.value(fmt::format("{}/{}", r.shard.index, r.shard.count));
  w.key("items");
  w.begin_array();
  for (const auto& [item, o] : r.items) write_item(w, item, o);
  w.end_array();
  write_summary(w, r);
  w.end_object();
  if (auto f = w.finish(); !f) return f.error();
  return out;
}

Result<BatchReport> report_from_json(std::string_view text, const std::string& name) {
  auto doc = pyjson::parse_json(text);
  if (!doc) return doc.error().with_context(name);
  const Value* version = doc->is_object() ? doc->find("msdump_batch_report") : nullptr;
  if (version == nullptr)
    return invalid_input(fmt::format("{}: not an msdump batch report (written by --batch-report)", name));
  if (version->kind() != pyjson::Kind::integer || version->as_int() != k_report_version)
    return invalid_input(fmt::format("{}: /msdump_batch_report: expected version {} (a report without its shard and "
                                     "run, from an older msdump, cannot be merged: run the shards again)",
                                     name, k_report_version));
  BatchReport r;
  auto cmd = string_at(*doc, "command", name + ": ");
  if (!cmd) return cmd.error();
  r.command = *cmd;
  auto run = run_from_json(*doc, name);
  if (!run) return run.error();
  r.run = std::move(*run);
  auto shard = string_at(*doc, "shard", name + ": ");
  if (!shard) return shard.error();
  auto parsed = parse_shard(*shard);
  if (!parsed) return invalid_input(fmt::format("{}: /shard: expected \"K/N\" with 0 <= K < N, got \"{}\"", name, *shard));
  r.shard = *parsed;
  const Value* items = doc->find("items");
  if (items == nullptr || !items->is_array()) return invalid_input(fmt::format("{}: /items: expected a list", name));
  for (std::size_t i = 0; i < items->size(); ++i) {
    auto it = item_from_json(items->as_array()[i], fmt::format("{}: /items/{}", name, i));
    if (!it) return it.error();
    r.items.push_back(std::move(*it));
  }
  return r;
}

void print_summary_table(const BatchReport& r, std::ostream& out) {
  out << fmt::format("{:<12} {:<12} {:<9} {:>8} {:>8} {:>7} {:>8} {:>8}  {}\n", "step", "rank", "status", "entries",
                     "tensors", "errors", "warnings", "seconds", "input");
  std::uint64_t entries = 0, tensors = 0, errors = 0, warnings = 0;
  double seconds = 0;
  std::size_t bad = 0;
  for (const auto& [item, o] : r.items) {
    out << fmt::format("{:<12} {:<12} {:<9} {:>8} {:>8} {:>7} {:>8} {:>8.2f}  {}\n", item.step.empty() ? "-" : item.step,
                       item.rank.empty() ? "-" : item.rank, to_string(o.status), o.entries, o.tensors, o.errors,
                       o.warnings, o.seconds, item.key);
    if (o.status == ItemStatus::failed) out << "    " << o.message << "\n";
    entries += o.entries;
    tensors += o.tensors;
    errors += o.errors;
    warnings += o.warnings;
    seconds += o.seconds;
    bad += (o.status == ItemStatus::failed || o.status == ItemStatus::findings) ? 1 : 0;
  }
  out << fmt::format("{:<12} {:<12} {:<9} {:>8} {:>8} {:>7} {:>8} {:>8.2f}  {} items, {} with problems\n", "total", "",
                     "", entries, tensors, errors, warnings, seconds, r.items.size(), bad);
}

}  // namespace msdump::batch

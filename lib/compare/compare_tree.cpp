#include "compare/compare_tree.h"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <iostream>
#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "batch/batch_runner.h"
#include "batch/run_identity.h"
#include "dump/dump_paths.h"

namespace msdump::compare {
namespace {

namespace fs = std::filesystem;

std::optional<std::int64_t> number_after(const std::string& s, std::size_t prefix) {
  if (s.size() <= prefix) return std::nullopt;
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data() + prefix, s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

struct Found {
  std::optional<std::int64_t> step, rank;          // from the whole path (shown)
  std::optional<std::int64_t> key_step, key_rank;  // from the path below the root (pairs)
  std::string rank_dir;  // "rank0", "proc1", "" (names the table)
  std::string json;      // its dump.json
};

Result<std::vector<Found>> find_dumps(const std::string& root) {
  auto items = batch::discover({root});
  if (!items) return items.error();
  std::vector<Found> out;
  for (const auto& it : *items) {
    const auto json = fs::is_regular_file(it.input) ? it.input : (fs::path(it.input) / dump::k_dump_json).string();
    std::error_code ec;
    if (!fs::is_regular_file(json, ec)) continue;  // a capture directory: nothing to compare
    Found f{it.step.empty() ? std::nullopt : number_after(it.step, 4),
            it.rank.empty() ? std::nullopt : number_after(it.rank, 4), {}, {}, it.rank, json};
    // Two roots pair by what lies below them: step0/ against bench/ pairs their rank dirs.
    for (const auto& part : fs::path(it.relative)) {
      const auto s = part.string();
      if (s.starts_with("step") && number_after(s, 4)) f.key_step = number_after(s, 4);
      else if ((s.starts_with("rank") || s.starts_with("proc")) && number_after(s, 4)) f.key_rank = number_after(s, 4);
    }
    out.push_back(std::move(f));
  }
  if (out.empty()) return invalid_input(fmt::format("'{}': no dump.json found below it", root));
  return out;
}

using Key = std::pair<std::int64_t, std::int64_t>;  // (step, rank); -1 when absent
Key key_of(const Found& f) { return {f.key_step.value_or(-1), f.key_rank.value_or(-1)}; }

PairItem make_pair(const Found& n, const Found& b, const std::string& out_dir, bool per_step, const std::string& ts) {
  PairItem p{n.step, n.rank, n.json, b.json, {}};
  p.spec.npu = n.json;
  p.spec.bench = b.json;
  p.spec.output_dir = per_step && n.step ? (fs::path(out_dir) / fmt::format("step{}", *n.step)).string() : out_dir;
  p.spec.table_stem = n.rank_dir.empty() ? "compare_result" : "compare_result_" + n.rank_dir;
  p.spec.timestamp = ts;
  return p;
}

std::string pair_name(const PairItem& p) {
  if (!p.step && !p.rank) return p.npu;
  std::string s;
  if (p.step) s = fmt::format("step{}", *p.step);
  if (p.rank) s += fmt::format("{}rank{}", s.empty() ? "" : "/", *p.rank);
  return s;
}

batch::ItemOutcome outcome_of(const Result<PairResult>& r, bool strict) {
  batch::ItemOutcome o;
  if (!r) {
    o.status = batch::ItemStatus::failed;
    o.message = r.error().message;
    return o;
  }
  o.entries = r->rows;
  o.errors = r->errors;
  o.warnings = r->warnings;
  o.bytes = r->bytes;
  if (!r->tables.empty()) o.output = r->tables.front();
  for (const auto& p : r->problems) o.details.push_back(problem_text(p));
  if (!r->problems.empty()) {
    o.status = batch::ItemStatus::failed;
    o.message = o.details.front();
  } else if (r->errors > 0 || (strict && r->warnings > 0)) {
    o.status = batch::ItemStatus::findings;
  }
  return o;
}

// The earliest step, then the lowest rank, among pairs with an answer of one kind.
std::optional<TreeLocator> tree_answer(const TreeResult& t, std::optional<Locator> PairAnswer::*kind) {
  std::optional<TreeLocator> best;
  for (std::size_t i = 0; i < t.pairs.size(); ++i) {
    if (!t.results[i] || !(t.results[i]->answer.*kind)) continue;
    const auto& p = t.pairs[i];
    if (best && best->step == p.step) {
      if (p.rank) best->ranks.push_back(*p.rank);
      continue;
    }
    if (best) continue;  // pairs are sorted by step: a later step never wins
    best = TreeLocator{p.step, p.rank, *(t.results[i]->answer.*kind), {}};
    if (p.rank) best->ranks.push_back(*p.rank);
  }
  return best;
}

}  // namespace

std::string table_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  localtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%d%H%M%S", &tm);
  return buf;
}

Result<std::pair<std::vector<PairItem>, std::vector<Unpaired>>> pair_inputs(const std::string& npu,
                                                                            const std::string& bench,
                                                                            const std::string& out_dir,
                                                                            const std::string& ts) {
  std::error_code ec;
  const bool npu_file = fs::is_regular_file(npu, ec), bench_file = fs::is_regular_file(bench, ec);
  if (npu_file != bench_file)
    return invalid_input(fmt::format("'{}' is a {} but '{}' is a {}: give two dump.json files or two directories", npu,
                                     npu_file ? "file" : "directory", bench, bench_file ? "file" : "directory"));
  std::vector<PairItem> pairs;
  std::vector<Unpaired> unpaired;
  if (npu_file) {
    Found n{{}, {}, {}, {}, "", npu}, b{{}, {}, {}, {}, "", bench};
    pairs.push_back(make_pair(n, b, out_dir, false, ts));
    return std::pair{pairs, unpaired};
  }
  auto ns = find_dumps(npu);
  if (!ns) return ns.error();
  auto bs = find_dumps(bench);
  if (!bs) return bs.error();
  if (ns->size() == 1 && bs->size() == 1) {
    pairs.push_back(make_pair(ns->front(), bs->front(), out_dir, false, ts));
    return std::pair{pairs, unpaired};
  }
  std::map<Key, const Found*> by_key_n, by_key_b;
  for (const auto& f : *ns)
    if (!by_key_n.emplace(key_of(f), &f).second)
      return invalid_input(fmt::format("'{}': two dumps of one step and rank ('{}' and '{}')", npu, by_key_n[key_of(f)]->json, f.json));
  for (const auto& f : *bs)
    if (!by_key_b.emplace(key_of(f), &f).second)
      return invalid_input(fmt::format("'{}': two dumps of one step and rank ('{}' and '{}')", bench, by_key_b[key_of(f)]->json, f.json));
  std::set<std::int64_t> steps;
  for (const auto& [k, f] : by_key_n) steps.insert(k.first);
  const bool per_step = steps.size() > 1;
  for (const auto& [k, f] : by_key_n) {
    auto it = by_key_b.find(k);
    if (it == by_key_b.end()) unpaired.push_back({"npu", f->step, f->rank, f->json});
    else pairs.push_back(make_pair(*f, *it->second, out_dir, per_step, ts));
  }
  for (const auto& [k, f] : by_key_b)
    if (!by_key_n.count(k)) unpaired.push_back({"bench", f->step, f->rank, f->json});
  return std::pair{pairs, unpaired};
}

Result<TreeResult> compare_tree(const TreeOptions& o) {
  auto paired = pair_inputs(o.npu, o.bench, o.output_dir, table_timestamp());
  if (!paired) return paired.error();
  TreeResult t;
  auto& [pairs, unpaired] = *paired;
  // Shards take whole steps, as batch shards take whole groups: step s (in sorted order) goes
  // to shard s % N, with its unpaired dumps.
  std::set<std::int64_t> steps;
  for (const auto& p : pairs) steps.insert(p.step.value_or(-1));
  for (const auto& u : unpaired) steps.insert(u.step.value_or(-1));
  const auto mine = [&](std::optional<std::int64_t> step) {
    if (!o.shard) return true;
    const auto pos = static_cast<std::size_t>(std::distance(steps.begin(), steps.find(step.value_or(-1))));
    return pos % o.shard->count == o.shard->index;
  };
  const auto work_item = [&](const PairItem& p) {
    batch::WorkItem w;
    w.input = p.npu;
    w.root = o.npu;
    w.key = pair_name(p);
    w.step = p.step ? fmt::format("step{}", *p.step) : "";
    w.rank = p.rank ? fmt::format("rank{}", *p.rank) : "";
    w.group = w.step;
    return w;
  };
  std::vector<batch::WorkItem> whole, items;
  for (const auto& p : pairs) whole.push_back(work_item(p));
  t.report.run = batch::identify_run(whole, o.run_options);
  for (auto& p : pairs)
    if (mine(p.step)) {
      items.push_back(work_item(p));
      t.pairs.push_back(std::move(p));
    }
  for (auto& u : unpaired)
    if (mine(u.step)) t.unpaired.push_back(std::move(u));
  t.results.resize(t.pairs.size());
  CompareOptions per_pair = o.compare;
  if (o.jobs > 1 && t.pairs.size() > 1) per_pair.threads = 1;
  batch::Progress progress(o.progress_out ? *o.progress_out : std::cerr,
                           items.size() < 2 ? batch::ProgressStyle::none : o.progress, items.size());
  auto outcomes = batch::run_batch(items, std::max(1, o.jobs), [&](const batch::WorkItem&, std::size_t i) {
    auto r = compare_pair(t.pairs[i].spec, per_pair);
    auto out = outcome_of(r, o.strict);
    if (r) t.results[i] = std::move(*r);
    return out;
  }, progress);
  t.report.command = "compare";
  if (o.shard) t.report.shard = *o.shard;
  for (std::size_t i = 0; i < items.size(); ++i) t.report.items.push_back({items[i], outcomes[i]});
  for (const auto& r : t.results)
    if (r) { t.mode = r->mode; break; }
  t.first_difference = tree_answer(t, &PairAnswer::first_difference);
  t.first_divergence = tree_answer(t, &PairAnswer::first_divergence);
  return t;
}

}  // namespace msdump::compare

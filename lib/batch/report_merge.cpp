#include "batch/report_merge.h"

#include <algorithm>
#include <fmt/format.h>
#include <map>

namespace msdump::batch {
namespace {

std::string shard_text(const Shard& s) { return fmt::format("{}/{}", s.index, s.count); }

// What sets two runs apart, for the error message.
std::string run_difference(const RunIdentity& a, const RunIdentity& b) {
  if (a.items != b.items || a.inputs != b.inputs)
    return fmt::format("their work lists differ ({} items, {} vs {} items, {})", a.items, a.inputs, b.items, b.inputs);
  return fmt::format("their options differ (\"{}\" vs \"{}\")", a.options, b.options);
}

// Every report is of the same command, run and N as the first one.
Result<void> check_same_run(const std::vector<NamedReport>& shards) {
  const auto& first = shards.front();
  for (const auto& s : shards) {
    if (s.report.command != first.report.command)
      return invalid_input(fmt::format("cannot merge '{}' ({} report) with '{}' ({} report)", first.name,
                                       first.report.command, s.name, s.report.command));
    if (s.report.run != first.report.run)
      return invalid_input(fmt::format("'{}' and '{}' are shards of different runs: {}", first.name, s.name,
                                       run_difference(first.report.run, s.report.run)));
    if (s.report.shard.count != first.report.shard.count)
      return invalid_input(fmt::format("'{}' is shard {} but '{}' is shard {}: the shards of one run share N",
                                       first.name, shard_text(first.report.shard), s.name, shard_text(s.report.shard)));
  }
  return {};
}

// Each K of 0..N-1 exactly once.
Result<void> check_complete(const std::vector<NamedReport>& shards) {
  std::map<std::size_t, const std::string*> seen;
  for (const auto& s : shards) {
    auto [at, inserted] = seen.emplace(s.report.shard.index, &s.name);
    if (!inserted)
      return invalid_input(fmt::format("shard {} given twice: '{}' and '{}'", shard_text(s.report.shard), *at->second,
                                       s.name));
  }
  const std::size_t n = shards.front().report.shard.count;
  std::vector<std::string> missing;
  for (std::size_t k = 0; k < n; ++k)
    if (!seen.contains(k)) missing.push_back(fmt::format("{}/{}", k, n));
  if (missing.empty()) return {};
  return invalid_input(fmt::format("shard{} {} of the run {} missing ({} of {} shard reports given); a shard "
                                   "without a report did not finish: run it again, then merge",
                                   missing.size() > 1 ? "s" : "", fmt::join(missing, ", "),
                                   missing.size() > 1 ? "are" : "is", shards.size(), n));
}

}  // namespace

Result<BatchReport> merge_reports(std::vector<NamedReport> shards) {
  if (shards.empty()) return invalid_input("no batch reports to merge");
  if (auto r = check_same_run(shards); !r) return r.error();
  if (auto r = check_complete(shards); !r) return r.error();
  BatchReport out;
  out.command = shards.front().report.command;
  out.run = shards.front().report.run;
  out.shard = Shard{0, 1};
  for (auto& s : shards)
    for (auto& it : s.report.items) out.items.push_back(std::move(it));
  std::sort(out.items.begin(), out.items.end(),
            [](const BatchReport::Item& a, const BatchReport::Item& b) { return a.item.key < b.item.key; });
  for (std::size_t i = 1; i < out.items.size(); ++i)
    if (out.items[i].item.key == out.items[i - 1].item.key)
      return invalid_input(fmt::format("'{}' appears in more than one shard report", out.items[i].item.key));
  if (out.items.size() != out.run.items)
    return invalid_input(fmt::format("the shard reports hold {} items but their run's work list has {}",
                                     out.items.size(), out.run.items));
  return out;
}

}  // namespace msdump::batch

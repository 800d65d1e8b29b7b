#include "anomalies/tree_scan.h"

#include <fmt/format.h>
#include <iostream>

#include "batch/run_identity.h"

namespace msdump::anomalies {
namespace {

batch::ItemOutcome outcome_of(const DumpAnomalies& d, bool strict) {
  batch::ItemOutcome out;
  const DumpAnalysis& a = d.analysis;
  out.entries = a.entries;
  out.errors = a.origins;
  out.warnings = a.count(Severity::warning);
  out.bytes = d.bytes;
  out.seconds = d.seconds;
  out.status = out.errors > 0 || (strict && out.warnings > 0) ? batch::ItemStatus::findings : batch::ItemStatus::ok;
  for (const auto& x : a.anomalies)
    out.details.push_back(fmt::format("{} [{}] {} {}: {}", to_string(severity_of(x.role)), to_string(x.role), x.entry,
                                      x.pointer, x.message));
  return out;
}

// The options that change an item's result, as flags, for the batch report's run identity
// (batch/run_identity.h): shards of one run must agree on them.
std::string result_options(const TreeScanOptions& o) {
  std::string f;
  auto add = [&](std::string_view flag, std::string_view value = {}) {
    f += (f.empty() ? "" : " ") + std::string(flag);
    if (!value.empty()) f += fmt::format(" '{}'", value);
  };
  if (o.scan.tensors) add("--tensors", *o.scan.tensors);
  if (!o.scan.use_tensors) add("--no-tensors");
  if (o.scan.overflow_fraction != 1.0) add("--overflow-fraction", fmt::format("{}", o.scan.overflow_fraction));
  if (o.strict) add("--strict");
  return f;
}

}  // namespace

Result<TreeScanResult> scan_tree(const TreeScanOptions& o) {
  auto found = batch::discover(o.batch.roots);
  if (!found) return found.error();
  TreeScanResult result;
  result.report.command = "anomalies";
  result.report.run = batch::identify_run(*found, result_options(o));
  if (o.batch.shard) result.report.shard = *o.batch.shard;
  const auto items = o.batch.shard ? batch::select_shard(*found, *o.batch.shard) : std::move(*found);
  std::vector<std::optional<DumpAnomalies>> scanned(items.size());
  std::ostream& progress_out = o.batch.progress_out != nullptr ? *o.batch.progress_out : std::cerr;
  batch::Progress progress(progress_out, items.size() < 2 ? batch::ProgressStyle::none : o.batch.progress, items.size());
  auto outcomes = batch::run_batch(items, o.batch.jobs, [&](const batch::WorkItem& item, std::size_t index) {
    ScanDumpOptions so = o.scan;
    so.path = item.input;
    auto r = scan_dump(so);
    if (!r) {
      batch::ItemOutcome failed;
      failed.status = batch::ItemStatus::failed;
      failed.message = r.error().message;
      return failed;
    }
    auto out = outcome_of(*r, o.strict);
    scanned[index] = std::move(*r);
    return out;
  }, progress);

  for (std::size_t i = 0; i < items.size(); ++i) {
    if (scanned[i])
      result.dumps.push_back({items[i].key, items[i].group, number_suffix(items[i].step), number_suffix(items[i].rank),
                              std::move(*scanned[i])});
    result.report.items.push_back({items[i], std::move(outcomes[i])});
  }
  result.summary = summarize(result.dumps);
  return result;
}

}  // namespace msdump::anomalies

#include "anomalies/tree_scan.h"

#include <fmt/format.h>
#include <iostream>

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

}  // namespace

Result<TreeScanResult> scan_tree(const TreeScanOptions& o) {
  auto found = batch::discover(o.batch.roots);
  if (!found) return found.error();
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

  TreeScanResult result;
  result.report.command = "anomalies";
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

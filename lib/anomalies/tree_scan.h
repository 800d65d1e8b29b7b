#pragma once
// anomalies over a batch: every dump below the roots (a dump directory, a dump.json, or a tree
// of step<N>/rank<R> at any depth, as verify finds them), scanned in parallel (--jobs), one
// bad dump never stopping the others, then put together (tree_summary.h).

#include <vector>

#include "anomalies/dump_scan.h"
#include "anomalies/tree_summary.h"
#include "batch/batch.h"
#include "core/result.h"

namespace msdump::anomalies {

struct TreeScanOptions {
  batch::BatchOptions batch;
  ScanDumpOptions scan;  // path is ignored
  bool strict = false;   // warnings make a dump's status "findings"
};

struct TreeScanResult {
  batch::BatchReport report;       // every item, failed ones included
  std::vector<DumpResult> dumps;   // the dumps that could be scanned, in work-list order
  TreeSummary summary;
};

Result<TreeScanResult> scan_tree(const TreeScanOptions& options);

}  // namespace msdump::anomalies

#pragma once
// The batch report: one JSON document per run (or per shard) listing every item with its
// status and counts, in work-list order, and a summary; it records which shard K/N of which run
// (run_identity.h) it covers, an unsharded run being shard 0/1. It holds no timings, so the
// report of an unsharded run and `msdump report merge` of its shards' reports (report_merge.h)
// are byte-identical. The summary table (text) adds seconds per item for people.

#include <ostream>
#include <string>
#include <vector>

#include "batch/batch_runner.h"
#include "batch/run_identity.h"
#include "batch/work_list.h"
#include "core/result.h"

namespace msdump::batch {

struct BatchReport {
  std::string command;  // "convert" | "verify"
  RunIdentity run;
  Shard shard;          // 0/1: the whole run
  struct Item {
    WorkItem item;
    ItemOutcome outcome;
  };
  std::vector<Item> items;  // sorted by item.key
  bool clean() const;       // every item ok or skipped
};

// What a report says as a whole: failed if an item could not be processed, else findings if an
// item has findings, else clean.
enum class Verdict { clean, findings, failed };
Verdict verdict(const BatchReport& report);

// Python json.dump(indent=1)-style JSON of the report.
Result<std::string> to_json(const BatchReport& report);
// Parses a report written by to_json (errors name `name` and the JSON path).
Result<BatchReport> report_from_json(std::string_view text, const std::string& name);

// The per-item table: step, rank, status, entries, tensors, errors, warnings, seconds; then a
// total line.
void print_summary_table(const BatchReport& report, std::ostream& out);

}  // namespace msdump::batch

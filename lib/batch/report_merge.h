#pragma once
// `msdump report merge`: the batch report of one run from the batch reports of its shards.
// The shards must be exactly one report for each K of 0..N-1, all of the same command, the same
// N and the same run (work list and result-changing options, run_identity.h); anything else is
// refused with an error naming the files, because a merge that quietly lacks a shard reads like
// a clean run. The result is shard 0/1 of that run: byte-identical to the --batch-report of the
// run done unsharded.

#include <string>
#include <vector>

#include "batch/batch_report.h"
#include "core/result.h"

namespace msdump::batch {

struct NamedReport {
  std::string name;  // the file it was read from, for errors
  BatchReport report;
};

Result<BatchReport> merge_reports(std::vector<NamedReport> shards);

}  // namespace msdump::batch

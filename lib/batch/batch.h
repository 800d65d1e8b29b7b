#pragma once
// Batch convert and verify: whole trees of steps and ranks, in parallel, resumable, shardable.
//   convert_batch  every input below the roots converts into the same tree under OUT;
//                  --resume skips items whose OUT/.../dump.json is complete and newer than
//                  their input (dump.json is always written last, atomically);
//   verify_batch   every dump.json below the roots is verified; then, per step, the ranks'
//                  entry names are compared and a diverging rank is reported, as a warning, at
//                  the first entry where it diverges (shapes may differ between tensor-parallel
//                  ranks; pipeline stages and point-to-point pairs differ in their names too).
// One bad item never stops a batch: it is reported and the others go on.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "batch/batch_report.h"
#include "batch/progress.h"
#include "batch/work_list.h"
#include "convert/convert.h"
#include "core/result.h"
#include "verify/verify.h"

namespace msdump::batch {

struct BatchOptions {
  std::vector<std::string> roots;  // paths given on the command line or listed in a file
  int jobs = 1;
  std::optional<Shard> shard;
  ProgressStyle progress = ProgressStyle::none;
  std::ostream* progress_out = nullptr;  // stderr in the CLI
};

struct ConvertBatchOptions {
  BatchOptions batch;
  convert::ConvertOptions convert;  // input is ignored; output is the root of the output tree
  bool resume = false;
};

struct ConvertBatchResult {
  BatchReport report;
  std::vector<convert::ConvertReport> converts;  // per item in report order (empty for failed/skipped)
};

Result<ConvertBatchResult> convert_batch(const ConvertBatchOptions& options);

struct VerifyBatchOptions {
  BatchOptions batch;
  verify::VerifyOptions verify;  // path is ignored
  bool cross_rank = true;
};

struct VerifyBatchResult {
  BatchReport report;
  std::vector<verify::VerifyReport> verifies;  // per item in report order (failed items: empty report)
};

Result<VerifyBatchResult> verify_batch(const VerifyBatchOptions& options);

// Where item `item` of a batch over `roots` converts to below `out`.
std::string output_dir_for(const WorkItem& item, const std::vector<std::string>& roots, const std::string& out);

// Cross-rank check: for each step (of each root), compares the entry-name lists of its ranks
// with the most common list and adds a finding of kind rank to each diverging rank's report.
void check_cross_rank(const std::vector<WorkItem>& items, std::vector<verify::VerifyReport>& reports);

}  // namespace msdump::batch

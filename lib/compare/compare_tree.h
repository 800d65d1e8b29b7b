#pragma once
// compare of two trees: every dump of the NPU tree paired with the bench dump of the same step
// and rank, each pair compared (compare_pair.h) on --jobs threads, and the answers of the whole
// tree (the earliest step, then the lowest rank).
//
// NPU and BENCH are both dump.json files, or both directories: a rank directory, a step
// directory holding rank*/ (or proc*/), or a tree of step<N>/rank<R>/. Two directories holding
// one dump each are paired whatever their names; otherwise dumps pair by step number and rank
// number, and a dump on one side only is an Unpaired finding (never skipped silently).
// Tables: a file pair -> OUT/compare_result_<ts>.csv; otherwise
// OUT/compare_result_<rank dir>_<ts>.csv, under OUT/step<N>/ when the NPU tree has several
// steps.

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "batch/batch_report.h"
#include "batch/progress.h"
#include "batch/work_list.h"
#include "compare/compare_pair.h"
#include "core/result.h"

namespace msdump::compare {

struct TreeOptions {
  std::string npu;
  std::string bench;
  std::string output_dir;
  CompareOptions compare;
  int jobs = 1;
  std::optional<batch::Shard> shard;
  batch::ProgressStyle progress = batch::ProgressStyle::none;
  std::ostream* progress_out = nullptr;
  bool strict = false;                // warning rows make a pair "findings" too
  std::string run_options;            // the result-changing flags (batch report run identity)
};

struct PairItem {
  std::optional<std::int64_t> step;   // from step<N> in the NPU path
  std::optional<std::int64_t> rank;   // from rank<R> / proc<P>
  std::string npu, bench;             // dump.json paths
  PairSpec spec;
};

struct Unpaired {
  std::string side;                   // "npu" or "bench": the side that has the dump
  std::optional<std::int64_t> step, rank;
  std::string path;
};

// A tree-level answer: the pair's answer and where it is.
struct TreeLocator {
  std::optional<std::int64_t> step, rank;
  Locator where;
  std::vector<std::int64_t> ranks;    // the ranks of that step with an answer of this kind
};

struct TreeResult {
  std::vector<PairItem> pairs;        // this shard's pairs, sorted by step, rank
  std::vector<std::optional<PairResult>> results;  // per pair; nullopt: the pair failed
  batch::BatchReport report;          // command "compare": one item per pair, in pair order
  std::vector<Unpaired> unpaired;     // this shard's
  std::optional<TreeLocator> first_difference, first_divergence;
  Mode mode = Mode::summary;          // of the first compared pair
};

// Pairs the two inputs (no dump is read). `timestamp` names the tables.
Result<std::pair<std::vector<PairItem>, std::vector<Unpaired>>> pair_inputs(const std::string& npu,
                                                                            const std::string& bench,
                                                                            const std::string& output_dir,
                                                                            const std::string& timestamp);

Result<TreeResult> compare_tree(const TreeOptions& options);

// Local time as YYYYmmddHHMMSS (msprobe's table names).
std::string table_timestamp();

}  // namespace msdump::compare

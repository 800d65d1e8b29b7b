#pragma once
// compare of one pair of dump.json files: the pipeline of docs/compare.md.
//
//   pass 1, both sides on two threads (dump_index.h): entry ranges, row keys and dtypes ->
//   mode -> rows paired by key (row_match.h) -> pass 2, entry by entry on `threads` threads:
//   the NPU entry and its partners' entries read again, metrics (stats_diff.h, or
//   tensor_metrics.h over both sides' tensor files), checkers (checkers.h), each entry's
//   answers (divergence.h) -> its rows written (csv_writer.h / xlsx_writer.h) in NPU order.
// Memory: the index (24 bytes per entry, 18 per row and side, 4 per NPU row for its partner),
// the keys of backward entries while pass 1 runs, one stack cell per distinct stack (and 12
// bytes per entry to find it), and the few entries in flight; not the rows.
//
// Fails (no table) when the pair cannot be compared at all: a dump whose header cannot be read,
// tasks or modes that differ, a task compare does not handle. Anything wrong further in (a
// truncated file, a missing or unreadable tensor file) is a Problem: the table of what could be
// compared is still written and the problem reported with it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compare/diff_analyze_file.h"
#include "compare/divergence.h"
#include "compare/row_match.h"
#include "compare/table.h"
#include "core/result.h"

namespace msdump::compare {

struct CompareOptions {
  MatchOptions match;
  bool xlsx = false;             // write .xlsx instead of .csv
  bool write_tables = true;      // false: compute and answer only
  int threads = 1;               // tensor files read and compared on this many threads
  bool diff_analyze = false;     // keep the record of msprobe's -da file (diff_analyze_file.h)
};

struct PairSpec {
  std::string npu;               // dump.json paths
  std::string bench;
  std::string output_dir;        // where the table goes
  std::string table_stem;        // "compare_result" or "compare_result_rank0"
  std::string timestamp;         // YYYYmmddHHMMSS, shared by every table of one run
};

struct Problem {
  std::string file;              // the file at fault
  std::string entry;             // the entry concerned ("" for the whole file)
  std::string message;
};

// "<file>: entry '<e>': <message>", without repeating a file the message already names.
std::string problem_text(const Problem& p);

struct PairResult {
  Mode mode = Mode::summary;
  std::uint64_t rows = 0, pass = 0, warnings = 0, errors = 0, unmatched = 0;
  std::vector<std::string> bench_only;  // bench rows no NPU row took (msprobe drops them)
  PairAnswer answer;
  std::vector<std::string> tables;      // files written
  std::uint64_t neutralised_cells = 0;  // text cells written with a leading ' (csv_writer.h)
  std::vector<Problem> problems;
  std::uint64_t bytes = 0;              // both dump.json sizes
  std::optional<DaRecord> da_record;    // with CompareOptions::diff_analyze, when -da names an API
};

// What decides a pair's mode: a dump's path, task and whether it carries md5 values.
struct ModeEvidence {
  std::string path, task;
  bool has_md5 = false;
};
// The mode msprobe picks for two dumps; fails naming both files when their tasks differ or only
// one carries md5 values, and for a task compare does not handle.
Result<Mode> decide_mode(const ModeEvidence& npu, const ModeEvidence& bench);

Result<PairResult> compare_pair(const PairSpec& spec, const CompareOptions& options);

}  // namespace msdump::compare

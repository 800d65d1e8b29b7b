#pragma once
// convert: capture or msprobe tensor dump in, msprobe dump out (dump.json, stack.json,
// construct.json, dump_tensor_data/), byte-compatible with msprobe's own writer.
//
//   ConvertOptions -> Result<ConvertReport>
//
// The Result fails only when nothing could be converted (unreadable or invalid input, existing
// output without overwrite); problems with single tensors or lines are collected in the report
// and the run goes on.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "core/profile.h"
#include "core/result.h"

namespace msdump::convert {

struct ConvertOptions {
  std::string input;   // capture dir / trace.jsonl / msprobe rank dir / dump.json
  std::string output;  // OUT: a directory (created if missing)
  // Unset options default to what the input says (trace header, msprobe dump header).
  std::optional<Level> level;
  std::optional<Task> task;
  std::optional<SummaryMode> summary_mode;
  std::vector<std::string> data_mode;  // empty: all
  std::optional<Profile> profile;      // default: detected from an msprobe dump, else current
  Precision precision = Precision::low;
  std::vector<std::string> list;       // msprobe "list": substring filter on entry names
  std::vector<std::string> scope;      // msprobe "scope": [start, end] entry names (scope_filter.h)
  // msprobe "risk_level" (risk_level.h), PyTorch L1/mix without list or scope. Default: FOCUS
  // for captures whose header records the risk level they hold, no filter for other inputs.
  std::optional<RiskLevel> risk_level;
  std::optional<std::string> dump_path;  // prefix printed in dump_data_dir (default: a trace header's
                                         // dump_path, else OUT as given; MindSpore: made absolute)
  Overwrite overwrite = Overwrite::no;
  bool strict = false;                 // unknown kinds/keys are errors instead of warnings
  int threads = 1;                     // threads for statistics of large tensors
};

struct Problem {
  enum class Severity { warning, error };
  Severity severity = Severity::error;
  std::string file;        // the input file the problem comes from
  std::uint64_t line = 0;  // 1-based line in `file`, 0 if not applicable
  std::string entry;       // entry name, if any
  std::string message;
  std::string to_string() const;  // "file:line: entry: message"
};

struct ConvertReport {
  std::string input;             // the rank/capture directory converted
  std::string output;            // where its dump went
  std::string input_kind;        // "capture" or "msprobe-dump"
  Framework framework = Framework::pytorch;
  Profile profile = Profile::current;
  Level level = Level::mix;
  Task task = Task::statistics;
  std::uint64_t entries = 0;        // entries written to dump.json
  std::uint64_t tensors = 0;        // tensor leaves whose statistics were computed
  std::uint64_t tensor_files = 0;   // files written to dump_tensor_data/
  std::uint64_t bytes_read = 0;     // tensor bytes read
  std::uint64_t dump_json_bytes = 0;
  double seconds = 0.0;
  std::vector<Problem> problems;
  bool truncated = false;           // the trace's last line was cut off: its event is lost
  bool has_errors() const;          // any Problem of severity error
  // What the exit code reports: errors, or events lost to a truncated trace.
  bool has_findings() const { return truncated || has_errors(); }
};

// Converts one rank directory (or capture). Writes OUT/dump.json, OUT/stack.json,
// OUT/construct.json and, for task tensor, OUT/dump_tensor_data/; dump.json last, so its
// presence marks a complete output. Trees of inputs are lib/batch's job.
Result<ConvertReport> convert_one(const ConvertOptions& options);

}  // namespace msdump::convert

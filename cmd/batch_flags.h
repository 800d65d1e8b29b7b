#pragma once
// The flags convert and verify share for batches: many inputs, --inputs-from, --jobs, --shard,
// --batch-report, --exit-zero-on-findings, progress; and how a batch's outcome becomes an exit
// code.

#include <string>
#include <vector>

#include "batch/batch.h"

namespace CLI { class App; }

namespace msdump::cli {

struct BatchFlags {
  std::vector<std::string> inputs;
  std::string inputs_from;  // file, or "-" for stdin
  int jobs = 0;             // 0: number of cores
  std::string shard;        // "K/N"
  std::string batch_report; // JSON report file
  bool quiet = false;
  bool exit_zero_on_findings = false;  // findings exit 0 (the reports still carry them)
};

void add_batch_flags(CLI::App& sub, BatchFlags& flags, const std::string& inputs_help);

// Resolves the flags into BatchOptions (reading --inputs-from) and prepares the directory of
// --batch-report. Fails on a bad --shard, an unreadable list or an unwritable report directory,
// before any work is done.
Result<batch::BatchOptions> batch_options(const BatchFlags& flags);

// Writes --batch-report if asked; prints the summary table (unless quiet) when there is more
// than one item; returns 2 if an item failed, 1 if one has findings (0 with
// --exit-zero-on-findings), else 0.
int finish_batch(const BatchFlags& flags, const batch::BatchReport& report);

// The exit code of a batch report's verdict: 0 clean, 1 findings, 2 an item could not be processed.
int verdict_exit_code(batch::Verdict verdict);

}  // namespace msdump::cli

#include "batch_flags.h"

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <charconv>
#include <fstream>
#include <iostream>
#include <thread>

#include "cli_common.h"
#include "core/atomic_file.h"

namespace msdump::cli {
namespace {

// --jobs with a clear message for the usual mistake: `--jobs $VAR` with VAR unset, which makes
// the next flag (or nothing) its value.
CLI::Validator jobs_validator() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        int n = -1;
        auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
        if (ec == std::errc() && end == value.data() + value.size() && n >= 0 && n <= 1024) return "";
        return fmt::format("expected a number of items from 0 to 1024 (0: one per core), got '{}'{}", value,
                           value.empty() || value.starts_with('-')
                               ? "; if it came from a variable such as $SLURM_CPUS_PER_TASK, that variable is unset "
                                 "(Slurm sets it only for jobs that ask for --cpus-per-task)"
                               : "");
      },
      "0..1024");
}

}  // namespace

void add_batch_flags(CLI::App& sub, BatchFlags& f, const std::string& inputs_help) {
  sub.add_option("inputs", f.inputs, inputs_help);
  sub.add_option("--inputs-from", f.inputs_from, "Read input paths from this file, one per line ('-': stdin)");
  sub.add_option("-j,--jobs", f.jobs, "Items processed in parallel (default: number of cores)")->check(jobs_validator());
  sub.add_option("--shard", f.shard, "Process only shard K of N of the sorted work list (K/N, 0-based), "
                                     "e.g. --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT");
  sub.add_option("--batch-report", f.batch_report, "Write the batch's JSON report here, with its shard and run (the directory is created if "
                     "missing); merge all shards' reports with 'msdump report merge'");
  sub.add_flag("--quiet", f.quiet, "No progress and no summary table; problems only");
  sub.add_flag("--exit-zero-on-findings", f.exit_zero_on_findings,
               "Exit 0 when the batch ran but found problems, so a scheduler records the task as done; the "
               "--batch-report (and its merge, whose exit code is the verdict) still carries the findings. "
               "Items that could not be processed still exit 2");
}

Result<batch::BatchOptions> batch_options(const BatchFlags& f) {
  batch::BatchOptions o;
  o.roots = f.inputs;
  if (!f.inputs_from.empty()) {
    Result<std::vector<std::string>> listed = invalid_input("");
    if (f.inputs_from == "-") {
      listed = batch::read_path_list(std::cin, "<stdin>");
    } else {
      std::ifstream in(f.inputs_from);
      if (!in) return io_error(fmt::format("cannot open '{}'", f.inputs_from));
      listed = batch::read_path_list(in, f.inputs_from);
    }
    if (!listed) return listed.error();
    o.roots.insert(o.roots.end(), listed->begin(), listed->end());
  }
  if (o.roots.empty()) return invalid_input("no inputs given (paths, or --inputs-from FILE)");
  o.jobs = f.jobs > 0 ? f.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (!f.shard.empty()) {
    auto s = batch::parse_shard(f.shard);
    if (!s) return s.error();
    o.shard = *s;
  }
  if (!f.batch_report.empty())
    if (auto p = prepare_output_file(f.batch_report); !p) return p.error();
  o.progress = f.quiet ? batch::ProgressStyle::none : ::isatty(2) ? batch::ProgressStyle::bar : batch::ProgressStyle::lines;
  o.progress_out = &std::cerr;
  return o;
}

int finish_batch(const BatchFlags& f, const batch::BatchReport& report) {
  if (!f.batch_report.empty()) {
    auto json = batch::to_json(report);
    if (!json) return print_error(json.error());
    if (auto w = write_file_atomic(f.batch_report, *json, Overwrite::yes); !w) return print_error(w.error());
  }
  if (!f.quiet && report.items.size() > 1) batch::print_summary_table(report, std::cout);
  for (const auto& it : report.items)
    if (it.outcome.status == batch::ItemStatus::failed)
      fmt::print(stderr, "msdump: error: {}: {}\n", it.item.key, it.outcome.message);
  const auto v = batch::verdict(report);
  if (v == batch::Verdict::findings && f.exit_zero_on_findings) return k_exit_ok;
  return verdict_exit_code(v);
}

int verdict_exit_code(batch::Verdict verdict) {
  switch (verdict) {
    case batch::Verdict::clean: return k_exit_ok;
    case batch::Verdict::findings: return k_exit_findings;
    case batch::Verdict::failed: return k_exit_usage;
  }
  return k_exit_internal;
}

}  // namespace msdump::cli

#include "batch_flags.h"

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <thread>

#include "cli_common.h"
#include "core/atomic_file.h"

namespace msdump::cli {

void add_batch_flags(CLI::App& sub, BatchFlags& f, const std::string& inputs_help) {
  sub.add_option("inputs", f.inputs, inputs_help);
  sub.add_option("--inputs-from", f.inputs_from, "Read input paths from this file, one per line ('-': stdin)");
  sub.add_option("-j,--jobs", f.jobs, "Items processed in parallel (default: number of cores)")->check(CLI::Range(0, 1024));
  sub.add_option("--shard", f.shard, "Process only shard K of N of the sorted work list (K/N, 0-based), "
                                     "e.g. --shard $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT");
  sub.add_option("--batch-report", f.batch_report, "Write the batch's JSON report here (merge shards with 'msdump report merge')");
  sub.add_flag("--quiet", f.quiet, "No progress and no summary table; problems only");
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
  int rc = k_exit_ok;
  for (const auto& it : report.items) {
    if (it.outcome.status == batch::ItemStatus::failed) {
      fmt::print(stderr, "msdump: error: {}: {}\n", it.item.key, it.outcome.message);
      rc = k_exit_usage;
    } else if (it.outcome.status == batch::ItemStatus::findings && rc == k_exit_ok) {
      rc = k_exit_findings;
    }
  }
  return rc;
}

}  // namespace msdump::cli

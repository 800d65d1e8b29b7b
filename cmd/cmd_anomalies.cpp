// msdump anomalies PATH...: where did the NaN / Inf first appear (entries, steps, ranks).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <iostream>
#include <memory>
#include <sstream>

#include "anomalies/anomaly_report.h"
#include "anomalies/tree_scan.h"
#include "batch_flags.h"
#include "cli_common.h"
#include "commands.h"
#include "core/atomic_file.h"

namespace msdump::cli {
namespace {

struct AnomaliesCommand {
  BatchFlags batch;
  anomalies::ScanDumpOptions scan;
  std::optional<std::string> tensors;
  bool no_tensors = false;
  bool strict = false;
  std::string format = "text";
  std::string output;
};

int run_anomalies(AnomaliesCommand& cmd) {
  cmd.scan.tensors = cmd.tensors;
  cmd.scan.use_tensors = !cmd.no_tensors;
  auto bo = batch_options(cmd.batch);
  if (!bo) return print_error(bo.error());
  if (cmd.format != "text" || !cmd.output.empty()) bo->progress = batch::ProgressStyle::none;
  auto result = anomalies::scan_tree({*bo, cmd.scan, cmd.strict});
  if (!result) return print_error(result.error());

  const auto format = *report::report_format_from_string(cmd.format);
  const anomalies::RenderOptions ro{.strict = cmd.strict};
  if (!cmd.output.empty()) {
    std::ostringstream buf;
    anomalies::render(result->dumps, result->summary, format, buf, ro);
    if (auto w = write_file_atomic(cmd.output, buf.str(), Overwrite::yes); !w) return print_error(w.error());
    // The verdicts still go to the terminal (unless --quiet), so a CI log shows them.
    if (!cmd.batch.quiet)
      for (const auto& d : result->dumps) fmt::print("{}: {}\n", d.dump.file, anomalies::summary_line(d.dump.analysis));
  } else if (!result->dumps.empty() || format != report::ReportFormat::text) {
    // (Nothing could be scanned: the errors below say why; json and junit still give a document.)
    anomalies::render(result->dumps, result->summary, format, std::cout, ro);
  }
  BatchFlags flags = cmd.batch;
  flags.quiet = flags.quiet || format != report::ReportFormat::text || !cmd.output.empty();
  return finish_batch(flags, result->report);
}

}  // namespace

void add_anomalies_command(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<AnomaliesCommand>();
  auto* sub = app.add_subcommand("anomalies", "Find where NaN / Inf first appear: origins per dump, step and rank");
  add_batch_flags(*sub, cmd->batch, "dump.json files, the directories holding them, or trees of them");
  sub->add_option("--tensors", cmd->tensors, "Tensor directory: count non-finite values exactly from the tensor files "
                                             "(default: dump_tensor_data/ beside dump.json, when present)");
  sub->add_flag("--no-tensors", cmd->no_tensors, "Judge tensors from their statistics only, even when tensor files exist");
  sub->add_option("--overflow-fraction", cmd->scan.overflow_fraction,
                  "Warn when a float16 / bfloat16 output reaches this fraction of the dtype's largest value")
      ->check(CLI::Range(0.000001, 1.0));
  sub->add_flag("--strict", cmd->strict, "Warnings (stat overflows, overflow risks, unexplained propagation) fail too");
  sub->add_option("--report", cmd->format, "Report format: text, json, junit")->check(CLI::IsMember({"text", "json", "junit"}));
  sub->add_option("-o,--output", cmd->output, "Write the report to this file (atomically) instead of stdout");
  sub->add_option("--threads", cmd->scan.threads, "Threads for the entries of one dump.json (at least 2 run)")
      ->check(CLI::Range(1, 256));
  sub->footer("Exit codes: 0 no origin (warnings and info alone; --strict makes warnings fail); 1 origins found; "
              "2 usage error or unreadable input.");
  sub->callback([cmd, &exit_code] { exit_code = run_anomalies(*cmd); });
}

}  // namespace msdump::cli

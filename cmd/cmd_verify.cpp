// msdump verify PATH...: check dumps against their schema, tensors, a capture or a golden dump.
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <unistd.h>

#include <iostream>
#include <memory>
#include <sstream>

#include "batch_flags.h"
#include "cli_common.h"
#include "commands.h"
#include "core/atomic_file.h"
#include "report/report_render.h"
#include "verify/verify.h"

namespace msdump::cli {
namespace {

struct VerifyCommand {
  BatchFlags batch;
  verify::VerifyOptions options;
  std::optional<double> rtol, atol, ulps;
  std::vector<std::string> warn_only;
  std::string format = "text";
  std::string output;
  bool no_tensors = false;
  bool no_cross_rank = false;
};

int run_verify(VerifyCommand& cmd) {
  auto& o = cmd.options;
  o.tolerance.rtol = cmd.rtol;
  o.tolerance.atol_mean_abs = cmd.atol;
  o.tolerance.ulps = cmd.ulps;
  o.check_tensors = !cmd.no_tensors;
  for (const auto& k : cmd.warn_only) o.warn_only.push_back(*verify::finding_kind_from_string(k));
  auto bo = batch_options(cmd.batch);
  if (!bo) return print_error(bo.error());
  if (!cmd.output.empty())
    if (auto p = prepare_output_file(cmd.output); !p) return print_error(p.error());
  if (cmd.format != "text" || !cmd.output.empty()) bo->progress = batch::ProgressStyle::none;
  auto result = batch::verify_batch({*bo, o, !cmd.no_cross_rank});
  if (!result) return print_error(result.error());

  std::vector<verify::VerifyReport> reports;  // the items that could be verified, in order
  for (std::size_t i = 0; i < result->verifies.size(); ++i)
    if (result->report.items[i].outcome.status != batch::ItemStatus::failed)
      reports.push_back(std::move(result->verifies[i]));
  const auto format = *report::report_format_from_string(cmd.format);
  if (!cmd.output.empty()) {
    std::ostringstream buf;
    report::render(reports, format, buf, false);
    if (auto w = write_file_atomic(cmd.output, buf.str(), Overwrite::yes); !w) return print_error(w.error());
    // The verdicts still go to the terminal (unless --quiet), so a CI log shows them.
    if (!cmd.batch.quiet)
      for (const auto& r : reports) fmt::print("{}: {}\n", r.summary.file, report::summary_line(r.summary));
  } else {
    report::render(reports, format, std::cout, format == report::ReportFormat::text && ::isatty(1));
  }
  BatchFlags flags = cmd.batch;
  flags.quiet = flags.quiet || format != report::ReportFormat::text || !cmd.output.empty();
  return finish_batch(flags, result->report);
}

}  // namespace

void add_verify_command(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<VerifyCommand>();
  auto* sub = app.add_subcommand("verify", "Check dumps against schemas, tensor files, a capture or a golden dump");
  add_batch_flags(*sub, cmd->batch, "dump.json files, the directories holding them, or trees of them");
  sub->add_option("--against", cmd->options.against, "Golden dump.json (or its directory) to compare with");
  sub->add_option("--capture", cmd->options.capture, "Capture directory: convert it as the dump was written (its level, task, profile, summary mode) and compare with the result");
  sub->add_option("--tensors", cmd->options.tensors, "Tensor directory (default: dump_tensor_data/ beside dump.json)");
  sub->add_flag("--no-tensors", cmd->no_tensors, "Do not read tensor files");
  add_profile_auto_option(*sub, cmd->options.profile);
  sub->add_flag("--no-cross-rank", cmd->no_cross_rank, "Do not compare entry names across the ranks of a step");
  sub->add_option("--rtol", cmd->rtol, "Relative tolerance for Mean/Norm (tensor files: overrides the per-dtype rule; golden: default 1e-4)");
  sub->add_option("--atol", cmd->atol, "Absolute tolerance for Mean/Norm (tensor files: in units of mean|x|)");
  sub->add_option("--ulps", cmd->ulps, "ULPs of the statistic's dtype allowed for Mean/Norm against tensor files");
  std::vector<std::string> kinds;
  for (auto k : verify::all_finding_kinds()) kinds.emplace_back(verify::to_string(k));
  sub->add_option("--warn-only", cmd->warn_only, "Report these finding kinds as warnings (exit 0)")->check(CLI::IsMember(kinds));
  sub->add_option("--max-findings", cmd->options.max_findings, "Keep at most N findings per dump (0: all)");
  sub->add_option("--report", cmd->format, "Report format: text, json, junit")->check(CLI::IsMember({"text", "json", "junit"}));
  sub->add_option("-o,--output", cmd->output, "Write the report to this file (atomically) instead of stdout");
  sub->add_option("--threads", cmd->options.threads, "Threads for the entries of one dump.json (at least 2 run: a reader and a checker) and for the statistics of one large tensor")->check(CLI::Range(1, 256));
  sub->callback([cmd, &exit_code] { exit_code = run_verify(*cmd); });
}

}  // namespace msdump::cli

// msdump convert INPUT... -o OUT: captures and msprobe tensor dumps to msprobe dumps.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <memory>

#include "batch_flags.h"
#include "cli_common.h"
#include "commands.h"
#include "convert/convert.h"

namespace msdump::cli {
namespace {

struct ConvertCommand {
  BatchFlags batch;
  convert::ConvertOptions options;
  bool force = false;
  bool resume = false;
};

int run_convert(ConvertCommand& cmd) {
  cmd.options.overwrite = cmd.force ? Overwrite::yes : Overwrite::no;
  auto bo = batch_options(cmd.batch);
  if (!bo) return print_error(bo.error());
  batch::ConvertBatchOptions o{*bo, cmd.options, cmd.resume};
  auto result = batch::convert_batch(o);
  if (!result) return print_error(result.error());
  for (std::size_t i = 0; i < result->report.items.size(); ++i) {
    const auto& [item, outcome] = result->report.items[i];
    const auto& r = result->converts[i];
    for (const auto& p : r.problems)
      fmt::print(stderr, "msdump: {}: {}\n", p.severity == convert::Problem::Severity::error ? "error" : "warning",
                 p.to_string());
    if (cmd.batch.quiet || result->report.items.size() > 1) continue;
    if (outcome.status == batch::ItemStatus::skipped) fmt::print("{}: skipped ({})\n", item.key, outcome.message);
    else if (outcome.status != batch::ItemStatus::failed)
      fmt::print("{} -> {}: {} entries, {} tensors, {} tensor files ({} {}, {}, {}) in {:.2f} s\n", r.input, r.output,
                 r.entries, r.tensors, r.tensor_files, to_string(r.framework), to_string(r.level), to_string(r.task),
                 to_string(r.profile), r.seconds);
  }
  return finish_batch(cmd.batch, result->report);
}

}  // namespace

void add_convert_command(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<ConvertCommand>();
  auto& o = cmd->options;
  auto* sub = app.add_subcommand(
      "convert", "Convert captures (trace.jsonl + tensors) or msprobe tensor dumps into msprobe dumps");
  add_batch_flags(*sub, cmd->batch,
                  "Capture directories, trace.jsonl, msprobe rank directories, dump.json, or trees of them "
                  "(every input below converts into the same tree under OUT)");
  sub->add_option("-o,--output", o.output, "Output directory")->required();
  add_level_option(*sub, o.level, "Entries to keep: L0 (modules), L1 (APIs), mix (both); default: the input's");
  add_task_option(*sub, o.task, "statistics, or tensor (also writes dump_tensor_data/); default: the input's");
  add_summary_mode_option(*sub, o.summary_mode);
  sub->add_option("--data-mode", o.data_mode, "msprobe data_mode: all, or forward/backward/input/output (repeatable)")
      ->check(CLI::IsMember({"all", "forward", "backward", "input", "output"}));
  add_profile_option(*sub, o.profile);
  add_precision_option(*sub, o.precision);
  sub->add_option("--list", o.list, "msprobe list: keep entries whose name contains one of these (repeatable)");
  sub->add_option("--scope", o.scope,
                  "msprobe scope: START [END] entry names; the range is replayed over the capture's events "
                  "in call order, with msprobe's quirks (docs/trace-format.md)")
      ->expected(1, 2);
  add_risk_level_option(*sub, o.risk_level);
  sub->add_option("--dump-path", o.dump_path, "dump_path printed in dump_data_dir as <dump_path>/dump_tensor_data (default: the trace header's, else the output directory; made absolute for MindSpore / mindtorch, as msprobe does)");
  sub->add_option("--threads", o.threads, "Threads for the statistics of one large tensor")->check(CLI::Range(1, 256));
  sub->add_flag("--strict", o.strict, "Unknown event kinds, sections and names are errors instead of warnings");
  sub->add_flag("-f,--force", cmd->force, "Replace existing outputs");
  sub->add_flag("--resume", cmd->resume,
                "Skip inputs whose output dump.json is complete and newer than the input; redo the others");
  sub->callback([cmd, &exit_code] { exit_code = run_convert(*cmd); });
}

}  // namespace msdump::cli

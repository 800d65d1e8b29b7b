// msdump convert INPUT -o OUT: captures and msprobe tensor dumps to msprobe dumps.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "convert/convert.h"

namespace msdump::cli {
namespace {

struct ConvertCommand {
  convert::ConvertOptions options;
  bool force = false;
  bool quiet = false;
};

void print_report(const convert::ConvertReport& r, bool quiet) {
  for (const auto& p : r.problems)
    fmt::print(stderr, "msdump: {}: {}\n", p.severity == convert::Problem::Severity::error ? "error" : "warning",
               p.to_string());
  if (quiet) return;
  fmt::print("{} -> {}: {} entries, {} tensors, {} tensor files ({} {}, {}, {}) in {:.2f} s\n", r.input, r.output,
             r.entries, r.tensors, r.tensor_files, to_string(r.framework), to_string(r.level), to_string(r.task),
             to_string(r.profile), r.seconds);
}

int run_convert(ConvertCommand& cmd) {
  cmd.options.overwrite = cmd.force ? Overwrite::yes : Overwrite::no;
  auto reports = convert::convert_tree(cmd.options);
  if (!reports) return print_error(reports.error());
  bool errors = false;
  for (const auto& r : *reports) {
    print_report(r, cmd.quiet);
    errors = errors || r.has_findings();
  }
  return errors ? k_exit_findings : k_exit_ok;
}

}  // namespace

void add_convert_command(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<ConvertCommand>();
  auto& o = cmd->options;
  auto* sub = app.add_subcommand(
      "convert", "Convert a capture (trace.jsonl + tensors) or an msprobe tensor dump into an msprobe dump");
  sub->add_option("input", o.input, "Capture directory, trace.jsonl, msprobe rank directory, dump.json, or a tree of them")
      ->required();
  sub->add_option("-o,--output", o.output, "Output directory (a tree converts into the same tree below it)")->required();
  add_level_option(*sub, o.level, "Entries to keep: L0 (modules), L1 (APIs), mix (both); default: the input's");
  add_task_option(*sub, o.task, "statistics, or tensor (also writes dump_tensor_data/); default: the input's");
  add_summary_mode_option(*sub, o.summary_mode);
  sub->add_option("--data-mode", o.data_mode, "msprobe data_mode: all, or forward/backward/input/output (repeatable)")
      ->check(CLI::IsMember({"all", "forward", "backward", "input", "output"}));
  add_profile_option(*sub, o.profile);
  add_precision_option(*sub, o.precision);
  sub->add_option("--list", o.list, "msprobe list: keep entries whose name contains one of these (repeatable)");
  sub->add_option("--dump-path", o.dump_path, "dump_path printed in dump_data_dir (default: the output directory)");
  sub->add_option("--threads", o.threads, "Threads for the statistics of large tensors")->check(CLI::Range(1, 256));
  sub->add_flag("--strict", o.strict, "Unknown event kinds, sections and names are errors instead of warnings");
  sub->add_flag("-f,--force", cmd->force, "Replace existing outputs");
  sub->add_flag("--quiet", cmd->quiet, "Print only problems");
  sub->callback([cmd, &exit_code] { exit_code = run_convert(*cmd); });
}

}  // namespace msdump::cli

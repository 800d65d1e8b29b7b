// msdump report merge A.json B.json...: one batch report from the reports of all shards of a run;
// its exit code is the run's verdict (0 clean, 1 findings, 2 an item could not be processed, or
// the shard set is incomplete or mixed).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <memory>

#include "batch/report_merge.h"
#include "batch_flags.h"
#include "cli_common.h"
#include "commands.h"
#include "core/atomic_file.h"
#include "core/byte_source.h"

namespace msdump::cli {
namespace {

struct MergeCommand {
  std::vector<std::string> files;
  std::string output;
};

int run_merge(const MergeCommand& cmd) {
  if (!cmd.output.empty())
    if (auto p = prepare_output_file(cmd.output); !p) return print_error(p.error());
  std::vector<batch::NamedReport> reports;
  for (const auto& f : cmd.files) {
    auto text = read_file(f);
    if (!text) return print_error(text.error());
    auto r = batch::report_from_json(*text, f);
    if (!r) return print_error(r.error());
    reports.push_back({f, std::move(*r)});
  }
  auto merged = batch::merge_reports(std::move(reports));
  if (!merged) return print_error(merged.error());
  auto json = batch::to_json(*merged);
  if (!json) return print_error(json.error());
  if (cmd.output.empty()) fmt::print("{}\n", *json);
  else if (auto w = write_file_atomic(cmd.output, *json, Overwrite::yes); !w) return print_error(w.error());
  return verdict_exit_code(batch::verdict(*merged));
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto* sub = app.add_subcommand("report", "Work with batch reports");
  sub->require_subcommand(1);
  auto cmd = std::make_shared<MergeCommand>();
  auto* merge = sub->add_subcommand("merge", "Merge the --batch-report files of all shards of one run into the report the run would have "
      "written unsharded; refuses a missing or repeated shard, and shards of different runs. Exit code: "
      "0 clean, 1 findings, 2 an item could not be processed or the shards do not make up one run");
  merge->add_option("files", cmd->files, "Batch report files")->required()->check(CLI::ExistingFile);
  merge->add_option("-o,--output", cmd->output, "Write the merged report here (default: stdout)");
  merge->callback([cmd, &exit_code] { exit_code = run_merge(*cmd); });
}

}  // namespace msdump::cli

// msdump compare NPU BENCH -o OUT: msprobe's compare tables for two dumps or two trees of them,
// and where the runs part ways.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <iostream>
#include <memory>
#include <thread>
#include <unistd.h>

#include "batch_flags.h"
#include "cli_common.h"
#include "commands.h"
#include "compare/compare_report.h"
#include "compare/compare_tree.h"
#include "compare/diff_analyze_file.h"
#include "core/byte_source.h"
#include "core/atomic_file.h"
#include "core/heap_growth.h"
#include "exit_code.h"

namespace msdump::cli {
namespace {

struct CompareCommand {
  std::string npu, bench;
  std::string output = "output";
  bool xlsx = false;
  bool fuzzy = false;
  std::string data_mapping, cell_mapping, api_mapping;
  bool cell_mapping_given = false;
  bool strict = false;
  bool diff_analyze = false;
  std::string format = "text";
  int jobs = 0;
  int threads = 0;
  std::string shard;
  std::string batch_report;
  bool quiet = false;
};

// The mapping files, read and parsed before any dump is.
struct Mappings {
  std::optional<compare::DataMapping> data;
  std::optional<compare::CellMapping> cell;
  std::optional<compare::ApiMapping> api;
};

template <typename T, typename Parse>
Result<void> load_mapping(const std::string& path, std::optional<T>& out, Parse parse) {
  if (path.empty()) return {};
  auto text = read_file(path);
  if (!text) return text.error();
  auto m = parse(*text, path);
  if (!m) return m.error();
  out = std::move(*m);
  return {};
}

Result<void> load_mappings(const CompareCommand& cmd, Mappings& m) {
  if (auto r = load_mapping(cmd.data_mapping, m.data, compare::parse_data_mapping); !r) return r;
  if (auto r = load_mapping(cmd.cell_mapping, m.cell, compare::parse_cell_mapping); !r) return r;
  if (cmd.cell_mapping_given && !m.cell) m.cell = compare::CellMapping{};
  if (auto r = load_mapping(cmd.api_mapping, m.api, compare::parse_api_mapping); !r) return r;
  if (!m.api) m.api = compare::ApiMapping{};  // the built-in table alone
  return {};
}

// The flags that change the tables (the batch report's run identity).
std::string run_options(const CompareCommand& cmd) {
  std::string s;
  if (cmd.fuzzy) s += " --fuzzy";
  if (!cmd.data_mapping.empty()) s += " --data-mapping " + cmd.data_mapping;
  if (cmd.cell_mapping_given) s += " --cell-mapping " + cmd.cell_mapping;
  if (!cmd.api_mapping.empty()) s += " --api-mapping " + cmd.api_mapping;
  if (cmd.strict) s += " --strict";
  return s.empty() ? s : s.substr(1);
}

int run_compare(CompareCommand& cmd) {
  Mappings maps;
  if (auto r = load_mappings(cmd, maps); !r) return print_error(r.error());
  compare::TreeOptions o;
  o.npu = cmd.npu;
  o.bench = cmd.bench;
  o.output_dir = cmd.output;
  o.compare.xlsx = cmd.xlsx;
  o.compare.diff_analyze = cmd.diff_analyze;
  o.compare.match = {cmd.fuzzy, maps.data ? &*maps.data : nullptr, maps.cell ? &*maps.cell : nullptr,
                     maps.api ? &*maps.api : nullptr};
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  o.compare.threads = cmd.threads > 0 ? cmd.threads : cores;
  o.jobs = cmd.jobs > 0 ? cmd.jobs : cores;
  o.strict = cmd.strict;
  o.run_options = run_options(cmd);
  if (!cmd.shard.empty()) {
    auto s = batch::parse_shard(cmd.shard);
    if (!s) return print_error(s.error());
    o.shard = *s;
  }
  if (!cmd.batch_report.empty())
    if (auto p = prepare_output_file(cmd.batch_report); !p) return print_error(p.error());
  const auto format = *report::report_format_from_string(cmd.format);
  o.progress = cmd.quiet || format != report::ReportFormat::text ? batch::ProgressStyle::none
               : ::isatty(2)                                      ? batch::ProgressStyle::bar
                                                                  : batch::ProgressStyle::lines;
  o.progress_out = &std::cerr;
  // 16 MiB steps: pass 2's threads grow their arenas by a few MiB each (core/heap_growth.h).
  set_heap_growth(std::size_t{16} << 20);
  auto result = compare::compare_tree(o);
  if (!result) return print_error(result.error());
  if (cmd.diff_analyze)
    if (auto files = compare::write_diff_analyze(*result, cmd.output); !files) return print_error(files.error());
  if (!cmd.quiet || format != report::ReportFormat::text)
    compare::render_compare_report(*result, {cmd.npu, cmd.bench, cmd.output, cmd.strict}, format, std::cout);
  BatchFlags flags;
  flags.batch_report = cmd.batch_report;
  flags.quiet = true;  // the report above already showed every pair
  const int code = finish_batch(flags, result->report);
  if (code != k_exit_ok) return code;
  return result->unpaired.empty() ? k_exit_ok : k_exit_findings;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<CompareCommand>();
  auto* sub = app.add_subcommand("compare", "Compare two dumps (or trees of them) as msprobe's compare does: tables, verdicts, first difference and divergence");
  sub->add_option("NPU", cmd->npu, "The dump under test: a dump.json, a rank directory, a step directory or a tree of steps and ranks")->required();
  sub->add_option("BENCH", cmd->bench, "The reference dump, of the same kind as NPU")->required();
  sub->add_option("-o,--output", cmd->output, "Directory for the tables (created if missing; default: output)");
  sub->add_flag("--xlsx", cmd->xlsx, "Write .xlsx tables instead of .csv");
  sub->add_flag("--fuzzy", cmd->fuzzy, "Pair rows without their call counters (one side made extra calls)");
  sub->add_option("--data-mapping", cmd->data_mapping, "YAML file {NPU row name: bench row name}");
  auto* cell_option = sub->add_option("--cell-mapping", cmd->cell_mapping, "Pair MindSpore Cell.* rows with Module.* rows; optional YAML file {NPU cell: bench module}")
      ->expected(0, 1);
  sub->add_option("--api-mapping", cmd->api_mapping, "YAML file of MindSpore -> PyTorch API rules, used besides the built-in table for cross-framework pairs");
  sub->add_flag("--diff-analyze", cmd->diff_analyze, "Also write msprobe's -da file: per rank, the first API whose output statistics differ by more than 50 % (diff_analyze_<ns>.json)");
  sub->add_option("--report", cmd->format, "Report on stdout: text, json, junit")->check(CLI::IsMember({"text", "json", "junit"}));
  sub->add_flag("--strict", cmd->strict, "Warning rows fail too (exit 1)");
  sub->add_option("-j,--jobs", cmd->jobs, "Rank pairs compared at once (default: number of cores)")->check(CLI::Range(1, 1024));
  sub->add_option("--threads", cmd->threads, "Threads comparing the entries of one pair, tensor files included (default: number of cores; 1 per pair when several pairs run at once)")->check(CLI::Range(1, 256));
  sub->add_option("--shard", cmd->shard, "Compare only shard K of N (0-based K/N; whole steps per shard)");
  sub->add_option("--batch-report", cmd->batch_report, "Write a JSON batch report (for report merge)");
  sub->add_flag("-q,--quiet", cmd->quiet, "No text report and no progress");
  sub->callback([cmd, cell_option, &exit_code] {
    cmd->cell_mapping_given = cell_option->count() > 0;
    exit_code = run_compare(*cmd);
  });
}

}  // namespace msdump::cli

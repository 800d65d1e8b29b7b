// msdump stats FILE...: the tensor leaf msprobe would write for each tensor file.
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "convert/tensor_summary.h"
#include "pyjson/json_writer.h"
#include "pyjson/pyfloat.h"

namespace msdump::cli {
namespace {

struct StatsCommand {
  std::vector<std::string> files;
  convert::TensorSummaryOptions options;
  std::string format = "text";
};

// "Max=2.0 Min=-1.5 ..." with values as msprobe's JSON writes them.
std::string text_line(const pyjson::Value& leaf) {
  std::string line = leaf.find("file")->as_string() + ": " + leaf.find("dtype")->as_string() + " [";
  const auto& shape = leaf.find("shape")->as_array();
  for (std::size_t i = 0; i < shape.size(); ++i) line += (i ? "," : "") + std::to_string(shape[i].as_int());
  line += "]";
  for (const auto& m : leaf.as_object()) {
    if (m.key == "file" || m.key == "type" || m.key == "dtype" || m.key == "shape") continue;
    auto v = pyjson::to_python_json(m.value);
    line += " " + m.key + "=" + (v ? *v : "?");
  }
  return line;
}

int run_stats(const StatsCommand& cmd) {
  pyjson::Value all = pyjson::Value::array();
  int rc = k_exit_ok;
  for (const auto& f : cmd.files) {
    auto leaf = convert::summarize_tensor_file(f, cmd.options);
    if (!leaf) {
      rc = print_error(leaf.error());
      continue;
    }
    if (cmd.format == "text") fmt::print("{}\n", text_line(*leaf));
    else all.push_back(std::move(*leaf));
  }
  if (cmd.format == "json") {
    auto text = pyjson::to_python_json(all);
    if (!text) return print_error(text.error());
    fmt::print("{}\n", *text);
  }
  return rc;
}

}  // namespace

void add_stats_command(CLI::App& app, int& exit_code) {
  auto cmd = std::make_shared<StatsCommand>();
  auto* sub = app.add_subcommand("stats", "Print the dump.json leaf msprobe would write for tensor files (.pt, .npy)");
  sub->add_option("files", cmd->files, "Tensor files")->required()->check(CLI::ExistingFile);
  add_framework_option(*sub, cmd->options.framework);
  add_profile_option(*sub, cmd->options.profile);
  add_summary_mode_option(*sub, cmd->options.summary_mode);
  add_precision_option(*sub, cmd->options.precision);
  sub->add_option("--threads", cmd->options.threads, "Threads for large tensors")->check(CLI::Range(1, 256));
  sub->add_option("--format", cmd->format, "Output format")->check(CLI::IsMember({"text", "json"}));
  sub->callback([cmd, &exit_code] { exit_code = run_stats(*cmd); });
}

}  // namespace msdump::cli

#include "cli_common.h"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <cstdio>
#include <string>
#include <vector>

namespace msdump::cli {

int print_error(const Error& error) {
  fmt::print(stderr, "msdump: error: {}\n", error.message);
  return error.code == ErrorCode::internal ? k_exit_internal : k_exit_usage;
}

namespace {

const char* k_profile_help = "Format profile: current (msprobe master) or legacy (released builds up to 8.x, ~May 2026)";
const char* k_summary_help = "Summary mode: statistics, md5 (CRC-32) or xor (PyTorch only)";

// Binds --name to an enum through its to_string/from_string table (core/profile.h), so the
// accepted words and the help text come from the same table.
template <typename E, typename Target>
void add_enum_option(CLI::App& sub, const std::string& name, Target& target, const std::string& help,
                     std::optional<E> (*parse)(std::string_view), std::initializer_list<E> values) {
  std::vector<std::string> words;
  for (E v : values) words.emplace_back(to_string(v));
  sub.add_option_function<std::string>(
         name, [&target, parse](const std::string& s) { target = *parse(s); }, help)
      ->check(CLI::IsMember(words));
}

}  // namespace

void add_framework_option(CLI::App& sub, Framework& target) {
  add_enum_option<Framework>(sub, "--framework", target, "Framework whose rules apply: pytorch, mindspore, mindtorch",
                             framework_from_string, {Framework::pytorch, Framework::mindspore, Framework::mindtorch});
}
void add_profile_option(CLI::App& sub, Profile& target) {
  add_enum_option<Profile>(sub, "--profile", target, k_profile_help, profile_from_string,
                           {Profile::current, Profile::legacy});
}
void add_profile_option(CLI::App& sub, std::optional<Profile>& target) {
  add_enum_option<Profile>(sub, "--profile", target, k_profile_help, profile_from_string,
                           {Profile::current, Profile::legacy});
}
void add_profile_auto_option(CLI::App& sub, std::optional<Profile>& target) {
  sub.add_option_function<std::string>(
         "--profile", [&target](const std::string& s) { target = profile_from_string(s); },
         "Format profile the dump is held to: auto (default: decided from the forms in the whole file; a file "
         "mixing two generations is a finding), current (msprobe master) or legacy (released builds up to 8.x)")
      ->check(CLI::IsMember({"auto", "current", "legacy"}));
}
void add_summary_mode_option(CLI::App& sub, SummaryMode& target) {
  add_enum_option<SummaryMode>(sub, "--summary-mode", target, k_summary_help, summary_mode_from_string,
                               {SummaryMode::statistics, SummaryMode::md5, SummaryMode::xor_checksum});
}
void add_summary_mode_option(CLI::App& sub, std::optional<SummaryMode>& target) {
  add_enum_option<SummaryMode>(sub, "--summary-mode", target, k_summary_help, summary_mode_from_string,
                               {SummaryMode::statistics, SummaryMode::md5, SummaryMode::xor_checksum});
}
void add_precision_option(CLI::App& sub, Precision& target) {
  add_enum_option<Precision>(sub, "--precision", target, "msprobe precision setting: low (default) or high",
                             precision_from_string, {Precision::low, Precision::high});
}
void add_level_option(CLI::App& sub, std::optional<Level>& target, const std::string& help) {
  add_enum_option<Level>(sub, "--level", target, help, level_from_string, {Level::L0, Level::L1, Level::mix});
}
void add_risk_level_option(CLI::App& sub, std::optional<RiskLevel>& target) {
  add_enum_option<RiskLevel>(sub, "--risk-level", target,
                             "msprobe risk_level for PyTorch API entries without --list/--scope: CORE, FOCUS "
                             "(low-risk APIs such as view or flatten dropped), ALL; default FOCUS for captures "
                             "recording every call (msdump_record), no filter for other inputs",
                             risk_level_from_string, {RiskLevel::core, RiskLevel::focus, RiskLevel::all});
}
void add_task_option(CLI::App& sub, std::optional<Task>& target, const std::string& help) {
  add_enum_option<Task>(sub, "--task", target, help, task_from_string, {Task::statistics, Task::tensor});
}

}  // namespace msdump::cli

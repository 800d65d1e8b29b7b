#pragma once
// Small helpers shared by the subcommand files: printing lib errors, mapping them to exit codes,
// and the option definitions several subcommands share (one help string each).

#include <optional>
#include <string>

#include "core/error.h"
#include "core/profile.h"
#include "exit_code.h"

namespace CLI { class App; }

namespace msdump::cli {

// Prints "msdump: error: <message>" to stderr and returns the exit code for the error's code.
int print_error(const Error& error);

// One row of the subcommand table in main.cpp.
struct Subcommand {
  const char* name;
  void (*add)(CLI::App& app, int& exit_code);
};

void add_framework_option(CLI::App& sub, Framework& target);
void add_profile_option(CLI::App& sub, Profile& target);
void add_profile_option(CLI::App& sub, std::optional<Profile>& target);
// --profile auto|current|legacy (verify): auto, the default, leaves `target` empty.
void add_profile_auto_option(CLI::App& sub, std::optional<Profile>& target);
void add_summary_mode_option(CLI::App& sub, SummaryMode& target);
void add_summary_mode_option(CLI::App& sub, std::optional<SummaryMode>& target);
void add_precision_option(CLI::App& sub, Precision& target);
void add_level_option(CLI::App& sub, std::optional<Level>& target, const std::string& help);
void add_task_option(CLI::App& sub, std::optional<Task>& target, const std::string& help);
void add_risk_level_option(CLI::App& sub, std::optional<RiskLevel>& target);

}  // namespace msdump::cli

// msdump: converts and verifies msprobe dumps. This file only wires the subcommand table,
// logging and the exit-code contract; all real work is in lib/.
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <spdlog/spdlog.h>

#include <array>
#include <exception>

#include "cli_common.h"
#include "commands.h"
#include "core/logger.h"
#include "stats/cpu_dispatch.h"

namespace {

using msdump::cli::Subcommand;
constexpr std::array k_subcommands = {
    Subcommand{"convert", msdump::cli::add_convert_command},
    Subcommand{"verify", msdump::cli::add_verify_command},
    Subcommand{"anomalies", msdump::cli::add_anomalies_command},
    Subcommand{"stats", msdump::cli::add_stats_command},
    Subcommand{"compare", msdump::cli::add_compare_command},
    Subcommand{"report", msdump::cli::add_report_command},
    Subcommand{"schema", msdump::cli::add_schema_command},
};

}  // namespace

int main(int argc, char** argv) {
  using namespace msdump::cli;
  CLI::App app{"msdump: convert and verify msprobe (MindStudio Probe) dumps", "msdump"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("msdump ") + MSDUMP_VERSION);
  app.footer(k_exit_code_help);
  int verbosity = 0;
  bool quiet = false;
  app.add_flag("-v,--verbose", verbosity, "More log output (repeat for debug)");
  app.add_flag("-q,--quiet", quiet, "Only errors on stderr");

  // Runs after the flags are parsed and before the subcommand's callback does the work.
  app.parse_complete_callback([&] {
    auto& log = msdump::logger();
    log.set_level(quiet ? spdlog::level::err
                        : verbosity >= 2 ? spdlog::level::debug
                        : verbosity == 1 ? spdlog::level::info
                                         : spdlog::level::warn);
    // MSDUMP_SIMD (cpu_dispatch.h): a bad value is a usage error, not a silent fallback
    if (const auto tier = msdump::stats::configured_simd_tier(); !tier) throw CLI::ValidationError(tier.error().message);
    log.debug("SIMD kernels: {} (this CPU: {})", msdump::stats::simd_tier_name(msdump::stats::simd_tier()),
              msdump::stats::simd_tier_name(msdump::stats::detected_simd_tier()));
  });

  int exit_code = k_exit_ok;
  for (const auto& sub : k_subcommands) sub.add(app, exit_code);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? k_exit_ok : k_exit_usage;
  } catch (const std::exception& e) {
    fmt::print(stderr, "msdump: internal error: {}\n", e.what());
    return k_exit_internal;
  }
  return exit_code;
}

#pragma once
// One add_*_command per subcommand file; main.cpp's table lists them.

namespace CLI { class App; }

namespace msdump::cli {
void add_stats_command(CLI::App& app, int& exit_code);
void add_convert_command(CLI::App& app, int& exit_code);
void add_verify_command(CLI::App& app, int& exit_code);
void add_anomalies_command(CLI::App& app, int& exit_code);
void add_report_command(CLI::App& app, int& exit_code);
void add_schema_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);
}  // namespace msdump::cli

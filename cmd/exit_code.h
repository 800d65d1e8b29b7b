#pragma once
// The exit-code contract shared by every subcommand (also in --help and the README).

namespace msdump::cli {

enum ExitCode : int {
  k_exit_ok = 0,        // clean: nothing to report
  k_exit_findings = 1,  // the input has problems: findings, mismatches, missing tensors
  k_exit_usage = 2,     // usage error, or unreadable / invalid input
  k_exit_internal = 3,  // internal error: msdump could not run
};

inline constexpr const char* k_exit_code_help =
    "Exit codes: 0 clean; 1 findings or mismatches; 2 usage error or unreadable/invalid input; "
    "3 internal error.";

}  // namespace msdump::cli

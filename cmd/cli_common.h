#pragma once
// Small helpers shared by the subcommand files: printing lib errors and mapping them to exit codes.

#include "core/error.h"
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

}  // namespace msdump::cli

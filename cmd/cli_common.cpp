#include "cli_common.h"

#include <fmt/core.h>

#include <cstdio>

namespace msdump::cli {

int print_error(const Error& error) {
  fmt::print(stderr, "msdump: error: {}\n", error.message);
  return error.code == ErrorCode::internal ? k_exit_internal : k_exit_usage;
}

}  // namespace msdump::cli

// msdump schema [NAME]: print an embedded JSON Schema (or list their names).
#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include <memory>

#include "cli_common.h"
#include "commands.h"
#include "schema/embedded_schemas.h"

namespace msdump::cli {

void add_schema_command(CLI::App& app, int& exit_code) {
  auto name = std::make_shared<std::string>();
  auto* sub = app.add_subcommand("schema", "Print an embedded JSON Schema (without NAME: list them)");
  sub->add_option("name", *name, "Schema name, e.g. dump-pytorch-current, stack, construct, trace");
  sub->callback([name, &exit_code] {
    if (name->empty()) {
      for (const auto& s : schema::embedded_schemas()) fmt::print("{}\n", s.name);
      exit_code = k_exit_ok;
      return;
    }
    const auto text = schema::embedded_schema(*name);
    if (!text) {
      exit_code = print_error(invalid_input(fmt::format("no schema named '{}' (see 'msdump schema')", *name)));
      return;
    }
    fmt::print("{}", *text);
    exit_code = k_exit_ok;
  });
}

}  // namespace msdump::cli

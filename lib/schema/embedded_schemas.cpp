#include "schema/embedded_schemas.h"

#include <algorithm>

namespace msdump::schema {
namespace {

// Rows {"<name>", R"msdump_schema(<text>)msdump_schema"}, sorted by file name, generated into
// <build>/generated/ (on the include path of msdump_lib).
constexpr EmbeddedSchema k_schemas[] = {
#include "embedded_schemas.inc"
};

}  // namespace

std::span<const EmbeddedSchema> embedded_schemas() { return k_schemas; }

std::optional<std::string_view> embedded_schema(std::string_view name) {
  const auto it = std::find_if(std::begin(k_schemas), std::end(k_schemas),
                               [&](const EmbeddedSchema& s) { return s.name == name; });
  if (it == std::end(k_schemas)) return std::nullopt;
  return it->text;
}

}  // namespace msdump::schema

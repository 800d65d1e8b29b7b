#pragma once
// The JSON Schemas of schemas/*.schema.json, compiled into the binary (cmake/EmbedSchemas.cmake),
// so msdump validates without any file beside it. A schema's name is its file name without
// ".schema.json": "dump-pytorch-current", "stack", "trace", ...

#include <optional>
#include <span>
#include <string_view>

namespace msdump::schema {

struct EmbeddedSchema {
  std::string_view name;  // "dump-pytorch-current"
  std::string_view text;  // the JSON document, byte for byte as in schemas/
};

// All embedded schemas, sorted by name.
std::span<const EmbeddedSchema> embedded_schemas();

// The text of the schema called `name`, or nullopt if there is none.
std::optional<std::string_view> embedded_schema(std::string_view name);

}  // namespace msdump::schema

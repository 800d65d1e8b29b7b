#pragma once
// Which embedded schema validates a dump.json of a given framework and format profile
// (docs/format.md §0, docs/format.md §16): only PyTorch has two profiles (legacy forward entries may carry
// "is_recompute"); MindSpore and mindtorch dumps have one shape whatever the profile.

#include <string_view>

#include "core/profile.h"

namespace msdump::schema {

// "dump-pytorch-current", "dump-pytorch-legacy", "dump-mindspore" or "dump-mindtorch".
std::string_view schema_name_for(Framework framework, Profile profile);

// Sub-schema pointers of every dump schema, for streaming validation (schemas/README.md):
// the top level without the entries, and one entry as a one-member object {name: entry}.
inline constexpr std::string_view k_header_pointer = "/definitions/header";
inline constexpr std::string_view k_entry_pointer = "/definitions/entry";

}  // namespace msdump::schema

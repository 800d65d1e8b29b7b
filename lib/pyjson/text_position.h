#pragma once
// TextPosition: a 1-based line and column in JSON text, as Python's json errors count them
// (lineno = newlines before the offset + 1; colno = code points since the last newline + 1).
// Values carry byte offsets (json_value.h); locate() turns an offset into a position when a
// message needs one.

#include <cstdint>
#include <string>
#include <string_view>

namespace msdump::pyjson {

struct TextPosition {
  std::uint64_t line = 1;
  std::uint64_t column = 1;
  bool operator==(const TextPosition&) const = default;
};

// Position of byte `offset` of `text`, given that text[0] is at position `start` (a slice of a
// bigger file starts at the slice's position). An offset past the end is clamped to the end.
// Continuation bytes of multi-byte UTF-8 characters do not advance the column.
TextPosition locate(std::string_view text, std::uint64_t offset, TextPosition start = {});

// "line L, column C" — the prefix of every pyjson parse error.
std::string to_string(TextPosition position);

}  // namespace msdump::pyjson

#pragma once
// Parsing a whole JSON document from bytes, as Python's json.loads would (json_cursor.h lists
// the accepted syntax and the few, deliberate differences).

#include <span>
#include <string_view>

#include "core/result.h"
#include "pyjson/json_cursor.h"
#include "pyjson/json_value.h"

namespace msdump::pyjson {

// Parses `text` (one JSON document, optionally surrounded by whitespace) into a Value whose
// offsets are byte offsets into `text`. Fails (ErrorCode::invalid_input) with
// "line L, column C: <what>", e.g.
//   "line 3, column 9: expected ',' or '}' after an object member, found 'x'"
//   "line 1, column 1: unexpected end of input, expected a value"      (empty input)
//   "line 2, column 2: unexpected data after the JSON document"
//   "line 1, column 1: unexpected UTF-8 byte order mark"
// The caller prefixes the file name (error.with_context("reading 'dump.json'")).
Result<Value> parse_json(std::string_view text, const ReadOptions& options = {});
Result<Value> parse_json(std::span<const std::byte> bytes, const ReadOptions& options = {});

}  // namespace msdump::pyjson

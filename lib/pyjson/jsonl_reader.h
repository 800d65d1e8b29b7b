#pragma once
// JsonlReader: reads JSON Lines (one JSON value per line, e.g. a capture's trace.jsonl) from a
// ByteSource in bounded memory, one line at a time. Lines are split at '\n' (a '\r' before it
// is whitespace); lines holding only whitespace are skipped.
//
// A writer killed mid-line leaves a last line without its '\n' that does not parse. That case
// is not an error: next() returns false and incomplete_last_line() describes it, so the caller
// can warn and keep the records before it. Any other bad line fails next() with
// "line N, column C: <what>" (line numbers count from the start of the input).

#include <cstddef>
#include <cstdint>
#include <optional>

#include "core/byte_source.h"
#include "core/result.h"
#include "pyjson/json_cursor.h"
#include "pyjson/json_value.h"
#include "pyjson/source_window.h"

namespace msdump::pyjson {

struct JsonlRecord {
  std::uint64_t line = 0;    // 1-based line number
  std::uint64_t offset = 0;  // byte offset of the line's first byte
  Value value;               // offsets inside are absolute too
};

struct JsonlOptions {
  // Initial read buffer; grows when one line does not fit.
  std::size_t buffer_bytes = std::size_t{1} << 20;
  ReadOptions read;
};

class JsonlReader {
 public:
  explicit JsonlReader(const ByteSource& source, JsonlOptions options = {});

  // Reads the next non-blank line into `record`. Returns true for a record, false at the end
  // of the input (including an incomplete last line). Fails for a line that is not one valid
  // JSON value, or on a read error; after a failure next() keeps failing.
  Result<bool> next(JsonlRecord& record);

  // After next() returned false: the parse error of an unterminated, unparsable last line
  // ("line 12, column 40: unexpected end of input in a string"), or nullopt.
  const std::optional<Error>& incomplete_last_line() const { return m_incomplete; }

 private:
  SourceWindow m_window;
  JsonCursor m_cursor;
  std::size_t m_pos = 0;     // window index of the next line
  std::uint64_t m_line = 1;  // its line number
  bool m_started = false;
  bool m_done = false;
  std::optional<Error> m_error;
  std::optional<Error> m_incomplete;
};

}  // namespace msdump::pyjson

#pragma once
// PlainReader: reads JSON text that is already known to be valid and plain (strings of
// printable ASCII without escapes, as trace::scan_data_line accepts them) into a Value that is
// reused from one call to the next: containers, members and strings keep their storage, so
// reading many small objects of the same shape (convert's tensor leaves) allocates next to
// nothing. The Value is the one parse_json gives (kinds, numbers, member order, duplicate
// keys) but for the offsets, which are all 0. Text that is not valid and plain must not be given.

#include <optional>
#include <string_view>

#include "core/result.h"
#include "pyjson/json_cursor.h"
#include "pyjson/json_value.h"

namespace msdump::pyjson {

// Reads the number token `token` (valid JSON number text, not NaN or Infinity) into `into`,
// exactly as parse_json reads it (integers of up to 18 digits here, everything else through
// `cursor`); offset 0. False only if the cursor rejects the token (error in cursor.error()).
bool read_number_token(std::string_view token, JsonCursor& cursor, Value& into);

class PlainReader {
 public:
  // Reads `text` into the reader's Value and returns it (valid until the next call).
  Result<const Value*> read(std::string_view text);

 private:
  const char* value(const char* p, Value& into);
  const char* number(const char* p, Value& into);

  const char* m_end = nullptr;
  Value m_value;
  JsonCursor m_cursor;  // floats and big integers
  std::optional<Error> m_error;
};

}  // namespace msdump::pyjson

#include "pyjson/json_reader.h"

namespace msdump::pyjson {

Result<Value> parse_json(std::string_view text, const ReadOptions& options) {
  if (text.starts_with("\xEF\xBB\xBF")) return invalid_input("line 1, column 1: unexpected UTF-8 byte order mark");
  JsonCursor cursor(options);
  cursor.reset(text);
  Value v;
  if (!cursor.parse_value(v)) return cursor.error();
  if (cursor.peek() >= 0) {
    cursor.fail_here("unexpected data after the JSON document");
    return cursor.error();
  }
  return v;
}

Result<Value> parse_json(std::span<const std::byte> bytes, const ReadOptions& options) {
  return parse_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), options);
}

}  // namespace msdump::pyjson

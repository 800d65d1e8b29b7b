#pragma once
// Reads a ByteSource line by line through a reused buffer (bounded memory, any file size).
// Lines end at '\n' (a preceding '\r' is kept: JSON treats it as whitespace).

#include <cstdint>
#include <functional>
#include <string_view>

#include "core/result.h"

namespace msdump { class ByteSource; }

namespace msdump::trace {

struct Line {
  std::uint64_t number = 0;  // 1-based
  std::uint64_t offset = 0;  // byte offset of the line's first character
  std::string_view text;     // without the '\n'; valid only during the callback
  bool terminated = true;    // false for a last line without '\n'
};

// Calls `visit` for every line, in order; stops early and returns the error if `visit` fails.
// A line longer than `max_line_bytes` is an error naming its line number.
Result<void> for_each_line(const ByteSource& source, const std::function<Result<void>(const Line&)>& visit,
                           std::size_t max_line_bytes = std::size_t{1} << 30);

// Reads the `length` bytes of one line at `offset` (as recorded by for_each_line) into `out`.
Result<void> read_line_at(const ByteSource& source, std::uint64_t offset, std::uint32_t length, std::string& out);

}  // namespace msdump::trace

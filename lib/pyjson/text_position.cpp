#include "pyjson/text_position.h"

#include <algorithm>
#include <cstring>

namespace msdump::pyjson {

namespace {

std::uint64_t count_code_points(const char* begin, const char* end) {
  std::uint64_t n = 0;
  for (const char* p = begin; p != end; ++p) n += (static_cast<unsigned char>(*p) & 0xC0) != 0x80;
  return n;
}

}  // namespace

TextPosition locate(std::string_view text, std::uint64_t offset, TextPosition start) {
  const char* const begin = text.data();
  const char* const end = begin + std::min<std::uint64_t>(offset, text.size());
  TextPosition pos = start;
  const char* line_begin = begin;
  for (const char* p = begin; p != end;) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (nl == nullptr) break;
    ++pos.line;
    p = static_cast<const char*>(nl) + 1;
    line_begin = p;
  }
  if (line_begin == begin) {
    pos.column = start.column + count_code_points(begin, end);
  } else {
    pos.column = 1 + count_code_points(line_begin, end);
  }
  return pos;
}

std::string to_string(TextPosition position) {
  return "line " + std::to_string(position.line) + ", column " + std::to_string(position.column);
}

}  // namespace msdump::pyjson

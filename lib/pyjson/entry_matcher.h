#pragma once
// EntryMatcher: what lets DumpJsonStream pass over an entry without a bracket pass
// (DumpStreamOptions::matcher).

#include <string_view>

#include "pyjson/container_skip.h"  // (Newlines)

namespace msdump::pyjson {

// Recognises an entry's value by its text, so that the stream need not find its end by its
// brackets: compare's pass 1 knows the shapes of most entries (compare/row_shapes.h).
class EntryMatcher {
 public:
  virtual ~EntryMatcher() = default;
  // Entry `key`'s value starts at `p`, and the text read so far ends at `end`: the end of the
  // value when this recognises [p, end of the value) as valid JSON (then `newlines` are the '\n'
  // bytes in it), else nullptr (the stream passes it by its brackets). Must not read past `end`.
  virtual const char* match(std::string_view key, const char* p, const char* end, Newlines& newlines) = 0;
};

}  // namespace msdump::pyjson

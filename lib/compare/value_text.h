#pragma once
// A JSON value as its text inside valid plain text (pyjson/plain_text_walk.h), and what
// compare's rows make of it without parsing it into a tree: its kind as parse_json would give
// it, its statistic cell type (unmatched_stats.h), Python's str() of it, and its statistic or
// value cell as flatten_entry makes them (dump_rows.h). Used by compare/entry_text_rows.h.
//
// The conversions return false for what they leave to the tree (the caller then reads the
// entry with parse_json and flatten_entry): a dict's str(), an integer statistic of more than
// 18 digits, a number out of a double's range.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "compare/cell.h"
#include "pyjson/json_value.h"

namespace msdump::compare {

struct ValueText {
  const char* begin = nullptr;  // nullptr: no such value (a member that is not there)
  const char* end = nullptr;
  bool present() const { return begin != nullptr; }
  char first() const { return *begin; }
  bool is_string() const { return present() && *begin == '"'; }
  bool is_null() const { return present() && *begin == 'n'; }
  // A string's contents (plain text: the same as decoded).
  std::string_view string() const { return {begin + 1, static_cast<std::size_t>(end - begin - 2)}; }
};

// The kind parse_json gives the value (NaN and the infinities are floats; integers of any
// length are integers).
pyjson::Kind value_kind(ValueText v);

// The type of the value's statistic cell, packed as unmatched_stats.h has it: ints and floats
// keep their type; NaN, null, a missing value, a bool, a string or a container are texts.
std::uint8_t stat_kind_of(ValueText v);

// Python's str() of the value into `out` (`end`: the end of the text the value is in).
bool python_str_of(ValueText v, const char* end, std::string& out);

// flatten's statistic cell (a float keeps its str()) and value cell (a bool stays a bool).
bool stat_cell_of(ValueText v, const char* end, Cell& out);
bool value_cell_of(ValueText v, const char* end, Cell& out);

// The number of items of an array.
std::size_t item_count(ValueText array, const char* end);

}  // namespace msdump::compare

#pragma once
// A light scan of one trace.jsonl line for the convert index pass: it checks the line's JSON
// syntax without building values and returns the event's kind, name and top-level keys, as
// string_views into the line. It handles only the plain, common form (printable ASCII strings
// without escapes, nesting depth <= 64, "kind" and "name" present once each as strings). For
// anything else it returns nullopt, and the caller parses the line fully (pyjson::parse_json +
// parse_trace_event), which gives the exact error message or the exact semantics. Whatever the
// scan accepts, parse_json accepts too.

#include <optional>
#include <string_view>
#include <vector>

namespace msdump::trace {

struct ScannedEvent {
  std::string_view kind;               // the "kind" string
  std::string_view name;               // the "name" string (may be empty: the caller checks)
  std::vector<std::string_view> keys;  // every other top-level key, in order (duplicates kept)
};

// Scans `line` into `out` (its keys vector is reused). False: take the full parse.
bool scan_event_line(std::string_view line, ScannedEvent& out);

// The same scan for convert's pass 2, which also needs each section's text.
struct ScannedSection {
  std::string_view key;
  std::string_view value;  // the member's value, from its first to its last character
};
struct ScannedData {
  std::string_view kind;
  std::string_view name;
  std::vector<ScannedSection> sections;  // every other top-level member, in order (duplicates kept)
};

// Scans `line` into `out` (its sections vector is reused), accepting exactly the lines that
// scan_event_line accepts. False: take the full parse.
bool scan_data_line(std::string_view line, ScannedData& out);

// The same result as scan_data_line for a line that scan_event_line has accepted before (the
// caller knows the bytes are unchanged: trace/line_hash.h), without validating the values
// again: members are delimited by their strings and brackets only. On any other bytes it stays
// inside `line` and returns false or some split of it; it never accepts a line without a
// string "kind" and a string "name", each given once.
bool split_data_line(std::string_view line, ScannedData& out);

}  // namespace msdump::trace
